#include "hitscan/bvh/build.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>

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

class Builder {
 public:
  Builder(std::span<const Aabbf> bounds, const BuildSettings& settings, Executor* executor)
      : bounds_(bounds), settings_(settings), executor_(executor) {
    settings_.max_leaf_size = std::max<std::uint32_t>(1, settings_.max_leaf_size);
    settings_.bin_count = std::clamp<std::uint32_t>(settings_.bin_count, 2, kMaxBins);
    settings_.leaf_block_size = std::max<std::uint32_t>(1, settings_.leaf_block_size);
    if (std::has_single_bit(settings_.leaf_block_size)) block_shift_ = std::countr_zero(settings_.leaf_block_size);
  }

  BinaryBvh build() {
    BinaryBvh bvh;
    for (std::uint32_t i = 0; i < bounds_.size(); ++i) {
      const Aabbf& b = bounds_[i];
      if (!b.is_valid() || !is_finite(b.min) || !is_finite(b.max)) continue;
      refs_.push_back(PrimRef::make(b, i));
    }
    if (refs_.empty()) return bvh;
    bvh.primitive_order.resize(refs_.size());
    bvh.nodes.reserve(2 * refs_.size());
    bvh.nodes.push_back({});

    // Top levels on this thread; subtrees at or below the threshold are deferred and then built
    // independently (they own disjoint ranges of primitive_order) and spliced in, in a fixed
    // order. The threshold depends only on the input, so the tree is the same on any executor.
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
      split_or_leaf(task, bvh.nodes, stack);
    }
    if (deferred.empty()) return finish(bvh);

