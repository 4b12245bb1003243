#pragma once
// Small rules shared by the round, triangle and capsule-box contact kernels (private to src/).

#include <cmath>

#include "hitscan/geometry/shapes.hpp"

namespace hitscan::detail {

/// The caller's margin: a negative one counts as 0, so that contact() touches whenever overlap() does.
template <Real T>
T margin_or_zero(T margin) {
  return margin > T(0) ? margin : T(0);
}

/// The larger of two characteristic sizes, NaN when either is (a NaN coordinate), so that a
/// NaN shape touches nothing.
template <Real T>
T pair_size(T x, T y) {
  return x < y ? y : (y <= x ? x : x + y);
}

/// A capsule's characteristic size: its radius plus half its length.
template <Real T>
T capsule_size(const Capsule<T>& c) {
  return c.radius + T(0.5) * length(c.b - c.a);
}

/// Whether cores at squared distance d2 are within radius + limit, without a square root; NaN
/// anywhere gives false.
template <Real T>
bool within(T d2, T radius, T limit) {
  const T reach = radius + limit;
  return reach >= T(0) && d2 <= reach * reach;
}

}  // namespace hitscan::detail
