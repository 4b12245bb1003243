#pragma once
/// The convex hull of a point cloud: a solid convex polyhedron, built once from points and then
/// queried (support point, containment, ray, bounds) and used as a collider by the convex queries
/// of gjk_epa.hpp.
///
/// Built by Quickhull (Barber, Dobkin, Huhdanpaa, "The Quickhull Algorithm for Convex Hulls",
/// ACM TOMS 1996) in double whatever T is, with a distance tolerance of a few dozen ulps of double
/// at the coordinates' magnitude: points within it of the hull's surface (interior, duplicate and
/// coplanar points) are dropped rather than made into vertices, so a face may bend inwards by at
/// most about that tolerance. Faces are triangles (a flat face of the cloud, a cube's side say, is split into
/// triangles); each is wound counter-clockwise seen from outside, so that
/// (v1 - v0) x (v2 - v0) points out of the solid.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/shapes.hpp"
#include "hitscan/math/transform.hpp"

namespace hitscan {

template <Real T>
class ConvexHull {
 public:
  /// Builds the hull. Fails with invalid_argument, saying which, for fewer than 4 points, a
  /// point that is not finite or lies beyond the working range (kMaxCoordinate), or a cloud with no volume: all points coincident, collinear or coplanar
  /// to within 16 ulps of T at the coordinates' magnitude (the rounding of points computed on a
  /// plane), i.e. fewer than 4 affinely independent points.
  static Result<ConvexHull> make(std::span<const Vec3<T>> points);

  /// The hull carried by an invertible affine transform, without a rebuild: an affine map keeps a
  /// convex polyhedron's faces its faces, so the vertices are transformed, the faces kept (their
  /// winding reversed under a mirroring transform, so that they stay counter-clockwise seen from
  /// outside) and each plane recomputed from its moved vertices in double, as make() computes it.
  /// Linear in the hull's size. A transform that is not invertible, or one that takes a vertex
  /// beyond T's range, gives a hull without volume or with non-finite values: check it first.
  ConvexHull transformed(const Transform<T>& transform) const;

  /// The hull's vertices, a subset of the input points (each kept once).
  std::span<const Vec3<T>> vertices() const { return vertices_; }
  /// Triangles, as indices into vertices(), counter-clockwise seen from outside.
  std::span<const std::array<std::uint32_t, 3>> faces() const { return faces_; }
  /// One plane per face, in the order of faces(): unit outward normal, dot(normal, x) = offset on
  /// the face, dot(normal, x) <= offset for every point of the hull (up to the build tolerance).
  std::span<const Plane<T>> planes() const { return planes_; }
  /// The smallest axis-aligned box around the vertices.
  Aabb<T> bounds() const { return bounds_; }
  /// The mean of the vertices, a point strictly inside the solid.
  Vec3<T> interior_point() const { return interior_; }

  /// A vertex furthest along direction (the first of equals; vertex 0 for a zero direction).
  Vec3<T> support(Vec3<T> direction) const;

  /// Whether p lies in the closed solid, allowing it to stick out of every face by up to
  /// tolerance (>= 0).
  bool contains(Vec3<T> p, T tolerance = 0) const;

 private:
  std::vector<Vec3<T>> vertices_;
  std::vector<std::array<std::uint32_t, 3>> faces_;
  std::vector<Plane<T>> planes_;
  Aabb<T> bounds_{};
  Vec3<T> interior_{};
};

/// The hull's characteristic size for the tolerance policy of contact.hpp: its bounds' largest
/// half extent (a box hull has the box's size).
template <Real T>
T size_of(const ConvexHull<T>& hull) {
  return max_component(hull.bounds().half_extents());
}

/// First point of the solid hull within [tmin, tmax], by clipping the ray against every face
/// plane (Cyrus and Beck 1978; Haines, "Fast Ray-Convex Polyhedron Intersection", Graphics Gems II):
/// the latest entry over the planes the ray goes against, the earliest exit over those it goes
/// along, and a ray parallel to a plane is outside it for good or not at all. The normal is the
/// plane of the latest entry (faces sharing a flat side share it exactly only up to rounding).
/// Conventions of ray.hpp for solids: starting inside hits at tmin with kHitStartedInside,
/// normal -unit(dir), t_exit set. An invalid ray is a miss.
template <Real T>
RayHit<T> ray_vs_hull(const ConvexHull<T>& hull, const Ray<T>& ray);

using ConvexHullf = ConvexHull<float>;
using ConvexHulld = ConvexHull<double>;

}  // namespace hitscan
