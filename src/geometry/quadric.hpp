#pragma once
// Private helpers shared by the quadric kernels (sphere, capsule, cylinder).

#include <cmath>
#include <utility>

#include "hitscan/geometry/ray.hpp"

namespace hitscan::detail {

// Roots t0 <= t1 of a t² + 2 b t + c = 0, given a > 0 and the quarter discriminant
// disc = b² - a c >= 0 (the caller computes it in a cancellation-free form). Uses the
// q = -(b + sign(b) sqrt(disc)) form so that neither root loses precision (Press et al.,
// Numerical Recipes, 5.6).
template <Real T>
inline void solve_quadratic(T a, T b, T c, T disc, T& t0, T& t1) {
  const T root = std::sqrt(disc);
  const T q = b < T(0) ? root - b : -(b + root);  // -(b + sign(b) root), with sign(±0) = +1
  if (q == T(0)) {  // b == 0 and disc == 0, so c == 0: a double root at zero.
    t0 = t1 = T(0);
    return;
  }
  t0 = q / a;
  t1 = c / q;
  if (t1 < t0) {
    const T s = t0;
    t0 = t1;
    t1 = s;
  }
}

// Fills a hit at t_enter, or at tmin when the ray starts inside, for a solid whose intersection
// with the unbounded ray is [t_enter, t_exit]. Returns a miss when that interval does not meet
// [tmin, tmax]. The caller fills the outward normal when the hit is not started-inside.
template <Real T>
inline bool fill_solid_hit(const Ray<T>& ray, T t_enter, T t_exit, RayHit<T>& hit) {
  if (!(t_enter <= t_exit) || t_exit < ray.tmin || t_enter > ray.tmax || !(t_enter < kInfinity<T>)) return false;
  hit.hit = true;
  hit.t_exit = t_exit;
  if (t_enter >= ray.tmin) {
    hit.t = t_enter;
  } else {
    hit.t = ray.tmin;
    hit.flags = kHitStartedInside;
    hit.normal = -normalize(ray.dir);
  }
  hit.point = ray.at(hit.t);
  return true;
}

// A ray expressed in the frame of an axis through `base` with unit direction `axis`:
// (x, y) across the axis in an orthonormal basis, z along it. Computing the across-axis part by
// dot products with the basis (rather than subtracting the projection on the axis) keeps rays
// nearly parallel to the axis accurate.
template <Real T>
struct AxisFrameRay {
  Vec3<T> e1, e2, axis;
  T ox, oy, oz;  // origin - base
  T dx, dy, dz;  // dir

  AxisFrameRay(const Ray<T>& ray, Vec3<T> base, Vec3<T> unit_axis) : axis(unit_axis) {
    orthonormal_basis(axis, e1, e2);
    const Vec3<T> w = ray.origin - base;
    ox = dot(w, e1), oy = dot(w, e2), oz = dot(w, axis);
    dx = dot(ray.dir, e1), dy = dot(ray.dir, e2), dz = dot(ray.dir, axis);
  }

  // Interval of the unbounded ray within `radius` of the axis line. False when empty; a ray
  // parallel to the axis gives (-inf, +inf) when within the radius.
  bool side_interval(T radius, T& t0, T& t1) const {
    const T r2 = radius * radius;
    const T a = dx * dx + dy * dy;
    const T c = ox * ox + oy * oy - r2;
    if (a == T(0)) {
      if (c > T(0)) return false;
      t0 = -kInfinity<T>;
      t1 = kInfinity<T>;
      return true;
    }
    const T b = ox * dx + oy * dy;
    const T s = b / a;
    const T cx = ox - dx * s, cy = oy - dy * s;  // point of the line nearest the axis
    const T disc = a * (r2 - (cx * cx + cy * cy));
    if (disc < T(0)) return false;
    solve_quadratic(a, b, c, disc, t0, t1);
    return true;
  }

  // Unit vector from the axis to the ray point at t, across the axis.
  Vec3<T> radial_normal(T t) const { return normalize(e1 * (ox + dx * t) + e2 * (oy + dy * t)); }
};

}  // namespace hitscan::detail
