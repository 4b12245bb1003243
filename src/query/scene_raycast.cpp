// Scene: raycast, raycast_any, raycast_all and their batches. Coarse to fine: the top-level tree
// over the colliders' boxes, then each collider's shape kernel or its mesh's BVH.

#include <algorithm>
#include <cmath>
#include <string>

#include "scene_ray_hits.hpp"

namespace hitscan {
namespace {

using namespace scene_ray;

// Every crossing of one collider within the ray's range: a solid's entry (or start) and exit, an
// open surface's one crossing, a mesh's triangles. Appends to `out`.
void all_hits(const CommittedCollider& c, const Rayf& ray, const QueryOptions& options, std::vector<QueryHit>& out,
              std::vector<MeshHit>& mesh_hits) {
  if (const auto* mesh = std::get_if<WorldMesh>(&c.shape)) {
    mesh->intersect_all(ray, mesh_hits, options.faces, HitFields::normal);
    for (const MeshHit& m : mesh_hits) out.push_back(from_mesh_hit(c, ray, m));
    return;
  }
  const RayHitf r = ray_vs_analytic(c.shape, ray);
  if (!r.hit) return;
  if (!is_solid(c.shape)) {
    if (face_accepted(r.back_face(), options.faces)) out.push_back(make_hit(c, ray, r.t, r.normal, r.back_face() ? kHitBackFace : 0));
    return;
  }
  if (!r.started_inside()) {
    out.push_back(make_hit(c, ray, r.t, r.normal, 0));
  } else if (options.solid) {
    QueryHit start = make_hit(c, ray, r.t, r.normal, kHitStartedInside);
    start.face_normal = r.normal;
    out.push_back(start);
  }
  if (r.t_exit <= ray.tmax) out.push_back(make_hit(c, ray, r.t_exit, outward_normal(c.shape, ray.at(r.t_exit)), kHitExit));
}

// The nearest hit (or, with stop_at_first, any hit) over the unbounded colliders and the
// top-level tree (query_mutex held shared). Allocates nothing.
QueryHit walk_nearest(const Scene::State& s, const Rayf& ray, const QueryOptions& options, bool stop_at_first,
                      QueryStats* stats) {
  QueryHit best, candidate;
  bool stop = false;
  std::uint64_t tested = 0;
  Rayf clipped = ray;
  const RayInverse<float> inverse = RayInverse<float>::from_valid_ray(ray);  // prepared: valid
  auto test = [&](const CommittedCollider& c) {
    if (!visible(c, options)) return;
    // The tree holds fat boxes: the collider's own box first, a slab test cheaper than most shapes.
    float t_enter;
    if (c.proxy != bvh::kNullProxy && !ray_enters_box(c.bounds, inverse, clipped.tmax, t_enter)) return;
    ++tested;
    if (!nearest_hit(c, clipped, options, candidate)) return;
    if (best.hit && !hit_before(candidate, best)) return;
    best = candidate;
    clipped.tmax = candidate.distance;  // nothing farther can win
    stop = stop_at_first;
  };
  for (const std::uint32_t slot : s.unbounded) {
    if (!stop) test(*s.committed[slot]);
  }
  bvh::TreeQueryStats tree_stats;
  if (!stop) {
    tree_stats = s.tree.ray_query(inverse, [&](std::uint32_t proxy, float) {
      test(*s.committed[s.tree.user(proxy)]);
      return stop ? -1.0f : clipped.tmax;
    });
  }
  if (stats) {
    stats->tree_nodes += tree_stats.node_visits;
    stats->shapes_tested += tested;
  }
  return best;
}

// Every hit (query_mutex held shared), unsorted.
void walk_all(const Scene::State& s, const Rayf& ray, const QueryOptions& options, std::vector<QueryHit>& out,
              QueryStats* stats) {
  std::vector<MeshHit> mesh_hits;
  std::uint64_t tested = 0;
  const RayInverse<float> inverse = RayInverse<float>::from_valid_ray(ray);  // prepared: valid
  auto test = [&](const CommittedCollider& c) {
    if (!visible(c, options)) return;
    // The same box test as walk_nearest's, so that the two agree on every collider.
    float t_enter;
    if (c.proxy != bvh::kNullProxy && !ray_enters_box(c.bounds, inverse, ray.tmax, t_enter)) return;
    ++tested;
    all_hits(c, ray, options, out, mesh_hits);
  };
  for (const std::uint32_t slot : s.unbounded) test(*s.committed[slot]);
  const bvh::TreeQueryStats tree_stats = s.tree.ray_query(inverse, [&](std::uint32_t proxy, float tmax) {
    test(*s.committed[s.tree.user(proxy)]);
    return tmax;
  });
  if (stats) {
    stats->tree_nodes += tree_stats.node_visits;
    stats->shapes_tested += tested;
  }
}

}  // namespace

QueryHit Scene::raycast(const QueryRay& query, const QueryOptions& options, QueryStats* stats) const {
  Rayf ray;
  if (!prepare(query, options, ray)) return {};
  std::shared_lock lock(state_->query_mutex);
  return walk_nearest(*state_, ray, options, false, stats);
}

bool Scene::raycast_any(const QueryRay& query, const QueryOptions& options, QueryStats* stats) const {
  Rayf ray;
  if (!prepare(query, options, ray)) return false;
  std::shared_lock lock(state_->query_mutex);
  return walk_nearest(*state_, ray, options, true, stats).hit;
}

std::size_t Scene::raycast_all(const QueryRay& query, std::vector<QueryHit>& out, const QueryOptions& options,
                               QueryStats* stats) const {
  out.clear();
  Rayf ray;
  if (!prepare(query, options, ray)) return 0;
  {
    std::shared_lock lock(state_->query_mutex);
    walk_all(*state_, ray, options, out, stats);
  }
  std::sort(out.begin(), out.end(), hit_before);
  return out.size();
}

RaycastAllCount Scene::raycast_all(const QueryRay& query, std::span<QueryHit> buffer, const QueryOptions& options,
                                   QueryStats* stats) const {
  std::vector<QueryHit> all;
  raycast_all(query, all, options, stats);
  const std::size_t written = std::min(all.size(), buffer.size());
  std::copy_n(all.begin(), written, buffer.begin());
  return {written, all.size()};
}

namespace {
constexpr std::size_t kBatchGrain = 256;  // rays per chunk handed to a thread
}  // namespace

Status Scene::raycast_batch(std::span<const QueryRay> rays, std::span<QueryHit> hits, const QueryOptions& options,
                            Executor* executor) const {
  if (rays.size() != hits.size()) {
    return Status{StatusCode::invalid_argument, "Scene::raycast_batch: " + std::to_string(rays.size()) +
                                                    " rays but room for " + std::to_string(hits.size()) + " hits"};
  }
  std::shared_lock lock(state_->query_mutex);  // one commit boundary for the whole batch
  (executor ? *executor : default_executor()).parallel_for(rays.size(), kBatchGrain, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      Rayf ray;
      hits[i] = prepare(rays[i], options, ray) ? walk_nearest(*state_, ray, options, false, nullptr) : QueryHit{};
    }
  });
  return Status::success();
}

Status Scene::raycast_any_batch(std::span<const QueryRay> rays, std::span<std::uint8_t> hit, const QueryOptions& options,
                                Executor* executor) const {
  if (rays.size() != hit.size()) {
    return Status{StatusCode::invalid_argument, "Scene::raycast_any_batch: " + std::to_string(rays.size()) +
                                                    " rays but room for " + std::to_string(hit.size()) + " results"};
  }
  std::shared_lock lock(state_->query_mutex);
  (executor ? *executor : default_executor()).parallel_for(rays.size(), kBatchGrain, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      Rayf ray;
      hit[i] = prepare(rays[i], options, ray) && walk_nearest(*state_, ray, options, true, nullptr).hit ? 1 : 0;
    }
  });
  return Status::success();
}

}  // namespace hitscan
