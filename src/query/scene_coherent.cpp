// Scene::raycast_coherent_batch: runs of coherent rays traced through the scene together.
//
// Per packet (a run of up to 64 rays) the colliders it can meet are gathered from the top-level
// tree by one box query, the box of the rays' segments inside the scene's bounds, and culled by an
// interval-arithmetic test of the whole packet against each collider's box (Boulos et al.,
// "Geometric and Arithmetic Culling Methods for Entire Ray Packets", 2006). They are visited
// nearest packet entry first. A mesh traces the packet's rays through
// MeshInstance::intersect_coherent with each ray's tmax at its nearest hit so far (a mesh placed
// as it is, such as a reconstruction's chunks, through one packet prepared for all of them: the
// rays' preparation is not repeated per chunk), any other
// shape runs its kernel ray by ray; either is asked only about the rays whose limit the
// collider's box admits, by walk_nearest's own box test. A hit replaces a ray's best as in
// walk_nearest (hit_before), so the result is raycast's whatever order the colliders come in.

#include <algorithm>
#include <bit>
#include <limits>
#include <string>
#include <vector>

#include "hitscan/geometry/ray_pack.hpp"
#include "hitscan/mesh/detail/ray_packet.hpp"
#include "scene_ray_hits.hpp"
#include "scene_state.hpp"

