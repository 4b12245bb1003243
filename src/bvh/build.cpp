#include "hitscan/bvh/build.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>

#include "hitscan/assert.hpp"
#include "hitscan/bvh/detail/huge_page_allocator.hpp"
#include "hitscan/math/simd.hpp"

namespace hitscan::bvh {
namespace {

// Past this depth a node is split at the object median, whatever the SAH says, so that the
// tree depth (and the fixed traversal stacks that rely on it) stays bounded for any input.
constexpr int kMaxSahDepth = 40;

// Nodes of at most this many primitives are split by an exact sweep rather than by binning.
constexpr std::uint32_t kExactSweepMax = 16;

// More bins than this buy no measurable quality, and the bins live on the stack of every split.
constexpr std::uint32_t kMaxBins = 64;

// Batcher's odd-even merge sorts of 2, 4, 8 and 16 keys: the compare-exchanges in order.
constexpr std::uint8_t kNetwork2[][2] = {{0, 1}};
constexpr std::uint8_t kNetwork4[][2] = {{0, 1}, {2, 3}, {0, 2}, {1, 3}, {1, 2}};
constexpr std::uint8_t kNetwork8[][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3}, {4, 6}, {5, 7}, {1, 2}, {5, 6}, {0, 4}, {1, 5}, {2, 6}, {3, 7}, {2, 4}, {3, 5}, {1, 2}, {3, 4}, {5, 6}};
constexpr std::uint8_t kNetwork16[][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}, {10, 11}, {12, 13}, {14, 15}, {0, 2}, {1, 3}, {4, 6}, {5, 7}, {8, 10}, {9, 11}, {12, 14}, {13, 15}, {1, 2}, {5, 6}, {9, 10}, {13, 14}, {0, 4}, {1, 5}, {2, 6}, {3, 7}, {8, 12}, {9, 13}, {10, 14}, {11, 15}, {2, 4}, {3, 5}, {10, 12}, {11, 13}, {1, 2}, {3, 4}, {5, 6}, {9, 10}, {11, 12}, {13, 14}, {0, 8}, {1, 9}, {2, 10}, {3, 11}, {4, 12}, {5, 13}, {6, 14}, {7, 15}, {4, 8}, {5, 9}, {6, 10}, {7, 11}, {2, 4}, {3, 5}, {6, 8}, {7, 9}, {10, 12}, {11, 13}, {1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}, {11, 12}, {13, 14}};

using simd::Float4;

/// A box as two 4-wide registers (x, y, z, unused), so that growing one is two instructions.
struct Box4 {
  Float4 lo{kInfinity<float>};
  Float4 hi{-kInfinity<float>};

  void grow(const Box4& b) {
    lo = min(lo, b.lo);
    hi = max(hi, b.hi);
  }
  /// Half the surface area (the SAH only compares ratios); meaningful for a non-empty box.
  float half_area() const {
    float e[4];
    (hi - lo).store(e);
    return e[0] * e[1] + e[1] * e[2] + e[2] * e[0];
  }
  Aabbf to_aabb() const {
    float l[4], h[4];
    lo.store(l);
    hi.store(h);
    return {{l[0], l[1], l[2]}, {h[0], h[1], h[2]}};
  }
};

/// A bin of the SAH sweep: plain floats, so that an array of them is not initialised on
/// construction (each split clears only the bins it uses).
struct Bin {
  alignas(16) float lo[4];
  alignas(16) float hi[4];
  std::uint32_t count;

  void clear() {
    Float4(kInfinity<float>).store(lo);
    Float4(-kInfinity<float>).store(hi);
    count = 0;
  }
  void add(const Box4& b) {
    min(Float4::load(lo), b.lo).store(lo);
    max(Float4::load(hi), b.hi).store(hi);
    ++count;
  }
  Box4 bounds() const { return {Float4::load(lo), Float4::load(hi)}; }
};

using NodeArray = decltype(BinaryBvh::nodes);

/// A primitive as the builder moves it around: its box and its index, kept together so that binning
/// and partitioning read memory in order. 32 bytes: the index's bits ride in the unused fourth
/// lane of box.lo (the builder is bound by memory traffic, and the passes over the primitives
/// read a third less than with the index beside the box). Box arithmetic never reads that lane
/// back; the centre masks it out first, so that no denormal enters an addition.
struct PrimRef {
  Box4 box;

