#include "hitscan/query/collider.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace hitscan {
namespace {

Status invalid(std::string what) { return Status{StatusCode::invalid_argument, std::move(what)}; }

// The common magnitude of a uniform scale; NaN when the magnitudes differ.
float uniform_scale(const Transformf& transform) {
  const Vec3f s = abs(transform.scale);
  // Relative comparison: a scale assembled from float arithmetic may differ in the last bits.
  const float largest = max_component(s), smallest = min(s.x, min(s.y, s.z));
  return largest - smallest <= 1e-6f * largest ? largest : std::numeric_limits<float>::quiet_NaN();
}

bool is_identity(const Mat3f& m) {
  const Mat3f identity = Mat3f::identity();
  return m.col[0] == identity.col[0] && m.col[1] == identity.col[1] && m.col[2] == identity.col[2];
}

Status sphere_to_world(const Spheref& sphere, const Transformf& transform, WorldShape& out) {
  const float scale = uniform_scale(transform);
  if (!(sphere.radius >= 0.0f) || !std::isfinite(sphere.radius) || !is_finite(sphere.center)) {
    return invalid("sphere: the centre or radius is not finite or is negative");
  }
  if (!is_finite(scale)) return invalid("sphere: the transform's scale is not uniform");
  const Spheref world{transform.apply_point(sphere.center), sphere.radius * scale};
  if (!is_finite(world.center) || !std::isfinite(world.radius)) return invalid("sphere: not finite once transformed");
  out.emplace<Spheref>(world);
  return Status::success();
}

template <class Round>  // Capsule or Cylinder: a segment and a radius
Status round_to_world(const Round& shape, const Transformf& transform, const char* message, WorldShape& out) {
  const float scale = uniform_scale(transform);
  if (!(shape.radius >= 0.0f) || !std::isfinite(shape.radius) || !is_finite(shape.a) || !is_finite(shape.b) ||
      !is_finite(scale)) {
    return invalid(message);
  }
  const Round world{transform.apply_point(shape.a), transform.apply_point(shape.b), shape.radius * scale};
  if (!is_finite(world.a) || !is_finite(world.b) || !std::isfinite(world.radius)) return invalid(message);
  out.emplace<Round>(world);
  return Status::success();
}

Status finite_box(const Obbf& world, WorldShape& out) {
  if (!is_finite(world.center) || !is_finite(world.half_extents)) return invalid("box: not finite once transformed");
  out.emplace<Obbf>(world);
  return Status::success();
}

Status box_to_world(const Obbf& box, const Transformf& transform, WorldShape& out) {
  if (!is_finite(box.center) || !is_finite(box.half_extents) || !(min_component(box.half_extents) >= 0.0f)) {
    return invalid("box: the centre or half extents are not finite or are negative");
  }
  const Mat3f rotation = Mat3f::from_quat(transform.rotation);
  if (is_identity(box.rotation)) {
    // Any scale: it acts along the box's own axes. A mirror leaves a centred box the same box.
    return finite_box({transform.apply_point(box.center), mul(box.half_extents, abs(transform.scale)), rotation}, out);
  }
  const float scale = uniform_scale(transform);
  if (!is_finite(scale)) return invalid("box: a rotated box needs a uniform scale");
  return finite_box({transform.apply_point(box.center), box.half_extents * scale, rotation * box.rotation}, out);
}

Status plane_to_world(const Planef& plane, const Transformf& transform, WorldShape& out) {
  if (!is_finite(plane.normal) || !is_finite(plane.offset) || !(length(plane.normal) > 0.0f)) {
    return invalid("plane: the normal is zero or not finite");
  }
  const Vec3f n = normalize(plane.normal);
  const Vec3f on_plane = transform.apply_point(n * (plane.offset / length(plane.normal)));
  const Vec3f world_normal = transform.apply_normal(n);
  out.emplace<Planef>(Planef{world_normal, dot(world_normal, on_plane)});
  return Status::success();
}

Status polygon_to_world(const ConvexPolygonf& polygon, const Transformf& transform, WorldShape& out) {
  std::vector<Vec3f> vertices;
  for (const Vec3f& v : polygon.vertices()) vertices.push_back(transform.apply_point(v));
  // A mirroring transform reverses the winding; reversing it back keeps the front the front.
  if (transform.linear().determinant() < 0.0f) std::reverse(vertices.begin(), vertices.end());
  Result<ConvexPolygonf> world = ConvexPolygonf::make(vertices);
  if (!world) return world.status();
  out.emplace<ConvexPolygonf>(std::move(world).value());
  return Status::success();
}

// The hull carried to the world (ConvexHull::transformed: an affine map keeps its faces its
// faces); the same hull, shared, under the identity.
Status hull_to_world(const HullShape& hull, const Transformf& transform, WorldShape& out) {
  if (!hull) return invalid("hull: the hull is null");
  if (transform.is_identity()) {
    out.emplace<WorldHull>(hull);
    return Status::success();
  }
  ConvexHullf world = hull->transformed(transform);
  bool usable = is_finite(world.bounds().min) && is_finite(world.bounds().max);
  for (const Planef& plane : world.planes()) {
    usable = usable && is_finite(plane.normal) && plane.normal != Vec3f{} && std::isfinite(plane.offset);
  }
  if (!usable) return invalid("hull: not finite once transformed");
  out.emplace<WorldHull>(std::make_shared<const ConvexHullf>(std::move(world)));
  return Status::success();
}

}  // namespace

