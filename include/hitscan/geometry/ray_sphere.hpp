#pragma once
/// Ray vs sphere.

#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/ray_pack.hpp"
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

/// W spheres, structure-of-arrays. Unused lanes should have radius 0 (they never hit).
template <class F>
struct SpherePack {
  F center_x{}, center_y{}, center_z{}, radius{};
};

/// One ray against the W spheres of a pack: the same arithmetic as ray_vs_sphere lane by lane
/// (same hit and t; started-inside lanes report tmin). Normals are left to the caller, who needs
/// them only for the lane it keeps.
template <class F>
PackHit<F> ray_vs_spheres(const SpherePack<F>& pack, const Ray<float>& ray);

}  // namespace hitscan
