#pragma once
/// Ray vs planar convex polygon.

#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

/// Crossing of the polygon's plane within [tmin, tmax], kept when the point is on the inner side
/// of every edge (edges included). Same face conventions as ray_vs_plane; u, v are zero.
template <Real T>
RayHit<T> ray_vs_polygon(const ConvexPolygon<T>& polygon, const Ray<T>& ray);

}  // namespace hitscan
