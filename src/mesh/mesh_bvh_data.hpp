#pragma once
// The private layout of a MeshBvh, shared by the files of the mesh layer that walk the tree
// (rays in mesh_bvh.cpp, contacts, closest points). Not installed, not part of the API.

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "hitscan/bvh/detail/prefetch.hpp"
#include "hitscan/bvh/detail/traverse.hpp"
#include "hitscan/bvh/wide_bvh.hpp"
#include "hitscan/geometry/ray_triangle.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "hitscan/bvh/detail/huge_page_allocator.hpp"

namespace hitscan {

using TrianglePack4 = TrianglePack<simd::Float4>;

/// Four leaf triangles and their indices in the mesh, side by side so that a hit is completed
/// from the cache lines the leaf test has just read, never from the mesh's arrays.
struct LeafPack {
  /// Padding lanes are NaN (never hit).
  TrianglePack4 triangles;
  /// The mesh's triangle index of every lane (kNoPrimitive for padding).
  std::array<std::uint32_t, 4> ids;
};

/// The boxes of a pack's four triangles, lane by lane (a padding lane's is NaN, which no
/// comparison admits): for the walks that test a leaf's triangles one by one against a query's
/// box before their kernels.
inline AabbPack<simd::Float4> triangle_boxes(const TrianglePack4& t) {
  return {min(min(t.v0_x, t.v1_x), t.v2_x), min(min(t.v0_y, t.v1_y), t.v2_y), min(min(t.v0_z, t.v1_z), t.v2_z),
          max(max(t.v0_x, t.v1_x), t.v2_x), max(max(t.v0_y, t.v1_y), t.v2_y), max(max(t.v0_z, t.v1_z), t.v2_z)};
}

/// The size of a tree (nodes and leaf packs) above which its walks prefetch: about what a core's
/// own cache holds.
inline constexpr std::size_t kPrefetchBytes = std::size_t(4) << 20;

struct MeshBvh::Data {
  /// Both arrays are read at random by every ray: on huge pages when they are large.
  HugePageVector<bvh::WideNode> nodes;
  /// Leaf packs in leaf order.
  HugePageVector<LeafPack> packs;
  /// The box around the root's children: a ray that misses it leaves before the walk.
  bvh::RootBox root_box;
  /// Whether walks ask for the cache lines of the nodes and leaves they will visit: only for a
  /// tree larger than kPrefetchBytes, which a ray's walk does not find in the cache.
  bool prefetch = false;
  /// The triangles left out of the tree as degenerate at build time (refit must find them still
  /// degenerate: the tree has no place for them).
  std::vector<std::uint32_t> left_out;
};

/// Asks for the cache lines of a leaf's first pack (traverse's leaf prefetcher, and the packet
/// walk's).
struct PrefetchPack {
  const LeafPack* packs;
  void operator()(std::uint32_t first) const { bvh::prefetch_bytes(packs + first, sizeof(LeafPack)); }
};

/// Whether a leaf's hit at t on triangle `id` replaces the best so far (at best_t on best_id, if
/// `found`): nearer, or at the same t on a lower triangle index, so that the closest hit is the
/// same whatever order a walk (single ray or packet) meets the leaves in.
inline bool nearer_hit(float t, std::uint32_t id, float best_t, bool found, std::uint32_t best_id) {
  return t < best_t || (t == best_t && (!found || id < best_id));
}

/// The corners of lane `lane` of a pack, as the mesh has them (padding lanes are NaN). Read as
/// floats straight from the pack's bytes: reading a lane of a register type would send each of
/// the nine through a store and a load.
inline Trianglef lane_triangle(const TrianglePack4& pack, int lane) {
  static_assert(sizeof(simd::Float4) == 4 * sizeof(float), "a Float4 is four floats");
  const auto at = [lane](const simd::Float4& field) {
    float x;
    std::memcpy(&x, reinterpret_cast<const unsigned char*>(&field) + lane * sizeof(float), sizeof x);
    return x;
  };
  return {{at(pack.v0_x), at(pack.v0_y), at(pack.v0_z)},
          {at(pack.v1_x), at(pack.v1_y), at(pack.v1_z)},
          {at(pack.v2_x), at(pack.v2_y), at(pack.v2_z)}};
}

}  // namespace hitscan
