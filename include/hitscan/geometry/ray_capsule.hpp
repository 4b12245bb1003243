#pragma once
/// Ray vs capsule.

#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

/// First point of the solid capsule within [tmin, tmax]: the infinite cylinder around the
/// segment's line solved as a quadratic in the segment's frame, then the two end spheres where
/// the cylinder hit falls outside the segment. Exact for rays parallel to the axis (the cylinder
/// term vanishes and the spheres decide) and at the seam between cylinder and cap. a == b is a
/// sphere. Starting inside: hit at tmin, kHitStartedInside, normal -unit(dir), t_exit set.
/// radius <= 0 or NaN, or an invalid ray, is a miss.
template <Real T>
RayHit<T> ray_vs_capsule(const Capsule<T>& capsule, const Ray<T>& ray);

}  // namespace hitscan
