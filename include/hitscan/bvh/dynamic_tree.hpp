#pragma once
/// DynamicTree: a broadphase over moving boxes that is updated in place (rebuild is only for a
/// tree just filled, whose insertion order shaped it). Each object is a leaf (a proxy) holding a
/// "fat" box, a margin larger than the object, so that small motions change nothing and a
/// larger one removes and re-inserts a single leaf. The design is that of
/// Box2D's b2DynamicTree and Bullet's btDbvt: a new leaf goes beside the sibling that adds the
/// least surface area to the tree, found by branch and bound (Bittner et al. 2013), and tree
/// rotations shrink the boxes on the way back up from it (Kopta et al. 2012). The tree is also kept
/// height-balanced: the heights of the two children of every node differ by at most
/// kMaxHeightDifference (the HB[k] trees of Foster 1973, AVL trees relaxed from k = 1 to k = 2,
/// which leaves the area heuristic more freedom), so the height is O(log n) whatever the order of
/// insertion and every traversal fits a fixed stack.
///
/// Queries do not walk the binary tree but its 4-wide mirror (detail/dynamic_tree_quad.hpp): one quad
/// per inner node, holding its grandchildren's boxes for a single SIMD test. Every edit rewrites
/// the quads above the nodes it changed before it returns, so a query may follow any edit; edits
/// made in a batch (begin_batch, end_batch) rewrite each quad they changed once, at its end.
///
/// A proxy id is the index of its leaf node: stable while the proxy lives (moves keep it), and
/// handed out again after it is removed. Queries are const and may run from any number of threads
/// at once; insert, remove, move and rebuild may not run beside anything.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "hitscan/assert.hpp"
#include "hitscan/bvh/detail/dynamic_tree_quad.hpp"
#include "hitscan/bvh/detail/stack_rank.hpp"
#include "hitscan/geometry/ray_aabb.hpp"
#include "hitscan/math/aabb.hpp"

namespace hitscan::bvh {

namespace detail {
struct BuildItem;  // rebuild's record of a leaf (dynamic_tree_rebuild.cpp)
}  // namespace detail

/// No proxy (and no node).
inline constexpr std::uint32_t kNullProxy = 0xFFFFFFFFu;

/// The most by which the heights of two sibling subtrees may differ.
inline constexpr int kMaxHeightDifference = 2;

/// The tallest the tree can be. A tree of height h has at least N(h) leaves, with N(0..2) = 1, 2, 3
/// and N(h) = N(h - 1) + N(h - 3) (its shortest allowed shape); node indices below 2^31 (the top
/// bit marks leaves in the quads) allow fewer than 2^30 leaves, and N(56) > 2^31, so h <= 55
/// (about 1.8 log2 n).
inline constexpr int kMaxDynamicTreeHeight = 55;

struct DynamicTreeSettings {
  /// Each face of a fat box lies this fraction of the tight box's mean side beyond it...
  float margin_fraction = 0.1f;
  /// ...plus this absolute distance, in world units. With the default 0 a point (a box of zero
  /// size) has no margin and is re-inserted on every move that changes it.
  float margin_absolute = 0.0f;
  /// A fat box also reaches this many displacements ahead of the motion passed to move, on the
  /// side the object moves toward (Box2D's aabbMultiplier, whose value this is), so a steadily
  /// moving object is re-inserted less often: on 10^5 colliders of which a tenth drift by a
  /// fifth of their size each frame, 4 takes a sixth fewer instructions per moved collider than 2
  /// and leaves rays through the scene 0.2% dearer.
  float prediction_scale = 4.0f;
  /// ...but no further than this many of the tight box's mean sides (plus margin_absolute). A
  /// displacement beyond it along any axis is a teleport, not a motion to predict, and gets no
  /// stretch at all: the next such step leaves any fat box the limit allows, and a stretched box
  /// would only slow every query and insertion after it.
  float prediction_limit = 4.0f;
};

/// What one query cost, counted rather than timed, so that tests can check how the cost grows.
struct TreeQueryStats {
  /// Steps of the walk: quads tested and leaves taken for query, ray_query and nearest_query,
  /// pairs of nodes (a node with itself included) for find_pairs.
  std::uint64_t node_visits = 0;
  /// Proxies (or pairs) handed to the callback.
  std::uint64_t reported = 0;
};

/// Two proxies, first < second.
using ProxyPair = std::pair<std::uint32_t, std::uint32_t>;

class DynamicTree {
 public:
  explicit DynamicTree(const DynamicTreeSettings& settings = {}) : settings_(settings), quads_(1) {}

