// Scene: overlap_sphere, overlap_box, overlap_capsule. The query shape's box walks the top-level
// tree; each collider it reaches goes through the pair's exact test (see scene.hpp for the method
// of each pair).

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "hitscan/geometry/detail/cylinder_closest_point.hpp"
#include "hitscan/geometry/detail/gjk_distance.hpp"
#include "hitscan/geometry/contact_box_box.hpp"
#include "hitscan/geometry/contact_capsule_box.hpp"
#include "hitscan/geometry/contact_round.hpp"
#include "hitscan/geometry/contact_sphere_box.hpp"
#include "hitscan/geometry/contact_triangle.hpp"
#include "hitscan/geometry/gjk_epa.hpp"
#include "hitscan/geometry/shape_size.hpp"
#include "hitscan/mesh/mesh_contact.hpp"
#include "scene_state.hpp"

namespace hitscan {
namespace {

constexpr ContactTolerancef kTolerance{};


// The contact with the roles of A and B exchanged.
Contactf swapped(const Contactf& c) { return {c.touching, c.point_on_b, c.point_on_a, -c.normal, c.depth}; }

// A pair with a kernel of geometry/: overlap() alone, or the contact, with the query as A.
template <class A, class B>
bool kernel_pair(const A& a, const B& b, bool want_contact, Contactf& out) {
  if constexpr (requires { contact(a, b, 0.0f, kTolerance); }) {
    if (!want_contact) return overlap(a, b, kTolerance);
    out = contact(a, b, 0.0f, kTolerance);
  } else {
    if (!want_contact) return overlap(b, a, kTolerance);
    out = swapped(contact(b, a, 0.0f, kTolerance));
  }
  return out.touching;
}

// The signed distances [low, high] of the query shape's points from a plane, and its deepest
// point along -direction (the middle of a face or edge that lies flat across it).
void extent_along(const Spheref& s, Vec3f n, float& low, float& high) {
  low = dot(n, s.center) - s.radius, high = dot(n, s.center) + s.radius;
}
void extent_along(const Capsulef& c, Vec3f n, float& low, float& high) {
  low = min(dot(n, c.a), dot(n, c.b)) - c.radius, high = max(dot(n, c.a), dot(n, c.b)) + c.radius;
}
void extent_along(const Obbf& b, Vec3f n, float& low, float& high) {
  const float reach = std::abs(dot(n, b.rotation.col[0])) * b.half_extents.x +
                      std::abs(dot(n, b.rotation.col[1])) * b.half_extents.y +
                      std::abs(dot(n, b.rotation.col[2])) * b.half_extents.z;
  low = dot(n, b.center) - reach, high = dot(n, b.center) + reach;
}
Vec3f deepest_point(const Spheref& s, Vec3f normal) { return s.center - normal * s.radius; }
Vec3f deepest_point(const Capsulef& c, Vec3f normal) {
  const float da = dot(normal, c.a), db = dot(normal, c.b);
  const float flat = kTolerance.at_size(size_of(c));
  const Vec3f core = std::abs(da - db) <= flat ? (c.a + c.b) * 0.5f : da < db ? c.a : c.b;
  return core - normal * c.radius;
}
Vec3f deepest_point(const Obbf& b, Vec3f normal) {
  Vec3f p = b.center;
  const float flat = kTolerance.at_size(size_of(b));
  for (int i = 0; i < 3; ++i) {
    const float along = dot(normal, b.rotation.col[i]) * b.half_extents[i];
    if (std::abs(along) > flat) p = p - b.rotation.col[i] * (along < 0.0f ? -b.half_extents[i] : b.half_extents[i]);
  }
  return p;
}

// A plane is a two-sided surface: touching when the shape's extent along the normal reaches it;
// the contact clears it on the side of the shape's centre.
template <class Q>
bool plane_pair(const Q& q, const Planef& plane, bool want_contact, Contactf& out) {
  float low, high;
  extent_along(q, plane.normal, low, high);
  low -= plane.offset, high -= plane.offset;
  const float tol = kTolerance.at_size(size_of(q));
  if (!(low <= tol && high >= -tol)) return false;
  if (want_contact) {
    const bool front = low + high >= 0.0f;
    out.touching = true;
    out.normal = front ? plane.normal : -plane.normal;
    out.depth = front ? -low : high;
    out.point_on_a = deepest_point(q, out.normal);
    out.point_on_b = out.point_on_a + out.normal * out.depth;
  }
  return true;
}

// The deepest touching triangle of a set, by index order on a tie. `triangle(i)` gives the i-th.
template <class Q, class Triangles>
bool triangles_pair(const Q& q, std::size_t count, Triangles&& triangle, bool want_contact, Contactf& out,
                    std::uint32_t& primitive) {
  bool found = false;
  Contactf c;
  for (std::size_t i = 0; i < count; ++i) {
    Trianglef t;
    if (!triangle(i, t)) continue;
    if (!kernel_pair(q, t, want_contact, c)) continue;
    if (!want_contact) return true;
    if (!found || c.depth > out.depth) out = c, primitive = static_cast<std::uint32_t>(i);
    found = true;
  }
  return found;
}

template <class Q>
bool polygon_pair(const Q& q, const ConvexPolygonf& polygon, bool want_contact, Contactf& out) {
  const auto v = polygon.vertices();
  std::uint32_t unused = 0;
  auto fan = [&](std::size_t i, Trianglef& t) {
    t = {v[0], v[i + 1], v[i + 2]};
    return true;
  };
  return triangles_pair(q, v.size() - 2, fan, want_contact, out, unused);
}

bool cylinder_pair(const Spheref& s, const Cylinderf& c, bool want_contact, Contactf& out) {
  SolidClosestPoint<float> p = closest_point_on_cylinder(c, s.center);
  // A centre a denormal away from the surface has a distance that underflows to 0: it is taken as
  // on the boundary, from inside, which gives a unit normal.
  const float distance = p.inside ? 0.0f : length(s.center - p.point);
  if (!p.inside && !(distance > 0.0f)) p.inside = true;
  if (!(distance - s.radius <= kTolerance.at_size(max(size_of(s), size_of(c))))) return false;
  if (want_contact) {
    out.touching = true;
    if (p.inside) {
      const CylinderBoundaryPoint b = cylinder_boundary_from_inside(c, s.center);
      out.normal = b.outward_normal, out.depth = s.radius + b.distance, out.point_on_b = b.point;
    } else {
      out.normal = (s.center - p.point) / distance, out.depth = s.radius - distance, out.point_on_b = p.point;
    }
    out.point_on_a = s.center - out.normal * s.radius;
  }
  return true;
}

// Box or capsule against a cylinder: the GJK distance of the box or the capsule's core.
template <class Q>
bool cylinder_pair(const Q& q, const Cylinderf& c, bool want_contact, Contactf& out, bool& has_contact) {
  float radius = 0.0f;
  ConvexSupport shape;
  if constexpr (std::is_same_v<Q, Capsulef>) {
    radius = q.radius;
    shape = ConvexSupport::from(Segmentf{q.a, q.b});
  } else {
    shape = ConvexSupport::from(q);
  }
  const GjkDistance d = gjk_distance(shape, ConvexSupport::from(c));
  const float separation = static_cast<float>(d.distance) - radius;
  if (!(separation <= kTolerance.at_size(max(size_of(q), size_of(c))))) return false;
  has_contact = want_contact && d.distance > 0.0;
  if (has_contact) {
    const Vec3<double> n = (d.point_on_a - d.point_on_b) / d.distance;
    out.touching = true;
    out.normal = {static_cast<float>(n.x), static_cast<float>(n.y), static_cast<float>(n.z)};
    out.point_on_b = {static_cast<float>(d.point_on_b.x), static_cast<float>(d.point_on_b.y), static_cast<float>(d.point_on_b.z)};
    out.point_on_a = Vec3f{static_cast<float>(d.point_on_a.x), static_cast<float>(d.point_on_a.y),
                           static_cast<float>(d.point_on_a.z)} - out.normal * radius;
    out.depth = -separation;
  }
  return true;
}

// A convex hull: GJK's distance for the touch alone, EPA's contact (geometry/gjk_epa.hpp).
template <class Q>
bool hull_pair(const Q& q, const ConvexHullf& hull, bool want_contact, Contactf& out) {
  if (want_contact) {
    out = penetration(q, hull, kTolerance);
    return out.touching;
  }
  const ConvexDistance<float> d = gjk_distance(q, hull);
  return d.overlapping || d.distance <= kTolerance.at_size(max(size_of(q), size_of(hull)));
}

// The query shape in a mesh's frame under a uniform positive scale s (x_local = Rᵀ (x - t) / s).
Spheref to_local(const Spheref& q, const Transformf& t, float s) { return {t.inverse_point(q.center), q.radius / s}; }
Capsulef to_local(const Capsulef& q, const Transformf& t, float s) {
  return {t.inverse_point(q.a), t.inverse_point(q.b), q.radius / s};
}
Obbf to_local(const Obbf& q, const Transformf& t, float s) {
  const Mat3f r = Mat3f::from_quat(t.rotation);
  return {t.inverse_point(q.center), q.half_extents / s, r.transposed() * q.rotation};
}

template <class Q>
bool mesh_pair(const Q& q, const Aabbf& query_box, const WorldMesh& mesh, bool want_contact, Contactf& out,
               std::uint32_t& primitive) {
  if (!mesh.bvh || !mesh.transform.is_invertible()) return false;
  const Transformf& t = mesh.transform;
  const float s = t.scale.x;
  const float spread = max(std::abs(t.scale.x - t.scale.y), std::abs(t.scale.x - t.scale.z));
  if (s > 0.0f && spread <= 1e-6f * s) {
    const Q local = to_local(q, t, s);
    const ContactTolerancef tol{kTolerance.absolute / s, kTolerance.relative};
    if (!want_contact) return overlap(local, *mesh.bvh, tol);
    const MeshContact m = contact(local, *mesh.bvh, 0.0f, tol);
    if (!m) return false;
    out = {true, t.apply_point(m.contact.point_on_a), t.apply_point(m.contact.point_on_b),
           normalize(t.rotation.rotate(m.contact.normal)), m.contact.depth * s};
    primitive = m.triangle;
    return true;
  }
  // Non-uniform or mirroring scale: the shape would not stay a sphere, capsule or box in the
  // mesh's frame, so the triangles come to the world instead.
  const TriangleMesh& triangles = mesh.bvh->mesh();
  auto world_triangle = [&](std::size_t i, Trianglef& w) {
    if (!triangles.is_usable(i)) return false;
    const Trianglef l = triangles.triangle(i);
    w = {t.apply_point(l.v0), t.apply_point(l.v1), t.apply_point(l.v2)};
    Aabbf box;
    box.grow(w.v0), box.grow(w.v1), box.grow(w.v2);
    return box.overlaps(query_box);
  };
  return triangles_pair(q, triangles.triangle_count(), world_triangle, want_contact, out, primitive);
}

// One collider against the query shape; fills `hit` when they touch.
template <class Q>
bool test_collider(const Q& q, const Aabbf& query_box, const CommittedCollider& c, bool want_contact, OverlapHit& hit) {
  hit = {};
  hit.collider = c.id;
  hit.user_id = c.user_id;
  bool has_contact = want_contact;
  bool touching = false;
  Contactf& out = hit.contact;
  if (const auto* s = std::get_if<Spheref>(&c.shape)) touching = kernel_pair(q, *s, want_contact, out);
  else if (const auto* b = std::get_if<Obbf>(&c.shape)) touching = kernel_pair(q, *b, want_contact, out);
  else if (const auto* k = std::get_if<Capsulef>(&c.shape)) touching = kernel_pair(q, *k, want_contact, out);
  else if (const auto* p = std::get_if<Planef>(&c.shape)) touching = plane_pair(q, *p, want_contact, out);
  else if (const auto* g = std::get_if<ConvexPolygonf>(&c.shape)) touching = polygon_pair(q, *g, want_contact, out);
  else if (const auto* m = std::get_if<WorldMesh>(&c.shape)) touching = mesh_pair(q, query_box, *m, want_contact, out, hit.primitive);
  else if (const auto* h = std::get_if<WorldHull>(&c.shape)) touching = hull_pair(q, **h, want_contact, out);
  else {
    const Cylinderf& cylinder = std::get<Cylinderf>(c.shape);
    if (!(length(cylinder.b - cylinder.a) > 0.0f)) return false;
    if constexpr (std::is_same_v<Q, Spheref>) touching = cylinder_pair(q, cylinder, want_contact, out);
    else touching = cylinder_pair(q, cylinder, want_contact, out, has_contact);
  }
  hit.has_contact = touching && has_contact;
  return touching;
}

template <class Q>
void walk_overlaps(const Scene::State& s, const Q& q, const QueryOptions& options, std::vector<OverlapHit>& out,
                   QueryStats* stats) {
  // The query's box, grown by more than any pair's tolerance can reach for colliders of a size
  // comparable to the query's (the tree's boxes are fattened besides).
  Aabbf box = world_bounds(WorldShape{q});
  const float reach = kTolerance.at_size(size_of(q)) + 1e-4f * max(1.0f, size_of(q));
  box = {box.min - Vec3f{reach, reach, reach}, box.max + Vec3f{reach, reach, reach}};
  std::uint64_t tested = 0;
  OverlapHit hit;
  auto test = [&](const CommittedCollider& c) {
    if (!visible(c, options)) return;
    ++tested;
    if (test_collider(q, box, c, options.contacts, hit)) out.push_back(hit);
  };
  for (const std::uint32_t slot : s.unbounded) test(*s.committed[slot]);
  const bvh::TreeQueryStats tree_stats = s.tree.query(box, [&](std::uint32_t proxy) {
    test(*s.committed[s.tree.user(proxy)]);
    return true;
  });
  if (stats) {
    stats->tree_nodes += tree_stats.node_visits;
    stats->shapes_tested += tested;
  }
}

template <class Q>
std::size_t overlap_into(const Scene::State& s, const Q& q, std::vector<OverlapHit>& out, const QueryOptions& options,
                         QueryStats* stats) {
  out.clear();
  if (!valid(q)) return 0;
  {
    std::shared_lock lock(s.query_mutex);
    walk_overlaps(s, q, options, out, stats);
  }
  std::sort(out.begin(), out.end(), [](const OverlapHit& a, const OverlapHit& b) { return a.collider < b.collider; });
  return out.size();
}

template <class Q>
OverlapCount overlap_into(const Scene::State& s, const Q& q, std::span<OverlapHit> buffer, const QueryOptions& options,
                          QueryStats* stats) {
  std::vector<OverlapHit> all;
  overlap_into(s, q, all, options, stats);
  const std::size_t written = std::min(all.size(), buffer.size());
  std::copy_n(all.begin(), written, buffer.begin());
  return {written, all.size()};
}

}  // namespace

std::size_t Scene::overlap_sphere(const Spheref& sphere, std::vector<OverlapHit>& out, const QueryOptions& options,
                                  QueryStats* stats) const {
  return overlap_into(*state_, sphere, out, options, stats);
}
std::size_t Scene::overlap_box(const Obbf& box, std::vector<OverlapHit>& out, const QueryOptions& options,
                               QueryStats* stats) const {
  return overlap_into(*state_, box, out, options, stats);
}
std::size_t Scene::overlap_capsule(const Capsulef& capsule, std::vector<OverlapHit>& out, const QueryOptions& options,
                                   QueryStats* stats) const {
  return overlap_into(*state_, capsule, out, options, stats);
}
OverlapCount Scene::overlap_sphere(const Spheref& sphere, std::span<OverlapHit> buffer, const QueryOptions& options,
                                   QueryStats* stats) const {
  return overlap_into(*state_, sphere, buffer, options, stats);
}
OverlapCount Scene::overlap_box(const Obbf& box, std::span<OverlapHit> buffer, const QueryOptions& options,
                                QueryStats* stats) const {
  return overlap_into(*state_, box, buffer, options, stats);
}
OverlapCount Scene::overlap_capsule(const Capsulef& capsule, std::span<OverlapHit> buffer, const QueryOptions& options,
                                    QueryStats* stats) const {
  return overlap_into(*state_, capsule, buffer, options, stats);
}

}  // namespace hitscan
