#pragma once
/// Building a binary BVH over boxes with the surface area heuristic, binned (Wald, "On fast
/// Construction of SAH-based Bounding Volume Hierarchies", 2007). Knows nothing about what the
/// boxes bound.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "hitscan/bvh/detail/huge_page_allocator.hpp"
#include "hitscan/executor.hpp"
#include "hitscan/math/aabb.hpp"

namespace hitscan::bvh {

struct BuildSettings {
  /// Largest leaf; a node with more primitives is always split. A MeshBvh takes at most 1020.
  std::uint32_t max_leaf_size = 4;
  /// Number of bins per axis for the SAH sweep (2 to 64).
  std::uint32_t bin_count = 16;
  /// Cost of visiting a node relative to testing one block of primitives.
  float traversal_cost = 1.0f;
  /// Primitives tested together at the cost of one (the SIMD width of the leaf test): the SAH
  /// counts a leaf of n primitives as ceil(n / leaf_block_size) tests.
  std::uint32_t leaf_block_size = 4;
};

/// A node of the binary tree: a leaf holds primitives [first, first + count) of primitive_order;
/// an inner node (count == 0) has its children at `first` and `first + 1`.
struct BinaryNode {
  Aabbf bounds;
  std::uint32_t first = 0;
  std::uint32_t count = 0;
  bool is_leaf() const { return count != 0; }
};

/// Both arrays are on huge pages when large: a million-triangle build writes tens of megabytes of
/// fresh memory, and faulting it in 4 KiB at a time was a fifth of the build's time.
struct BinaryBvh {
  /// nodes[0] is the root; empty when there were no primitives.
  HugePageVector<BinaryNode> nodes;
  /// The primitives in leaf order: leaves refer to ranges of this array.
  HugePageVector<std::uint32_t> primitive_order;
};

/// Builds over the valid boxes of `bounds` (a box that is not valid, e.g. empty or NaN, is left
/// out: its index appears in no leaf). With an executor, the top levels are split on the calling
/// thread and the subtrees below them built in parallel; the tree is the same with or without
/// one, and on any number of threads.
BinaryBvh build_binned_sah(std::span<const Aabbf> bounds, const BuildSettings& settings = {},
                           Executor* executor = nullptr);

/// Writes the boxes of primitives [first, first + out.size()) into `out`.
using BoxSource = std::function<void(std::uint32_t first, std::span<Aabbf> out)>;

/// The same build over `count` primitives whose boxes `boxes` writes a few hundred at a time, for
/// a caller that would otherwise make an array of all of them only to pass it here (a
/// million-triangle mesh's is 24 MB, written, read once and freed). The same tree as the span
/// overload over the boxes that `boxes` gives.
BinaryBvh build_binned_sah(std::uint32_t count, const BoxSource& boxes, const BuildSettings& settings = {},
                           Executor* executor = nullptr);

}  // namespace hitscan::bvh