  /// Adds a proxy for the tight box `box` carrying `user` and returns its id. The tree stores
  /// `box` fattened by the margin. A box that is not valid or not finite (NaN, infinite, min > max)
  /// is stored as the empty box: no query or pair reports it until it is moved to a valid box.
  std::uint32_t insert(const Aabbf& box, std::uint64_t user);

  /// Removes a live proxy (asserted); its id may be returned by a later insert.
  void remove(std::uint32_t proxy);

  /// Tells the tree that the object of `proxy` now has the tight box `box`, having moved by
  /// `displacement` since the last call. Returns false, changing nothing, while `box` stays inside
  /// the proxy's fat box and that fat box is not far too large: it must lie within the fat box a
  /// fresh insertion would make, grown by four more margins and stretched as far behind the motion
  /// as ahead of it (so an object that moved fast and slowed down gets a snug box again).
  /// Otherwise re-inserts the proxy with a new fat box, stretched along the displacement unless
  /// that is a teleport (DynamicTreeSettings::prediction_limit), and returns true. The proxy id
  /// does not change.
  bool move(std::uint32_t proxy, const Aabbf& box, Vec3f displacement = {});

  /// Opens a batch of edits, for many at once (a scene's commit). Until end_batch, insert, remove
  /// and move keep their contracts for ids, fat boxes, user values and move's answer, but the
  /// proxies inserted, and those moved out of their fat boxes, wait outside the tree: no query,
  /// find_pairs, height or validate may run. Removing a waiting proxy costs O(waiting).
  void begin_batch();
  /// Puts the waiting proxies in and rewrites each quad that the batch changed once. When they
  /// are at least half of all proxies (a tree just filled, or mostly moved), the tree is rebuilt
  /// around them, as rebuild does, instead of taking them one by one.
  void end_batch();

  /// Rebuilds the tree above the leaves, top down, keeping every proxy (id, fat box, user value):
  /// each node splits its leaves at the median of their box centres along the axis that gives the
  /// two halves the least total surface area. The result is balanced (sibling heights differ by
  /// at most one) and usually cheaper to query than one grown by insertion, whose shape depends
  /// on the order the boxes came in. O(n log n); for a tree that was just filled or refilled,
  /// since later moves update it as usual. Not within a batch.
  void rebuild();

  /// Makes room for `proxies` proxies in all, so that filling the tree up to that many allocates
  /// nothing more.
  void reserve(std::size_t proxies);

  /// The fat box of a live proxy (asserted).
  const Aabbf& fat_box(std::uint32_t proxy) const;
  /// The user value of a live proxy (asserted).
  std::uint64_t user(std::uint32_t proxy) const;

  /// Calls `callback(proxy) -> bool` for every proxy whose fat box overlaps `box` (touching
  /// counts), each once, until it returns false. An invalid `box` visits nothing.
  template <class Callback>
  TreeQueryStats query(const Aabbf& box, Callback&& callback) const;

  /// Calls `callback(proxy, tmax) -> float` for the proxies whose fat box the ray meets within
  /// [tmin, tmax], nearest box entry first. The callback returns the new tmax: the current one to
  /// go on, a smaller one to clip the ray (boxes entered beyond it are skipped; a larger value or
  /// NaN leaves it unchanged), a negative one to stop. The box test is conservative in the manner
  /// of bvh::traverse (far distances enlarged by 2 gamma(3)), so a ray grazing a box is never
  /// culled; it may report a box the ray just misses. An invalid ray visits nothing.
  template <class Callback>
  TreeQueryStats ray_query(const Rayf& ray, Callback&& callback) const {
    return walk_ray<false>(RayInverse<float>::from_ray(ray), Vec3f{}, callback);
  }
  /// The same for a ray prepared by the caller (RayInverse::from_ray or from_valid_ray), which a
  /// query that tests its own boxes too prepares once for both.
  template <class Callback>
  TreeQueryStats ray_query(const RayInverse<float>& ray, Callback&& callback) const {
    return walk_ray<false>(ray, Vec3f{}, callback);
  }

  /// ray_query for a box of the given half extents (>= 0) centred on the ray's origin and moved
  /// along the ray: every fat box grown by half_extents is tested against the ray, so the proxies
  /// the moving box may meet are reported, nearest first. For sweeps: the moving shape's bounds.
  template <class Callback>
  TreeQueryStats box_sweep_query(const Rayf& ray, Vec3f half_extents, Callback&& callback) const {
    if (!is_finite(half_extents) || !(min_component(half_extents) >= 0.0f)) return {};
    return walk_ray<true>(RayInverse<float>::from_ray(ray), half_extents, callback);
  }

