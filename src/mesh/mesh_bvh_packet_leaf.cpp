// The leaf kernels of MeshBvh::intersect_coherent: a packet's rays against one leaf pack.
//
// The watertight test runs with 8 rays in the SIMD lanes against one triangle at a time: per lane
// the operations and their order are those of ray_vs_triangles, so the results are the same bits,
// and the lanes it hands to the scalar kernel (an edge function exactly zero) are the same too; a
// group with only a ray or two left in a leaf takes ray_vs_triangles itself. The walk that calls
// these is in mesh_bvh_packet.cpp.

#include <bit>

#include "hitscan/bvh/detail/traverse.hpp"
#include "hitscan/geometry/ray_triangle.hpp"
#include "mesh_bvh_packet.hpp"

namespace hitscan::mesh_packet {
namespace {

// Whether the query takes a hit on this side.
M faces_taken(M back, FaceMode faces) {
  switch (faces) {
    case FaceMode::front_only: return ~back;
    case FaceMode::back_only: return back;
    case FaceMode::both: break;
  }
  return back | ~back;
}

// Records a hit of ray r on lane `lane` of pack `pack` (triangle `id`) if it replaces its best
// (nearer_hit), as MeshBvh::intersect's leaf does.
void offer_hit(Packet& p, int r, float t, float u, float v, bool back, std::uint32_t pack, int lane, std::uint32_t id) {
  const std::uint64_t bit = std::uint64_t(1) << r;
  if (!nearer_hit(t, id, p.tmax[r], (p.found & bit) != 0, p.best_id[r])) return;
  p.tmax[r] = t;
  p.best_id[r] = id;
  p.best_u[r] = u, p.best_v[r] = v;
  p.best_pack[r] = pack;
  p.best_lane[r] = static_cast<std::uint8_t>(lane);
  p.found |= bit;
  p.back = back ? p.back | bit : p.back & ~bit;
}

// One ray against the pack with the per-ray kernel, as MeshBvh::intersect's leaf does: cheaper
// than a SIMD lane set for a group with only a ray or two left.
void ray_vs_pack(Packet& p, int r, const LeafPack& leaf, std::uint32_t pack, FaceMode faces) {
  WatertightRay<float> ray;
  ray.valid = true;
  ray.origin = {p.origin[0][r], p.origin[1][r], p.origin[2][r]};
  ray.tmin = p.tmin[r];
  ray.tmax = p.tmax[r];
  ray.kx = p.kx, ray.ky = p.ky, ray.kz = p.kz;
  ray.shear_x = p.shear[0][r], ray.shear_y = p.shear[1][r], ray.shear_z = p.shear[2][r];
  const PackHit<simd::Float4> h = ray_vs_triangles(leaf.triangles, ray, p.rays[p.source[r]].dir);
  const unsigned back = unsigned(bits(h.back_face));
  unsigned lanes = unsigned(bits(h.hit));
  if (faces != FaceMode::both) lanes &= faces == FaceMode::back_only ? back : ~back;
  for (; lanes != 0; lanes &= lanes - 1) {
    const int lane = std::countr_zero(lanes);
    offer_hit(p, r, bvh::leaf_t(h.t[lane], p.floor[r]), h.u[lane], h.v[lane], ((back >> lane) & 1) != 0, pack, lane,
              leaf.ids[lane]);
  }
}

// Groups with at most this many rays take the per-ray kernel.
constexpr int kSparseGroup = 2;

}  // namespace

void rays_vs_pack(Packet& p, const LeafPack& leaf, std::uint32_t pack, std::uint64_t rays, FaceMode faces) {
  unsigned dense = 0;
  for (unsigned groups = occupied_groups(rays); groups != 0; groups &= groups - 1) {
    const int g = std::countr_zero(groups);
    const unsigned lanes = group_lanes(rays, g);
    if (std::popcount(lanes) > kSparseGroup) {
      dense |= 1u << g;
      continue;
    }
    for (unsigned rest = lanes; rest != 0; rest &= rest - 1) ray_vs_pack(p, kLanes * g + std::countr_zero(rest), leaf, pack, faces);
  }
  if (dense == 0) return;
  const auto* corners = reinterpret_cast<const char*>(&leaf.triangles);
  const auto coordinate = [&](int vertex, int axis, int lane) {
    return float_at(corners, (3 * vertex + axis) * sizeof(simd::Float4) + lane * sizeof(float));
  };
  for (int lane = 0; lane < 4; ++lane) {
    if (leaf.ids[lane] == kNoPrimitive) continue;
    const F v0x(coordinate(0, p.kx, lane)), v0y(coordinate(0, p.ky, lane)), v0z(coordinate(0, p.kz, lane));
    const F v1x(coordinate(1, p.kx, lane)), v1y(coordinate(1, p.ky, lane)), v1z(coordinate(1, p.kz, lane));
    const F v2x(coordinate(2, p.kx, lane)), v2y(coordinate(2, p.ky, lane)), v2z(coordinate(2, p.kz, lane));
    for (unsigned groups = dense; groups != 0; groups &= groups - 1) {
      const int g = std::countr_zero(groups);
      const unsigned lanes = group_lanes(rays, g);
      const int base = kLanes * g;
      // ray_vs_triangles, lane for lane (the same operations in the same order).
      const F ox = F::load(p.origin[p.kx] + base), oy = F::load(p.origin[p.ky] + base);
      const F oz = F::load(p.origin[p.kz] + base);
      const F sx = F::load(p.shear[0] + base), sy = F::load(p.shear[1] + base);
      const F az = v0z - oz, bz = v1z - oz, cz = v2z - oz;
      const F ax = (v0x - ox) - sx * az, ay = (v0y - oy) - sy * az;
      const F bx = (v1x - ox) - sx * bz, by = (v1y - oy) - sy * bz;
      const F cx = (v2x - ox) - sx * cz, cy = (v2y - oy) - sy * cz;
      const F u = cx * by - cy * bx;
      const F v = ax * cy - ay * cx;
      const F w = bx * ay - by * ax;
      const F zero(0.0f);
      // As ray_vs_triangles reads it: both signs among the edge functions (finite in the lanes
      // of `lanes`, the only ones whose answers are kept).
      const M outside = (min(min(u, v), w) < zero) & (max(max(u, v), w) > zero);
      const unsigned inside = unsigned(bits(~outside)) & lanes;
      if (inside == 0) continue;  // the common case: every ray passes the triangle by
      const F sz = F::load(p.shear[2] + base);
      const F tmax = F::load(p.tmax + base);
      const F det = u + v + w;
      const F inv_det = F(1.0f) / det;
      const F b1 = v * inv_det, b2 = w * inv_det;
      const F t = (u * inv_det) * (sz * az) + b1 * (sz * bz) + b2 * (sz * cz);
      const M on_edge = (u == zero) | (v == zero) | (w == zero);
      const M accepted = andnot((det != zero) & (abs(det) < F(kInfinity<float>)) & (t >= F::load(p.tmin + base)) &
                                    (t <= tmax) & (t < F(kInfinity<float>)),
                                outside);
      const M back = det < zero;
      const M found = M::from_bits(int(group_lanes(p.found, g)));
      // MeshBvh::intersect's leaf: the kernel takes t within [tmin, tmax], the nearest hit is
      // chosen by bvh::leaf_t.
      const F t_leaf = max(t, F::load(p.floor + base));
      const M nearer = (t_leaf < tmax) | andnot(t_leaf == tmax, found);
      unsigned taken = unsigned(bits(andnot(accepted, on_edge) & faces_taken(back, faces) & nearer)) & lanes;
      unsigned rare = unsigned(bits(on_edge)) & inside;
      if ((taken | rare) == 0) continue;
      alignas(32) float t_lanes[kLanes], u_lanes[kLanes], v_lanes[kLanes];
      t_leaf.store(t_lanes);
      b1.store(u_lanes);
      b2.store(v_lanes);
      const unsigned back_bits = unsigned(bits(back));
      for (; taken != 0; taken &= taken - 1) {
        const int i = std::countr_zero(taken);
        offer_hit(p, base + i, t_lanes[i], u_lanes[i], v_lanes[i], ((back_bits >> i) & 1) != 0, pack, lane,
                  leaf.ids[lane]);
      }
      // An edge function of exactly zero: the scalar kernel's double retry and ownership rule,
      // as ray_vs_triangles does.
      for (; rare != 0; rare &= rare - 1) {
        const int r = base + std::countr_zero(rare);
        const Rayf& ray = p.rays[p.source[r]];
        WatertightRay<float> prepared = WatertightRay<float>::from_ray(ray);
        prepared.tmax = p.tmax[r];
        const RayHit<float> h = ray_vs_triangle(lane_triangle(leaf.triangles, lane), prepared, ray.dir);
        if (!h.hit) continue;
        const bool back_face = h.back_face();
        if (faces == FaceMode::front_only ? back_face : faces == FaceMode::back_only && !back_face) continue;
        offer_hit(p, r, bvh::leaf_t(h.t, p.floor[r]), h.u, h.v, back_face, pack, lane, leaf.ids[lane]);
      }
    }
  }
}

}  // namespace hitscan::mesh_packet
