#include <cmath>
#include <string>

#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

template <Real T>
Result<ConvexPolygon<T>> ConvexPolygon<T>::make(std::span<const Vec3<T>> vertices) {
  const std::size_t n = vertices.size();
  if (n < 3) {
    return Status{StatusCode::invalid_argument,
                  "convex polygon needs at least 3 vertices, got " + std::to_string(n)};
  }
  Aabb<T> bounds;
  for (std::size_t i = 0; i < n; ++i) {
    if (!in_working_range(vertices[i])) {
      return Status{StatusCode::invalid_argument,
                    "convex polygon vertex " + std::to_string(i) +
                        (is_finite(vertices[i]) ? std::string(" ") + kBeyondWorkingRange : std::string(" is not finite"))};
    }
    bounds.grow(vertices[i]);
  }
  const T size = length(bounds.extent());
  // Tolerances relative to the polygon's size, a few hundred ulps of its coordinates.
  const T tolerance = T(256) * kEpsilon<T> * max(size, max_component(abs(bounds.max)) + max_component(abs(bounds.min)));

  // Newell's method: the area-weighted normal, robust for any planar polygon. Taken about the
  // centre of the bounds, so that a small polygon far from the origin keeps its digits, and in
  // units of the polygon's size, so that the squared area neither overflows for a polygon wider
  // than 1e19^(1/2) nor underflows for a tiny one.
  const Vec3<T> centre = bounds.center();
  const T unit = size > T(0) ? T(1) / size : T(0);
  Vec3<T> area_normal{};
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3<T>& p = vertices[i];
    const Vec3<T>& q = vertices[(i + 1) % n];
    if (distance(p, q) <= tolerance) {
      return Status{StatusCode::degenerate, "convex polygon vertices " + std::to_string(i) + " and " +
                                                std::to_string((i + 1) % n) + " coincide"};
    }
    area_normal += cross((p - centre) * unit, (q - centre) * unit);
  }
  const T twice_area = length(area_normal);  // in units of size²
  if (!(twice_area > tolerance * unit)) {
    return Status{StatusCode::degenerate, "convex polygon has zero area (its vertices are collinear)"};
  }
  ConvexPolygon<T> polygon;
  polygon.normal_ = area_normal * (T(1) / twice_area);
  T offset = 0;
  for (const Vec3<T>& p : vertices) offset += dot(polygon.normal_, p);
  polygon.offset_ = offset / static_cast<T>(n);

  for (std::size_t i = 0; i < n; ++i) {
    if (std::abs(dot(polygon.normal_, vertices[i]) - polygon.offset_) > T(16) * tolerance) {
      return Status{StatusCode::invalid_argument,
                    "convex polygon vertex " + std::to_string(i) + " is off the polygon's plane"};
    }
  }
  // Convex and wound once: every turn is to the left (collinear runs allowed) and the turning
  // angles add up to one full turn (a pentagram turns left everywhere but winds twice).
  T total_turn = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3<T> e0 = vertices[(i + 1) % n] - vertices[i];
    const Vec3<T> e1 = vertices[(i + 2) % n] - vertices[(i + 1) % n];
    const T sine = dot(cross(e0, e1), polygon.normal_);
    if (sine < -tolerance * size) {
      return Status{StatusCode::invalid_argument, "convex polygon is not convex at vertex " +
                                                      std::to_string((i + 1) % n) + " (or is not wound in order)"};
    }
    total_turn += std::atan2(sine, dot(e0, e1));
  }
  if (std::abs(total_turn - T(2) * kPi<T>) > T(1e-3)) {
    return Status{StatusCode::invalid_argument, "convex polygon winds around more than once"};
  }
  polygon.vertices_.assign(vertices.begin(), vertices.end());
  return polygon;
}

template class ConvexPolygon<float>;
template class ConvexPolygon<double>;

}  // namespace hitscan