namespace hitscan {
namespace {

using namespace scene_ray;

using F = simd::Float8;
using M = MaskOf<F>;
constexpr std::size_t kLanes = F::width;
constexpr std::size_t kPacketRays = 64;
constexpr std::size_t kGrainPackets = 4;  // packets per chunk handed to a thread

// Intervals over a packet's valid rays, per axis: origins and inverse directions. An axis on
// which the rays' directions differ in sign, or one is zero, is left out of the packet test.
struct PacketBounds {
  bool bounded[3]{};
  float origin_lo[3]{}, origin_hi[3]{}, inv_lo[3]{}, inv_hi[3]{};
};

// Whether a ray of the packet may enter `box` within [0, tmax]: false only when no ray's
// ray_enters_box accepts it. t_enter receives a lower bound of their entries. Float
// interval arithmetic is exact for this: rounding is monotone, so the bounds computed from the
// intervals' ends (inv_far's from inv_dir's, scaled as RayInverse scales each ray's) bound what
// each ray's own test computes.
bool packet_enters_box(const PacketBounds& b, const Aabbf& box, float tmax, float& t_enter) {
  float t0 = 0.0f, t1 = tmax;
  for (int a = 0; a < 3; ++a) {
    if (!b.bounded[a]) continue;
    const bool negative = b.inv_hi[a] < 0.0f;
    const float near = negative ? box.max[a] : box.min[a], far = negative ? box.min[a] : box.max[a];
    const float near_lo = near - b.origin_hi[a], near_hi = near - b.origin_lo[a];
    const float far_lo = far - b.origin_hi[a], far_hi = far - b.origin_lo[a];
    const float lo = b.inv_lo[a], hi = b.inv_hi[a];
    const float far_scaled_lo = lo * kFarScale<float>, far_scaled_hi = hi * kFarScale<float>;
    t0 = max(t0, min(min(near_lo * lo, near_lo * hi), min(near_hi * lo, near_hi * hi)));
    t1 = min(t1, max(max(far_lo * far_scaled_lo, far_lo * far_scaled_hi), max(far_hi * far_scaled_lo, far_hi * far_scaled_hi)));
  }
  t_enter = t0;
  return t0 <= t1;
}

// A collider the packet may meet: where the packet's middle ray enters its box (+inf when it
// does not), and a lower bound of every ray's entry.
struct Candidate {
  const CommittedCollider* collider;
  float t;
  float bound;
};

// What tracing a packet needs, once per thread.
struct Workspace {
  // ray[r].tmax is the ray's limit, then the distance of its best hit (walk_nearest's clip).
  Rayf ray[kPacketRays];
  bool valid[kPacketRays];
  // The same rays structure-of-arrays, for testing 8 of them at once against a collider's box;
  // tmax is -inf for a ray that can hit nothing.
  alignas(32) float origin[3][kPacketRays];
  alignas(32) float dir[3][kPacketRays];
  alignas(32) float inv_dir[3][kPacketRays];
  alignas(32) float negative[3][kPacketRays];  // all bits set where the direction is negative
  alignas(32) float tmax[kPacketRays];
  // The rays a mesh is traced for, and which of the packet's each is.
  Rayf mesh_rays[kPacketRays];
  std::uint8_t mesh_ray_of[kPacketRays];
  MeshHit mesh_hits[kPacketRays];
  // The rays prepared once for every mesh chunk placed in the world as it is (identity
  // transform), when they share the packet's preconditions.
  mesh_packet::Packet shared;
  std::vector<Candidate> candidates;
};

// The bounds of every collider the options see, planes left out (the box queries are clipped to it).
Aabbf visible_bounds(const Scene::State& s, const QueryOptions& options) {
  Aabbf box;
  for (const auto& c : s.committed) {
    if (c && c->proxy != bvh::kNullProxy && visible(*c, options)) box.grow(c->bounds);
  }
  return box;
}

// prepare() for each ray of the packet into w.ray and w.valid (an invalid ray becomes the
// empty ray), with the structure-of-arrays copies (origin, dir, and tmax: -inf where invalid).
// 8 rays at a time: the checks and normalize()'s ordinary case (|d|^2 normal and finite: d times
// 1 / sqrt(|d|^2)) as prepare computes them, so the same bits; a lane outside that case takes
// prepare itself. Whether any ray is valid.
bool prepare_rays(std::span<const QueryRay> rays, const QueryOptions& options, Workspace& w) {
  const std::size_t n = rays.size();
  alignas(32) float lanes[7][kLanes];  // origin x y z, direction x y z, max_distance
  bool any = false;
  for (std::size_t base = 0; base < n; base += kLanes) {
    const std::size_t count = std::min(kLanes, n - base);
    for (std::size_t l = 0; l < kLanes; ++l) {
      const QueryRay& q = rays[base + (l < count ? l : 0)];
      lanes[0][l] = q.origin.x, lanes[1][l] = q.origin.y, lanes[2][l] = q.origin.z;
      lanes[3][l] = q.direction.x, lanes[4][l] = q.direction.y, lanes[5][l] = q.direction.z;
      lanes[6][l] = q.max_distance;
    }
    const F limit_query = F::load(lanes[6]), limit_options(options.max_distance);
    const F range(kMaxCoordinate), inf(kInfinity<float>);
    M ok = (limit_query >= F(0.0f)) & (limit_options >= F(0.0f));
    F d[3];
    for (int a = 0; a < 3; ++a) {
      ok = ok & (abs(F::load(lanes[a])) <= range);
      d[a] = F::load(lanes[3 + a]);
    }
    const F len2 = (d[0] * d[0] + d[1] * d[1]) + d[2] * d[2];
    // Finite components give a finite |d|^2 or +inf (overflow, prepare's rescaling case); NaN
    // or inf components give NaN or inf: either way not the ordinary case.
    const M ordinary = ok & (len2 >= F(std::numeric_limits<float>::min())) & (len2 < inf);
    const F scale = F(1.0f) / sqrt(len2);
    const F limit = select(limit_options < limit_query, limit_options, limit_query);  // min(query, options)
    // The structure-of-arrays rows 8 lanes at a time (lanes past `count` are overwritten by the
    // caller), then the rays one by one; a lane outside the ordinary case rewrites its columns.
    for (int a = 0; a < 3; ++a) {
      F::load(lanes[a]).store(w.origin[a] + base);
      (d[a] * scale).store(w.dir[a] + base);
    }
    limit.store(w.tmax + base);
    const unsigned fast = unsigned(bits(ordinary)) & ((1u << count) - 1u);
    for (std::size_t l = 0; l < count; ++l) {
      const std::size_t r = base + l;
      Rayf& ray = w.ray[r];
      if ((fast >> l & 1) != 0) {
        ray = {rays[r].origin, {w.dir[0][r], w.dir[1][r], w.dir[2][r]}, 0.0f, w.tmax[r]};
        w.valid[r] = true;
        continue;
      }
      w.valid[r] = prepare(rays[r], options, ray);
      if (!w.valid[r]) ray = {};
      for (int a = 0; a < 3; ++a) w.origin[a][r] = ray.origin[a], w.dir[a][r] = ray.dir[a];
      w.tmax[r] = w.valid[r] ? ray.tmax : -kInfinity<float>;
    }
    any = any || fast != 0 || std::any_of(w.valid + base, w.valid + base + count, [](bool v) { return v; });
  }
  return any;
}

// The box of the rays' segments inside the scene's bounds, and the packet's intervals.
struct PacketExtent {
  PacketBounds bounds;
  Aabbf segments;  // empty when no ray's segment crosses the scene's bounds
};

// The packet's intervals over its valid rays (w.tmax >= 0), and the box of their segments
// clipped to `scene_box`, from the structure-of-arrays rows [0, lanes_end), 8 rays at a time.
// The scalar min(a, b) and max(a, b) (which keep a when b is NaN: an origin on a face its ray
// runs along gives one, and it is dropped) are the SIMD min(b, a), max(b, a).
PacketExtent packet_extent(const Workspace& w, std::size_t lanes_end, const Aabbf& scene_box) {
  F origin_lo[3], origin_hi[3], inv_lo[3], inv_hi[3], segment_lo[3], segment_hi[3];
  M finite[3];
  for (int a = 0; a < 3; ++a) {
    origin_lo[a] = inv_lo[a] = segment_lo[a] = F(kInfinity<float>);
    origin_hi[a] = inv_hi[a] = segment_hi[a] = F(-kInfinity<float>);
    finite[a] = F(0.0f) == F(0.0f);
  }
  const F inf(kInfinity<float>), minus_inf(-kInfinity<float>);
  for (std::size_t base = 0; base < lanes_end; base += kLanes) {
    const M used = F::load(w.tmax + base) >= F(0.0f);  // the valid rays: their limit is at least 0
    F t0(0.0f), t1 = F::load(w.tmax + base);
    for (int a = 0; a < 3; ++a) {
      const F inv = F::load(w.inv_dir[a] + base), origin = F::load(w.origin[a] + base);
      finite[a] = finite[a] & ((abs(inv) != inf) | ~used);
      origin_lo[a] = min(select(used, origin, inf), origin_lo[a]), origin_hi[a] = max(select(used, origin, minus_inf), origin_hi[a]);
      inv_lo[a] = min(select(used, inv, inf), inv_lo[a]), inv_hi[a] = max(select(used, inv, minus_inf), inv_hi[a]);
      const F near = (F(scene_box.min[a]) - origin) * inv, far = (F(scene_box.max[a]) - origin) * inv;
      t0 = max(min(far, near), t0);
      t1 = min(max(far, near), t1);
    }
    const M keep = used & (t0 <= t1);
    for (int a = 0; a < 3; ++a) {
      const F origin = F::load(w.origin[a] + base), dir = F::load(w.dir[a] + base);
      const F p0 = origin + dir * t0, p1 = origin + dir * t1;  // Ray::at
      segment_lo[a] = min(select(keep, min(p1, p0), inf), segment_lo[a]);
      segment_hi[a] = max(select(keep, max(p1, p0), minus_inf), segment_hi[a]);
    }
  }
  PacketExtent e;
  for (int a = 0; a < 3; ++a) {
    e.bounds.origin_lo[a] = reduce_min(origin_lo[a]), e.bounds.origin_hi[a] = reduce_max(origin_hi[a]);
    e.bounds.inv_lo[a] = reduce_min(inv_lo[a]), e.bounds.inv_hi[a] = reduce_max(inv_hi[a]);
    e.segments.min[a] = reduce_min(segment_lo[a]), e.segments.max[a] = reduce_max(segment_hi[a]);
    // Bounded: every inverse direction finite and of one sign.
    e.bounds.bounded[a] =
        bits(finite[a]) == (1 << kLanes) - 1 && (e.bounds.inv_lo[a] > 0.0f || e.bounds.inv_hi[a] < 0.0f);
  }
  return e;
}

// `segments` grown by far more than the rounding of their end points.
Aabbf with_rounding_margin(const Aabbf& segments) {
  const float margin = 1e-4f * (max(max_component(abs(segments.min)), max_component(abs(segments.max))) +
                                max_component(segments.max - segments.min)) +
                       std::numeric_limits<float>::min();
  return {segments.min - Vec3f{margin, margin, margin}, segments.max + Vec3f{margin, margin, margin}};
}

// One packet of rays[0, n) (n <= kPacketRays) on its way through the scene: the rays in the
// workspace, the answers so far, and the packet's intervals.
class PacketTrace {
 public:
  PacketTrace(const Scene::State& s, std::span<const QueryRay> rays, std::span<QueryHit> hits, float* distances,
              const QueryOptions& options, Workspace& w)
      : s_(s), rays_(rays), hits_(hits), distances_(distances), options_(options), w_(w), n_(rays.size()),
        lanes_end_((n_ + kLanes - 1) / kLanes * kLanes) {}

