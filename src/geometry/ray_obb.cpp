#include "hitscan/geometry/ray_obb.hpp"

#include "hitscan/geometry/ray_aabb.hpp"

namespace hitscan {

template <Real T>
RayHit<T> ray_vs_obb(const Obb<T>& box, const Ray<T>& ray) {
  if (!is_valid(ray)) return {};  // the local ray's own check would see its origin moved
  if (!(box.half_extents.x >= T(0) && box.half_extents.y >= T(0) && box.half_extents.z >= T(0))) return {};
  // Into the box frame with the rotation's transpose; t is preserved by a rigid map.
  const Ray<T> local{box.rotation.transpose_mul(ray.origin - box.center), box.rotation.transpose_mul(ray.dir),
                     ray.tmin, ray.tmax};
  RayHit<T> hit = ray_vs_aabb(Aabb<T>{-box.half_extents, box.half_extents}, local);
  if (!hit) return hit;
  hit.point = ray.at(hit.t);
  hit.normal = hit.started_inside() ? -normalize(ray.dir) : box.rotation * hit.normal;
  return hit;
}

template RayHit<float> ray_vs_obb(const Obb<float>&, const Ray<float>&);
template RayHit<double> ray_vs_obb(const Obb<double>&, const Ray<double>&);

}  // namespace hitscan
