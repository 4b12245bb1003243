#pragma once
/// Where a tree walk puts a node's children on its stack so that the nearest pops first.

#include <bit>

#include "hitscan/math/simd.hpp"

namespace hitscan::bvh {

/// The place of lane `lane` (entry `t_lane`), counted from the first of the entries pushed
/// together, when the lanes of `hits` go on a stack at once, farthest at the bottom: below it go
/// the lanes that enter farther away and, among equal entries, those of lower lanes (the order an
/// insertion sort gives). `t` holds every lane's entry. Counting rather than shifting entries
/// along: an insertion sort's loop is a branch that random rays mispredict once or twice a ray.
template <class F>
inline int rank_nearest_on_top(F t, unsigned hits, int lane, float t_lane) {
  const F te(t_lane);
  const unsigned farther = static_cast<unsigned>(bits(t > te)) & hits;
  const unsigned tied_before = static_cast<unsigned>(bits(t == te)) & hits & ((1u << lane) - 1u);
  return std::popcount(farther) + std::popcount(tied_before);
}

/// The nearer of two lanes, `first` on a tie, chosen with integer masks: the compiler may turn a
/// select between them into a jump, which random rays mispredict.
struct NearFar {
  int near, far;
};
inline NearFar order_two(int first, float t_first, int second, float t_second) {
  const int swap = (first ^ second) & -static_cast<int>(t_second < t_first);
  return {first ^ swap, second ^ swap};
}

}  // namespace hitscan::bvh