  // The answers cleared to misses and the rays prepared, with their inverse directions; whether
  // any ray is valid.
  bool prepare() {
    clear_answers();
    const bool any = prepare_rays(rays_, options_, w_);
    for (std::size_t r = n_; r < lanes_end_; ++r) {
      // Lanes past the packet's end: never entering anything.
      for (int a = 0; a < 3; ++a) w_.origin[a][r] = w_.dir[a][r] = 0.0f;
      w_.tmax[r] = -kInfinity<float>;
    }
    if (!any) return false;
    invert_directions();
    for (std::size_t r = 0; r < n_; ++r) valid_rays_ |= std::uint64_t(w_.valid[r]) << r;
    return true;
  }

  // The colliders without a box (planes), tested ray by ray.
  void test_unbounded() {
    for (const std::uint32_t slot : s_.unbounded) {
      if (visible(*s_.committed[slot], options_)) test_shape(*s_.committed[slot]);
    }
  }

  // The packet's intervals, and the box its rays' segments span inside `scene_box`, which the
  // colliders are gathered in; false when no segment crosses it.
  bool bound(const Aabbf& scene_box) {
    const PacketExtent extent = packet_extent(w_, lanes_end_, scene_box);
    if (!extent.segments.is_valid()) return false;
    bounds_ = extent.bounds;
    segments_ = with_rounding_margin(extent.segments);
    return true;
  }

