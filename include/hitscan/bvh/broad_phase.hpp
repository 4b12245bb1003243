#pragma once
/// BroadPhase: the pairs of moving objects whose fat boxes overlap, kept from frame to frame. A
/// DynamicTree holds the boxes; which fat boxes overlap changes only where a proxy is inserted,
/// re-inserted by a move, or removed, so update_pairs() drops the pairs of those proxies and finds
/// theirs again by querying the tree with their new fat boxes, and keeps every other pair as it
/// was. The scheme of Box2D's b2BroadPhase and Bullet's btDbvtBroadphase: a frame in which k of n
/// objects leave their fat boxes costs about k log n, not a pass over the whole tree.
///
/// move() first checks whether the object's box is still inside its fat box and then does
/// nothing more (a few nanoseconds, no write): the common case of a frame, where the tree's own
/// move also weighs whether the fat box has grown too large. Such a fat box is shrunk only when
/// the object leaves it.
///
/// Not thread-safe for edits; pairs() and tree() may be read from any number of threads between
/// edits.

#include <cstdint>
#include <span>
#include <vector>

#include "hitscan/bvh/dynamic_tree.hpp"

namespace hitscan::bvh {

/// Two objects' user values (first < second), and their proxies.
struct BroadPhasePair {
  std::uint64_t first = 0, second = 0;
  std::uint32_t first_proxy = kNullProxy, second_proxy = kNullProxy;
};

class BroadPhase {
 public:
  explicit BroadPhase(const DynamicTreeSettings& settings = {}) : tree_(settings) {}

  /// Adds an object with the tight box `box` and returns its proxy. `user` identifies it in the
  /// pairs and orders them; distinct objects should have distinct user values.
  std::uint32_t add(const Aabbf& box, std::uint64_t user);
  /// Removes a live proxy; its pairs go at the next update_pairs().
  void remove(std::uint32_t proxy);
  /// The object now has the tight box `box`, having moved by `displacement`. Returns whether the
  /// proxy was re-inserted (its pairs are then looked for again at the next update_pairs()).
  bool move(std::uint32_t proxy, const Aabbf& box, Vec3f displacement = {});

  /// Brings pairs() up to date with the adds, removes and moves since the last call. `accept(a,
  /// b)` (user values, a < b) decides which overlapping pairs are kept: a pair it refuses is
  /// never listed (for example two static objects, or two of the same kind). Returns the number
  /// of proxies whose pairs were looked for again.
  template <class Accept>
  std::size_t update_pairs(Accept&& accept);
  std::size_t update_pairs() {
    return update_pairs([](std::uint64_t, std::uint64_t) { return true; });
  }

  /// Every accepted pair whose fat boxes overlap, as of the last update_pairs(), in order of
  /// (first, second).
  std::span<const BroadPhasePair> pairs() const { return pairs_; }
  const DynamicTree& tree() const { return tree_; }

 private:
  void mark(std::uint32_t proxy);
  void sort_pairs();

  DynamicTree tree_;
  std::vector<BroadPhasePair> pairs_;
  /// Proxies to look for again, and a flag per proxy id while listed (2: removed).
  std::vector<std::uint32_t> dirty_;
  std::vector<std::uint8_t> dirty_flag_;
};

template <class Accept>
std::size_t BroadPhase::update_pairs(Accept&& accept) {
  if (dirty_.empty()) return 0;
  const auto is_dirty = [&](std::uint32_t proxy) { return proxy < dirty_flag_.size() && dirty_flag_[proxy] != 0; };
  std::erase_if(pairs_, [&](const BroadPhasePair& p) { return is_dirty(p.first_proxy) || is_dirty(p.second_proxy); });
  std::size_t refreshed = 0;
  for (const std::uint32_t proxy : dirty_) {
    if (dirty_flag_[proxy] != 1) continue;  // removed since
    ++refreshed;
    const std::uint64_t user = tree_.user(proxy);
    tree_.query(tree_.fat_box(proxy), [&](std::uint32_t other) {
      // A pair of two dirty proxies is found from both; it is kept from the lower proxy's query.
      if (other == proxy || (is_dirty(other) && other < proxy)) return true;
      const std::uint64_t other_user = tree_.user(other);
      const bool in_order = user < other_user || (user == other_user && proxy < other);
      BroadPhasePair p = in_order ? BroadPhasePair{user, other_user, proxy, other}
                                  : BroadPhasePair{other_user, user, other, proxy};
      if (accept(p.first, p.second)) pairs_.push_back(p);
      return true;
    });
  }
  for (const std::uint32_t proxy : dirty_) dirty_flag_[proxy] = 0;
  dirty_.clear();
  sort_pairs();
  return refreshed;
}

}  // namespace hitscan::bvh
