#pragma once
// The distance between two convex solids given by their support functions, by the
// Gilbert-Johnson-Keerthi algorithm (Gilbert, Johnson, Keerthi 1988; the simplex solver of
// Ericson, Real-Time Collision Detection, 2005, 9.5 and 5.1, and van den Bergen's termination
// test, "A Fast and Robust GJK Implementation for Collision Detection of Convex Objects", 1999).
// Private to the library: the scene's overlap queries use it for the pairs that have no
// analytic kernel (box and capsule against cylinder), the sweeps (geometry/sweep.hpp) for their
// conservative advancement. Computed in double, so that the distance of
// float shapes is exact to far below float's own rounding. The direction between the closest
// points converges more slowly where the distance is flat (a face against a cylinder's rim): there
// it is good to about the square root of the distance's precision relative to the shapes' size.

#include <span>

#include "hitscan/geometry/convex_hull.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

// A convex solid the GJK walk can query: an oriented box, a capped cylinder, a segment (the
// core of a capsule, a point when a == b; the radius is added by the caller), a triangle, or
// the convex hull of a vertex list (a polygon's or a ConvexHull's), moved by `translation`
// (the conservative advancement of geometry/sweep.hpp moves a shape without rebuilding it).
struct ConvexSupport {
  enum class Kind { box, cylinder, segment, triangle, polygon };
  Kind kind = Kind::segment;
  Vec3<double> center{};     // box
  Vec3<double> axes[3]{};    // box: columns of the rotation scaled by the half extents
  Vec3<double> a{}, b{};     // cylinder, segment, triangle
  Vec3<double> c{};          // triangle
  double radius = 0;         // cylinder
  Vec3<double> translation{};  // added to every point
  // polygon: a view of the polygon's own vertices (one of the two, by precision), which must
  // outlive this support.
  std::span<const Vec3f> vertices_float{};
  std::span<const Vec3d> vertices_double{};

  template <Real T>
  static ConvexSupport from(const Obb<T>& box);
  template <Real T>
  static ConvexSupport from(const Cylinder<T>& cylinder);
  template <Real T>
  static ConvexSupport from(const Segment<T>& segment);
  template <Real T>
  static ConvexSupport from(const Triangle<T>& triangle);
  template <Real T>
  static ConvexSupport from(const ConvexPolygon<T>& polygon);
  template <Real T>
  static ConvexSupport from(const ConvexHull<T>& hull);

  // The point of the solid furthest along d (any point of it for d = 0).
  Vec3<double> support(Vec3<double> d) const;
  // A point inside the solid, to start the walk from.
  Vec3<double> inner_point() const;

 private:
  Vec3<double> support_at_rest(Vec3<double> d) const;
  Vec3<double> inner_point_at_rest() const;
};

struct GjkDistance {
  // 0 when the solids meet (to within the solver's precision, a few ulps of double at their size).
  double distance = 0;
  // Closest points of A and B (equal, somewhere in the intersection, when the distance is 0).
  Vec3<double> point_on_a{}, point_on_b{};
  // The final simplex of the walk: points of A and B whose differences span it. When the distance
  // is 0 it holds the origin (on it or, for four points, inside it), where EPA starts.
  int simplex_size = 0;
  Vec3<double> simplex_on_a[4]{}, simplex_on_b[4]{};
};

GjkDistance gjk_distance(const ConvexSupport& a, const ConvexSupport& b);

template <Real T>
class ConvexShape;

// A shape of geometry/gjk_epa.hpp as the walk sees it: its core's support, the radius that grows
// the core into the shape (a sphere's, a capsule's, else 0) and its characteristic size; valid is
// false for a NaN or infinite coordinate, a negative or NaN radius or half extent, or a cylinder
// with a == b. Defined in gjk_epa.cpp.
struct ConvexCore {
  ConvexSupport support;
  double radius = 0;
  double size = 0;
  bool valid = false;
};
template <Real T>
ConvexCore convex_core(const ConvexShape<T>& shape);

}  // namespace hitscan
