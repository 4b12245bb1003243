#pragma once
/// The 8-wide BVH: each node holds the boxes of up to 8 children structure-of-arrays, so one SIMD
/// slab test (ray_vs_aabbs) visits all of them. Collapsed from a binary SAH tree by opening, at
/// each wide node, the child of largest surface area until 8 children are reached (the approach of
/// Wald et al., "Getting Rid of Packets", 2008).

#include <cstdint>
#include <functional>
#include <vector>

#include "hitscan/bvh/build.hpp"
#include "hitscan/geometry/ray_aabb.hpp"

namespace hitscan::bvh {

inline constexpr int kWideWidth = 8;
/// child[] of an unused slot (its box is empty, so no ray ever enters it).
inline constexpr std::uint32_t kEmptySlot = 0xFFFFFFFFu;

struct WideNode {
  AabbPack<simd::Float8> bounds;
  /// Inner child (count == 0): index of its WideNode. Leaf (count > 0): the first of `count` leaf
  /// items in the caller's storage. Unused slot: kEmptySlot.
  std::uint32_t child[kWideWidth];
  std::uint32_t count[kWideWidth];
};

/// Turns a binary leaf (primitives [first, first + count) of primitive_order) into the range of
/// leaf items that represent it in the caller's storage: returns {first_item, item_count}, with
/// item_count > 0.
using MakeLeaf = std::function<std::pair<std::uint32_t, std::uint32_t>(std::uint32_t first, std::uint32_t count)>;

/// The wide tree of a binary one; nodes[0] is the root (a root leaf becomes a root node with one
/// leaf child). Empty for an empty binary tree. Nodes are laid out depth first.
HugePageVector<WideNode> collapse_to_wide(const BinaryBvh& binary, const MakeLeaf& make_leaf);

/// Most entries a traversal stack can hold. The build bounds the binary depth (40 SAH levels, then
/// object-median splits of at most 32 more), the wide depth is at most the binary depth, and each
/// wide level leaves at most 7 siblings on the stack.
inline constexpr int kTraversalStackSize = 8 * 80;

}  // namespace hitscan::bvh
