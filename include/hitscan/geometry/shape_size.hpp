#pragma once
/// The characteristic size of each shape, as the tolerance policy of contact.hpp measures it (a
/// sphere's radius, a capsule's radius plus half its length, a box's largest half extent, ...),
/// and the bounding boxes of the shapes that move in queries (spheres, capsules, oriented boxes).

#include <cmath>

#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

template <Real T>
T size_of(const Sphere<T>& s) {
  return s.radius;
}
template <Real T>
T size_of(const Capsule<T>& c) {
  return c.radius + T(0.5) * length(c.b - c.a);
}
template <Real T>
T size_of(const Obb<T>& b) {
  return max_component(b.half_extents);
}
template <Real T>
T size_of(const Cylinder<T>& c) {
  return max(c.radius, T(0.5) * length(c.b - c.a));
}
/// Half the longest edge.
template <Real T>
T size_of(const Triangle<T>& t) {
  return T(0.5) * std::sqrt(max(distance_squared(t.v0, t.v1), max(distance_squared(t.v1, t.v2), distance_squared(t.v2, t.v0))));
}
/// Half the largest distance from the first vertex: within a factor 2 of half the diameter.
template <Real T>
T size_of(const ConvexPolygon<T>& p) {
  T d2 = 0;
  for (const Vec3<T>& v : p.vertices()) d2 = max(d2, distance_squared(v, p.vertices()[0]));
  return T(0.5) * std::sqrt(d2);
}

template <Real T>
Aabb<T> bounds_of(const Sphere<T>& s) {
  const Vec3<T> r{s.radius, s.radius, s.radius};
  return {s.center - r, s.center + r};
}
template <Real T>
Aabb<T> bounds_of(const Capsule<T>& c) {
  const Vec3<T> r{c.radius, c.radius, c.radius};
  return {min(c.a, c.b) - r, max(c.a, c.b) + r};
}
template <Real T>
Aabb<T> bounds_of(const Obb<T>& b) {
  Vec3<T> reach{};
  for (int k = 0; k < 3; ++k) reach += abs(b.rotation.col[k]) * b.half_extents[k];
  return {b.center - reach, b.center + reach};
}

}  // namespace hitscan
