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

/// An analytic shape; fails for an unknown type, a non-finite value or an invalid polygon.
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

}  // namespace hitscan::capi