  // w.candidates = the visible colliders of the top-level tree in the segments' box that the
  // packet may enter, nearest first along the packet's middle ray, where it enters the box (a
  // tile's rays meet the colliders in much the same order); after it, by the packet's bound.
  void gather_candidates() {
    std::vector<Candidate>& candidates = w_.candidates;
    candidates.clear();
    const float tmax = packet_tmax();
    std::size_t middle_index = n_ / 2;
    while (middle_index > 0 && !w_.valid[middle_index]) --middle_index;
    while (!w_.valid[middle_index]) ++middle_index;
    const Rayf& middle_ray = w_.ray[middle_index];
    const RayInverse<float> middle = RayInverse<float>::from_ray(middle_ray);
    s_.tree.query(segments_, [&](std::uint32_t proxy) {
      const CommittedCollider& c = *s_.committed[s_.tree.user(proxy)];
      float t_enter;
      if (!visible(c, options_) || !packet_enters_box(bounds_, c.bounds, tmax, t_enter)) return true;
      float t_middle;
      const bool middle_enters = ray_enters_box(c.bounds, middle, middle_ray.tmax, t_middle);
      candidates.push_back({&c, middle_enters ? t_middle : kInfinity<float>, t_enter});
      return true;
    });
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
      if (a.t != b.t) return a.t < b.t;
      return a.bound < b.bound || (a.bound == b.bound && a.collider->id < b.collider->id);
    });
  }

