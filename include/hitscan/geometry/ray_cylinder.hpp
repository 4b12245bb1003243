#pragma once
/// Ray vs capped cylinder.

#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

/// First point of the solid capped cylinder within [tmin, tmax]: the side as a quadratic in the
/// axis frame, clipped to the slab between the two cap planes; the caps as that slab's faces.
/// A ray parallel to the axis enters through a cap; one that grazes the rim hits the cap (the
/// rim belongs to both). Starting inside: hit at tmin, kHitStartedInside, normal -unit(dir),
/// t_exit set. a == b, radius <= 0 or NaN, or an invalid ray is a miss.
template <Real T>
RayHit<T> ray_vs_cylinder(const Cylinder<T>& cylinder, const Ray<T>& ray);

}  // namespace hitscan