  /// Calls `callback(proxy, best) -> float` for the proxies whose fat box lies within sqrt(best)
  /// of `point` (best starting at max_distance_squared, inclusive), nearer boxes first. The callback
  /// returns the new squared distance bound: the current one to go on, a smaller one once it
  /// found something nearer (boxes farther than it are then skipped), a negative one to stop. For
  /// closest-point searches. A non-finite point or a NaN bound visits nothing.
  template <class Callback>
  TreeQueryStats nearest_query(Vec3f point, float max_distance_squared, Callback&& callback) const;

  /// Calls `callback(a, b)` once for every unordered pair of proxies whose fat boxes overlap,
  /// with a < b, by a simultaneous traversal of the tree against itself. The order is
  /// deterministic for a given sequence of insertions, removals and moves.
  template <class Callback>
  TreeQueryStats find_pairs(Callback&& callback) const;
  /// The same, into `pairs` (cleared first).
  TreeQueryStats find_pairs(std::vector<ProxyPair>& pairs) const;

  /// Longest root-to-leaf path in edges: 0 for an empty tree or a single proxy.
  int height() const;
  std::size_t proxy_count() const { return proxy_count_; }
  /// Nodes in use: 2 proxy_count - 1, or 0.
  std::size_t node_count() const { return proxy_count_ == 0 ? 0 : 2 * proxy_count_ - 1; }

  /// Checks every invariant: parent and child links agree, leaf count and free list account for
  /// every node, each inner box is exactly the union of its children's, each height is one more
  /// than its taller child's, sibling heights differ by at most kMaxHeightDifference, and every
  /// quad holds exactly its node's grandchildren (the root quad, the root). For tests; linear time.
  bool validate() const;

  /// Nodes touched by insert, remove and move since construction or the last reset (the descent
  /// to a sibling, the refit and rotations on the way up): the update work, counted.
  std::uint64_t update_node_visits() const { return update_visits_; }
  void reset_update_node_visits() { update_visits_ = 0; }

 private:
  // ray_query (kGrown false) and box_sweep_query: the nearest-first walk of the ray through the
  // fat boxes, grown by half_extents when kGrown.
  template <bool kGrown, class Callback>
  TreeQueryStats walk_ray(const RayInverse<float>& ray, Vec3f half_extents, Callback& callback) const;

  // One cache line: the updates read a node's box, area, links and height together.
  struct alignas(64) Node {
    /// Leaf: the fat box. Inner node: the union of the children's boxes.
    Aabbf box;
    /// box.surface_area(), which the sibling search and the rotations compare over and over.
    float area = 0.0f;
    std::uint64_t user = 0;
    /// The parent, or for a free node the next free node.
    std::uint32_t parent = kNullProxy;
    /// Both kNullProxy for a leaf.
    std::uint32_t child[2] = {kNullProxy, kNullProxy};
    /// 0 for a leaf, -1 for a free node.
    std::int32_t height = 0;
    /// Inner node: its quad in quads_ (for its whole life). kNullProxy for a leaf.
    std::uint32_t quad = kNullProxy;
    /// The sync_quads pass that last rewrote its quad.
    std::uint32_t quad_epoch = 0;

    bool is_leaf() const { return child[0] == kNullProxy; }
    void set_box(const Aabbf& b) {
      box = b;
      area = b.surface_area();
    }
  };

  // Where a query walk stands: a quad to test, or a leaf to report (kQuadLeaf set), entered at t.
  struct WalkEntry {
    std::uint32_t child;
    float t;
  };
  // A walk holds at most 3 waiting siblings per quad on its path (the root quad, then one quad
  // per two binary levels) plus the 4 children of the quad just opened.
  static constexpr int kWalkStackSize = 3 * (kMaxDynamicTreeHeight / 2 + 2) + 4;
  // quads_[kRootQuad] has one lane, the root (none in an empty tree): every walk starts there.
  static constexpr std::uint32_t kRootQuad = 0;

