#pragma once
/// The analytic shapes: plain structs with public fields. Solids (Sphere, Aabb, Obb, Capsule,
/// Cylinder) have an inside; surfaces (Plane, Disc, Triangle, ConvexPolygon) have two faces.

#include <span>
#include <vector>

#include "hitscan/math/aabb.hpp"
#include "hitscan/math/mat3.hpp"
#include "hitscan/status.hpp"

namespace hitscan {

/// The segment from a to b (a point when a == b).
template <Real T>
struct Segment {
  Vec3<T> a{};
  Vec3<T> b{};
};

template <Real T>
struct Sphere {
  Vec3<T> center{};
  T radius = 1;
};

/// The plane dot(normal, x) = offset. normal is expected unit length; its side is the front.
template <Real T>
struct Plane {
  Vec3<T> normal{0, 0, 1};
  T offset = 0;

  static Plane from_point_normal(Vec3<T> point, Vec3<T> n) {
    const Vec3<T> u = normalize(n);
    return {u, dot(u, point)};
  }
};

/// Oriented box: the points center + rotation * p with |p.i| <= half_extents.i. rotation's
/// columns are the box's axes and are expected orthonormal (Mat3::orthonormalized repairs drift).
template <Real T>
struct Obb {
  Vec3<T> center{};
  Vec3<T> half_extents{1, 1, 1};
  Mat3<T> rotation{};

  static Obb from_quat(Vec3<T> center, Vec3<T> half_extents, const Quat<T>& q) {
    return {center, half_extents, Mat3<T>::from_quat(q)};
  }
};

/// The points within radius of the segment [a, b]. a == b makes it a sphere.
template <Real T>
struct Capsule {
  Vec3<T> a{0, 0, -1};
  Vec3<T> b{0, 0, 1};
  T radius = 1;
};

/// Capped cylinder: the points within radius of the axis segment [a, b] whose projection on the
/// axis falls within the segment. a == b makes it degenerate (a ray never hits it).
template <Real T>
struct Cylinder {
  Vec3<T> a{0, 0, -1};
  Vec3<T> b{0, 0, 1};
  T radius = 1;
};

/// A cylinder's unit axis from a to b, and in `length` the axis's length. A cylinder with a == b
/// has no axis of its own and takes +z, so that every kernel's normals stay finite.
template <Real T>
inline Vec3<T> cylinder_axis(const Cylinder<T>& c, T& length) {
  const Vec3<T> axis = c.b - c.a;
  length = std::sqrt(dot(axis, axis));
  return length > T(0) ? axis / length : Vec3<T>{0, 0, 1};
}

/// Triangle v0, v1, v2; counter-clockwise seen from the front, normal (v1 - v0) x (v2 - v0).
template <Real T>
struct Triangle {
  Vec3<T> v0{}, v1{}, v2{};
};

/// Flat disc of the given radius around center, facing along normal (expected unit length).
template <Real T>
struct Disc {
  Vec3<T> center{};
  Vec3<T> normal{0, 0, 1};
  T radius = 1;
};

/// A planar convex polygon of n >= 3 vertices in order (counter-clockwise seen from the front).
/// Built only through make(), which rejects degenerate input, so every ConvexPolygon is usable.
template <Real T>
class ConvexPolygon {
 public:
  /// Validates and builds. Fails with invalid_argument for fewer than 3 vertices or coordinates
  /// that are not finite or lie beyond the working range (kMaxCoordinate), degenerate for zero area, repeated consecutive vertices or collinear input,
  /// and invalid_argument for vertices off the plane (beyond a tolerance relative to the
  /// polygon's size) or for a polygon that is not convex or not consistently wound.
  static Result<ConvexPolygon> make(std::span<const Vec3<T>> vertices);

  std::span<const Vec3<T>> vertices() const { return vertices_; }
  /// Unit normal of the front face.
  Vec3<T> normal() const { return normal_; }
  /// dot(normal(), x) for every x in the polygon's plane.
  T offset() const { return offset_; }

 private:
  std::vector<Vec3<T>> vertices_;
  Vec3<T> normal_{};
  T offset_ = 0;
};

using Segmentf = Segment<float>;
using Spheref = Sphere<float>;
using Planef = Plane<float>;
using Obbf = Obb<float>;
using Capsulef = Capsule<float>;
using Cylinderf = Cylinder<float>;
using Trianglef = Triangle<float>;
using Discf = Disc<float>;
using ConvexPolygonf = ConvexPolygon<float>;

/// Whether a triangle whose edges from one corner are ab and ac is wide enough for T to carry a
/// plane: |ab × ac|² > epsilon(T) |ab|² |ac|², sin² of the corner's angle above T's epsilon. The
/// one rule of every triangle kernel (closest points, contacts, sweeps), so that their face
/// regions agree. Evaluated in double: those products are fourth powers of the triangle's size,
/// which overflow a float beyond about 4e9 and vanish below about 1e-9.
template <Real T>
inline bool carries_plane(Vec3<T> ab, Vec3<T> ac) {
  const Vec3<double> a = vec3_cast<double>(ab), b = vec3_cast<double>(ac);
  const Vec3<double> n = cross(a, b);
  return dot(n, n) > double(kEpsilon<T>) * dot(a, a) * dot(b, b);
}

}  // namespace hitscan
