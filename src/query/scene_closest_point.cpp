// Scene::closest_point: the nearest surface point of the scene to a point. Nearest first through
// the top-level tree, each collider's exact closest point, the search radius shrinking with each
// find.

#include <cmath>

#include "hitscan/geometry/closest_point.hpp"
#include "hitscan/geometry/convex_hull.hpp"
#include "hitscan/geometry/detail/cylinder_closest_point.hpp"
#include "scene_state.hpp"

namespace hitscan {
namespace {

struct SurfacePoint {
  Vec3f point{};
  Vec3f face_normal{};  // outward (solids), the front (open surfaces)
  bool inside = false;  // the query point is in the solid (and the point is the query point)
  std::uint32_t primitive = kNoPrimitive;
  float u = 0, v = 0;
  Feature feature = Feature::face;
};

Vec3f direction_or(Vec3f d, Vec3f fallback) {
  const Vec3f n = normalize(d);
  return n == Vec3f{} ? fallback : n;
}

// The nearest point of a solid's boundary to p, for a p inside it, and the outward normal there.
SurfacePoint boundary_from_inside(const WorldShape& shape, Vec3f p) {
  SurfacePoint s;
  if (const auto* sphere = std::get_if<Spheref>(&shape)) {
    s.face_normal = direction_or(p - sphere->center, {0, 0, 1});
    s.point = sphere->center + s.face_normal * sphere->radius;
  } else if (const auto* capsule = std::get_if<Capsulef>(&shape)) {
    const Vec3f axis_point = closest_point_on_segment(Segmentf{capsule->a, capsule->b}, p);
    const Vec3f axis = capsule->b - capsule->a;
    // On the axis itself any direction across it will do: one perpendicular to the axis.
    const Vec3f across = direction_or(cross(axis, std::abs(axis.x) < std::abs(axis.z) ? Vec3f{1, 0, 0} : Vec3f{0, 0, 1}), {1, 0, 0});
    s.face_normal = direction_or(p - axis_point, across);
    s.point = axis_point + s.face_normal * capsule->radius;
  } else if (const auto* box = std::get_if<Obbf>(&shape)) {
    const Vec3f q = box->rotation.transpose_mul(p - box->center);
    int axis = 0;
    float nearest = kInfinity<float>;
    for (int i = 0; i < 3; ++i) {
      const float gap = box->half_extents[i] - std::abs(q[i]);
      if (gap < nearest) nearest = gap, axis = i;
    }
    const float side = q[axis] < 0.0f ? -1.0f : 1.0f;
    Vec3f on_face = q;
    on_face[axis] = side * box->half_extents[axis];
    s.point = box->center + box->rotation * on_face;
    s.face_normal = box->rotation.col[axis] * side;
  } else {
    const CylinderBoundaryPoint b = cylinder_boundary_from_inside(std::get<Cylinderf>(shape), p);
    s.point = b.point;
    s.face_normal = b.outward_normal;
  }
  return s;
}

// Closest point of a convex polygon to p: the projection when it falls inside, else the nearest
// point of its edges.
Vec3f closest_point_on_polygon(const ConvexPolygonf& polygon, Vec3f p) {
  const Vec3f n = polygon.normal();
  const Vec3f projected = p - n * (dot(n, p) - polygon.offset());
  const auto v = polygon.vertices();
  bool outside = false;
  for (std::size_t i = 0; i < v.size() && !outside; ++i) {
    const Vec3f edge = v[(i + 1) % v.size()] - v[i];
    outside = dot(cross(edge, projected - v[i]), n) < 0.0f;
  }
  if (!outside) return projected;
  Vec3f best = v[0];
  float best_d2 = kInfinity<float>;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec3f c = closest_point_on_segment(Segmentf{v[i], v[(i + 1) % v.size()]}, p);
    const float d2 = dot(c - p, c - p);
    if (d2 < best_d2) best_d2 = d2, best = c;
  }
  return best;
}

// A hull's nearest surface point to p, exactly: from outside the nearest point of its triangles
// (the face normal that of the triangle, among equally near ones the one facing p most); from
// inside the projection on the nearest face plane, which lies on that face (any plane nearer the
// projection than its own would be nearer p).
SurfacePoint hull_closest(const ConvexHullf& hull, Vec3f p, bool solid) {
  const auto planes = hull.planes();
  std::size_t nearest_plane = 0;
  float height = -kInfinity<float>;
  for (std::size_t i = 0; i < planes.size(); ++i) {
    const float h = dot(planes[i].normal, p) - planes[i].offset;
    if (h > height) height = h, nearest_plane = i;
  }
  const Vec3f n = planes[nearest_plane].normal;
  if (height <= 0.0f) return {solid ? p : p - n * height, n, solid};
  const auto v = hull.vertices();
  SurfacePoint best;
  float best_d2 = kInfinity<float>, best_facing = -kInfinity<float>;
  for (std::size_t i = 0; i < planes.size(); ++i) {
    const auto& f = hull.faces()[i];
    const Vec3f q = closest_point_on_triangle(Trianglef{v[f[0]], v[f[1]], v[f[2]]}, p).point;
    const float d2 = dot(p - q, p - q), facing = dot(planes[i].normal, p - q);
    if (d2 < best_d2 || (d2 == best_d2 && facing > best_facing)) {
      best_d2 = d2, best_facing = facing;
      best = {q, planes[i].normal};
    }
  }
  return best;
}

// The collider's nearest surface point to p within `limit`, following options.solid.
bool collider_closest(const CommittedCollider& c, Vec3f p, float limit, bool solid, SurfacePoint& out) {
  const WorldShape& shape = c.shape;
  if (const auto* mesh = std::get_if<WorldMesh>(&shape)) {
    const MeshClosestPoint m = mesh->closest_point(p, limit);
    if (!m.found) return false;
    out = {m.point, m.normal, false, m.triangle, m.u, m.v,
           m.feature == Feature::vertex ? Feature::vertex : m.feature == Feature::edge ? Feature::edge : Feature::face};
    return true;
  }
  if (const auto* plane = std::get_if<Planef>(&shape)) {
    out = {p - plane->normal * (dot(plane->normal, p) - plane->offset), plane->normal};
    return true;
  }
  if (const auto* polygon = std::get_if<ConvexPolygonf>(&shape)) {
    out = {closest_point_on_polygon(*polygon, p), polygon->normal()};
    return true;
  }
  if (const auto* hull = std::get_if<WorldHull>(&shape)) {
    out = hull_closest(**hull, p, solid);
    return true;
  }
  SolidClosestPoint<float> solid_point;
  if (const auto* s = std::get_if<Spheref>(&shape)) solid_point = closest_point_on_sphere(*s, p);
  else if (const auto* b = std::get_if<Obbf>(&shape)) solid_point = closest_point_on_obb(*b, p);
  else if (const auto* cap = std::get_if<Capsulef>(&shape)) solid_point = closest_point_on_capsule(*cap, p);
  else solid_point = closest_point_on_cylinder(std::get<Cylinderf>(shape), p);
  if (solid_point.inside && solid) {
    out = boundary_from_inside(shape, p);  // for the face normal
    out.point = p;
    out.inside = true;
    return true;
  }
  if (solid_point.inside) {
    out = boundary_from_inside(shape, p);
    return true;
  }
  out = boundary_from_inside(shape, solid_point.point);  // the outward normal at the surface point
  out.point = solid_point.point;
  return true;
}

}  // namespace

