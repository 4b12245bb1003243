// MeshBvh::intersect_coherent: packets of coherent rays walking the 8-wide tree together.
//
// A packet holds up to 64 rays that share the signs of their direction's components and the axis
// permutation of the watertight test (in an image tile nearly always all of its rays). A node's 8
// child boxes are first tested against the packet as a whole by interval arithmetic over the
// rays' origins and inverse directions (Boulos et al., "Geometric and Arithmetic Culling Methods
// for Entire Ray Packets", 2006; the frustum test of Reshetov, Soupikov and Hurley, "Multi-Level
// Ray Tracing Algorithm", 2005): one 8-wide slab test culls the children that no ray of the
// packet can enter. The children left are tested ray by ray, 8 rays per SIMD slab test, with the
// conservative slab test of bvh::ray_vs_node, so each stack entry carries the mask of the rays
// that enter it (Wald, Boulos and Shirley, "Ray Tracing Deformable Scenes Using Dynamic Bounding
// Volume Hierarchies", 2007, with a ray mask in place of the first-active-ray range). Leaves run
// the watertight test with 8 rays in the SIMD lanes, bit for bit as ray_vs_triangles
// (mesh_bvh_packet_leaf.cpp). So each ray gets intersect's triangle and t: only the order in
// which equal-t hits are met differs.

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "hitscan/assert.hpp"
#include "hitscan/bvh/detail/stack_rank.hpp"
#include "hitscan/bvh/detail/traverse.hpp"
#include "hitscan/bvh/wide_bvh.hpp"
#include "hitscan/geometry/ray_triangle.hpp"
#include "mesh_bvh_packet.hpp"