    std::vector<std::vector<BinaryNode>> subtrees(deferred.size());
    SerialExecutor serial;
    (executor_ ? *executor_ : serial).parallel_for(deferred.size(), 1, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        std::vector<BinaryNode>& local = subtrees[i];
        local.push_back({});
        std::vector<Task> local_stack{{0, deferred[i].begin, deferred[i].end, deferred[i].depth, deferred[i].bounds}};
        while (!local_stack.empty()) {
          const Task task = local_stack.back();
          local_stack.pop_back();
          split_or_leaf(task, local, local_stack);
        }
      }
    });
    // Local node k >= 1 goes to offset + k - 1; the local root replaces the placeholder.
    for (std::size_t i = 0; i < deferred.size(); ++i) {
      const auto offset = static_cast<std::uint32_t>(bvh.nodes.size());
      auto relocate = [&](BinaryNode n) {
        if (!n.is_leaf()) n.first = offset + n.first - 1;
        return n;
      };
      bvh.nodes[deferred[i].node] = relocate(subtrees[i][0]);
      for (std::size_t k = 1; k < subtrees[i].size(); ++k) bvh.nodes.push_back(relocate(subtrees[i][k]));
    }
    return finish(bvh);
  }

 private:
  BinaryBvh& finish(BinaryBvh& bvh) const {
    for (std::size_t i = 0; i < refs_.size(); ++i) bvh.primitive_order[i] = refs_[i].id();
    return bvh;
  }

  RangeBounds range_bounds(std::uint32_t begin, std::uint32_t end) const {
    RangeBounds b;
    for (std::uint32_t i = begin; i < end; ++i) b.grow(refs_[i]);
    return b;
  }

  void split_or_leaf(const Task& task, std::vector<BinaryNode>& nodes, std::vector<Task>& stack) {
    const Aabbf node_bounds = task.bounds.box.to_aabb();
    const Aabbf center_bounds = task.bounds.centroids.to_aabb();
    nodes[task.node].bounds = node_bounds;
    const std::uint32_t count = task.end - task.begin;

    std::uint32_t middle = task.begin;
    RangeBounds sides[2];
    bool sides_known = false;
    if (count > 1 && count <= kExactSweepMax && task.depth < kMaxSahDepth) {
      middle = exact_split(task, node_bounds, center_bounds, count > settings_.max_leaf_size);
    } else if (count > 1 && task.depth < kMaxSahDepth) {
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
      nodes[task.node].first = task.begin;
      nodes[task.node].count = count;
      return;
    }
    const auto left = static_cast<std::uint32_t>(nodes.size());
    nodes.push_back({});
    nodes.push_back({});
    nodes[task.node].first = left;
    nodes[task.node].count = 0;
    if (!sides_known) sides[0] = range_bounds(task.begin, middle), sides[1] = range_bounds(middle, task.end);
    // Right first, so the left subtree is built (and laid out) first.
    stack.push_back({left + 1, middle, task.end, task.depth + 1, sides[1]});
    stack.push_back({left, task.begin, middle, task.depth + 1, sides[0]});
  }

  float blocks(std::uint32_t n) const {
    // The sweeps ask for this at every bin: a shift for the usual power-of-two block size.
    if (block_shift_ >= 0) return static_cast<float>((n + settings_.leaf_block_size - 1) >> block_shift_);
    return static_cast<float>((n + settings_.leaf_block_size - 1) / settings_.leaf_block_size);
  }

  // A small node is split by sweeping every position of its primitives sorted by centre, on
  // each axis: cheaper than clearing and sweeping 3 x bin_count bins for a handful of
  // primitives, and never worse by the SAH (binned splits are among those positions). Returns
  // the end of the left side (task.begin for a leaf), with refs_ sorted along the chosen axis.
  std::uint32_t exact_split(const Task& task, const Aabbf& node_bounds, const Aabbf& center_bounds, bool must_split) {
    const std::uint32_t count = task.end - task.begin;
    const float inv_area = 1.0f / std::max(0.5f * node_bounds.surface_area(), std::numeric_limits<float>::min());
    struct Keyed {
      float centre;
      std::uint32_t id;     // the primitive's, which breaks ties
      std::uint32_t index;  // into refs_
    };
    std::array<Keyed, kExactSweepMax> order, best_order;
    std::array<float, kExactSweepMax> right_cost;
    float best_cost = kInfinity<float>;
    std::uint32_t best_left = 0;
    for (int axis = 0; axis < 3; ++axis) {
      if (!(center_bounds.max[axis] > center_bounds.min[axis])) continue;  // every centre equal
      for (std::uint32_t i = 0; i < count; ++i) {
        const PrimRef& ref = refs_[task.begin + i];
        alignas(16) float c[4];
        ref.center().store(c);
        order[i] = {c[axis], ref.id(), task.begin + i};
      }
      std::sort(order.begin(), order.begin() + count, [](const Keyed& a, const Keyed& b) {
        return a.centre < b.centre || (a.centre == b.centre && a.id < b.id);
      });
      Box4 acc;
      for (std::uint32_t i = count - 1; i > 0; --i) {
        acc.grow(refs_[order[i].index].box);
        right_cost[i] = acc.half_area() * blocks(count - i);
      }
      acc = {};
      bool improved = false;
      for (std::uint32_t left = 1; left < count; ++left) {
        acc.grow(refs_[order[left - 1].index].box);
        const float cost = settings_.traversal_cost + (acc.half_area() * blocks(left) + right_cost[left]) * inv_area;
        if (cost < best_cost) best_cost = cost, best_left = left, improved = true;
      }
      if (improved) best_order = order;
    }
    if (best_left == 0 || !(best_cost < blocks(count) || must_split)) return task.begin;
    std::array<PrimRef, kExactSweepMax> sorted;
    for (std::uint32_t i = 0; i < count; ++i) sorted[i] = refs_[best_order[i].index];
    std::copy_n(sorted.begin(), count, refs_.begin() + task.begin);
    return task.begin + best_left;
  }

  // Clamped in float, then truncated: lane for lane what find_split's SIMD binning computes
  // (max(x, 0) and min(x, last) in the operand order of maxps and minps).
  std::uint32_t bin_of(float c, float lo, float scale) const {
    const float x = (c - lo) * scale, last = static_cast<float>(settings_.bin_count - 1);
    const float above = x > 0.0f ? x : 0.0f;
    return static_cast<std::uint32_t>(above < last ? above : last);
  }

  // One pass over the primitives bins them on all three axes at once; then a sweep per axis.
  Split find_split(const Task& task, const Aabbf& node_bounds, const Aabbf& center_bounds) const {
    const std::uint32_t k = settings_.bin_count;
    const float inv_area = 1.0f / std::max(0.5f * node_bounds.surface_area(), std::numeric_limits<float>::min());
    float lo[3], scale[3];
    bool usable[3];
    for (int axis = 0; axis < 3; ++axis) {
      lo[axis] = center_bounds.min[axis];
      const float extent = center_bounds.max[axis] - lo[axis];
      usable[axis] = extent > 0.0f;
      scale[axis] = usable[axis] ? static_cast<float>(k) / extent : 0.0f;  // every centre in bin 0
    }
    Bin bins[3][kMaxBins];
    for (auto& axis_bins : bins) {
      for (std::uint32_t b = 0; b < k; ++b) axis_bins[b].clear();
    }
    // The three bin indices at once, as bin_of computes them.
    const Float4 lo4(lo[0], lo[1], lo[2], 0.0f), scale4(scale[0], scale[1], scale[2], 0.0f);
    const Float4 last_bin(static_cast<float>(k - 1));
    for (std::uint32_t i = task.begin; i < task.end; ++i) {
      const PrimRef& ref = refs_[i];
      alignas(16) float bin[4];
      min(max((ref.center() - lo4) * scale4, Float4(0.0f)), last_bin).store(bin);
      for (int axis = 0; axis < 3; ++axis) bins[axis][static_cast<std::uint32_t>(bin[axis])].add(ref.box);
    }
    Split best;
    std::array<float, kMaxBins> right_cost;
    for (int axis = 0; axis < 3; ++axis) {
      if (!usable[axis]) continue;
      const Bin* axis_bins = bins[axis];
      // Sweep from the right for the right-hand areas, then from the left.
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
        if (n == 0 || n == task.end - task.begin) continue;
        const float cost = settings_.traversal_cost + (acc.half_area() * blocks(n) + right_cost[b + 1]) * inv_area;
        if (cost < best.cost) best = {axis, b, cost};
      }
    }
    return best;
  }

  // Moves the primitives of bins [0, split.bin] before the others (in place, deterministic; the
  // order within a side does not matter to the tree) and bounds both sides on the way.
  std::uint32_t partition(const Task& task, const Aabbf& center_bounds, const Split& split, RangeBounds sides[2]) {
    const int axis = split.axis;
    const float lo = center_bounds.min[axis];
    const float scale = static_cast<float>(settings_.bin_count) / (center_bounds.max[axis] - lo);
    const auto goes_left = [&](const PrimRef& ref) {
      alignas(16) float c[4];
      ref.center().store(c);
      return bin_of(c[axis], lo, scale) <= split.bin;
    };
    std::uint32_t i = task.begin, j = task.end;
    for (;;) {
      while (i < j && goes_left(refs_[i])) sides[0].grow(refs_[i++]);
      while (i < j && !goes_left(refs_[j - 1])) sides[1].grow(refs_[--j]);
      if (i == j) return i;
      std::swap(refs_[i], refs_[j - 1]);  // refs_[i] now goes left, refs_[j - 1] right
      sides[0].grow(refs_[i++]);
      sides[1].grow(refs_[--j]);
    }
  }

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

  std::span<const Aabbf> bounds_;
  BuildSettings settings_;
  std::vector<PrimRef> refs_;
  int block_shift_ = -1;  // log2 of leaf_block_size when it is a power of two
  Executor* executor_ = nullptr;
};

}  // namespace

BinaryBvh build_binned_sah(std::span<const Aabbf> bounds, const BuildSettings& settings, Executor* executor) {
  return Builder(bounds, settings, executor).build();
}

}  // namespace hitscan::bvh
