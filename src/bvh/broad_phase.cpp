#include "hitscan/bvh/broad_phase.hpp"

#include <algorithm>

namespace hitscan::bvh {

namespace {

bool box_contains(const Aabbf& outer, const Aabbf& inner) {
  return outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && outer.min.z <= inner.min.z &&
         inner.max.x <= outer.max.x && inner.max.y <= outer.max.y && inner.max.z <= outer.max.z;
}

}  // namespace

void BroadPhase::mark(std::uint32_t proxy) {
  if (proxy >= dirty_flag_.size()) dirty_flag_.resize(std::max<std::size_t>(proxy + 1, 2 * dirty_flag_.size()), 0);
  if (dirty_flag_[proxy] == 0) dirty_.push_back(proxy);
  dirty_flag_[proxy] = 1;
}

std::uint32_t BroadPhase::add(const Aabbf& box, std::uint64_t user) {
  const std::uint32_t proxy = tree_.insert(box, user);
  mark(proxy);
  return proxy;
}

void BroadPhase::remove(std::uint32_t proxy) {
  tree_.remove(proxy);
  mark(proxy);
  dirty_flag_[proxy] = 2;  // its pairs go; nothing to look for
}

bool BroadPhase::move(std::uint32_t proxy, const Aabbf& box, Vec3f displacement) {
  // The early out: a box still inside its fat box (a NaN box never is) changes nothing.
  if (box_contains(tree_.fat_box(proxy), box)) return false;
  if (!tree_.move(proxy, box, displacement)) return false;
  mark(proxy);
  return true;
}

void BroadPhase::sort_pairs() {
  std::sort(pairs_.begin(), pairs_.end(), [](const BroadPhasePair& x, const BroadPhasePair& y) {
    if (x.first != y.first) return x.first < y.first;
    if (x.second != y.second) return x.second < y.second;
    return x.first_proxy != y.first_proxy ? x.first_proxy < y.first_proxy : x.second_proxy < y.second_proxy;
  });
}

}  // namespace hitscan::bvh
