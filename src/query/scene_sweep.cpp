// Scene: sphere_cast, capsule_cast, box_cast, convex_cast, their all-hits forms and the sphere
// cast batch. The moving shape's box, moved along the path, walks the top-level tree nearest
// first; each collider it reaches goes through the sweep kernel of its shape (geometry/sweep.hpp;
// gjk_epa.hpp's convex_cast for hulls, and for moving boxes and hulls; sweep_plane.hpp for moving
// boxes and hulls against planes) or its mesh's BVH (mesh/mesh_sweep.hpp).

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "hitscan/geometry/gjk_epa.hpp"
#include "hitscan/geometry/shape_size.hpp"
#include "hitscan/geometry/sweep.hpp"
#include "hitscan/geometry/sweep_plane.hpp"
#include "hitscan/mesh/mesh_sweep.hpp"
#include "scene_state.hpp"

namespace hitscan {
namespace {

constexpr ContactTolerancef kTolerance{};

// A sweep as the kernels take it: the shape, a unit direction and the smaller distance limit.
template <class Shape>
struct Path {
  Shape shape;
  Vec3f direction;
  float limit;
};

// A convex_cast's hull as a moving shape: in the world, owned by the caller.
struct MovingHull {
  const ConvexHullf* hull = nullptr;
};
Aabbf bounds_of(const MovingHull& h) { return h.hull->bounds(); }
float size_of(const MovingHull& h) { return size_of(*h.hull); }

bool valid(const MovingHull& h) {
  return h.hull != nullptr && in_working_range(h.hull->bounds().min) && in_working_range(h.hull->bounds().max);
}

template <class Shape>
bool prepare(const Shape& shape, Vec3f direction, float max_distance, const QueryOptions& options, Path<Shape>& out) {
  // Each limit checked on its own: min() would drop a NaN.
  if (!(max_distance >= 0.0f) || !(options.max_distance >= 0.0f)) return false;
  if (!valid(shape) || !is_finite(direction)) return false;
  const Vec3f unit = normalize(direction);
  if (unit == Vec3f{}) return false;
  out = {shape, unit, min(max_distance, options.max_distance)};
  return true;
}

template <class Shape>
void box_of(const Shape& shape, Vec3f& center, Vec3f& half) {
  const Aabbf box = bounds_of(shape);
  center = box.center();
  half = box.extent() * 0.5f;
}

template <class Target>
SweepHitf kernel(const Spheref& s, Vec3f d, float limit, const Target& t, ContactTolerancef tol = kTolerance) {
  return sphere_cast(s, d, limit, t, tol);
}
template <class Target>
SweepHitf kernel(const Capsulef& c, Vec3f d, float limit, const Target& t, ContactTolerancef tol = kTolerance) {
  return capsule_cast(c, d, limit, t, tol);
}
// Spheres and capsules against hulls: convex_cast.
SweepHitf kernel(const Spheref& s, Vec3f d, float limit, const WorldHull& t, ContactTolerancef tol = kTolerance) {
  return convex_cast(s, d, limit, *t, tol);
}
SweepHitf kernel(const Capsulef& c, Vec3f d, float limit, const WorldHull& t, ContactTolerancef tol = kTolerance) {
  return convex_cast(c, d, limit, *t, tol);
}

// Boxes and hulls as gjk_epa.hpp's shapes.
ConvexShapef convex(const Obbf& b) { return b; }
ConvexShapef convex(const MovingHull& h) { return *h.hull; }
template <class Target>
const Target& convex_target(const Target& t) { return t; }
const ConvexHullf& convex_target(const WorldHull& t) { return *t; }

template <class Target>
SweepHitf kernel(const Obbf& b, Vec3f d, float limit, const Target& t, ContactTolerancef tol = kTolerance) {
  return convex_cast(convex(b), d, limit, convex_target(t), tol);
}
template <class Target>
SweepHitf kernel(const MovingHull& h, Vec3f d, float limit, const Target& t, ContactTolerancef tol = kTolerance) {
  return convex_cast(convex(h), d, limit, convex_target(t), tol);
}
// Boxes and hulls against planes: sweep_plane.hpp, exactly.
SweepHitf kernel(const Obbf& b, Vec3f d, float limit, const Planef& p, ContactTolerancef tol = kTolerance) {
  return box_cast(b, d, limit, p, tol);
}
SweepHitf kernel(const MovingHull& h, Vec3f d, float limit, const Planef& p, ContactTolerancef tol = kTolerance) {
  return convex_cast(*h.hull, d, limit, p, tol);
}

MeshSweepHit mesh_kernel(const Spheref& s, Vec3f d, float limit, const MeshBvh& m, ContactTolerancef tol) {
  return sphere_cast(s, d, limit, m, tol);
}
MeshSweepHit mesh_kernel(const Capsulef& c, Vec3f d, float limit, const MeshBvh& m, ContactTolerancef tol) {
  return capsule_cast(c, d, limit, m, tol);
}

// The moving shape in a mesh's frame under a uniform positive scale s.
Spheref to_local(const Spheref& q, const Transformf& t, float s) { return {t.inverse_point(q.center), q.radius / s}; }
Capsulef to_local(const Capsulef& q, const Transformf& t, float s) {
  return {t.inverse_point(q.a), t.inverse_point(q.b), q.radius / s};
}

QueryHit make_hit(const CommittedCollider& c, const SweepHitf& h, Vec3f face_normal) {
  QueryHit out;
  out.hit = true;
  out.flags = h.started_in_contact ? kHitStartedInside : 0;
  out.distance = h.distance;
  out.point = h.point;
  out.normal = h.normal;
  out.face_normal = face_normal;
  out.collider = c.id;
  out.user_id = c.user_id;
  out.depth = h.depth;
  return out;
}

// Barycentrics of p (on or near the triangle's plane): p = (1 - u - v) v0 + u v1 + v v2. In
// double: det is the fourth power of the triangle's size, beyond float's range from about 4e9.
void barycentrics(const Trianglef& t, Vec3f p, float& u, float& v) {
  const Vec3d v0 = vec3_cast<double>(t.v0);
  const Vec3d e1 = vec3_cast<double>(t.v1) - v0, e2 = vec3_cast<double>(t.v2) - v0, w = vec3_cast<double>(p) - v0;
  const double d11 = dot(e1, e1), d12 = dot(e1, e2), d22 = dot(e2, e2), w1 = dot(w, e1), w2 = dot(w, e2);
  const double det = d11 * d22 - d12 * d12;
  if (!(det > 0.0)) {
    u = v = 0.0f;
    return;
  }
  u = float(clamp((d22 * w1 - d12 * w2) / det, 0.0, 1.0));
  v = min(float(clamp((d11 * w2 - d12 * w1) / det, 0.0, 1.0)), 1.0f - u);
}

// A mesh triangle's unit normal, in double: there the cross product of a usable triangle is exact
// and non-zero however thin it is (triangle_mesh.cpp), where float's may round to zero.
Vec3f triangle_normal(const Trianglef& t) {
  const Vec3d v0 = vec3_cast<double>(t.v0);
  return vec3_cast<float>(normalize(cross(vec3_cast<double>(t.v1) - v0, vec3_cast<double>(t.v2) - v0)));
}

// A mesh triangle's hit: the world hit of the triangle `triangle` whose local form is `local`.
void finish_mesh_hit(QueryHit& hit, const Trianglef& local, std::uint32_t triangle, Vec3f local_point,
                     Vec3f world_face_normal) {
  hit.primitive = triangle;
  hit.face_normal = world_face_normal;
  barycentrics(local, local_point, hit.u, hit.v);
}

// Whether a sweep hit beats another: nearer; at the same distance deeper, then the lower id.
bool sweep_before(const QueryHit& a, const QueryHit& b) {
  if (a.distance != b.distance) return a.distance < b.distance;
  if (a.depth != b.depth) return a.depth > b.depth;
  return a.collider < b.collider;
}

template <class Shape>
bool mesh_sweep(const Path<Shape>& path, const CommittedCollider& c, const WorldMesh& mesh, float limit, QueryHit& out) {
  if (!mesh.bvh || !mesh.transform.is_invertible()) return false;
  const Transformf& t = mesh.transform;
  const float s = t.scale.x;
  const float spread = max(std::abs(t.scale.x - t.scale.y), std::abs(t.scale.x - t.scale.z));
  const TriangleMesh& triangles = mesh.bvh->mesh();
  if (s > 0.0f && spread <= 1e-6f * s) {
    const Shape local = to_local(path.shape, t, s);
    const Vec3f local_direction = t.rotation.inverse_rotate(path.direction);
    const ContactTolerancef tol{kTolerance.absolute / s, kTolerance.relative};
    const MeshSweepHit m = mesh_kernel(local, local_direction, limit / s, *mesh.bvh, tol);
    if (!m) return false;
    SweepHitf world = m.sweep;
    world.distance = m.sweep.distance * s;
    world.depth = m.sweep.depth * s;
    world.point = t.apply_point(m.sweep.point);
    world.normal = normalize(t.rotation.rotate(m.sweep.normal));
    const Trianglef local_triangle = triangles.triangle(m.triangle);
    out = make_hit(c, world, normalize(t.rotation.rotate(triangle_normal(local_triangle))));
    finish_mesh_hit(out, local_triangle, m.triangle, m.sweep.point, out.face_normal);
    return true;
  }
  // Non-uniform or mirroring scale: the shape would not stay a sphere or a capsule in the mesh's
  // frame, so every triangle comes to the world instead (linear in the mesh's size).
  bool found = false;
  for (std::size_t i = 0; i < triangles.triangle_count(); ++i) {
    if (!triangles.is_usable(i)) continue;
    const Trianglef l = triangles.triangle(i);
    const Trianglef w{t.apply_point(l.v0), t.apply_point(l.v1), t.apply_point(l.v2)};
    const SweepHitf h = kernel(path.shape, path.direction, limit, w);
    if (!h.hit) continue;
    // The face normal from the local one, as the other queries carry it: the front stays the
    // front under a mirror, and a triangle stretched thin in the world (a scale of 1e12 on one
    // axis) keeps the normal its world corners, rounded together, no longer give.
    QueryHit candidate = make_hit(c, h, t.apply_normal(triangle_normal(l)));
    if (found && !(h.distance < out.distance || (h.distance == out.distance && h.depth > out.depth))) continue;
    const Vec3f local_point = t.inverse_point(h.point);
    finish_mesh_hit(candidate, l, static_cast<std::uint32_t>(i), local_point, candidate.face_normal);
    out = candidate;
    limit = h.distance;
    found = true;
  }
  return found;
}

// A box or a hull against a mesh: its triangles carried to the world (mesh/mesh_sweep.hpp), under
// any transform.
template <class Shape>
bool convex_mesh_sweep(const Path<Shape>& path, const CommittedCollider& c, const WorldMesh& mesh, float limit,
                       QueryHit& out) {
  const MeshSweepHit m = convex_cast(convex(path.shape), path.direction, limit, mesh, kTolerance);
  if (!m) return false;
  const Transformf& t = mesh.transform;
  const Trianglef local = mesh.bvh->mesh().triangle(m.triangle);
  out = make_hit(c, m.sweep, t.apply_normal(triangle_normal(local)));
  finish_mesh_hit(out, local, m.triangle, t.inverse_point(m.sweep.point), out.face_normal);
  return true;
}

// The sweep against one collider within `limit`; fills `out` when it meets it.
template <class Shape>
bool sweep_collider(const Path<Shape>& path, const CommittedCollider& c, float limit, QueryHit& out) {
  const Shape& q = path.shape;
  const Vec3f d = path.direction;
  if (const auto* m = std::get_if<WorldMesh>(&c.shape)) {
    if constexpr (std::is_same_v<Shape, Spheref> || std::is_same_v<Shape, Capsulef>) {
      return mesh_sweep(path, c, *m, limit, out);
    } else {
      return convex_mesh_sweep(path, c, *m, limit, out);
    }
  }
  SweepHitf h;
  Vec3f face_normal{};
  if (const auto* s = std::get_if<Spheref>(&c.shape)) h = kernel(q, d, limit, *s);
  else if (const auto* b = std::get_if<Obbf>(&c.shape)) h = kernel(q, d, limit, *b);
  else if (const auto* k = std::get_if<Capsulef>(&c.shape)) h = kernel(q, d, limit, *k);
  else if (const auto* y = std::get_if<Cylinderf>(&c.shape)) h = kernel(q, d, limit, *y);
  else if (const auto* p = std::get_if<Planef>(&c.shape)) h = kernel(q, d, limit, *p), face_normal = p->normal;
  else if (const auto* x = std::get_if<WorldHull>(&c.shape)) h = kernel(q, d, limit, *x);
  else {
    const ConvexPolygonf& g = std::get<ConvexPolygonf>(c.shape);
    h = kernel(q, d, limit, g);
    face_normal = g.normal();
  }
  if (!h.hit) return false;
  // Solids: the surface's outward normal at the contact is the contact normal itself.
  out = make_hit(c, h, is_solid(c.shape) ? h.normal : face_normal);
  return true;
}

// Walks the unbounded colliders and the top-level tree along the path (query_mutex held shared):
// visit(collider, limit) returns the new limit.
template <class Shape, class Visit>
void walk(const Scene::State& s, const Path<Shape>& path, const QueryOptions& options, QueryStats* stats, Visit&& visit) {
  float limit = path.limit;
  std::uint64_t tested = 0;
  Vec3f center, half;
  box_of(path.shape, center, half);
  // The tree's fat boxes grown by the shape's box and by what the kernels' tolerance and the
  // rounding of the box sums can reach.
  const float slack =
      kTolerance.at_size(size_of(path.shape)) + 64 * kEpsilon<float> * (max_component(abs(center)) + max_component(half));
  half += Vec3f{slack, slack, slack};
  const Rayf ray{center, path.direction, 0.0f, limit};
  const RayInverse<float> inverse = RayInverse<float>::from_ray(ray);
  auto test = [&](const CommittedCollider& c) {
    if (!visible(c, options)) return;
    // The collider's own box, grown likewise and by the tolerance at its size, before its kernel
    // (the tree holds fat boxes).
    if (c.proxy != bvh::kNullProxy) {
      const Vec3f grow = half + Vec3f{1, 1, 1} * kTolerance.at_size(max_component(c.bounds.extent()));
      float t_enter;
      if (!ray_enters_box({c.bounds.min - grow, c.bounds.max + grow}, inverse, limit, t_enter)) return;
    }
    ++tested;
    limit = min(limit, visit(c, limit));
  };
  for (const std::uint32_t slot : s.unbounded) test(*s.committed[slot]);
  const bvh::TreeQueryStats tree_stats =
      s.tree.box_sweep_query(ray, half, [&](std::uint32_t proxy, float) {
        test(*s.committed[s.tree.user(proxy)]);
        return limit;
      });
  if (stats) {
    stats->tree_nodes += tree_stats.node_visits;
    stats->shapes_tested += tested;
  }
}

template <class Shape>
QueryHit nearest(const Scene::State& s, const Path<Shape>& path, const QueryOptions& options, QueryStats* stats) {
  QueryHit best, candidate;
  walk(s, path, options, stats, [&](const CommittedCollider& c, float limit) {
    if (sweep_collider(path, c, limit, candidate) && (!best.hit || sweep_before(candidate, best))) best = candidate;
    return best.hit ? best.distance : limit;
  });
  return best;
}

template <class Shape>
std::size_t all(const Scene::State& s, const Path<Shape>& path, std::vector<QueryHit>& out, const QueryOptions& options,
                QueryStats* stats) {
  out.clear();
  {
    std::shared_lock lock(s.query_mutex);
    QueryHit hit;
    walk(s, path, options, stats, [&](const CommittedCollider& c, float limit) {
      if (sweep_collider(path, c, limit, hit)) out.push_back(hit);
      return limit;
    });
  }
  std::sort(out.begin(), out.end(), [](const QueryHit& a, const QueryHit& b) {
    return a.distance != b.distance ? a.distance < b.distance : a.collider < b.collider;
  });
  return out.size();
}

// The nearest hit of a sweep, or a miss for one that can hit nothing.
template <class Shape>
QueryHit cast_nearest(const Scene::State& s, const Shape& shape, Vec3f direction, float max_distance,
                      const QueryOptions& options, QueryStats* stats) {
  Path<Shape> path;
  if (!prepare(shape, direction, max_distance, options, path)) return {};
  std::shared_lock lock(s.query_mutex);
  return nearest(s, path, options, stats);
}

// Every hit of a sweep into `out` (cleared first).
template <class Shape>
std::size_t cast_all(const Scene::State& s, const Shape& shape, Vec3f direction, float max_distance,
                     std::vector<QueryHit>& out, const QueryOptions& options, QueryStats* stats) {
  Path<Shape> path;
  if (!prepare(shape, direction, max_distance, options, path)) {
    out.clear();
    return 0;
  }
  return all(s, path, out, options, stats);
}

constexpr std::size_t kBatchGrain = 64;  // sweeps per chunk handed to a thread

}  // namespace

QueryHit Scene::sphere_cast(const SphereSweep& sweep, const QueryOptions& options, QueryStats* stats) const {
  return cast_nearest(*state_, sweep.sphere, sweep.direction, sweep.max_distance, options, stats);
}

QueryHit Scene::capsule_cast(const CapsuleSweep& sweep, const QueryOptions& options, QueryStats* stats) const {
  return cast_nearest(*state_, sweep.capsule, sweep.direction, sweep.max_distance, options, stats);
}

QueryHit Scene::box_cast(const BoxSweep& sweep, const QueryOptions& options, QueryStats* stats) const {
  return cast_nearest(*state_, sweep.box, sweep.direction, sweep.max_distance, options, stats);
}

QueryHit Scene::convex_cast(const ConvexSweep& sweep, const QueryOptions& options, QueryStats* stats) const {
  return cast_nearest(*state_, MovingHull{sweep.hull}, sweep.direction, sweep.max_distance, options, stats);
}

std::size_t Scene::sphere_cast_all(const SphereSweep& sweep, std::vector<QueryHit>& out, const QueryOptions& options,
                                   QueryStats* stats) const {
  return cast_all(*state_, sweep.sphere, sweep.direction, sweep.max_distance, out, options, stats);
}

std::size_t Scene::capsule_cast_all(const CapsuleSweep& sweep, std::vector<QueryHit>& out,
                                    const QueryOptions& options, QueryStats* stats) const {
  return cast_all(*state_, sweep.capsule, sweep.direction, sweep.max_distance, out, options, stats);
}

std::size_t Scene::box_cast_all(const BoxSweep& sweep, std::vector<QueryHit>& out, const QueryOptions& options,
                                QueryStats* stats) const {
  return cast_all(*state_, sweep.box, sweep.direction, sweep.max_distance, out, options, stats);
}

std::size_t Scene::convex_cast_all(const ConvexSweep& sweep, std::vector<QueryHit>& out, const QueryOptions& options,
                                   QueryStats* stats) const {
  return cast_all(*state_, MovingHull{sweep.hull}, sweep.direction, sweep.max_distance, out, options, stats);
}

Status Scene::sphere_cast_batch(std::span<const SphereSweep> sweeps, std::span<QueryHit> hits,
                                const QueryOptions& options, Executor* executor) const {
  if (sweeps.size() != hits.size()) {
    return Status{StatusCode::invalid_argument, "Scene::sphere_cast_batch: " + std::to_string(sweeps.size()) +
                                                    " sweeps but room for " + std::to_string(hits.size()) + " hits"};
  }
  std::shared_lock lock(state_->query_mutex);  // one commit boundary for the whole batch
  (executor ? *executor : default_executor()).parallel_for(sweeps.size(), kBatchGrain, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      Path<Spheref> path;
      hits[i] = prepare(sweeps[i].sphere, sweeps[i].direction, sweeps[i].max_distance, options, path)
                    ? nearest(*state_, path, options, nullptr)
                    : QueryHit{};
    }
  });
  return Status::success();
}

}  // namespace hitscan
