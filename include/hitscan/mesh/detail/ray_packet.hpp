#pragma once
// The ray packet that MeshBvh::trace_packet walks a mesh's tree with: the mesh layer's walk and
// leaf kernels and the scene's coherent batches (which prepare one packet for every instance's
// tree) share it. Not part of the API: not installed.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/ray_pack.hpp"
#include "hitscan/math/simd.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"

namespace hitscan::mesh_packet {

using F = simd::Float8;
using M = MaskOf<F>;
constexpr int kLanes = F::width;
constexpr int kGroups = 8;
constexpr int kPacketRays = kLanes * kGroups;
static_assert(sizeof(F) == kLanes * sizeof(float) && sizeof(simd::Float4) == 4 * sizeof(float),
              "lanes are read from the node and pack layouts as consecutive floats");

// One float of a SIMD value stored in a layout, by byte offset.
inline float float_at(const void* base, std::size_t offset) {
  float value;
  std::memcpy(&value, static_cast<const char*>(base) + offset, sizeof value);
  return value;
}

// The rays of one packet, structure-of-arrays by lane, and the nearest hit of each so far.
struct Packet {
  int count = 0;
  int groups = 0;
  // The shared watertight permutation, and per axis the offsets of the near and far planes in a
  // node's AabbPack (the direction signs are shared).
  int kx = 0, ky = 1, kz = 2;
  std::size_t near_offset[3]{}, far_offset[3]{};
  // Intervals over the packet's rays, per axis; an axis whose inverse direction is not finite
  // for some ray (a zero component) is left out of the packet test.
  bool bounded[3]{};
  float origin_lo[3]{}, origin_hi[3]{}, inv_near_lo[3]{}, inv_near_hi[3]{}, inv_far_lo[3]{}, inv_far_hi[3]{};
  float tmin_lo = 0;
  alignas(32) float origin[3][kPacketRays];
  alignas(32) float inv_near[3][kPacketRays];
  alignas(32) float inv_far[3][kPacketRays];
  alignas(32) float shear[3][kPacketRays];
  alignas(32) float tmin[kPacketRays];
  // The ray's tmax, lowered to each nearer hit (the t of the best hit once one is found).
  alignas(32) float tmax[kPacketRays];
  // bvh::leaf_floor of the ray's entry into the leaf being tested, bit for bit: the least t the
  // leaf reports (bvh::leaf_t).
  alignas(32) float floor[kPacketRays];
  alignas(32) float best_u[kPacketRays];
  alignas(32) float best_v[kPacketRays];
  std::uint32_t best_pack[kPacketRays];
  std::uint32_t best_id[kPacketRays];  // the best hit's triangle, for nearer_hit's tie rule
  std::uint8_t best_lane[kPacketRays];
  std::uint64_t found = 0;
  std::uint64_t back = 0;
  // The caller's rays, and where each lane's ray sits among them.
  const Rayf* rays = nullptr;
  std::uint32_t source[kPacketRays];
};

// The caller's rays structure-of-arrays, kPacketRays lanes per array: origins, directions and
// F(1) / direction computed 8 lanes at a time (as load_rays would compute them).
struct RayLanes {
  const float* origin[3];
  const float* dir[3];
  const float* inv_dir[3];
};

// Loads lane r of `p` with rays[r] for r < rays.size() <= kPacketRays, for tracing through any
// tree in the rays' frame with MeshBvh::trace_packet. `lanes` holds the same rays (its lanes not in
// `valid` may hold anything). Lanes not in `valid` (rays the caller will not trace) repeat a valid
// ray with tmax -inf. The rays of `valid` must pass is_valid (the caller has checked them). False,
// leaving the packet unusable, when `valid` is empty or its rays do not all share the signs of
// their directions and the watertight test's axes.
bool load_rays(Packet& p, std::span<const Rayf> rays, std::uint64_t valid, const RayLanes& lanes);

// The bits of group g in a packet-wide ray mask.
inline unsigned group_lanes(std::uint64_t rays, int g) { return unsigned(rays >> (kLanes * g)) & 0xFFu; }

// Bit g set when group g of a packet-wide ray mask holds a ray: the loops over a packet's groups
// visit only those (a deep node or a leaf sees a ray or two in two or three of the eight).
inline unsigned occupied_groups(std::uint64_t rays) {
  static_assert(kLanes == 8 && kGroups == 8, "a byte per group");
  std::uint64_t x = rays | rays >> 4;
  x |= x >> 2;
  x |= x >> 1;                  // bit 0 of each byte: some bit of the byte
  x &= 0x0101010101010101ull;
  return unsigned((x * 0x0102040810204080ull) >> 56);  // byte g's bit 0 to bit 56 + g
}

// A mesh tree's packet tracing, for the scene's coherent batches.
struct Trace {
  // The rays of `rays` (a mask of lanes) against the tree, each up to its lane's tmax; the hits
  // found replace the lanes' bests.
  static void rays(const MeshBvh& bvh, Packet& packet, std::uint64_t rays, FaceMode faces) {
    bvh.trace_packet(packet, rays, faces);
  }
  // The full record of the hit found for lane `lane`.
  static MeshHit hit(const MeshBvh& bvh, const Packet& packet, int lane) { return bvh.packet_hit(packet, lane); }
};

}  // namespace hitscan::mesh_packet
