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
  // Normalised rather than divided by the radius: the point carries rounding error, and the
  // contract promises a unit normal.
  if (!hit.started_inside()) hit.normal = normalize(hit.point - sphere.center);
  return hit;
}

template <class F>
PackHit<F> ray_vs_spheres(const SpherePack<F>& pack, const Ray<float>& ray) {
  PackHit<F> out;
  out.t = F(kInfinity<float>);
  if (!is_valid(ray)) return out;
  const F dx(ray.dir.x), dy(ray.dir.y), dz(ray.dir.z);
  const F fx = F(ray.origin.x) - pack.center_x;
  const F fy = F(ray.origin.y) - pack.center_y;
  const F fz = F(ray.origin.z) - pack.center_z;
  const F a(dot(ray.dir, ray.dir));
  const F b = fx * dx + fy * dy + fz * dz;
  const F r2 = pack.radius * pack.radius;
  const F c = fx * fx + fy * fy + fz * fz - r2;
  const F s = b / a;
  const F cx = fx - dx * s, cy = fy - dy * s, cz = fz - dz * s;
  const F disc = a * (r2 - (cx * cx + cy * cy + cz * cz));
  // The lane-wise form of detail::solve_quadratic, operation for operation.
  const F root = sqrt(max(disc, F(0.0f)));
  const F q = select(b < F(0.0f), root - b, -(b + root));
  const auto q_zero = q == F(0.0f);
  const F t0 = select(q_zero, F(0.0f), q / a);
  const F t1 = select(q_zero, F(0.0f), c / q);
  const F lo = min(t1, t0);
  const F hi = max(t0, t1);
  const F tmin(ray.tmin), tmax(ray.tmax);
  out.hit = (pack.radius > F(0.0f)) & (disc >= F(0.0f)) & (lo <= hi) & (hi >= tmin) & (lo <= tmax) &
            (lo < F(kInfinity<float>));
  out.t = select(out.hit, select(lo >= tmin, lo, tmin), F(kInfinity<float>));
  return out;
}

template PackHit<simd::Float4> ray_vs_spheres(const SpherePack<simd::Float4>&, const Ray<float>&);
template PackHit<simd::Float8> ray_vs_spheres(const SpherePack<simd::Float8>&, const Ray<float>&);
template RayHit<float> ray_vs_sphere(const Sphere<float>&, const Ray<float>&);
template RayHit<double> ray_vs_sphere(const Sphere<double>&, const Ray<double>&);

}  // namespace hitscan
