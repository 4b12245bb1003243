#include "hitscan/geometry/ray_plane.hpp"

namespace hitscan {
namespace {

// Crossing of the plane through `on_plane` with normal n; the shared part of plane and disc.
template <Real T>
RayHit<T> cross_plane(Vec3<T> n, T offset, const Ray<T>& ray) {
  RayHit<T> hit;
  const T denom = dot(n, ray.dir);
  if (denom == T(0) || !is_finite(denom)) return hit;  // parallel, in the plane, or bad normal
  const T t = (offset - dot(n, ray.origin)) / denom;
  if (!in_range(t, ray)) return hit;
  hit.hit = true;
  hit.t = t;
  hit.point = ray.at(t);
  hit.normal = n;
  if (denom > T(0)) hit.flags = kHitBackFace;
  return hit;
}

}  // namespace

template <Real T>
RayHit<T> ray_vs_plane(const Plane<T>& plane, const Ray<T>& ray) {
  if (!is_valid(ray) || !is_finite(plane.offset)) return {};
  return cross_plane(plane.normal, plane.offset, ray);
}

template <Real T>
RayHit<T> ray_vs_disc(const Disc<T>& disc, const Ray<T>& ray) {
  if (!(disc.radius > T(0)) || !is_valid(ray) || !is_finite(disc.center)) return {};
  RayHit<T> hit = cross_plane(disc.normal, dot(disc.normal, disc.center), ray);
  if (hit && distance_squared(hit.point, disc.center) > disc.radius * disc.radius) return {};
  return hit;
}

template RayHit<float> ray_vs_plane(const Plane<float>&, const Ray<float>&);
template RayHit<double> ray_vs_plane(const Plane<double>&, const Ray<double>&);
template RayHit<float> ray_vs_disc(const Disc<float>&, const Ray<float>&);
template RayHit<double> ray_vs_disc(const Disc<double>&, const Ray<double>&);

}  // namespace hitscan