  // Each candidate the packet may still enter (hits so far are nearer than the others): a shape
  // ray by ray, a mesh placed as it is through the shared packet, any other mesh through its
  // instance's coherent trace.
  void trace_candidates() {
    for (const Candidate& candidate : w_.candidates) {
      const CommittedCollider& c = *candidate.collider;
      float t_enter;
      if (!packet_enters_box(bounds_, c.bounds, packet_tmax(), t_enter)) continue;
      const auto* mesh = std::get_if<WorldMesh>(&c.shape);
      if (mesh == nullptr) {
        test_shape(c);
      } else if (mesh->bvh && mesh->transform.is_identity() && shared_packet_loaded()) {
        trace_shared(c, *mesh->bvh);
      } else {
        trace_mesh(c, *mesh);
      }
    }
  }

 private:
  // Every answer a miss: +inf distances, or empty hits.
  void clear_answers() {
    if (distances_ != nullptr) {
      std::fill_n(distances_, n_, kInfinity<float>);
    } else {
      std::fill_n(hits_.begin(), n_, QueryHit{});
    }
  }

  // w.inv_dir and w.negative from w.dir, 8 lanes at a time, as RayInverse::from_ray.
  void invert_directions() {
    for (std::size_t base = 0; base < lanes_end_; base += kLanes) {
      for (int a = 0; a < 3; ++a) {
        const F inv = F(1.0f) / F::load(w_.dir[a] + base);
        inv.store(w_.inv_dir[a] + base);
        // All bits set where the direction's sign bit is (1 / -0 is -inf: -0 counts, as with
        // std::signbit).
        select(inv < F(0.0f), F(std::bit_cast<float>(~0u)), F(0.0f)).store(w_.negative[a] + base);
      }
    }
  }

  // A hit at `distance` for ray r: with distances only, the nearest distance is the answer
  // whichever record hit_before would keep among equally near ones.
  void offer_distance(std::size_t r, float distance) {
    if (!(distance < distances_[r])) return;
    distances_[r] = distance;
    w_.ray[r].tmax = w_.tmax[r] = distance;  // nothing farther can win
  }

  // A hit for ray r, kept when it comes before the ray's best as in walk_nearest (hit_before).
  void offer(std::size_t r, const QueryHit& candidate) {
    if (distances_ != nullptr) return offer_distance(r, candidate.distance);
    if (hits_[r].hit && !hit_before(candidate, hits_[r])) return;
    hits_[r] = candidate;
    w_.ray[r].tmax = w_.tmax[r] = candidate.distance;  // nothing farther can win
  }

  // The rays that enter a bounded collider's box: ray_enters_box, lane for lane.
  std::uint64_t entering(const Aabbf& box) const {
    std::uint64_t mask = 0;
    for (std::size_t base = 0; base < n_; base += kLanes) {
      F t0(0.0f), t1 = F::load(w_.tmax + base);
      for (int a = 0; a < 3; ++a) {
        const M negative = F::load(w_.negative[a] + base) != F(0.0f);
        const F near = select(negative, F(box.max[a]), F(box.min[a])), far = select(negative, F(box.min[a]), F(box.max[a]));
        const F origin = F::load(w_.origin[a] + base), inv = F::load(w_.inv_dir[a] + base);
        clip_to_slab(near, far, origin, inv, inv * F(kFarScale<float>), t0, t1);  // inv_far as RayInverse's
      }
      mask |= std::uint64_t(unsigned(bits(t0 <= t1))) << base;
    }
    return mask;
  }

  // The largest limit among the rays (w.tmax is -inf for the invalid ones and past the end).
  float packet_tmax() const {
    F t(-kInfinity<float>);
    for (std::size_t base = 0; base < n_; base += kLanes) t = max(F::load(w_.tmax + base), t);
    return reduce_max(t);
  }

