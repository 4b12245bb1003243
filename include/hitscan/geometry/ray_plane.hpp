#pragma once
/// Ray vs plane and ray vs disc: the open, flat surfaces.

#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

/// Crossing of the plane within [tmin, tmax]. normal is the plane's; kHitBackFace when the ray
/// arrives from behind (dot(dir, normal) > 0). A ray parallel to the plane misses, also when it
/// lies in the plane (a surface has no thickness to hit). A zero or non-finite plane normal, or
/// an invalid ray, is a miss.
template <Real T>
RayHit<T> ray_vs_plane(const Plane<T>& plane, const Ray<T>& ray);

/// Crossing of the disc (its plane, within radius of the centre, the rim included).
/// Same conventions as ray_vs_plane. radius <= 0 or NaN is a miss.
template <Real T>
RayHit<T> ray_vs_disc(const Disc<T>& disc, const Ray<T>& ray);

}  // namespace hitscan
