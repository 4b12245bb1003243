#include "hitscan/geometry/ray_sphere.hpp"

#include "quadric.hpp"

namespace hitscan {

template <Real T>
RayHit<T> ray_vs_sphere(const Sphere<T>& sphere, const Ray<T>& ray) {
  RayHit<T> hit;
  if (!(sphere.radius > T(0)) || !is_valid(ray) || !is_finite(sphere.center)) return hit;

  const Vec3<T> f = ray.origin - sphere.center;
  const T a = dot(ray.dir, ray.dir);
  const T b = dot(f, ray.dir);
  const T r2 = sphere.radius * sphere.radius;
  const T c = dot(f, f) - r2;
  // Origin outside and moving away: nothing ahead of it (valid only when the ray starts at or
  // after the origin).
  if (c > T(0) && b > T(0) && ray.tmin >= T(0)) return hit;

  // b² - a c = a (r² - |f - (b/a) dir|²): the distance of the line from the centre is computed
  // directly instead of as a difference of two large squares (Haines et al. 2019).
  const Vec3<T> closest = f - ray.dir * (b / a);
  const T disc = a * (r2 - dot(closest, closest));
  if (disc < T(0)) return hit;

  T t0, t1;
  detail::solve_quadratic(a, b, c, disc, t0, t1);
  if (!detail::fill_solid_hit(ray, t0, t1, hit)) return hit;
  if (!hit.started_inside()) hit.normal = (hit.point - sphere.center) * (T(1) / sphere.radius);
  return hit;
}

template RayHit<float> ray_vs_sphere(const Sphere<float>&, const Ray<float>&);
template RayHit<double> ray_vs_sphere(const Sphere<double>&, const Ray<double>&);

}  // namespace hitscan