QueryHit Scene::closest_point(Vec3f p, const QueryOptions& options, QueryStats* stats) const {
  QueryHit best;
  if (!in_working_range(p) || !(options.max_distance >= 0.0f)) return best;
  const State& s = *state_;
  std::shared_lock lock(s.query_mutex);
  float best_d2 = options.max_distance * options.max_distance;
  std::uint64_t tested = 0;
  auto test = [&](const CommittedCollider& c) {
    if (!visible(c, options)) return;
    ++tested;
    SurfacePoint sp;
    if (!collider_closest(c, p, std::sqrt(best_d2), options.solid, sp)) return;
    const float d2 = dot(sp.point - p, sp.point - p);
    if (d2 > best_d2 || (best.hit && d2 == best_d2 && c.id > best.collider)) return;
    best_d2 = d2;
    best.hit = true;
    best.flags = sp.inside ? kHitStartedInside : 0;
    best.feature = sp.feature;
    best.point = sp.point;
    best.face_normal = sp.face_normal;
    // From the surface towards the query point; on the surface (or inside), the surface's own.
    best.normal = d2 > 0.0f ? normalize(p - sp.point) : sp.face_normal;
    best.collider = c.id;
    best.user_id = c.user_id;
    best.primitive = sp.primitive;
    best.u = sp.u;
    best.v = sp.v;
  };
  for (const std::uint32_t slot : s.unbounded) test(*s.committed[slot]);
  const bvh::TreeQueryStats tree_stats = s.tree.nearest_query(p, best_d2, [&](std::uint32_t proxy, float) {
    test(*s.committed[s.tree.user(proxy)]);
    return best_d2;
  });
  if (stats) {
    stats->tree_nodes += tree_stats.node_visits;
    stats->shapes_tested += tested;
  }
  if (best.hit) best.distance = std::sqrt(best_d2);
  return best;
}

}  // namespace hitscan
