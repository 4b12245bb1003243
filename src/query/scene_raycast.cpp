// Scene: raycast, raycast_any, raycast_all and their batches. Coarse to fine: the top-level tree
// over the colliders' boxes, then each collider's shape kernel or its mesh's BVH.

#include <algorithm>
#include <cmath>
#include <string>

#include "hitscan/geometry/closest_point.hpp"
#include "hitscan/geometry/ray_capsule.hpp"
#include "hitscan/geometry/ray_cylinder.hpp"
#include "hitscan/geometry/ray_obb.hpp"
#include "hitscan/geometry/ray_plane.hpp"
#include "hitscan/geometry/ray_polygon.hpp"
#include "hitscan/geometry/ray_sphere.hpp"
#include "scene_state.hpp"

namespace hitscan {
namespace {

// The kernel ray of a query ray: unit direction, so that t is a world distance, over
// [0, the smaller distance limit]. False for a ray that can hit nothing.
bool prepare(const QueryRay& query, const QueryOptions& options, Rayf& ray) {
  // Each limit checked on its own: min() would drop a NaN.
  if (!(query.max_distance >= 0.0f) || !(options.max_distance >= 0.0f)) return false;
  const float limit = min(query.max_distance, options.max_distance);
  if (!is_finite(query.origin) || !is_finite(query.direction)) return false;
  const Vec3f unit = normalize(query.direction);
  if (unit == Vec3f{}) return false;
  ray = {query.origin, unit, 0.0f, limit};
  return true;
}

// Outward unit normal of a solid at a point of its surface (where a ray leaves it).
Vec3f outward_normal(const WorldShape& shape, Vec3f p) {
  if (const auto* s = std::get_if<Spheref>(&shape)) return normalize(p - s->center);
  if (const auto* c = std::get_if<Capsulef>(&shape)) return normalize(p - closest_point_on_segment(Segmentf{c->a, c->b}, p));
  if (const auto* b = std::get_if<Obbf>(&shape)) {
    // The face whose plane the point is nearest, relative to the box's size on that axis.
    const Vec3f q = b->rotation.transpose_mul(p - b->center);
    int axis = 0;
    float best = -kInfinity<float>;
    for (int i = 0; i < 3; ++i) {
      const float h = b->half_extents[i];
      const float closeness = std::abs(q[i]) - h;
      if (closeness > best) best = closeness, axis = i;
    }
    return b->rotation.col[axis] * (q[axis] < 0.0f ? -1.0f : 1.0f);
  }
  const Cylinderf& c = std::get<Cylinderf>(shape);
  const Vec3f axis = c.b - c.a;
  const float length_axis = length(axis);
  const Vec3f u = axis / length_axis;
  const float s = dot(p - c.a, u);
  const Vec3f radial = p - c.a - u * s;
  const float to_side = c.radius - length(radial), to_cap = min(s, length_axis - s);
  if (to_cap < to_side) return s < 0.5f * length_axis ? -u : u;
  return normalize(radial);
}

HitFeature triangle_feature(float u, float v) {
  const int zeros = (u == 0.0f) + (v == 0.0f) + (1.0f - u - v == 0.0f);
  return zeros >= 2 ? HitFeature::vertex : zeros == 1 ? HitFeature::edge : HitFeature::face;
}

QueryHit make_hit(const CommittedCollider& c, const Rayf& ray, float distance, Vec3f face_normal, std::uint8_t flags) {
  QueryHit h;
  h.hit = true;
  h.flags = flags;
  h.distance = distance;
  h.point = ray.at(distance);
  // A shape scaled down to nothing (a size whose square underflows) has no normal to give: the
  // hit then faces the ray, so that every hit carries unit normals.
  if (!(dot(face_normal, face_normal) > 0.5f)) face_normal = -ray.dir;
  h.face_normal = face_normal;
  h.normal = dot(face_normal, ray.dir) > 0.0f ? -face_normal : face_normal;
  h.collider = c.id;
  h.user_id = c.user_id;
  return h;
}

QueryHit from_mesh_hit(const CommittedCollider& c, const Rayf& ray, const MeshHit& m) {
  QueryHit h = make_hit(c, ray, m.t, m.normal, m.back_face ? kQueryBackFace : 0);
  h.point = m.point;
  h.primitive = m.triangle;
  h.u = m.u;
  h.v = m.v;
  h.feature = triangle_feature(m.u, m.v);
  return h;
}

RayHitf ray_vs_analytic(const WorldShape& shape, const Rayf& ray) {
  if (const auto* s = std::get_if<Spheref>(&shape)) return ray_vs_sphere(*s, ray);
  if (const auto* b = std::get_if<Obbf>(&shape)) return ray_vs_obb(*b, ray);
  if (const auto* c = std::get_if<Capsulef>(&shape)) return ray_vs_capsule(*c, ray);
  if (const auto* c = std::get_if<Cylinderf>(&shape)) return ray_vs_cylinder(*c, ray);
  if (const auto* p = std::get_if<Planef>(&shape)) return ray_vs_plane(*p, ray);
  return ray_vs_polygon(std::get<ConvexPolygonf>(shape), ray);
}

bool face_accepted(bool back, FaceMode faces) {
  return faces == FaceMode::both || (faces == FaceMode::back_only) == back;
}

// The first crossing of one collider within the ray's range that the options accept.
bool nearest_hit(const CommittedCollider& c, const Rayf& ray, const QueryOptions& options, QueryHit& out) {
  if (const auto* mesh = std::get_if<WorldMesh>(&c.shape)) {
    const MeshHit m = mesh->intersect(ray, options.faces);
    if (m.hit) out = from_mesh_hit(c, ray, m);
    return m.hit;
  }
  const RayHitf r = ray_vs_analytic(c.shape, ray);
  if (!r.hit) return false;
  if (!is_solid(c.shape)) {
    if (!face_accepted(r.back_face(), options.faces)) return false;
    out = make_hit(c, ray, r.t, r.normal, r.back_face() ? kQueryBackFace : 0);
    return true;
  }
  if (!r.started_inside()) {
    out = make_hit(c, ray, r.t, r.normal, 0);
  } else if (options.solid) {
    out = make_hit(c, ray, r.t, r.normal, kQueryStartedInside);
    out.face_normal = r.normal;  // no surface at the start: the normal against the ray
  } else if (r.t_exit <= ray.tmax) {
    out = make_hit(c, ray, r.t_exit, outward_normal(c.shape, ray.at(r.t_exit)), kQueryExit);
  } else {
    return false;
  }
  return true;
}

// Every crossing of one collider within the ray's range: a solid's entry (or start) and exit, an
// open surface's one crossing, a mesh's triangles. Appends to `out`.
void all_hits(const CommittedCollider& c, const Rayf& ray, const QueryOptions& options, std::vector<QueryHit>& out,
              std::vector<MeshHit>& mesh_hits) {
  if (const auto* mesh = std::get_if<WorldMesh>(&c.shape)) {
    if (!mesh->bvh || !mesh->transform.is_invertible()) return;
    const Transformf& t = mesh->transform;
    const Rayf local{t.inverse_point(ray.origin), t.inverse_vector(ray.dir), ray.tmin, ray.tmax};
    mesh->bvh->intersect_all(local, mesh_hits, options.faces);
    for (MeshHit m : mesh_hits) {
      m.point = ray.at(m.t);
      m.normal = t.apply_normal(m.normal);
      out.push_back(from_mesh_hit(c, ray, m));
    }
    return;
  }
  const RayHitf r = ray_vs_analytic(c.shape, ray);
  if (!r.hit) return;
  if (!is_solid(c.shape)) {
    if (face_accepted(r.back_face(), options.faces)) out.push_back(make_hit(c, ray, r.t, r.normal, r.back_face() ? kQueryBackFace : 0));
    return;
  }
  if (!r.started_inside()) {
    out.push_back(make_hit(c, ray, r.t, r.normal, 0));
  } else if (options.solid) {
    QueryHit start = make_hit(c, ray, r.t, r.normal, kQueryStartedInside);
    start.face_normal = r.normal;
    out.push_back(start);
  }
  if (r.t_exit <= ray.tmax) out.push_back(make_hit(c, ray, r.t_exit, outward_normal(c.shape, ray.at(r.t_exit)), kQueryExit));
}

// Order of raycast_all: distance, then collider, primitive, and entries before exits.
bool hit_before(const QueryHit& a, const QueryHit& b) {
  if (a.distance != b.distance) return a.distance < b.distance;
  if (a.collider != b.collider) return a.collider < b.collider;
  if (a.primitive != b.primitive) return a.primitive < b.primitive;
  return (a.flags & kQueryExit) < (b.flags & kQueryExit);
}

// The nearest hit (or, with stop_at_first, any hit) over the unbounded colliders and the
// top-level tree (query_mutex held shared). Allocates nothing.
QueryHit walk_nearest(const Scene::State& s, const Rayf& ray, const QueryOptions& options, bool stop_at_first,
                      QueryStats* stats) {
  QueryHit best, candidate;
  bool stop = false;
  std::uint64_t tested = 0;
  Rayf clipped = ray;
  const RayInverse<float> inverse = RayInverse<float>::from_ray(ray);
  auto test = [&](const CommittedCollider& c) {
    if (!visible(c, options)) return;
    // The tree holds fat boxes: the collider's own box first, a slab test cheaper than most shapes.
    float t_enter;
    if (c.proxy != bvh::kNullProxy && !bvh::detail::ray_enters_box(c.bounds, inverse, clipped.tmax, t_enter)) return;
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
    tree_stats = s.tree.ray_query(ray, [&](std::uint32_t proxy, float) {
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
  const RayInverse<float> inverse = RayInverse<float>::from_ray(ray);
  auto test = [&](const CommittedCollider& c) {
    if (!visible(c, options)) return;
    // The same box test as walk_nearest's, so that the two agree on every collider.
    float t_enter;
    if (c.proxy != bvh::kNullProxy && !bvh::detail::ray_enters_box(c.bounds, inverse, ray.tmax, t_enter)) return;
    ++tested;
    all_hits(c, ray, options, out, mesh_hits);
  };
  for (const std::uint32_t slot : s.unbounded) test(*s.committed[slot]);
  const bvh::TreeQueryStats tree_stats = s.tree.ray_query(ray, [&](std::uint32_t proxy, float tmax) {
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
