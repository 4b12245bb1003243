#pragma once
/// Ray vs oriented box.

#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

/// The ray goes into the box's frame (rotation transpose, no inverse), then the slab test of
/// ray_vs_aabb; t is unchanged by the rigid map and the normal is rotated back to the world.
/// Same conventions as ray_vs_aabb. Negative or NaN half extents, or an invalid ray, are a miss.
template <Real T>
RayHit<T> ray_vs_obb(const Obb<T>& box, const Ray<T>& ray);

}  // namespace hitscan