  static PrimRef make(const Aabbf& b, std::uint32_t id) {
    return {{Float4(b.min.x, b.min.y, b.min.z, std::bit_cast<float>(id)), Float4(b.max.x, b.max.y, b.max.z, 0.0f)}};
  }
  std::uint32_t id() const {
    alignas(16) float lo[4];
    box.lo.store(lo);
    return std::bit_cast<std::uint32_t>(lo[3]);
  }
  Float4 center() const {
    const auto xyz = Float4(0.0f, 0.0f, 0.0f, 1.0f) == Float4(0.0f);
    return (select(xyz, box.lo, Float4(0.0f)) + box.hi) * Float4(0.5f);
  }
};

struct Split {
  int axis = -1;
  std::uint32_t bin = 0;  // primitives in bins [0, bin] go left
  float cost = kInfinity<float>;
};

/// The bounds of a range of primitives: of their boxes and of their centres.
struct RangeBounds {
  Box4 box, centroids;

  void grow(const PrimRef& ref) {
    box.grow(ref.box);
    const Float4 c = ref.center();
    centroids.lo = min(centroids.lo, c);
    centroids.hi = max(centroids.hi, c);
  }
};

struct Task {
  std::uint32_t node, begin, end;
  int depth;
  /// Of refs_[begin, end): computed by the parent's partition, so that no node reads its
  /// primitives an extra time only to bound them.
  RangeBounds bounds;
};

// The bin coordinate of a centre on each lane: clamped to [0, bin_count - 1] in float, before
// truncation to the bin's index. bin_primitives bins by it and partition sides by it, so that
// both put every primitive on the same side of a split.
Float4 bin_coordinate(const Float4& centre, const Float4& lo, const Float4& scale, const Float4& last_bin) {
  return min(max((centre - lo) * scale, Float4(0.0f)), last_bin);
}

// Bins per unit of the centres' extent on `axis`; 0 where every centre is equal (all in bin 0).
float bin_scale(const Aabbf& center_bounds, int axis, std::uint32_t bin_count) {
  const float extent = center_bounds.max[axis] - center_bounds.min[axis];
  return extent > 0.0f ? static_cast<float>(bin_count) / extent : 0.0f;
}

// nodes[index] a leaf of primitives [first, first + count) of primitive_order.
void make_leaf(NodeArray& nodes, std::uint32_t index, std::uint32_t first, std::uint32_t count) {
  nodes[index].first = first;
  nodes[index].count = count;
}

// Two placeholder children for nodes[parent], at the end of `nodes`; returns the first's index.
std::uint32_t add_children(NodeArray& nodes, std::uint32_t parent) {
  const auto first = static_cast<std::uint32_t>(nodes.size());
  nodes.push_back({});
  nodes.push_back({});
  nodes[parent].first = first;
  nodes[parent].count = 0;
  return first;
}

// `subtree`, built on its own with its root at subtree[0], into `nodes`: the root replaces the
// placeholder nodes[placeholder], local node k >= 1 goes to offset + k - 1 (appended).
void splice(const NodeArray& subtree, std::uint32_t placeholder, NodeArray& nodes) {
  const auto offset = static_cast<std::uint32_t>(nodes.size());
  auto relocate = [&](BinaryNode n) {
    if (!n.is_leaf()) n.first = offset + n.first - 1;
    return n;
  };
  nodes[placeholder] = relocate(subtree[0]);
  for (std::size_t k = 1; k < subtree.size(); ++k) nodes.push_back(relocate(subtree[k]));
}

class Builder {
 public:
  Builder(std::uint32_t count, const BoxSource& boxes, const BuildSettings& settings, Executor* executor)
      : count_(count), boxes_(boxes), settings_(settings), executor_(executor) {
    settings_.max_leaf_size = std::max<std::uint32_t>(1, settings_.max_leaf_size);
    settings_.bin_count = std::clamp<std::uint32_t>(settings_.bin_count, 2, kMaxBins);
    settings_.leaf_block_size = std::max<std::uint32_t>(1, settings_.leaf_block_size);
    if (std::has_single_bit(settings_.leaf_block_size)) block_shift_ = std::countr_zero(settings_.leaf_block_size);
  }

