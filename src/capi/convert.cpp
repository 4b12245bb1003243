// The C structs to and from the C++ types, and the hs_..._default() initialisers, which are the
// C++ defaults spelled in C.

#include "convert.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <vector>

namespace hitscan::capi {
namespace {

static_assert(HS_NO_COLLIDER == kNoCollider && HS_NO_PRIMITIVE == kNoPrimitive);
static_assert(HS_LAYER_COUNT == kLayerCount && HS_ALL_LAYERS == kAllLayers);
static_assert(HS_HIT_STARTED_INSIDE == kHitStartedInside && HS_HIT_BACK_FACE == kHitBackFace &&
              HS_HIT_EXIT == kHitExit);
static_assert(HS_FEATURE_FACE == static_cast<int>(Feature::face) &&
              HS_FEATURE_EDGE == static_cast<int>(Feature::edge) &&
              HS_FEATURE_VERTEX == static_cast<int>(Feature::vertex));
static_assert(HS_FACES_BOTH == static_cast<int>(FaceMode::both) &&
              HS_FACES_FRONT_ONLY == static_cast<int>(FaceMode::front_only) &&
              HS_FACES_BACK_ONLY == static_cast<int>(FaceMode::back_only));

bool finite(const hs_vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

bool accept_through_c_filter(ColliderId collider, std::uint64_t user_id, std::uint32_t layer, void* bridge) {
  const FilterBridge& b = *static_cast<const FilterBridge*>(bridge);
  return b.callback(collider, user_id, layer, b.context) != 0;
}

// A C array of points (a polygon's vertices, a hull's points), copied: `name` null with a
// non-zero count, or a count whose array could not exist, fails, naming `what`.
hs_status to_points(const Entry& entry, const hs_vec3* points, std::size_t count, const char* name, const char* what,
                    std::vector<Vec3f>& out) {
  if (!points && count != 0) return entry.null(name);
  if (count > static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) / sizeof(Vec3f)) {
    return entry.fail(HS_OUT_OF_RANGE, "a %s of %zu points cannot exist", what, count);
  }
  out.resize(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = to_vec3(points[i]);
  return HS_OK;
}

hs_status to_polygon(const Entry& entry, const hs_convex_polygon& polygon, ColliderShape& out) {
  std::vector<Vec3f> vertices;
  if (const hs_status s = to_points(entry, polygon.vertices, polygon.vertex_count, "shape->data.convex_polygon.vertices",
                                    "convex polygon", vertices);
      s != HS_OK) {
    return s;
  }
  Result<ConvexPolygonf> made = ConvexPolygonf::make(vertices);
  if (!made) return entry.check(made.status());
  out = std::move(made).value();
  return HS_OK;
}

hs_status to_hull(const Entry& entry, const hs_convex_hull& hull, ColliderShape& out) {
  std::vector<Vec3f> points;
  if (const hs_status s =
          to_points(entry, hull.points, hull.point_count, "shape->data.convex_hull.points", "convex hull", points);
      s != HS_OK) {
    return s;
  }
  Result<ConvexHullf> made = ConvexHullf::make(points);
  if (!made) return entry.check(made.status());
  out = std::make_shared<const ConvexHullf>(std::move(made).value());
  return HS_OK;
}

// The rotation of a quaternion of any non-zero finite length; false for any other.
bool normalized_rotation(const hs_quat& q, Quatf& out) {
  // Scaled by its largest component first, so that neither huge nor tiny finite quaternions
  // overflow or underflow on their way to unit length.
  const float largest = std::max({std::abs(q.w), std::abs(q.x), std::abs(q.y), std::abs(q.z)});
  if (!std::isfinite(largest) || !(largest > 0.0f) || std::isnan(q.w + q.x + q.y + q.z)) return false;
  out = Quatf::from_components(q.w / largest, q.x / largest, q.y / largest, q.z / largest);
  return true;
}

}  // namespace

hs_status to_rotation(const Entry& entry, const hs_quat& q, const char* what, Quatf& out) {
  if (normalized_rotation(q, out)) return HS_OK;
  return entry.fail(HS_INVALID_ARGUMENT, "%s (%g, %g, %g, %g) is zero or not finite", what, double(q.w), double(q.x),
                    double(q.y), double(q.z));
}

hs_status to_transform(const Entry& entry, const hs_transform* transform, Transformf& out) {
  if (!transform) {
    out = Transformf::identity();
    return HS_OK;
  }
  if (const hs_status s = to_rotation(entry, transform->rotation, "the transform's rotation", out.rotation); s != HS_OK) {
    return s;
  }
  out.translation = to_vec3(transform->translation);
  out.scale = to_vec3(transform->scale);
  return HS_OK;
}

hs_status to_shape(const Entry& entry, const hs_shape& shape, ColliderShape& out) {
  auto not_finite = [&](const char* kind) { return entry.fail(HS_INVALID_ARGUMENT, "the %s has a NaN or infinite value", kind); };
  switch (raw_enum(shape.type)) {
    case HS_SHAPE_SPHERE: {
      const hs_sphere& s = shape.data.sphere;
      if (!finite(s.center) || !std::isfinite(s.radius)) return not_finite("sphere");
      out = Spheref{to_vec3(s.center), s.radius};
      return HS_OK;
    }
    case HS_SHAPE_BOX: {
      const hs_box& b = shape.data.box;
      if (!finite(b.center) || !finite(b.half_extents)) return not_finite("box");
      Quatf rotation;
      if (const hs_status s = to_rotation(entry, b.rotation, "the box's rotation", rotation); s != HS_OK) return s;
      out = Obbf::from_quat(to_vec3(b.center), to_vec3(b.half_extents), rotation);
      return HS_OK;
    }
    case HS_SHAPE_CAPSULE: {
      const hs_capsule& c = shape.data.capsule;
      if (!finite(c.a) || !finite(c.b) || !std::isfinite(c.radius)) return not_finite("capsule");
      out = Capsulef{to_vec3(c.a), to_vec3(c.b), c.radius};
      return HS_OK;
    }
    case HS_SHAPE_CYLINDER: {
      const hs_cylinder& c = shape.data.cylinder;
      if (!finite(c.a) || !finite(c.b) || !std::isfinite(c.radius)) return not_finite("cylinder");
      out = Cylinderf{to_vec3(c.a), to_vec3(c.b), c.radius};
      return HS_OK;
    }
    case HS_SHAPE_PLANE: {
      const hs_plane& p = shape.data.plane;
      if (!finite(p.normal) || !std::isfinite(p.offset)) return not_finite("plane");
      out = Planef{to_vec3(p.normal), p.offset};
      return HS_OK;
    }
    case HS_SHAPE_CONVEX_POLYGON: return to_polygon(entry, shape.data.convex_polygon, out);
    case HS_SHAPE_CONVEX_HULL: return to_hull(entry, shape.data.convex_hull, out);
    default:
      return entry.fail(HS_INVALID_ARGUMENT, "shape type %lld is not an hs_shape_type",
                        static_cast<long long>(raw_enum(shape.type)));
  }
}

hs_status to_options(const Entry& entry, const hs_query_options* options, FilterBridge& bridge, QueryOptions& out) {
  out = QueryOptions{};
  if (!options) return HS_OK;
  if (std::isnan(options->max_distance) || options->max_distance < 0.0f) {
    return entry.fail(HS_INVALID_ARGUMENT, "options->max_distance %g is NaN or negative", double(options->max_distance));
  }
  const auto faces = raw_enum(options->faces);
  if (faces != HS_FACES_BOTH && faces != HS_FACES_FRONT_ONLY && faces != HS_FACES_BACK_ONLY) {
    return entry.fail(HS_INVALID_ARGUMENT, "options->faces %lld is not an hs_face_mode", static_cast<long long>(faces));
  }
  out.layer_mask = options->layer_mask;
  out.max_distance = options->max_distance;
  out.faces = static_cast<FaceMode>(faces);
  out.solid = options->solid != 0;
  out.contacts = options->contacts != 0;
  if (options->filter) {
    bridge = {options->filter, options->filter_context};
    out.filter = {&accept_through_c_filter, &bridge};
  }
  return HS_OK;
}

hs_hit to_hs_hit(const QueryHit& hit) {
  hs_hit h;
  h.hit = hit.hit ? 1 : 0;
  h.flags = hit.flags;
  h.feature = static_cast<hs_feature>(hit.feature);
  h.distance = hit.distance;
  h.point = to_hs_vec3(hit.point);
  h.normal = to_hs_vec3(hit.normal);
  h.face_normal = to_hs_vec3(hit.face_normal);
  h.collider = hit.collider;
  h.user_id = hit.user_id;
  h.primitive = hit.primitive;
  h.u = hit.u;
  h.v = hit.v;
  h.depth = hit.depth;
  return h;
}

Obbf to_query_box(const hs_box& box) {
  Quatf rotation;
  if (!normalized_rotation(box.rotation, rotation)) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    return Obbf{to_vec3(box.center), {nan, nan, nan}, Mat3f::identity()};
  }
  return Obbf::from_quat(to_vec3(box.center), to_vec3(box.half_extents), rotation);
}

hs_overlap_hit to_hs_overlap_hit(const OverlapHit& hit) {
  hs_overlap_hit h = hs_overlap_hit_default();
  h.collider = hit.collider;
  h.primitive = hit.primitive;
  h.user_id = hit.user_id;
  if (hit.has_contact) {
    h.has_contact = 1;
    h.contact = {to_hs_vec3(hit.contact.point_on_a), to_hs_vec3(hit.contact.point_on_b), to_hs_vec3(hit.contact.normal),
                 hit.contact.depth};
  }
  return h;
}

}  // namespace hitscan::capi