  // walk_nearest's test of one collider for each ray it would test it for: every valid ray for an
  // unbounded collider, else those entering its box within their current limit (a ray's limit
  // changes only by its own hits, so the mask taken before the loop is each ray's test).
  void test_shape(const CommittedCollider& c) {
    for (std::uint64_t in = c.proxy == bvh::kNullProxy ? valid_rays_ : entering(c.bounds); in != 0; in &= in - 1) {
      const auto r = static_cast<std::size_t>(std::countr_zero(in));
      QueryHit candidate;
      if (nearest_hit(c, w_.ray[r], options_, candidate)) offer(r, candidate);
    }
  }

  // Whether the rays share one mesh packet, w.shared (loaded on the first mesh placed as it is).
  bool shared_packet_loaded() {
    if (shared_ < 0) {
      const mesh_packet::RayLanes lanes{{w_.origin[0], w_.origin[1], w_.origin[2]},
                                        {w_.dir[0], w_.dir[1], w_.dir[2]},
                                        {w_.inv_dir[0], w_.inv_dir[1], w_.inv_dir[2]}};
      shared_ = mesh_packet::load_rays(w_.shared, std::span<const Rayf>(w_.ray, n_), valid_rays_, lanes) ? 1 : 0;
    }
    return shared_ == 1;
  }

  // A mesh in the world's frame: the shared packet, each lane up to its ray's current limit, as
  // MeshInstance::intersect_coherent's identity case would trace the rays the box admits.
  void trace_shared(const CommittedCollider& c, const MeshBvh& bvh) {
    const std::uint64_t in = entering(c.bounds);
    if (in == 0) return;
    for (std::size_t base = 0; base < n_; base += kLanes) {
      const M lanes = M::from_bits(int(unsigned(in >> base) & 0xFFu));
      select(lanes, F::load(w_.tmax + base), F(-kInfinity<float>)).store(w_.shared.tmax + base);
    }
    mesh_packet::Trace::rays(bvh, w_.shared, in, options_.faces);
    for (std::uint64_t found = w_.shared.found; found != 0; found &= found - 1) {
      const int r = std::countr_zero(found);
      if (distances_ != nullptr) {
        offer_distance(std::size_t(r), w_.shared.tmax[r]);
        continue;
      }
      MeshHit m = mesh_packet::Trace::hit(bvh, w_.shared, r);
      m.normal = normalize(m.normal), m.shading_normal = normalize(m.shading_normal);
      offer(std::size_t(r), from_mesh_hit(c, w_.ray[r], m));
    }
  }

  // Any other mesh: the rays raycast would trace through it, only where the box admits them (so
  // that the instance's packets hold the rays that need them), through intersect_coherent.
  void trace_mesh(const CommittedCollider& c, const WorldMesh& mesh) {
    std::size_t count = 0;
    for (std::uint64_t in = entering(c.bounds); in != 0; in &= in - 1) {
      const auto r = static_cast<std::size_t>(std::countr_zero(in));
      w_.mesh_rays[count] = w_.ray[r];
      w_.mesh_ray_of[count++] = static_cast<std::uint8_t>(r);
    }
    if (count == 0) return;
    static_cast<void>(mesh.intersect_coherent(std::span<const Rayf>(w_.mesh_rays, count),
                                              std::span<MeshHit>(w_.mesh_hits, count), options_.faces));
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t r = w_.mesh_ray_of[k];
      if (w_.mesh_hits[k].hit) offer(r, from_mesh_hit(c, w_.ray[r], w_.mesh_hits[k]));
    }
  }

  const Scene::State& s_;
  std::span<const QueryRay> rays_;
  std::span<QueryHit> hits_;
  float* distances_;  // null: the answers are hits_
  const QueryOptions& options_;
  Workspace& w_;
  std::size_t n_;
  std::size_t lanes_end_;  // n_ rounded up to whole groups of kLanes
  std::uint64_t valid_rays_ = 0;
  PacketBounds bounds_;
  Aabbf segments_;  // the box the colliders are gathered in
  int shared_ = -1;  // w.shared: -1 not yet tried, 0 the rays do not share a packet, 1 loaded
};

