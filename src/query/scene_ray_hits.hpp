#pragma once
// The per-collider pieces of a scene raycast, shared by the files that trace rays through a scene:
// preparing a query ray, the nearest crossing of one collider and its hit record, and the order
// of hits, used by scene_raycast.cpp and scene_coherent.cpp. Private to the query layer.

#include <cmath>

#include "hitscan/geometry/closest_point.hpp"
#include "hitscan/geometry/convex_hull.hpp"
#include "hitscan/geometry/ray_capsule.hpp"
#include "hitscan/geometry/ray_cylinder.hpp"
#include "hitscan/geometry/ray_obb.hpp"
#include "hitscan/geometry/ray_plane.hpp"
#include "hitscan/geometry/ray_polygon.hpp"
#include "hitscan/geometry/ray_sphere.hpp"
#include "scene_state.hpp"

namespace hitscan::scene_ray {

// The kernel ray of a query ray: unit direction, so that t is a world distance, over
// [0, the smaller distance limit]. False for a ray that can hit nothing.
inline bool prepare(const QueryRay& query, const QueryOptions& options, Rayf& ray) {
  // Each limit checked on its own: min() would drop a NaN.
  if (!(query.max_distance >= 0.0f) || !(options.max_distance >= 0.0f)) return false;
  const float limit = min(query.max_distance, options.max_distance);
  if (!in_working_range(query.origin) || !is_finite(query.direction)) return false;
  const Vec3f unit = normalize(query.direction);
  if (unit == Vec3f{}) return false;
  ray = {query.origin, unit, 0.0f, limit};
  return true;
}

// Outward unit normal of a hull at a point of its surface: the plane the point lies least inside.
inline Vec3f outward_normal(const ConvexHullf& hull, Vec3f p) {
  Vec3f best{};
  float best_height = -kInfinity<float>;
  for (const Planef& plane : hull.planes()) {
    const float height = dot(plane.normal, p) - plane.offset;
    if (height > best_height) best_height = height, best = plane.normal;
  }
  return best;
}

// Outward unit normal of a solid at a point of its surface (where a ray leaves it).
inline Vec3f outward_normal(const WorldShape& shape, Vec3f p) {
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
  if (const auto* h = std::get_if<WorldHull>(&shape)) return outward_normal(**h, p);
  const Cylinderf& c = std::get<Cylinderf>(shape);
  float length_axis;
  const Vec3f u = cylinder_axis(c, length_axis);
  const float s = dot(p - c.a, u);
  const Vec3f radial = p - c.a - u * s;
  const float to_side = c.radius - length(radial), to_cap = min(s, length_axis - s);
  if (to_cap < to_side) return s < 0.5f * length_axis ? -u : u;
  return normalize(radial);
}

inline Feature triangle_feature(float u, float v) {
  const int zeros = (u == 0.0f) + (v == 0.0f) + (1.0f - u - v == 0.0f);
  return zeros >= 2 ? Feature::vertex : zeros == 1 ? Feature::edge : Feature::face;
}

inline QueryHit make_hit(const CommittedCollider& c, const Rayf& ray, float distance, Vec3f face_normal, std::uint8_t flags) {
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

// A mesh's hit as the scene reports it, from its t, normal (in the world), triangle and
// barycentrics; the point is the ray's at t, as the mesh's own would be.
inline QueryHit from_mesh_hit(const CommittedCollider& c, const Rayf& ray, const MeshHit& m) {
  QueryHit h = make_hit(c, ray, m.t, m.normal, m.back_face ? kHitBackFace : 0);
  h.primitive = m.triangle;
  h.u = m.u;
  h.v = m.v;
  h.feature = triangle_feature(m.u, m.v);
  return h;
}

inline RayHitf ray_vs_analytic(const WorldShape& shape, const Rayf& ray) {
  if (const auto* s = std::get_if<Spheref>(&shape)) return ray_vs_sphere(*s, ray);
  if (const auto* b = std::get_if<Obbf>(&shape)) return ray_vs_obb(*b, ray);
  if (const auto* c = std::get_if<Capsulef>(&shape)) return ray_vs_capsule(*c, ray);
  if (const auto* c = std::get_if<Cylinderf>(&shape)) return ray_vs_cylinder(*c, ray);
  if (const auto* p = std::get_if<Planef>(&shape)) return ray_vs_plane(*p, ray);
  if (const auto* h = std::get_if<WorldHull>(&shape)) return ray_vs_hull(**h, ray);
  return ray_vs_polygon(std::get<ConvexPolygonf>(shape), ray);
}

inline bool face_accepted(bool back, FaceMode faces) {
  return faces == FaceMode::both || (faces == FaceMode::back_only) == back;
}

// The first crossing of one collider within the ray's range that the options accept.
inline bool nearest_hit(const CommittedCollider& c, const Rayf& ray, const QueryOptions& options, QueryHit& out) {
  if (const auto* mesh = std::get_if<WorldMesh>(&c.shape)) {
    // Checked once: the tree and transform at commit, the ray by prepare. Of the hit's fields,
    // the normal is what QueryHit keeps (its point is the world ray's).
    const MeshHit m = mesh->intersect_valid(ray, options.faces, HitFields::normal);
    if (m.hit) out = from_mesh_hit(c, ray, m);
    return m.hit;
  }
  const RayHitf r = ray_vs_analytic(c.shape, ray);
  if (!r.hit) return false;
  if (!is_solid(c.shape)) {
    if (!face_accepted(r.back_face(), options.faces)) return false;
    out = make_hit(c, ray, r.t, r.normal, r.back_face() ? kHitBackFace : 0);
    return true;
  }
  if (!r.started_inside()) {
    out = make_hit(c, ray, r.t, r.normal, 0);
  } else if (options.solid) {
    out = make_hit(c, ray, r.t, r.normal, kHitStartedInside);
    out.face_normal = r.normal;  // no surface at the start: the normal against the ray
  } else if (r.t_exit <= ray.tmax) {
    out = make_hit(c, ray, r.t_exit, outward_normal(c.shape, ray.at(r.t_exit)), kHitExit);
  } else {
    return false;
  }
  return true;
}

// Order of raycast_all: distance, then collider, primitive, and entries before exits.
inline bool hit_before(const QueryHit& a, const QueryHit& b) {
  if (a.distance != b.distance) return a.distance < b.distance;
  if (a.collider != b.collider) return a.collider < b.collider;
  if (a.primitive != b.primitive) return a.primitive < b.primitive;
  return (a.flags & kHitExit) < (b.flags & kHitExit);
}

}  // namespace hitscan::scene_ray
