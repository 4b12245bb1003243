#pragma once
/// Ray against a shape placed by a Transform (scale, then rotate, then translate).

#include "hitscan/geometry/ray.hpp"
#include "hitscan/math/transform.hpp"

namespace hitscan {

/// Runs `kernel(shape, local_ray)` with the ray taken into the shape's frame,
/// x_local = S⁻¹ Rᵀ (x - translation), and brings the hit back. The map is affine, so t, tmin and
/// tmax mean the same in both frames and the result is exact for any scale: under non-uniform
/// scale a sphere is hit as the ellipsoid it becomes, a cylinder as an elliptic cylinder.
/// The normal returns by the inverse transpose (Transform::apply_normal), unit length; a
/// started-inside hit keeps the convention normal = -unit(world dir). A negative scale mirrors the
/// shape: solids keep outward normals, and open surfaces keep their own normal transformed, with
/// kHitBackFace still meaning dot(dir, normal) > 0. A transform that is not invertible (a zero or
/// non-finite scale, a non-finite rotation or translation) gives a miss.
template <Real T, class Shape, class Kernel>
RayHit<T> ray_vs_transformed(const Shape& shape, const Transform<T>& transform, const Ray<T>& ray, Kernel&& kernel) {
  if (!transform.is_invertible() || !is_valid(ray)) return {};
  const Ray<T> local{transform.inverse_point(ray.origin), transform.inverse_vector(ray.dir), ray.tmin, ray.tmax};
  RayHit<T> hit = kernel(shape, local);
  if (!hit) return hit;
  hit.point = ray.at(hit.t);
  hit.normal = hit.started_inside() ? -normalize(ray.dir) : transform.apply_normal(hit.normal);
  return hit;
}

}  // namespace hitscan