// One packet: hits[r] = raycast(rays[r], options) for r < rays.size() <= kPacketRays; or, with
// `distances` (hits then unused), distances[r] = the distance of that hit, +inf for a miss: only
// the nearest distance is kept, and a mesh chunk traced through the shared packet makes no record.
void trace_packet(const Scene::State& s, std::span<const QueryRay> rays, std::span<QueryHit> hits, float* distances,
                  const QueryOptions& options, const Aabbf& scene_box, Workspace& w) {
  PacketTrace packet(s, rays, hits, distances, options, w);
  if (!packet.prepare()) return;
  packet.test_unbounded();
  if (!packet.bound(scene_box)) return;
  packet.gather_candidates();
  packet.trace_candidates();
}

// trace(first, count, scene_box, workspace) for each run of up to 64 of `ray_count` rays, over
// `executor` (the default pool when null), with a workspace per thread.
template <class Trace>
void for_each_packet(const Scene::State& s, std::size_t ray_count, const QueryOptions& options, Executor* executor,
                     const Trace& trace) {
  const Aabbf scene_box = visible_bounds(s, options);
  const std::size_t packets = (ray_count + kPacketRays - 1) / kPacketRays;
  (executor ? *executor : default_executor()).parallel_for(packets, kGrainPackets, [&](std::size_t b, std::size_t e) {
    thread_local Workspace workspace;
    for (std::size_t p = b; p < e; ++p) {
      const std::size_t first = p * kPacketRays;
      trace(first, std::min(kPacketRays, ray_count - first), scene_box, workspace);
    }
  });
}

}  // namespace

Status Scene::raycast_coherent_batch(std::span<const QueryRay> rays, std::span<QueryHit> hits,
                                     const QueryOptions& options, Executor* executor) const {
  if (rays.size() != hits.size()) {
    return Status{StatusCode::invalid_argument, "Scene::raycast_coherent_batch: " + std::to_string(rays.size()) +
                                                    " rays but room for " + std::to_string(hits.size()) + " hits"};
  }
  // A filter is asked about each collider per ray, in raycast's order: ray by ray it stays.
  if (options.filter.accept) return raycast_batch(rays, hits, options, executor);
  std::shared_lock lock(state_->query_mutex);  // one commit boundary for the whole batch
  for_each_packet(*state_, rays.size(), options, executor,
                  [&](std::size_t first, std::size_t count, const Aabbf& scene_box, Workspace& workspace) {
                    trace_packet(*state_, rays.subspan(first, count), hits.subspan(first, count), nullptr, options,
                                 scene_box, workspace);
                  });
  return Status::success();
}

Status Scene::raycast_coherent_distances(std::span<const QueryRay> rays, std::span<float> distances,
                                         const QueryOptions& options, Executor* executor) const {
  if (rays.size() != distances.size()) {
    return Status{StatusCode::invalid_argument, "Scene::raycast_coherent_distances: " + std::to_string(rays.size()) +
                                                    " rays but room for " + std::to_string(distances.size()) +
                                                    " distances"};
  }
  const auto distance = [](const QueryHit& h) { return h.hit ? h.distance : kInfinity<float>; };
  if (options.filter.accept) {
    // Ray by ray, as raycast_coherent_batch does with a filter.
    (executor ? *executor : default_executor()).parallel_for(rays.size(), kGrainPackets * kPacketRays,
                                                             [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) distances[i] = distance(raycast(rays[i], options));
    });
    return Status::success();
  }
  std::shared_lock lock(state_->query_mutex);  // one commit boundary for the whole batch
  for_each_packet(*state_, rays.size(), options, executor,
                  [&](std::size_t first, std::size_t count, const Aabbf& scene_box, Workspace& workspace) {
                    trace_packet(*state_, rays.subspan(first, count), {}, distances.data() + first, options,
                                 scene_box, workspace);
                  });
  return Status::success();
}

}  // namespace hitscan