  Aabbf fatten(const Aabbf& box, Vec3f displacement, float margins) const;
  Vec3f ahead_of(Vec3f box_extent, Vec3f displacement) const;
  // merge(fatten(box, displacement, margins), fatten(box, -displacement, margins)), in one pass.
  Aabbf fatten_both_ways(const Aabbf& box, Vec3f displacement, float margins) const;
  std::uint32_t allocate_node();
  void free_node(std::uint32_t index);
  std::uint32_t choose_sibling(const Aabbf& box);
  void insert_leaf(std::uint32_t leaf);
  void remove_leaf(std::uint32_t leaf);
  void refit_and_balance(std::uint32_t index, bool rotate);
  std::uint32_t balance(std::uint32_t index);
  void rotate_for_area(std::uint32_t index, int old_height);
  void recompute(std::uint32_t index);
  void replace_child(std::uint32_t parent, std::uint32_t old_child, std::uint32_t new_child);
  bool is_live_leaf(std::uint32_t proxy) const;
  // A proxy of the open batch that waits outside the tree.
  bool is_waiting(std::uint32_t proxy) const {
    return batching_ && nodes_[proxy].parent == kNullProxy && proxy != root_;
  }
  std::uint32_t build_range(detail::BuildItem* first, std::size_t count, std::uint32_t parent);
  // rebuild over the tree's leaves and `outside`, leaves not in it.
  void rebuild_with(const std::vector<std::uint32_t>& outside);
  // An edit records each inner node whose box or children it changes, with the quads that see the
  // change as bits (own, parent's, grandparent's): new children show in its own quad and its
  // parent's, a new box in its grandparent's. sync_quads rewrites those quads.
  struct Touched {
    std::uint32_t node;
    unsigned levels;
  };
  static constexpr unsigned kChildrenChanged = 0b011, kBoxChanged = 0b100;
  void touch(std::uint32_t index, unsigned levels) { touched_.push_back({index, levels}); }
  void sync_quads();
  // The quad of inner node `index` (kNullProxy: the root quad) as the tree is now.
  void make_quad(std::uint32_t index, detail::QuadNode& quad) const;
  std::uint32_t allocate_quad();

