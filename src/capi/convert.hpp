#pragma once
// The C structs of hitscan.h to and from the C++ types they stand for, validated on the way in.

#include "entry.hpp"
#include "hitscan/query/scene.hpp"

namespace hitscan::capi {

inline Vec3f to_vec3(const hs_vec3& v) { return {v.x, v.y, v.z}; }
inline hs_vec3 to_hs_vec3(const Vec3f& v) { return {v.x, v.y, v.z}; }

/// The rotation of a quaternion of any non-zero finite length; HS_INVALID_ARGUMENT otherwise,
/// naming it `what` in the message.
hs_status to_rotation(const Entry& entry, const hs_quat& q, const char* what, Quatf& out);

/// A transform; null stands for the identity. Invertibility is left to the scene, which knows
/// what each shape can take.
hs_status to_transform(const Entry& entry, const hs_transform* transform, Transformf& out);

/// An analytic shape; fails for an unknown type, a non-finite value or an invalid polygon or hull.
hs_status to_shape(const Entry& entry, const hs_shape& shape, ColliderShape& out);

/// Query options; null stands for the defaults. A C filter is called through `bridge`, which must
/// outlive the query.
struct FilterBridge {
  hs_filter_callback callback = nullptr;
  void* context = nullptr;
};
hs_status to_options(const Entry& entry, const hs_query_options* options, FilterBridge& bridge, QueryOptions& out);

inline QueryRay to_ray(const hs_ray& ray) { return {to_vec3(ray.origin), to_vec3(ray.direction), ray.max_distance}; }
hs_hit to_hs_hit(const QueryHit& hit);

/// Query shapes, taken as they come: the scene finds nothing for a NaN or a negative size. A box
/// whose rotation is zero or not finite becomes a box with NaN extents, which touches nothing.
inline Spheref to_sphere(const hs_sphere& s) { return {to_vec3(s.center), s.radius}; }
inline Capsulef to_capsule(const hs_capsule& c) { return {to_vec3(c.a), to_vec3(c.b), c.radius}; }
Obbf to_query_box(const hs_box& box);
inline SphereSweep to_sweep(const hs_sphere_sweep& s) {
  return {to_sphere(s.sphere), to_vec3(s.direction), s.max_distance};
}
inline CapsuleSweep to_sweep(const hs_capsule_sweep& s) {
  return {to_capsule(s.capsule), to_vec3(s.direction), s.max_distance};
}
inline BoxSweep to_sweep(const hs_box_sweep& s) { return {to_query_box(s.box), to_vec3(s.direction), s.max_distance}; }
hs_overlap_hit to_hs_overlap_hit(const OverlapHit& hit);

}  // namespace hitscan::capi