  // The tree: the valid primitives gathered, the top levels split on this thread, the subtrees
  // deferred below them built (on the executor's threads when it has several) and spliced in.
  BinaryBvh build() {
    BinaryBvh bvh;
    gather_primitives();
    if (refs_.empty()) return bvh;
    bvh.nodes.reserve(2 * refs_.size());
    bvh.nodes.push_back({});
    const std::vector<Task> deferred = build_top_levels(bvh.nodes);
    if (executor_ != nullptr && executor_->concurrency() > 1 && !deferred.empty()) {
      build_subtrees_in_parallel(deferred, bvh.nodes);
    } else {
      build_subtrees_in_place(deferred, bvh.nodes);
    }
    bvh.primitive_order.resize(refs_.size());
    for (std::size_t i = 0; i < refs_.size(); ++i) bvh.primitive_order[i] = refs_[i].id();
    return bvh;
  }

 private:
  // refs_ = the primitives whose boxes are valid and finite, in index order, the boxes asked of
  // the source a chunk at a time.
  void gather_primitives() {
    // At its final size at once: grown by doubling, a large input would be copied and its pages
    // faulted in again at each step.
    refs_.reserve(count_);
    constexpr std::uint32_t kChunk = 256;
    Aabbf chunk[kChunk];
    for (std::uint32_t first = 0; first < count_; first += kChunk) {
      const std::uint32_t n = std::min(kChunk, count_ - first);
      boxes_(first, std::span<Aabbf>(chunk, n));
      for (std::uint32_t k = 0; k < n; ++k) {
        const Aabbf& b = chunk[k];
        if (!b.is_valid() || !is_finite(b.min) || !is_finite(b.max)) continue;
        refs_.push_back(PrimRef::make(b, first + k));
      }
    }
  }

  // The top levels into `nodes`, from the root down on this thread; returns the tasks at or below
  // the deferral threshold, in the order met, for the subtrees below them. These own disjoint
  // ranges of refs_ and are spliced in that order; the threshold depends only on the input, so
  // the tree is the same on any executor.
  std::vector<Task> build_top_levels(NodeArray& nodes) {
    const auto total = static_cast<std::uint32_t>(refs_.size());
    const std::uint32_t defer_at = std::max<std::uint32_t>(total / 64, 4096);
    std::vector<Task> deferred;
    std::vector<Task> stack{{0, 0, total, 0, range_bounds(0, total)}};
    while (!stack.empty()) {
      const Task task = stack.back();
      stack.pop_back();
      if (task.end - task.begin <= defer_at && task.node != 0) {
        deferred.push_back(task);
        continue;
      }
      split_or_leaf(task, nodes, stack);
    }
    return deferred;
  }

  // The deferred subtrees one at a time, in place: each subtree's root is its placeholder and its
  // nodes follow the tree's, as splice puts them, without the copy.
  void build_subtrees_in_place(const std::vector<Task>& deferred, NodeArray& nodes) {
    for (const Task& subtree : deferred) build_all({subtree}, nodes);
  }

