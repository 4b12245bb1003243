#pragma once
/// The 8-wide BVH: each node holds the boxes of up to 8 children structure-of-arrays, so one SIMD
/// slab test (ray_vs_aabbs) visits all of them. Collapsed from a binary SAH tree by opening, at
/// each wide node, the child of largest surface area until 8 children are reached (the approach of
/// Wald et al., "Getting Rid of Packets", 2008).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "hitscan/bvh/build.hpp"
#include "hitscan/geometry/ray_aabb.hpp"

namespace hitscan::bvh {

inline constexpr int kWideWidth = 8;
/// child[] of an unused slot (its box is empty, so no ray ever enters it).
inline constexpr std::uint32_t kEmptySlot = 0xFFFFFFFFu;

/// Most leaf items one child of a wide node refers to.
inline constexpr std::uint32_t kMaxLeafItems = 255;

struct WideNode {
  AabbPack<simd::Float8> bounds;
  /// Inner child (count == 0): index of its WideNode. Leaf (count > 0): the first of `count` leaf
  /// items in the caller's storage. Unused slot: kEmptySlot.
  std::uint32_t child[kWideWidth];
  /// For each ray octant (bit i set: the direction is negative along axis i), the children's
  /// lanes farthest first, as a simd order of 24 bits at byte 3 * octant: the order in which a
  /// walk stacks the children it enters, so that the nearest pops first. Farthest means by the
  /// box centres projected on the octant's diagonal; unused slots come first.
  std::uint8_t order[3 * kWideWidth];
  std::uint8_t count[kWideWidth];

  /// The children's order for rays of `octant` (see `order`).
  std::uint32_t lane_order(unsigned octant) const {
    // Four bytes from byte 3 * octant: the last octant's fourth byte is count[0], which the
    // order's 24 bits leave out.
    std::uint32_t word;
    std::memcpy(&word, reinterpret_cast<const unsigned char*>(this) + offsetof(WideNode, order) + 3 * octant,
                sizeof word);
    return word;
  }
};
static_assert(sizeof(WideNode) == 256, "a wide node is four cache lines");

/// Sets a node's boxes (box[axis][lane] for min x, y, z then max x, y, z; empty slots given empty
/// boxes) and the children's order for every octant that follows from them.
void set_bounds(WideNode& node, const float (&box)[6][kWideWidth]);

/// Turns a binary leaf (primitives [first, first + count) of primitive_order) into the range of
/// leaf items that represent it in the caller's storage: returns {first_item, item_count}, with
/// 0 < item_count <= kMaxLeafItems.
using MakeLeaf = std::function<std::pair<std::uint32_t, std::uint32_t>(std::uint32_t first, std::uint32_t count)>;

/// The wide tree of a binary one; nodes[0] is the root (a root leaf becomes a root node with one
/// leaf child). Empty for an empty binary tree. Nodes are laid out depth first.
HugePageVector<WideNode> collapse_to_wide(const BinaryBvh& binary, const MakeLeaf& make_leaf);

/// Most entries a traversal stack can hold. The build bounds the binary depth (40 SAH levels, then
/// object-median splits of at most 32 more), the wide depth is at most the binary depth, and each
/// wide level leaves at most 7 siblings on the stack.
inline constexpr int kTraversalStackSize = 8 * 80;

}  // namespace hitscan::bvh