using hitscan::capi::to_hs_vec3;

extern "C" {

hs_quat hs_quat_default(void) {
  const hitscan::Quatf q = hitscan::Quatf::identity();
  return {q.w, q.x, q.y, q.z};
}

hs_transform hs_transform_default(void) {
  const hitscan::Transformf t = hitscan::Transformf::identity();
  return {hs_quat_default(), to_hs_vec3(t.translation), to_hs_vec3(t.scale)};
}

hs_ray hs_ray_default(void) {
  const hitscan::QueryRay r;
  return {to_hs_vec3(r.origin), to_hs_vec3(r.direction), r.max_distance};
}

hs_hit hs_hit_default(void) { return hitscan::capi::to_hs_hit(hitscan::QueryHit{}); }

hs_shape hs_shape_default(hs_shape_type type) {
  hs_shape shape{};
  switch (hitscan::capi::raw_enum(type)) {
    case HS_SHAPE_BOX: {
      const hitscan::Obbf b;
      shape.type = HS_SHAPE_BOX;
      shape.data.box = {to_hs_vec3(b.center), to_hs_vec3(b.half_extents), hs_quat_default()};
      return shape;
    }
    case HS_SHAPE_CAPSULE: {
      const hitscan::Capsulef c;
      shape.type = HS_SHAPE_CAPSULE;
      shape.data.capsule = {to_hs_vec3(c.a), to_hs_vec3(c.b), c.radius};
      return shape;
    }
    case HS_SHAPE_CYLINDER: {
      const hitscan::Cylinderf c;
      shape.type = HS_SHAPE_CYLINDER;
      shape.data.cylinder = {to_hs_vec3(c.a), to_hs_vec3(c.b), c.radius};
      return shape;
    }
    case HS_SHAPE_PLANE: {
      const hitscan::Planef p;
      shape.type = HS_SHAPE_PLANE;
      shape.data.plane = {to_hs_vec3(p.normal), p.offset};
      return shape;
    }
    case HS_SHAPE_CONVEX_POLYGON:
      shape.type = HS_SHAPE_CONVEX_POLYGON;
      shape.data.convex_polygon = {nullptr, 0};
      return shape;
    case HS_SHAPE_CONVEX_HULL:
      shape.type = HS_SHAPE_CONVEX_HULL;
      shape.data.convex_hull = {nullptr, 0};
      return shape;
    default: {
      const hitscan::Spheref s;
      shape.type = HS_SHAPE_SPHERE;
      shape.data.sphere = {to_hs_vec3(s.center), s.radius};
      return shape;
    }
  }
}

hs_query_options hs_query_options_default(void) {
  const hitscan::QueryOptions o;
  return {o.layer_mask, o.max_distance, static_cast<hs_face_mode>(o.faces), o.solid ? 1 : 0, o.contacts ? 1 : 0,
          nullptr, nullptr};
}

hs_sphere_sweep hs_sphere_sweep_default(void) {
  const hitscan::SphereSweep s;
  return {{to_hs_vec3(s.sphere.center), s.sphere.radius}, to_hs_vec3(s.direction), s.max_distance};
}

hs_capsule_sweep hs_capsule_sweep_default(void) {
  const hitscan::CapsuleSweep s;
  return {{to_hs_vec3(s.capsule.a), to_hs_vec3(s.capsule.b), s.capsule.radius}, to_hs_vec3(s.direction),
          s.max_distance};
}

hs_box_sweep hs_box_sweep_default(void) {
  const hitscan::BoxSweep s;
  return {hs_shape_default(HS_SHAPE_BOX).data.box, to_hs_vec3(s.direction), s.max_distance};
}

hs_overlap_hit hs_overlap_hit_default(void) {
  const hitscan::OverlapHit o;
  return {o.collider, o.primitive, o.user_id, 0, hs_contact{}};
}

}  // extern "C"
