#pragma once
/// Ray vs sphere.

#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

/// First point of the solid sphere on the ray within [tmin, tmax].
/// Solved as the quadratic in t with the origin moved to the centre and the discriminant taken in
/// the form of Haines et al. ("Precision Improvements for Ray/Sphere Intersection", Ray Tracing
/// Gems 2019, ch. 7), which keeps float precision for distant spheres. Exits early when the
/// origin is outside and the ray points away. A tangent ray hits (one point). Starting inside
/// (origin + tmin dir inside): hit at tmin, kHitStartedInside, normal -unit(dir), t_exit set.
/// A radius <= 0 or NaN sphere, or an invalid ray, is a miss.
template <Real T>
RayHit<T> ray_vs_sphere(const Sphere<T>& sphere, const Ray<T>& ray);

}  // namespace hitscan
