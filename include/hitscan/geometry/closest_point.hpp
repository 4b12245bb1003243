#pragma once
/// Closest point on a shape to a query point, and the closest pair of points of two segments.
///
/// Solids (Aabb, Obb, Sphere, Capsule) are solid: a query point inside, or on the surface, is its
/// own closest point, reported with `inside` set. Segments and triangles have no inside.
///
/// Non-finite input. Nothing traps and nothing is undefined, whatever the input. Parameters
/// (t, s, u, v) always lie in [0, 1] with u + v <= 1 up to a rounding, feature indices in 0..2,
/// and `inside` is true only for a point that compares inside the solid, which a NaN never does.
/// With a NaN or infinite coordinate in the query or the shape, the returned point may contain
/// NaN; callers with untrusted input test is_finite first. Finite input whose coordinate
/// differences stay finite gives a finite point. It is the nearest point of the shape while
/// squared sizes (for triangles, their squares) stay within T's range: sizes of about 1e-9 to 1e9
/// in float, 1e-75 to 1e75 in double; beyond that it may be neither. Squared distances may
/// overflow to +inf.

#include <cstdint>

#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {


/// A point of a segment with its parameter: point = a + t (b - a), t in [0, 1].
template <Real T>
struct SegmentClosestPoint {
  Vec3<T> point{};
  T t = 0;
};

/// A point of a triangle: point = (1 - u - v) v0 + u v1 + v v2, and the feature it lies on.
/// index is the vertex (0..2) or the edge (0..2, edge i runs from vi to v(i+1)%3); 0 for the face.
/// On a vertex or an edge the barycentrics are exact: vertex 1 is (1, 0), edge 2 has u = 0.
template <Real T>
struct TriangleClosestPoint {
  Vec3<T> point{};
  T u = 0, v = 0;
  Feature feature = Feature::face;
  std::uint8_t index = 0;
};

/// A point of a solid shape; inside is true when the query point is in the closed solid, and
/// then point is the query point itself, bit for bit.
template <Real T>
struct SolidClosestPoint {
  Vec3<T> point{};
  bool inside = false;
};

/// The closest pair of two segments: on_first = first.a + s (first.b - first.a), on_second
/// likewise with t, both in [0, 1], and distance_squared = |on_first - on_second|².
template <Real T>
struct SegmentPairClosestPoints {
  T s = 0, t = 0;
  Vec3<T> on_first{}, on_second{};
  T distance_squared = 0;
};

/// Closest point of the segment to p: the projection of p on the segment's line, clamped to the
/// segment. Returns exactly a or b when the projection falls outside. A degenerate segment
/// (a == b) gives a.
template <Real T>
Vec3<T> closest_point_on_segment(const Segment<T>& segment, Vec3<T> p);

/// closest_point_on_segment with the parameter t of the point; a degenerate segment gives a, t = 0.
template <Real T>
SegmentClosestPoint<T> closest_point_on_segment_with_parameter(const Segment<T>& segment, Vec3<T> p);

/// Closest point of the triangle to p, found by testing which Voronoi region of the vertices,
/// edges or face holds p (Ericson, Real-Time Collision Detection, 2005, 5.1.5). In the face region
/// the point is p projected along the normal, with barycentrics from sub-triangle areas, which
/// stays accurate for thin triangles where Ericson's division by (va + vb + vc) does not.
/// A thin triangle's plane is only known to about epsilon / sin(angle at v0), which bounds the
/// error relative to the triangle's size. Degenerate triangles (collinear or coincident
/// vertices) and those too thin for T to carry a plane (sin² of the angle at v0 below epsilon)
/// are taken as the union of their three edges: the answer is the nearest point of that union,
/// never NaN, off by at most the triangle's width (so at worst sqrt(epsilon) times its size).
template <Real T>
TriangleClosestPoint<T> closest_point_on_triangle(const Triangle<T>& triangle, Vec3<T> p);

/// Closest point of the solid box to p: p clamped to [min, max] on each axis. A box with
/// min > max on an axis (an invalid box, e.g. Aabb::empty()) gives max on that axis and
/// inside = false.
template <Real T>
SolidClosestPoint<T> closest_point_on_aabb(const Aabb<T>& box, Vec3<T> p);

/// Closest point of the solid oriented box to p: p taken into the box's frame with the rotation's
/// transpose (the columns are expected orthonormal, no inverse is formed), clamped to the half
/// extents there, and taken back. Half extents are expected >= 0; a negative one gives a finite
/// point on the plane local coordinate = half extent and inside = false.
template <Real T>
SolidClosestPoint<T> closest_point_on_obb(const Obb<T>& box, Vec3<T> p);

/// Closest point of the solid sphere to p: p itself inside, else the surface point towards p.
/// A radius <= 0 or NaN makes the sphere its centre (a point at the centre counts as inside).
template <Real T>
SolidClosestPoint<T> closest_point_on_sphere(const Sphere<T>& sphere, Vec3<T> p);

/// Closest point of the solid capsule to p: the sphere rule around the closest point of the axis
/// segment. a == b is a sphere; a radius <= 0 or NaN makes the capsule its axis segment.
template <Real T>
SolidClosestPoint<T> closest_point_on_capsule(const Capsule<T>& capsule, Vec3<T> p);

/// Closest points of two segments (Ericson 5.1.9): the lines' mutual closest point on the first
/// clamped to it, projected onto the second, and projected back when that projection clamps.
/// Parallel segments give one of the equally close pairs; a degenerate segment is its point, two
/// degenerate segments give s = t = 0. The lines' solution is taken from cross products rather
/// than from Ericson's a e - b², whose cancellation loses nearly parallel segments' accuracy.
template <Real T>
SegmentPairClosestPoints<T> closest_points_between_segments(const Segment<T>& first, const Segment<T>& second);

}  // namespace hitscan