  DynamicTreeSettings settings_;
  std::vector<Node> nodes_;
  std::uint32_t root_ = kNullProxy;
  std::uint32_t free_list_ = kNullProxy;
  std::size_t proxy_count_ = 0;
  std::uint64_t update_visits_ = 0;
  std::vector<detail::QuadNode> quads_;
  std::vector<std::uint32_t> free_quads_;
  std::vector<Touched> touched_;  // since the last sync_quads
  std::uint32_t quad_epoch_ = 0;
  bool batching_ = false;
  std::vector<std::uint32_t> waiting_;  // leaves of the open batch not in the tree
};

template <class Callback>
TreeQueryStats DynamicTree::query(const Aabbf& box, Callback&& callback) const {
  TreeQueryStats stats;
  if (root_ == kNullProxy || !box.is_valid()) return stats;
  std::uint32_t stack[kWalkStackSize];
  int top = 0;
  stack[top++] = kRootQuad;
  while (top > 0) {
    const detail::QuadNode& quad = quads_[stack[--top]];
    ++stats.node_visits;
    for (unsigned hit = detail::quad_overlaps(quad, box) & quad.lanes(); hit != 0; hit &= hit - 1) {
      const std::uint32_t child = quad.child[std::countr_zero(hit)];
      if ((child & detail::kQuadLeaf) == 0) {
        stack[top++] = child;
        continue;
      }
      ++stats.node_visits;
      ++stats.reported;
      if (!callback(child & ~detail::kQuadLeaf)) return stats;
    }
  }
  return stats;
}

template <bool kGrown, class Callback>
TreeQueryStats DynamicTree::walk_ray(const RayInverse<float>& ray, Vec3f half_extents, Callback& callback) const {
  TreeQueryStats stats;
  if (root_ == kNullProxy || !ray.valid) return stats;
  const detail::QuadRay quad_ray = detail::QuadRay::from(ray, half_extents);
  float tmax = ray.tmax;
  WalkEntry stack[kWalkStackSize];
  int top = 0;
  WalkEntry current{kRootQuad, ray.tmin};
  for (;;) {
    ++stats.node_visits;
    if (current.child & detail::kQuadLeaf) {
      ++stats.reported;
      const float next = callback(current.child & ~detail::kQuadLeaf, tmax);
      if (next < 0.0f) break;
      tmax = min(tmax, next);  // keeps tmax for NaN
    } else {
      const detail::QuadNode& quad = quads_[current.child];
      alignas(16) float t[4];
      unsigned hit = detail::ray_enters_quad<kGrown>(quad, quad_ray, tmax, t) & quad.lanes();
      if (hit != 0) {
        const int first = std::countr_zero(hit);
        hit &= hit - 1;
        if (hit == 0) {  // one lane entered, the common case: no trip through the stack
          current = {quad.child[first], t[first]};
          continue;
        }
        const int second = std::countr_zero(hit);
        hit &= hit - 1;
        if (hit == 0) {  // two: the nearer goes next, the farther waits
          const NearFar order = order_two(first, t[first], second, t[second]);
          stack[top++] = {quad.child[order.far], t[order.far]};
          current = {quad.child[order.near], t[order.near]};
          continue;
        }
        // More: all wait, nearer ones on top, and the nearest goes next.
        const unsigned lanes = hit | (1u << first) | (1u << second);
        const simd::Float4 entries = simd::Float4::load(t);
        for (hit = lanes; hit != 0; hit &= hit - 1) {
          const int lane = std::countr_zero(hit);
          stack[top + rank_nearest_on_top(entries, lanes, lane, t[lane])] = {quad.child[lane], t[lane]};
        }
        top += std::popcount(lanes);
        current = stack[--top];
        continue;
      }
    }
    // Entries that begin beyond tmax (it shrank since they were pushed) are dropped.
    do {
      if (top == 0) return stats;
      current = stack[--top];
    } while (current.t > tmax);
  }
  return stats;
}

template <class Callback>
TreeQueryStats DynamicTree::nearest_query(Vec3f point, float max_distance_squared, Callback&& callback) const {
  TreeQueryStats stats;
  if (root_ == kNullProxy || !is_finite(point) || !(max_distance_squared >= 0.0f)) return stats;
  float best = max_distance_squared;
  WalkEntry stack[kWalkStackSize];
  int top = 0;
  WalkEntry current{kRootQuad, 0.0f};
  for (;;) {
    ++stats.node_visits;
    if (current.child & detail::kQuadLeaf) {
      ++stats.reported;
      const float next = callback(current.child & ~detail::kQuadLeaf, best);
      if (next < 0.0f) break;
      best = min(best, next);  // keeps best for NaN
    } else {
      const detail::QuadNode& quad = quads_[current.child];
      const simd::Float4 d2 = detail::quad_distance_squared(quad, point);
      alignas(16) float d[4];
      d2.store(d);
      // Nearer lanes on top; the lanes in use only (an unused lane is infinitely far, and best
      // may be infinite).
      const unsigned lanes = bits(d2 <= simd::Float4(best)) & quad.lanes();
      for (unsigned near = lanes; near != 0; near &= near - 1) {
        const int lane = std::countr_zero(near);
        stack[top + rank_nearest_on_top(d2, lanes, lane, d[lane])] = {quad.child[lane], d[lane]};
      }
      top += std::popcount(lanes);
    }
    do {  // the bound shrank since farther entries were pushed
      if (top == 0) return stats;
      current = stack[--top];
    } while (current.t > best);
  }
  return stats;
}

template <class Callback>
TreeQueryStats DynamicTree::find_pairs(Callback&& callback) const {
  TreeQueryStats stats;
  if (root_ == kNullProxy) return stats;
  // An entry {a, a} stands for the pairs within subtree a, {a, b} for those between two disjoint
  // subtrees. Depth first, each pending level of the self recursion leaves one entry and each
  // level of a pair descent one more, so the stack holds at most about 3 height + 3 entries.
  struct Entry {
    std::uint32_t a, b;
  };
  constexpr int kStackSize = 4 * kMaxDynamicTreeHeight + 8;
  Entry stack[kStackSize];
  int top = 0;
  stack[top++] = {root_, root_};
  while (top > 0) {
    HITSCAN_ASSERT(top + 3 <= kStackSize);
    const Entry entry = stack[--top];
    ++stats.node_visits;
    const Node& a = nodes_[entry.a];
    if (entry.a == entry.b) {
      if (a.is_leaf()) continue;
      stack[top++] = {a.child[0], a.child[0]};
      stack[top++] = {a.child[1], a.child[1]};
      stack[top++] = {a.child[0], a.child[1]};
      continue;
    }
    const Node& b = nodes_[entry.b];
    if (!a.box.overlaps(b.box)) continue;
    if (a.is_leaf() && b.is_leaf()) {
      ++stats.reported;
      callback(std::min(entry.a, entry.b), std::max(entry.a, entry.b));
      continue;
    }
    // Open the larger subtree, so that the two sides of a test stay of similar size.
    if (b.is_leaf() || (!a.is_leaf() && a.box.surface_area() >= b.box.surface_area())) {
      stack[top++] = {a.child[1], entry.b};
      stack[top++] = {a.child[0], entry.b};
    } else {
      stack[top++] = {entry.a, b.child[1]};
      stack[top++] = {entry.a, b.child[0]};
    }
  }
  return stats;
}

}  // namespace hitscan::bvh