namespace hitscan {
namespace mesh_packet {
namespace {


// The packet key of a ray: the signs of its direction's components and the main axis of the
// watertight test (WatertightRay::kz; with the signs it fixes kx and ky); -1 for a ray the
// watertight test refuses.
int valid_ray_key(const Rayf& ray) {
  return int(std::signbit(ray.dir.x)) | int(std::signbit(ray.dir.y)) << 1 | int(std::signbit(ray.dir.z)) << 2 |
         max_dimension(ray.dir) << 3;
}
int packet_key(const Rayf& ray) { return is_valid(ray) ? valid_ray_key(ray) : -1; }

// The packet's intervals, 8 lanes at a time, over its groups' lanes (each holds a ray of the
// packet). The inverse directions of an axis share a sign, so one that is infinite (a zero
// component) shows at an end of the interval.
void set_intervals(Packet& p) {
  const auto low = [&](const float* lanes) {
    F m = F::load(lanes);
    for (int g = 1; g < p.groups; ++g) m = min(F::load(lanes + kLanes * g), m);
    return reduce_min(m);
  };
  const auto high = [&](const float* lanes) {
    F m = F::load(lanes);
    for (int g = 1; g < p.groups; ++g) m = max(F::load(lanes + kLanes * g), m);
    return reduce_max(m);
  };
  for (int a = 0; a < 3; ++a) {
    p.origin_lo[a] = low(p.origin[a]), p.origin_hi[a] = high(p.origin[a]);
    p.inv_near_lo[a] = low(p.inv_near[a]), p.inv_near_hi[a] = high(p.inv_near[a]);
    p.inv_far_lo[a] = low(p.inv_far[a]), p.inv_far_hi[a] = high(p.inv_far[a]);
    p.bounded[a] = std::isfinite(p.inv_near_lo[a]) && std::isfinite(p.inv_near_hi[a]);
  }
  p.tmin_lo = low(p.tmin);
}

// A packet of `count` rays of `rays` led by `lead` (whose direction's signs and watertight axes
// every ray of the packet shares): no hit yet, the shared axes and box plane offsets.
void start_packet(Packet& p, std::span<const Rayf> rays, int count, const Rayf& lead) {
  p.count = count;
  p.groups = (count + kLanes - 1) / kLanes;
  p.found = 0;
  p.back = 0;
  p.rays = rays.data();
  const WatertightRay<float> axes = WatertightRay<float>::from_ray(lead);
  p.kx = axes.kx, p.ky = axes.ky, p.kz = axes.kz;
  constexpr std::size_t kAxis = sizeof(F);  // min_x, min_y, min_z, max_x, ...
  for (int a = 0; a < 3; ++a) {
    const bool negative = std::signbit(lead.dir[a]);  // -0 included: max is then the near side
    p.near_offset[a] = (negative ? 3 + a : a) * kAxis;
    p.far_offset[a] = (negative ? a : 3 + a) * kAxis;
  }
}

// Fills a packet with the rays `which[0..count)` of `rays`, valid rays sharing a packet key.
// The watertight preparation (WatertightRay::from_ray's shears, by the same divisions) and the
// inverse directions are computed 8 lanes at a time.
void load_packet(Packet& p, std::span<const Rayf> rays, const std::uint32_t* which, int count) {
  start_packet(p, rays, count, rays[which[0]]);
  alignas(32) float dir[3][kPacketRays];
  for (int r = 0; r < p.groups * kLanes; ++r) {
    // Lanes past the count repeat the first ray (never in a ray mask, and no change to the
    // intervals) so that their arithmetic stays ordinary; their tmax is -inf so that they never
    // raise the packet's bound.
    const int k = r < count ? r : 0;
    const Rayf& ray = rays[which[k]];
    p.source[r] = which[k];
    for (int a = 0; a < 3; ++a) p.origin[a][r] = ray.origin[a], dir[a][r] = ray.dir[a];
    p.tmin[r] = ray.tmin;
    p.tmax[r] = r < count ? ray.tmax : -kInfinity<float>;
  }
  for (int base = 0; base < p.groups * kLanes; base += kLanes) {
    const F d[3] = {F::load(dir[0] + base), F::load(dir[1] + base), F::load(dir[2] + base)};
    for (int a = 0; a < 3; ++a) {
      const F inv = F(1.0f) / d[a];
      inv.store(p.inv_near[a] + base);
      (inv * F(kFarScale<float>)).store(p.inv_far[a] + base);
    }
    (d[p.kx] / d[p.kz]).store(p.shear[0] + base);
    (d[p.ky] / d[p.kz]).store(p.shear[1] + base);
    (F(1.0f) / d[p.kz]).store(p.shear[2] + base);
  }
  set_intervals(p);
}

// The largest tmax of the packet's rays (an upper bound for the packet's box tests).
float packet_tmax(const Packet& p) {
  F t = F::load(p.tmax);
  for (int g = 1; g < p.groups; ++g) t = max(F::load(p.tmax + kLanes * g), t);
  return reduce_max(t);
}

// The packet's test of a node's 8 children: per child, a lower bound on the entry distance of
// every ray of the packet and whether some ray may enter it. Interval arithmetic in float is
// exact here: rounding is monotone, so the bounds computed from the intervals' ends bound the
// values each ray's own slab test computes.
unsigned packet_vs_node(const bvh::WideNode& node, const Packet& p, float tmax, float* t_enter) {
  const auto* planes = reinterpret_cast<const char*>(&node.bounds);
  F t0(p.tmin_lo), t1(tmax);
  for (int a = 0; a < 3; ++a) {
    if (!p.bounded[a]) continue;
    const F near = *reinterpret_cast<const F*>(planes + p.near_offset[a]);
    const F far = *reinterpret_cast<const F*>(planes + p.far_offset[a]);
    const F near_lo = near - F(p.origin_hi[a]), near_hi = near - F(p.origin_lo[a]);
    const F far_lo = far - F(p.origin_hi[a]), far_hi = far - F(p.origin_lo[a]);
    const F in_lo(p.inv_near_lo[a]), in_hi(p.inv_near_hi[a]), if_lo(p.inv_far_lo[a]), if_hi(p.inv_far_hi[a]);
    const F lower = min(min(near_lo * in_lo, near_lo * in_hi), min(near_hi * in_lo, near_hi * in_hi));
    const F upper = max(max(far_lo * if_lo, far_lo * if_hi), max(far_hi * if_lo, far_hi * if_hi));
    t0 = max(lower, t0);
    t1 = min(upper, t1);
  }
  t0.store(t_enter);
  return unsigned(bits(t0 <= t1));
}

// The entry distances of group g's rays into a box with near planes `near` (per axis, the plane
// the rays' direction signs make near): bvh::ray_vs_node's, lane by lane.
F group_entry(const float* near, const Packet& p, int g) {
  const int base = kLanes * g;
  F t0 = max((F(near[0]) - F::load(p.origin[0] + base)) * F::load(p.inv_near[0] + base), F::load(p.tmin + base));
  t0 = max((F(near[1]) - F::load(p.origin[1] + base)) * F::load(p.inv_near[1] + base), t0);
  return max((F(near[2]) - F::load(p.origin[2] + base)) * F::load(p.inv_near[2] + base), t0);
}

// The near planes of child `slot` of a node, as the packet's direction signs choose them.
void near_planes(const bvh::WideNode& node, const Packet& p, int slot, float* near) {
  const auto* planes = reinterpret_cast<const char*>(&node.bounds);
  for (int a = 0; a < 3; ++a) near[a] = float_at(planes, p.near_offset[a] + slot * sizeof(float));
}

// p.floor for the rays of `rays` (a mask): bvh::leaf_floor of their entry into child `slot` of
// `node`, a leaf, lane by lane (the scalar min(a, b) is the SIMD min(b, a), NaN aside).
void leaf_floors(const bvh::WideNode& node, int slot, Packet& p, std::uint64_t rays) {
  float near[3];
  near_planes(node, p, slot, near);
  for (unsigned groups = occupied_groups(rays); groups != 0; groups &= groups - 1) {
    const int g = std::countr_zero(groups);
    const F entry = group_entry(near, p, g);
    min(F(std::numeric_limits<float>::max()), min(entry, entry * F(bvh::kLeafScale))).store(p.floor + kLanes * g);
  }
}

// The rays of `rays` (a mask) that enter each child of `children`: the slab test of
// bvh::ray_vs_node, lane by lane, 8 rays at a time.
void rays_vs_children(const bvh::WideNode& node, const Packet& p, std::uint64_t rays, unsigned children,
                      std::uint64_t* entering) {
  const auto* planes = reinterpret_cast<const char*>(&node.bounds);
  float near[kLanes][3], far[kLanes][3];
  for (unsigned c = children; c != 0; c &= c - 1) {
    const int i = std::countr_zero(c);
    entering[i] = 0;
    near_planes(node, p, i, near[i]);
    for (int a = 0; a < 3; ++a) far[i][a] = float_at(planes, p.far_offset[a] + i * sizeof(float));
  }
  for (unsigned groups = occupied_groups(rays); groups != 0; groups &= groups - 1) {
    const int g = std::countr_zero(groups);
    const unsigned lanes = group_lanes(rays, g);
    const int base = kLanes * g;
    const F ox = F::load(p.origin[0] + base), oy = F::load(p.origin[1] + base), oz = F::load(p.origin[2] + base);
    const F fx = F::load(p.inv_far[0] + base), fy = F::load(p.inv_far[1] + base), fz = F::load(p.inv_far[2] + base);
    const F limit = F::load(p.tmax + base);
    const F tmax = max(limit * F(bvh::kCullScale), limit);  // bvh::cull_limit, lane for lane
    for (unsigned c = children; c != 0; c &= c - 1) {
      const int i = std::countr_zero(c);
      const F t0 = group_entry(near[i], p, g);
      F t1 = min((F(far[i][0]) - ox) * fx, tmax);
      t1 = min((F(far[i][1]) - oy) * fy, t1);
      t1 = min((F(far[i][2]) - oz) * fz, t1);
      entering[i] |= std::uint64_t(unsigned(bits(t0 <= t1)) & lanes) << base;
    }
  }
}


// Drops from `rays` those whose tmax has fallen below `t_enter`, a lower bound of their entry
// into the subtree: they can find nothing nearer there.
std::uint64_t still_open(const Packet& p, std::uint64_t rays, float t_enter) {
  std::uint64_t open = 0;
  for (unsigned groups = occupied_groups(rays); groups != 0; groups &= groups - 1) {
    const int g = std::countr_zero(groups);
    const unsigned lanes = group_lanes(rays, g);
    const F limit = F::load(p.tmax + kLanes * g);
    open |= std::uint64_t(unsigned(bits(F(t_enter) <= max(limit * F(bvh::kCullScale), limit))) & lanes) << (kLanes * g);
  }
  return open;
}

// The walk: nearest child first by its packet entry bound; a stack entry is skipped, or loses
// rays, when the rays' hits have moved nearer than it.
void trace_packet(const MeshBvh::Data& d, Packet& p, std::uint64_t all, FaceMode faces) {
  if (d.nodes.empty() || all == 0) return;
  struct Entry {
    std::uint32_t child, count;
    std::uint64_t rays;
    float t;
    std::uint32_t parent, slot;  // where the child's box is (for a leaf's floors)
  };
  Entry stack[bvh::kTraversalStackSize];
  int top = 0;
  Entry current{0, 0, all, p.tmin_lo, 0, 0};
  float tmax = packet_tmax(p);
  for (;;) {
    if (current.count != 0) {
      leaf_floors(d.nodes[current.parent], int(current.slot), p, current.rays);
      for (std::uint32_t k = current.child; k < current.child + current.count; ++k) {
        rays_vs_pack(p, d.packs[k], k, current.rays, faces);
      }
      tmax = packet_tmax(p);
    } else {
      const bvh::WideNode& node = d.nodes[current.child];
      alignas(32) float t_enter[kLanes];
      unsigned children = packet_vs_node(node, p, bvh::cull_limit(tmax), t_enter);
      for (unsigned c = children; c != 0; c &= c - 1) {
        if (node.child[std::countr_zero(c)] == bvh::kEmptySlot) children &= ~(1u << std::countr_zero(c));
      }
      std::uint64_t entering[kLanes];
      rays_vs_children(node, p, current.rays, children, entering);
      unsigned pushed = 0;  // the children some ray enters
      for (unsigned c = children; c != 0; c &= c - 1) {
        if (entering[std::countr_zero(c)] != 0) pushed |= 1u << std::countr_zero(c);
      }
      const F entries = F::load(t_enter);
      for (unsigned c = pushed; c != 0; c &= c - 1) {
        const int i = std::countr_zero(c);
        const Entry e{node.child[i], node.count[i], entering[i], t_enter[i], current.child, std::uint32_t(i)};
        // Its cache lines are asked for now, as traverse does for single rays.
        bvh::prefetch_child(d.nodes, PrefetchPack{d.packs.data()}, e.child, e.count);
        // Nearest entry bound on top, as traverse orders single rays' children.
        stack[top + bvh::rank_nearest_on_top(entries, pushed, i, e.t)] = e;
      }
      top += std::popcount(pushed);
    }
    for (;;) {
      if (top == 0) return;
      current = stack[--top];
      if (current.t > bvh::cull_limit(tmax)) continue;
      current.rays = still_open(p, current.rays, current.t);
      if (current.rays != 0) break;
    }
  }
}

}  // namespace

bool load_rays(Packet& p, std::span<const Rayf> rays, std::uint64_t valid, const RayLanes& lanes) {
  const int n = int(rays.size());
  if (valid == 0 || n > kPacketRays || (n < kPacketRays && (valid >> n) != 0)) return false;
  const int first = std::countr_zero(valid);
  const Rayf& lead = rays[std::size_t(first)];
  const int key = valid_ray_key(lead);
  const int groups = (n + kLanes - 1) / kLanes;
  // Every valid ray's key is the lead's, 8 rays at a time: the signs of F(1) / direction are
  // std::signbit's (1 / -0 is -inf), and the main axis is max_dimension's.
  const int lead_kz = key >> 3;
  for (int g = 0; g < groups; ++g) {
    const unsigned used = group_lanes(valid, g);
    if (used == 0) continue;
    const int base = kLanes * g;
    unsigned differ = 0;
    for (int a = 0; a < 3; ++a) {
      const unsigned negative = unsigned(bits(F::load(lanes.inv_dir[a] + base) < F(0.0f)));
      differ |= negative ^ ((key >> a & 1) != 0 ? 0xFFu : 0u);
    }
    const F mx = abs(F::load(lanes.dir[0] + base)), my = abs(F::load(lanes.dir[1] + base));
    const F mz = abs(F::load(lanes.dir[2] + base));
    const M x_over_y = mx >= my;
    const M z_wins = ~(select(x_over_y, mx, my) >= mz);
    const M axis = lead_kz == 2 ? z_wins : andnot(lead_kz == 0 ? x_over_y : ~x_over_y, z_wins);
    differ |= ~unsigned(bits(axis));
    if ((differ & used) != 0) return false;
  }
  // As load_packet of the rays `valid` names (the others replaced by the lead): the same
  // operations on the same values, so the same bits.
  start_packet(p, rays, n, lead);
  for (int r = 0; r < groups * kLanes; ++r) {
    const bool used = r < n && (valid >> r & 1) != 0;
    const int k = used ? r : first;
    p.source[r] = std::uint32_t(k);
    p.tmin[r] = rays[std::size_t(k)].tmin;
    p.tmax[r] = used ? rays[std::size_t(r)].tmax : -kInfinity<float>;
  }
  for (int g = 0; g < groups; ++g) {
    const int base = kLanes * g;
    const M used = M::from_bits(int(group_lanes(valid, g)));
    F d[3];
    for (int a = 0; a < 3; ++a) {
      select(used, F::load(lanes.origin[a] + base), F(lead.origin[a])).store(p.origin[a] + base);
      d[a] = select(used, F::load(lanes.dir[a] + base), F(lead.dir[a]));
      const F inv = select(used, F::load(lanes.inv_dir[a] + base), F(1.0f) / F(lead.dir[a]));
      inv.store(p.inv_near[a] + base);
      (inv * F(kFarScale<float>)).store(p.inv_far[a] + base);
    }
    (d[p.kx] / d[p.kz]).store(p.shear[0] + base);
    (d[p.ky] / d[p.kz]).store(p.shear[1] + base);
    F::load(p.inv_near[p.kz] + base).store(p.shear[2] + base);  // F(1) / d[kz], as load_packet
  }
  set_intervals(p);
  return true;
}

}  // namespace mesh_packet

void MeshBvh::trace_packet(mesh_packet::Packet& packet, std::uint64_t rays, FaceMode faces) const {
  packet.found = 0;
  packet.back = 0;
  if (data_) mesh_packet::trace_packet(*data_, packet, rays, faces);
}

MeshHit MeshBvh::packet_hit(const mesh_packet::Packet& p, int lane) const {
  return complete_hit(p.rays[p.source[lane]], p.tmax[lane], p.best_pack[lane], p.best_lane[lane], p.best_u[lane],
                      p.best_v[lane], (p.back >> lane & 1) != 0);
}


Status MeshBvh::intersect_coherent(std::span<const Rayf> rays, std::span<MeshHit> hits, FaceMode faces) const {
  if (rays.size() != hits.size()) {
    return Status{StatusCode::invalid_argument, "MeshBvh::intersect_coherent: " + std::to_string(rays.size()) +
                                                    " rays but room for " + std::to_string(hits.size()) + " hits"};
  }
  using namespace mesh_packet;
  Packet packet;
  int key[kPacketRays];
  std::uint32_t which[kPacketRays];
  for (std::size_t begin = 0; begin < rays.size(); begin += kPacketRays) {
    const int n = int(std::min<std::size_t>(kPacketRays, rays.size() - begin));
    // The run's valid rays, split into packets by key (an image tile nearly always has one).
    std::uint64_t pending = 0;
    for (int r = 0; r < n; ++r) {
      const std::size_t i = begin + std::size_t(r);
      hits[i] = {};
      key[r] = data_ ? packet_key(rays[i]) : -1;
      if (key[r] >= 0) pending |= std::uint64_t(1) << r;
    }
    while (pending != 0) {
      const int shared = key[std::countr_zero(pending)];
      int count = 0;
      for (std::uint64_t rest = pending; rest != 0; rest &= rest - 1) {
        const int r = std::countr_zero(rest);
        if (key[r] != shared) continue;
        which[count++] = std::uint32_t(begin) + std::uint32_t(r);
        pending &= ~(std::uint64_t(1) << r);
      }
      load_packet(packet, rays, which, count);
      mesh_packet::trace_packet(*data_, packet, count == kPacketRays ? ~std::uint64_t(0) : (std::uint64_t(1) << count) - 1, faces);
      for (int r = 0; r < count; ++r) {
        if ((packet.found >> r & 1) == 0) continue;
        hits[packet.source[r]] = packet_hit(packet, r);
      }
    }
  }
  return Status::success();
}

Status MeshInstance::intersect_coherent(std::span<const Rayf> rays, std::span<MeshHit> hits, FaceMode faces) const {
  if (rays.size() != hits.size()) {
    return Status{StatusCode::invalid_argument, "MeshInstance::intersect_coherent: " + std::to_string(rays.size()) +
                                                    " rays but room for " + std::to_string(hits.size()) + " hits"};
  }
  using mesh_packet::kPacketRays;
  if (!bvh || !transform.is_invertible()) {
    std::fill(hits.begin(), hits.end(), MeshHit{});
    return Status::success();
  }
  if (transform.is_identity()) {
    // The mesh's frame is the world's: the rays go in as they are, and the normals are
    // renormalised as apply_normal would.
    static_cast<void>(bvh->intersect_coherent(rays, hits, faces));
    for (MeshHit& hit : hits) {
      if (hit) hit.normal = normalize(hit.normal), hit.shading_normal = normalize(hit.shading_normal);
    }
    return Status::success();
  }
  Rayf local[kPacketRays];
  for (std::size_t begin = 0; begin < rays.size(); begin += kPacketRays) {
    const std::size_t n = std::min<std::size_t>(kPacketRays, rays.size() - begin);
    const std::span<const Rayf> world = rays.subspan(begin, n);
    const std::span<MeshHit> out = hits.subspan(begin, n);
    // As MeshInstance::intersect: the ray goes into the mesh's frame, where t is unchanged.
    for (std::size_t r = 0; r < n; ++r) {
      const Rayf& ray = world[r];
      local[r] = is_valid(ray)
                     ? Rayf{transform.inverse_point(ray.origin), transform.inverse_vector(ray.dir), ray.tmin, ray.tmax}
                     : ray;
    }
    static_cast<void>(bvh->intersect_coherent(std::span<const Rayf>(local, n), out, faces));
    for (std::size_t r = 0; r < n; ++r) {
      MeshHit& hit = out[r];
      if (!hit) continue;
      hit.point = world[r].at(hit.t);
      hit.normal = transform.apply_normal(hit.normal);
      hit.shading_normal = transform.apply_normal(hit.shading_normal);
    }
  }
  return Status::success();
}

}  // namespace hitscan