  // The deferred subtrees on the executor's threads, each into a node array of its own, then
  // spliced into `nodes` in order.
  void build_subtrees_in_parallel(const std::vector<Task>& deferred, NodeArray& nodes) {
    std::vector<NodeArray> subtrees(deferred.size());
    executor_->parallel_for(deferred.size(), 1, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) build_subtree(deferred[i], subtrees[i]);
    });
    for (std::size_t i = 0; i < deferred.size(); ++i) splice(subtrees[i], deferred[i].node, nodes);
  }

  // The subtree of `task` into the empty `local`, its root at local[0].
  void build_subtree(const Task& task, NodeArray& local) {
    // At most 2n - 1 nodes for n primitives: grown by doubling, the array would be copied and
    // fresh pages faulted in at each step.
    local.reserve(2 * std::size_t{task.end - task.begin});
    local.push_back({});
    Task root = task;
    root.node = 0;
    build_all({root}, local);
  }

  RangeBounds range_bounds(std::uint32_t begin, std::uint32_t end) const {
    RangeBounds b;
    for (std::uint32_t i = begin; i < end; ++i) b.grow(refs_[i]);
    return b;
  }

  // Builds the tasks of `stack` and every task they split into, into `nodes`.
  void build_all(std::vector<Task> stack, NodeArray& nodes) {
    while (!stack.empty()) {
      const Task task = stack.back();
      stack.pop_back();
      split_or_leaf(task, nodes, stack);
    }
  }

  // The node of `task`: a small node's whole subtree at once (small_subtree); else two children
  // on `stack`, split where the binned SAH finds a split cheaper than a leaf (or any, when the
  // node must split), or at the object median when it finds none and the node must split; else a
  // leaf.
  void split_or_leaf(const Task& task, NodeArray& nodes, std::vector<Task>& stack) {
    const Aabbf node_bounds = task.bounds.box.to_aabb();
    const Aabbf center_bounds = task.bounds.centroids.to_aabb();
    nodes[task.node].bounds = node_bounds;
    const std::uint32_t count = task.end - task.begin;

    if (count > 1 && count <= kExactSweepMax && task.depth < kMaxSahDepth) {
      small_subtree(task, nodes, stack, nullptr);
      return;
    }
    std::uint32_t middle = task.begin;
    RangeBounds sides[2];
    bool sides_known = false;
    if (count > 1 && task.depth < kMaxSahDepth) {
      const Split split = find_split(task, node_bounds, center_bounds);
      // SAH cost of a leaf, in units of one block test, against the best split's.
      const float leaf_cost = blocks(count);
      if (split.axis >= 0 && (split.cost < leaf_cost || count > settings_.max_leaf_size)) {
        middle = partition(task, center_bounds, split, sides);
        sides_known = true;
      }
    }
    if (middle == task.begin && count > settings_.max_leaf_size) {
      middle = median_split(task, center_bounds);  // every centre equal, or too deep for the SAH
    }
    if (middle == task.begin || middle == task.end) {
      make_leaf(nodes, task.node, task.begin, count);
      return;
    }
    if (!sides_known) sides[0] = range_bounds(task.begin, middle), sides[1] = range_bounds(middle, task.end);
    push_children(task, middle, nodes, stack, {sides[0], sides[1]});
  }

  float blocks(std::uint32_t n) const {
    // The sweeps ask for this at every bin: a shift for the usual power-of-two block size.
    if (block_shift_ >= 0) return static_cast<float>((n + settings_.leaf_block_size - 1) >> block_shift_);
    return static_cast<float>((n + settings_.leaf_block_size - 1) / settings_.leaf_block_size);
  }

  // A key whose unsigned order is the order of the primitive's centre on `axis`, ties by id.
  static std::uint64_t centre_key(const PrimRef& ref, int axis) {
    alignas(16) float c[4];
    ref.center().store(c);
    // + 0 turns -0 into +0 (they compare equal as floats); then the unsigned order of the
    // bits is the float order: negatives have every bit flipped, the others the sign bit set.
    const auto bits32 = std::bit_cast<std::uint32_t>(c[axis] + 0.0f);
    const std::uint32_t sortable = bits32 ^ (std::uint32_t(std::int32_t(bits32) >> 31) | 0x80000000u);
    return std::uint64_t(sortable) << 32 | ref.id();
  }

  // order[0, count) = the indices into refs_ of the task's primitives (at most kExactSweepMax)
  // sorted by centre on `axis`, ties by id. A sorting network (Batcher's odd-even merge sort)
  // over the next power of two, padded with keys above every real one: its compare-exchanges
  // are conditional moves, where a comparison sort of a dozen keys mispredicts on every other.
  void sort_by_centre(const Task& task, int axis, std::uint32_t* order) const {
    const std::uint32_t count = task.end - task.begin;
    const std::uint32_t n = std::max<std::uint32_t>(2, std::bit_ceil(count));
    std::uint64_t key[kExactSweepMax];
    std::uint32_t index[kExactSweepMax];
    for (std::uint32_t i = 0; i < n; ++i) {
      // Padding above every real key: a finite centre never sorts to all ones.
      key[i] = i < count ? centre_key(refs_[task.begin + i], axis) : ~std::uint64_t(0);
      index[i] = task.begin + i;
    }
    const auto exchange = [&](std::uint32_t a, std::uint32_t b) {
      // Masks, not selects: the compiler turns a select into a jump as often as not.
      const std::uint64_t ka = key[a], kb = key[b];
      const std::uint64_t swap = std::uint64_t(0) - std::uint64_t(kb < ka);
      const std::uint64_t key_flip = (ka ^ kb) & swap;
      key[a] = ka ^ key_flip, key[b] = kb ^ key_flip;
      const std::uint32_t index_flip = (index[a] ^ index[b]) & std::uint32_t(swap);
      index[a] ^= index_flip, index[b] ^= index_flip;
    };
    const auto run = [&](const auto& network) {
      for (const auto& pair : network) exchange(pair[0], pair[1]);
    };
    if (n == 2) run(kNetwork2);
    else if (n == 4) run(kNetwork4);
    else if (n == 8) run(kNetwork8);
    else run(kNetwork16);
    std::copy_n(index, count, order);
  }

  // The orders of a small node's primitives by centre on each axis (ties by id), as positions
  // from the node's first primitive.
  struct SmallOrders {
    std::uint8_t at[3][kExactSweepMax];
  };

  // The best split of a small node: its first `left` primitives in the order of `axis` go left.
  struct SmallSplit {
    float cost = kInfinity<float>;
    std::uint32_t left = 0;  // 0: none (every centre equal)
    int axis = -1;
  };

  // The subtree of a small node (more than one primitive, at most kExactSweepMax), built here
  // depth first. Each node is split by sweeping every position of its primitives sorted by
  // centre, on each axis: cheaper than clearing and sweeping 3 x bin_count bins for a handful of
  // primitives, and never worse by the SAH (binned splits are among those positions). The node
  // sorts its primitives (`given` null) or takes its parent's orders filtered to its side, which
  // are the same: a child never sorts again. Children too deep for the SAH, and a node whose
  // centres are all equal but that must split, go to `stack` as split_or_leaf would take them.
  void small_subtree(const Task& task, NodeArray& nodes, std::vector<Task>& stack,
                     const SmallOrders* given) {
    const Aabbf node_bounds = task.bounds.box.to_aabb();
    const Aabbf center_bounds = task.bounds.centroids.to_aabb();
    nodes[task.node].bounds = node_bounds;
    const std::uint32_t count = task.end - task.begin;
    const bool must_split = count > settings_.max_leaf_size;
    const SmallOrders orders = given != nullptr ? *given : sort_small_node(task, center_bounds);
    const SmallSplit split = sweep_sorted_centres(task, orders, node_bounds, center_bounds);
    if (split.left == 0 || !(split.cost < blocks(count) || must_split)) {
      if (split.left == 0 && must_split) {  // every centre equal: the median split of split_or_leaf
        const std::uint32_t middle = median_split(task, center_bounds);
        push_children(task, middle, nodes, stack, {range_bounds(task.begin, middle), range_bounds(middle, task.end)});
        return;
      }
      make_leaf(nodes, task.node, task.begin, count);
      return;
    }
    SmallOrders sides[2];
    partition_small(task, orders, split, sides);
    small_children(task, split.left, nodes, stack, sides);
  }

  // A small node's orders, sorted here: the axes on which its centres differ by sort_by_centre.
  SmallOrders sort_small_node(const Task& task, const Aabbf& center_bounds) const {
    const std::uint32_t count = task.end - task.begin;
    SmallOrders orders;
    std::uint32_t order[kExactSweepMax];
    for (int axis = 0; axis < 3; ++axis) {
      if (!(center_bounds.max[axis] > center_bounds.min[axis])) {
        // Never swept, here or below (a side's centres are equal too): any order will do.
        for (std::uint32_t i = 0; i < count; ++i) orders.at[axis][i] = static_cast<std::uint8_t>(i);
        continue;
      }
      sort_by_centre(task, axis, order);
      for (std::uint32_t i = 0; i < count; ++i) orders.at[axis][i] = static_cast<std::uint8_t>(order[i] - task.begin);
    }
    return orders;
  }

  // The cheapest split of a small node by the SAH among every position of each axis's order on
  // which the centres differ: a sweep from the right for the right-hand costs, then from the left.
  SmallSplit sweep_sorted_centres(const Task& task, const SmallOrders& orders, const Aabbf& node_bounds,
                                  const Aabbf& center_bounds) const {
    const std::uint32_t count = task.end - task.begin;
    const float inv_area = 1.0f / std::max(0.5f * node_bounds.surface_area(), std::numeric_limits<float>::min());
    const PrimRef* refs = refs_.data() + task.begin;
    std::array<float, kExactSweepMax> right_cost;
    SmallSplit best;
    for (int axis = 0; axis < 3; ++axis) {
      if (!(center_bounds.max[axis] > center_bounds.min[axis])) continue;  // every centre equal
      const std::uint8_t* order = orders.at[axis];
      Box4 acc;
      for (std::uint32_t i = count - 1; i > 0; --i) {
        acc.grow(refs[order[i]].box);
        right_cost[i] = acc.half_area() * blocks(count - i);
      }
      acc = {};
      for (std::uint32_t left = 1; left < count; ++left) {
        acc.grow(refs[order[left - 1]].box);
        const float cost = settings_.traversal_cost + (acc.half_area() * blocks(left) + right_cost[left]) * inv_area;
        if (cost < best.cost) best = {cost, left, axis};
      }
    }
    return best;
  }

  // Puts a small node's primitives in the order of the split's axis, and gives each side its
  // orders: the node's, filtered to the side and renumbered from the side's first primitive.
  void partition_small(const Task& task, const SmallOrders& orders, const SmallSplit& split, SmallOrders sides[2]) {
    const std::uint32_t count = task.end - task.begin;
    const PrimRef* refs = refs_.data() + task.begin;
    std::array<PrimRef, kExactSweepMax> sorted;
    std::uint8_t position[kExactSweepMax];
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint8_t from = orders.at[split.axis][i];
      sorted[i] = refs[from];
      position[from] = static_cast<std::uint8_t>(i);
    }
    std::copy_n(sorted.begin(), count, refs_.begin() + task.begin);
    for (int axis = 0; axis < 3; ++axis) {
      std::uint32_t n[2] = {0, 0};
      for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint32_t p = position[orders.at[axis][i]];
        const int side = p >= split.left ? 1 : 0;
        sides[side].at[axis][n[side]++] = static_cast<std::uint8_t>(p - (side != 0 ? split.left : 0));
      }
    }
  }

  // The two children of a small node split after its first `left` primitives: a leaf for a
  // single primitive, else its subtree here, or on `stack` when too deep for the SAH.
  void small_children(const Task& task, std::uint32_t left, NodeArray& nodes, std::vector<Task>& stack,
                      const SmallOrders sides[2]) {
    const std::uint32_t middle = task.begin + left;
    const Task children[2] = {{0, task.begin, middle, task.depth + 1, range_bounds(task.begin, middle)},
                              {0, middle, task.end, task.depth + 1, range_bounds(middle, task.end)}};
    const std::uint32_t first = add_children(nodes, task.node);
    for (int side = 0; side < 2; ++side) {
      Task child = children[side];
      child.node = first + std::uint32_t(side);
      const std::uint32_t n = child.end - child.begin;
      if (n == 1) {
        nodes[child.node].bounds = child.bounds.box.to_aabb();
        make_leaf(nodes, child.node, child.begin, 1);
      } else if (child.depth < kMaxSahDepth) {
        small_subtree(child, nodes, stack, &sides[side]);
      } else {
        stack.push_back(child);
      }
    }
  }

  // Two children for the task, [task.begin, middle) and [middle, task.end), on the stack.
  void push_children(const Task& task, std::uint32_t middle, NodeArray& nodes, std::vector<Task>& stack,
                     const std::array<RangeBounds, 2>& sides) {
    const std::uint32_t left = add_children(nodes, task.node);
    // Right first, so the left subtree is built (and laid out) first.
    stack.push_back({left + 1, middle, task.end, task.depth + 1, sides[1]});
    stack.push_back({left, task.begin, middle, task.depth + 1, sides[0]});
  }

  // The cheapest binned split by the SAH: the primitives binned on all three axes in one pass,
  // then the bins of each axis on which the centres differ swept.
  Split find_split(const Task& task, const Aabbf& node_bounds, const Aabbf& center_bounds) const {
    const float inv_area = 1.0f / std::max(0.5f * node_bounds.surface_area(), std::numeric_limits<float>::min());
    Bin bins[3][kMaxBins];
    bin_primitives(task, center_bounds, bins);
    Split best;
    for (int axis = 0; axis < 3; ++axis) {
      if (center_bounds.max[axis] - center_bounds.min[axis] > 0.0f) {
        sweep_bins(bins[axis], axis, task.end - task.begin, inv_area, best);
      }
    }
    return best;
  }

  // bins[axis][b] = the bounds and the number of the task's primitives whose centre is in bin b
  // of `axis`: bin_count bins evenly over the centres' extent (all in bin 0 where it is empty).
  void bin_primitives(const Task& task, const Aabbf& center_bounds, Bin (&bins)[3][kMaxBins]) const {
    const std::uint32_t k = settings_.bin_count;
    for (auto& axis_bins : bins) {
      for (std::uint32_t b = 0; b < k; ++b) axis_bins[b].clear();
    }
    // The three bin indices at once: clamped in float, then truncated.
    const Float4 lo4(center_bounds.min[0], center_bounds.min[1], center_bounds.min[2], 0.0f);
    const Float4 scale4(bin_scale(center_bounds, 0, k), bin_scale(center_bounds, 1, k),
                        bin_scale(center_bounds, 2, k), 0.0f);
    const Float4 last_bin(static_cast<float>(k - 1));
    for (std::uint32_t i = task.begin; i < task.end; ++i) {
      const PrimRef& ref = refs_[i];
      alignas(16) float bin[4];
      bin_coordinate(ref.center(), lo4, scale4, last_bin).store(bin);
      for (int axis = 0; axis < 3; ++axis) bins[axis][static_cast<std::uint32_t>(bin[axis])].add(ref.box);
    }
  }

  // `best` = the split between bins of `axis` when it is cheaper than `best`, for a node of
  // `count` primitives: a sweep from the right for the right-hand costs, then from the left.
  void sweep_bins(const Bin* axis_bins, int axis, std::uint32_t count, float inv_area, Split& best) const {
    const std::uint32_t k = settings_.bin_count;
    std::array<float, kMaxBins> right_cost;
    Box4 acc;
    std::uint32_t n = 0;
    for (std::uint32_t b = k - 1; b > 0; --b) {
      acc.grow(axis_bins[b].bounds());
      n += axis_bins[b].count;
      right_cost[b] = n ? acc.half_area() * blocks(n) : 0.0f;
    }
    acc = {};
    n = 0;
    for (std::uint32_t b = 0; b + 1 < k; ++b) {
      acc.grow(axis_bins[b].bounds());
      n += axis_bins[b].count;
      if (n == 0 || n == count) continue;
      const float cost = settings_.traversal_cost + (acc.half_area() * blocks(n) + right_cost[b + 1]) * inv_area;
      if (cost < best.cost) best = {axis, b, cost};
    }
  }

  // Moves the primitives of bins [0, split.bin] before the others (in place, deterministic; the
  // order within a side does not matter to the tree) and bounds both sides on the way. Free of
  // jumps on the data (Lomuto's scheme with an unconditional swap, the side a mask): a jump on
  // each primitive's side mispredicts on about every other one.
  std::uint32_t partition(const Task& task, const Aabbf& center_bounds, const Split& split, RangeBounds sides[2]) {
    const int axis = split.axis;
    const Float4 inf(kInfinity<float>), minus_inf(-kInfinity<float>);
    Float4 box_lo[2] = {inf, inf}, box_hi[2] = {minus_inf, minus_inf};
    Float4 c_lo[2] = {inf, inf}, c_hi[2] = {minus_inf, minus_inf};
    std::uint32_t k = task.begin;
    PrimRef* refs = refs_.data();
    // The primitive goes left when bin_primitives binned it at or below split.bin: its clamped bin
    // coordinate (bin_primitives', from the centre on `axis`) is below split.bin + 1, before
    // truncation. Computed from the centre broadcast to every lane, so that the mask is the side
    // in every lane.
    const Float4 lo4(center_bounds.min[axis]), scale4(bin_scale(center_bounds, axis, settings_.bin_count));
    const Float4 last_bin(static_cast<float>(settings_.bin_count - 1)), bound(static_cast<float>(split.bin + 1));
    for (std::uint32_t i = task.begin; i < task.end; ++i) {
      const PrimRef ref = refs[i];
      const Float4 c = ref.center();
      float axis_lo, axis_hi;  // lane `axis` of the box, from memory (the centre is then bin_primitives')
      std::memcpy(&axis_lo, reinterpret_cast<const char*>(&refs[i].box.lo) + axis * sizeof(float), sizeof(float));
      std::memcpy(&axis_hi, reinterpret_cast<const char*>(&refs[i].box.hi) + axis * sizeof(float), sizeof(float));
      const Float4 centre((axis_lo + axis_hi) * 0.5f);
      const auto m = bin_coordinate(centre, lo4, scale4, last_bin) < bound;  // every lane: goes left
      const int mbits = bits(m);
      // [task.begin, k) go left, [k, i) right: swapping refs[i] with refs[k] keeps that whichever
      // side refs[i] takes, and k moves past it when it goes left.
      refs[i] = refs[k];
      refs[k] = ref;
      k += std::uint32_t(mbits) & 1u;
      box_lo[0] = min(box_lo[0], select(m, ref.box.lo, inf)), box_hi[0] = max(box_hi[0], select(m, ref.box.hi, minus_inf));
      box_lo[1] = min(box_lo[1], select(m, inf, ref.box.lo)), box_hi[1] = max(box_hi[1], select(m, minus_inf, ref.box.hi));
      c_lo[0] = min(c_lo[0], select(m, c, inf)), c_hi[0] = max(c_hi[0], select(m, c, minus_inf));
      c_lo[1] = min(c_lo[1], select(m, inf, c)), c_hi[1] = max(c_hi[1], select(m, minus_inf, c));
    }
    for (int s = 0; s < 2; ++s) {
      sides[s].box.lo = box_lo[s], sides[s].box.hi = box_hi[s];
      sides[s].centroids.lo = c_lo[s], sides[s].centroids.hi = c_hi[s];
    }
    return k;
  }

  // Moves the task's primitives so that the first half (by centre on the axis where the centres
  // spread most, ties by id) comes before the second; returns where the second starts.
  std::uint32_t median_split(const Task& task, const Aabbf& center_bounds) {
    const int axis = max_dimension(center_bounds.extent());
    const std::uint32_t middle = task.begin + (task.end - task.begin) / 2;
    auto centre = [axis](const PrimRef& ref) {
      alignas(16) float c[4];
      ref.center().store(c);
      return c[axis];
    };
    std::nth_element(refs_.begin() + task.begin, refs_.begin() + middle, refs_.begin() + task.end,
                     [&](const PrimRef& a, const PrimRef& b) {
                       const float ca = centre(a), cb = centre(b);
                       return ca < cb || (ca == cb && a.id() < b.id());
                     });
    return middle;
  }

  std::uint32_t count_;
  const BoxSource& boxes_;
  BuildSettings settings_;
  HugePageVector<PrimRef> refs_;
  int block_shift_ = -1;  // log2 of leaf_block_size when it is a power of two
  Executor* executor_ = nullptr;
};

}  // namespace

BinaryBvh build_binned_sah(std::uint32_t count, const BoxSource& boxes, const BuildSettings& settings,
                           Executor* executor) {
  return Builder(count, boxes, settings, executor).build();
}

BinaryBvh build_binned_sah(std::span<const Aabbf> bounds, const BuildSettings& settings, Executor* executor) {
  HITSCAN_ASSERT(bounds.size() <= std::numeric_limits<std::uint32_t>::max());
  const BoxSource copy = [bounds](std::uint32_t first, std::span<Aabbf> out) {
    std::copy_n(bounds.begin() + first, out.size(), out.begin());
  };
  return build_binned_sah(static_cast<std::uint32_t>(bounds.size()), copy, settings, executor);
}

}  // namespace hitscan::bvh
