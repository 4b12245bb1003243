#pragma once
/// Aabb: an axis-aligned box [min, max]. The empty box has min = +inf and max = -inf so that
/// growing it by any point or box gives that point or box.

#include "hitscan/math/vec3.hpp"

namespace hitscan {

template <Real T>
struct Aabb {
  Vec3<T> min{kInfinity<T>, kInfinity<T>, kInfinity<T>};
  Vec3<T> max{-kInfinity<T>, -kInfinity<T>, -kInfinity<T>};

  static constexpr Aabb empty() { return {}; }
  static constexpr Aabb from_point(Vec3<T> p) { return {p, p}; }
  static constexpr Aabb from_center_half_extents(Vec3<T> c, Vec3<T> h) { return {c - h, c + h}; }

  /// True when min <= max on every axis (a point box counts as valid, the empty box does not).
  constexpr bool is_valid() const { return min.x <= max.x && min.y <= max.y && min.z <= max.z; }

  constexpr Vec3<T> center() const { return (min + max) * T(0.5); }
  constexpr Vec3<T> extent() const { return max - min; }
  constexpr Vec3<T> half_extents() const { return (max - min) * T(0.5); }

  /// Surface area; 0 for an invalid box. Used by the surface area heuristic.
  constexpr T surface_area() const {
    if (!is_valid()) return T(0);
    const Vec3<T> e = extent();
    return T(2) * (e.x * e.y + e.y * e.z + e.z * e.x);
  }

  constexpr void grow(Vec3<T> p) { min = hitscan::min(min, p); max = hitscan::max(max, p); }
  constexpr void grow(const Aabb& b) { min = hitscan::min(min, b.min); max = hitscan::max(max, b.max); }

  constexpr bool contains(Vec3<T> p) const {
    return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y && p.z >= min.z && p.z <= max.z;
  }
  constexpr bool overlaps(const Aabb& b) const {
    return min.x <= b.max.x && b.min.x <= max.x && min.y <= b.max.y && b.min.y <= max.y &&
           min.z <= b.max.z && b.min.z <= max.z;
  }
};

template <Real T>
constexpr Aabb<T> merge(const Aabb<T>& a, const Aabb<T>& b) { return {min(a.min, b.min), max(a.max, b.max)}; }

using Aabbf = Aabb<float>;
using Aabbd = Aabb<double>;

}  // namespace hitscan
