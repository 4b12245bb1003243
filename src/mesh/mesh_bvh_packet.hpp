#pragma once
// The mesh layer's side of the ray packet (hitscan/mesh/detail/ray_packet.hpp): the leaf kernel,
// shared by the walk (mesh_bvh_packet.cpp) and the kernels (mesh_bvh_packet_leaf.cpp).

#include <cstdint>

#include "hitscan/mesh/detail/ray_packet.hpp"
#include "mesh_bvh_data.hpp"

namespace hitscan::mesh_packet {

// The rays of `rays` (a mask) against the triangles of one leaf pack.
void rays_vs_pack(Packet& p, const LeafPack& leaf, std::uint32_t pack, std::uint64_t rays, FaceMode faces);

}  // namespace hitscan::mesh_packet
