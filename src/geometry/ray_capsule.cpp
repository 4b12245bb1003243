#include "hitscan/geometry/ray_capsule.hpp"

#include "hitscan/geometry/ray_sphere.hpp"
#include "quadric.hpp"

namespace hitscan {
namespace {

// Interval of the unbounded ray inside a ball; false when the line misses it.
template <Real T>
bool ball_interval(const Ray<T>& ray, Vec3<T> center, T radius, T& t0, T& t1) {
  const Vec3<T> f = ray.origin - center;
  const T a = dot(ray.dir, ray.dir);
  const T b = dot(f, ray.dir);
  const T r2 = radius * radius;
  const Vec3<T> closest = f - ray.dir * (b / a);
  const T disc = a * (r2 - dot(closest, closest));
  if (disc < T(0)) return false;
  detail::solve_quadratic(a, b, dot(f, f) - r2, disc, t0, t1);
  return true;
}

}  // namespace

// The capsule is convex and is the union of its two end balls and the cylinder piece between
// the cap planes, so the ray's interval in it is the hull of the three pieces' intervals. Where
// a cylinder piece is entered through a cap plane, that point lies in the end ball, which is
// entered no later, so only the ball entries and side entries can be the capsule's entry.
template <Real T>
RayHit<T> ray_vs_capsule(const Capsule<T>& capsule, const Ray<T>& ray) {
  RayHit<T> hit;
  if (!(capsule.radius > T(0)) || !is_valid(ray) || !is_finite(capsule.a) || !is_finite(capsule.b)) return hit;

  T t_enter = kInfinity<T>, t_exit = -kInfinity<T>;
  Vec3<T> enter_center{};
  T t0, t1;
  for (const Vec3<T>& c : {capsule.a, capsule.b}) {
    if (ball_interval(ray, c, capsule.radius, t0, t1)) {
      if (t0 < t_enter) t_enter = t0, enter_center = c;
      t_exit = max(t_exit, t1);
    }
  }

  const Vec3<T> axis = capsule.b - capsule.a;
  const T length = hitscan::length(axis);
  const detail::AxisFrameRay<T> frame(ray, capsule.a, length > T(0) ? axis * (T(1) / length) : Vec3<T>{0, 0, 1});
  bool enter_side = false;
  if (length > T(0) && frame.side_interval(capsule.radius, t0, t1)) {
    // Clip the side interval to the slab 0 <= z <= length between the cap planes.
    T s0 = -kInfinity<T>, s1 = kInfinity<T>;
    bool in_slab = true;
    if (frame.dz != T(0)) {
      s0 = (T(0) - frame.oz) / frame.dz;
      s1 = (length - frame.oz) / frame.dz;
      if (s1 < s0) std::swap(s0, s1);
    } else {
      in_slab = frame.oz >= T(0) && frame.oz <= length;
    }
    const T c0 = max(t0, s0), c1 = min(t1, s1);
    if (in_slab && c0 <= c1) {
      // t0 >= s0: the entry is on the cylindrical surface, inside the slab. On a tie with a ball
      // (a hit a hair short of the seam rounds to the same t), the side's radial normal is exact.
      if (t0 >= s0 && c0 <= t_enter) t_enter = c0, enter_side = true;
      t_exit = max(t_exit, c1);
    }
  }

  if (!detail::fill_solid_hit(ray, t_enter, t_exit, hit)) return hit;
  if (!hit.started_inside()) {
    hit.normal = enter_side ? frame.radial_normal(hit.t) : normalize(hit.point - enter_center);
  }
  return hit;
}

template RayHit<float> ray_vs_capsule(const Capsule<float>&, const Ray<float>&);
template RayHit<double> ray_vs_capsule(const Capsule<double>&, const Ray<double>&);

}  // namespace hitscan