namespace {

Status to_world_unchecked(const ColliderShape& shape, const Transformf& transform, WorldShape& out) {
  if (!transform.is_invertible()) return invalid("the collider's transform is not invertible");
  if (!(min_component(abs(transform.scale)) >= kMinColliderScale)) {
    return invalid("the collider's transform scales an axis by less than 1e-15, beyond what float coordinates can invert");
  }
  if (const auto* s = std::get_if<Spheref>(&shape)) return sphere_to_world(*s, transform, out);
  if (const auto* b = std::get_if<Obbf>(&shape)) return box_to_world(*b, transform, out);
  if (const auto* c = std::get_if<Capsulef>(&shape)) {
    return round_to_world(*c, transform, "capsule: not finite, a negative radius, or a scale that is not uniform", out);
  }
  if (const auto* c = std::get_if<Cylinderf>(&shape)) {
    return round_to_world(*c, transform, "cylinder: not finite, a negative radius, or a scale that is not uniform", out);
  }
  if (const auto* p = std::get_if<Planef>(&shape)) return plane_to_world(*p, transform, out);
  if (const auto* p = std::get_if<ConvexPolygonf>(&shape)) return polygon_to_world(*p, transform, out);
  if (const auto* h = std::get_if<HullShape>(&shape)) return hull_to_world(*h, transform, out);
  const MeshShape& mesh = std::get<MeshShape>(shape);
  if (!mesh) return invalid("mesh: the mesh is null");
  out.emplace<WorldMesh>(WorldMesh{mesh, transform});
  return Status::success();
}

}  // namespace

Status to_world(const ColliderShape& shape, const Transformf& transform, WorldShape& out, Aabbf* bounds) {
  WorldShape world;
  if (Status s = to_world_unchecked(shape, transform, world); !s.ok()) return s;
  const Aabbf box = world_bounds(world);
  if (const auto* plane = std::get_if<Planef>(&world)) {
    if (!in_working_range(plane->offset)) return invalid(std::string("plane: its offset ") + kBeyondWorkingRange);
  } else if (box.is_valid() && !(in_working_range(box.min) && in_working_range(box.max))) {
    return invalid(std::string("the collider's box in the world ") + kBeyondWorkingRange);
  }
  out = std::move(world);
  if (bounds) *bounds = box;
  return Status::success();
}

Aabbf world_bounds(const WorldShape& shape) {
  Aabbf box;
  if (const auto* s = std::get_if<Spheref>(&shape)) {
    const Vec3f r{s->radius, s->radius, s->radius};
    return {s->center - r, s->center + r};
  }
  if (const auto* b = std::get_if<Obbf>(&shape)) {
    const Mat3f& m = b->rotation;
    const Vec3f reach{dot(abs(m.row(0)), b->half_extents), dot(abs(m.row(1)), b->half_extents),
                      dot(abs(m.row(2)), b->half_extents)};
    return {b->center - reach, b->center + reach};
  }
  if (const auto* c = std::get_if<Capsulef>(&shape)) {
    const Vec3f r{c->radius, c->radius, c->radius};
    box.grow(c->a - r), box.grow(c->a + r), box.grow(c->b - r), box.grow(c->b + r);
    return box;
  }
  if (const auto* c = std::get_if<Cylinderf>(&shape)) {
    // A cap of radius r around unit axis u reaches r sqrt(1 - u_i²) along axis i.
    const Vec3f u = normalize(c->b - c->a);
    const Vec3f reach = Vec3f{std::sqrt(max(0.0f, 1.0f - u.x * u.x)), std::sqrt(max(0.0f, 1.0f - u.y * u.y)),
                              std::sqrt(max(0.0f, 1.0f - u.z * u.z))} * c->radius;
    box.grow(c->a - reach), box.grow(c->a + reach), box.grow(c->b - reach), box.grow(c->b + reach);
    return box;
  }
  if (std::holds_alternative<Planef>(shape)) {
    const float inf = kInfinity<float>;
    return {{-inf, -inf, -inf}, {inf, inf, inf}};
  }
  if (const auto* p = std::get_if<ConvexPolygonf>(&shape)) {
    for (const Vec3f& v : p->vertices()) box.grow(v);
    return box;
  }
  if (const auto* h = std::get_if<WorldHull>(&shape)) return (*h)->bounds();
  // The mesh's box carried over as a centre and a reach along each world axis (|linear| times
  // the half extent): the box of its eight corners, up to a few ulps of its coordinates, which
  // the scene's padding of collider boxes covers.
  const WorldMesh& mesh = std::get<WorldMesh>(shape);
  const Aabbf local = mesh.bvh->mesh().bounds();
  if (!local.is_valid()) return box;
  const Vec3f centre = mesh.transform.apply_point(local.center());
  const Mat3f m = mesh.transform.linear();
  const Vec3f half = local.extent() * 0.5f;
  const Vec3f reach{dot(abs(m.row(0)), half), dot(abs(m.row(1)), half), dot(abs(m.row(2)), half)};
  return {centre - reach, centre + reach};
}

bool is_solid(const WorldShape& shape) {
  return std::holds_alternative<Spheref>(shape) || std::holds_alternative<Obbf>(shape) ||
         std::holds_alternative<Capsulef>(shape) || std::holds_alternative<Cylinderf>(shape) ||
         std::holds_alternative<WorldHull>(shape);
}

}  // namespace hitscan
