#pragma once
/// Test support for the ray-vs-shape kernels: independent double-precision references, the checks
/// shared by the hand-worked cases, and the seeded random differential drivers.
///
/// The references are written differently from the kernels on purpose, so that one mistake cannot
/// hide in both: spheres by closest approach and Pythagoras (no quadratic), boxes as six face
/// planes (no slabs), capsules and cylinders as the crossings of their surface pieces, triangles
/// as a plane hit plus a 3D barycentric sign test (no shear), polygons as a triangle fan.
/// A solid is reduced to the span [t0, t1] of the unbounded line inside it; solid_hit() then
/// applies [tmin, tmax] and the starting-inside convention the same way for every solid.
///
/// Tolerances (Tolerance<T>) are stated relative to the scale of a case (case_scale): the largest
/// magnitude among the origin, the shape's centre and size, and the distances to the shape and
/// to the hit. The drivers print what they observed, so the margins can be read off a test run.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "hitscan/geometry/convex_hull.hpp"
#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan::reference {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// Below this |cos| between ray and surface the t error bound stops growing as 1 / |cos|.
inline constexpr double kMinCos = 1e-3;

template <Real T>
struct Tolerance;

template <>
struct Tolerance<float> {
  /// Hand-worked cases: relative error of t, t_exit, point and normal components.
  static constexpr double hand = 1e-5;
  /// Random cases: |t_kernel - t_reference| * |dir| * max(|cos|, kMinCos) <= distance * scale.
  static constexpr double distance = 2e-5;
  /// Disagreement on hit/miss or a flag is tolerated (and counted) only within grazing * scale
  /// of the boundary that decides it.
  static constexpr double grazing = 1e-4;
  /// Normals: angle in radians (plus the share of the distance error the normal inherits).
  static constexpr double angle = 1e-4;
  /// Every hit: | |normal| - 1 |.
  static constexpr double unit = 1e-4;
};

template <>
struct Tolerance<double> {
  static constexpr double hand = 1e-12;
  static constexpr double distance = 1e-10;
  static constexpr double grazing = 1e-9;
  static constexpr double angle = 1e-9;
  static constexpr double unit = 1e-12;
};

/// Names for typed test suites over float and double.
using Reals = ::testing::Types<float, double>;
struct RealNames {
  template <class T>
  static std::string GetName(int) {
    return std::is_same_v<T, float> ? "float" : "double";
  }
};

// ---- conversions and printing --------------------------------------------------------------------

template <Real T>
Vec3d to_double(Vec3<T> v) {
  return {double(v.x), double(v.y), double(v.z)};
}
template <Real T>
Rayd to_double(const Ray<T>& r) {
  return {to_double(r.origin), to_double(r.dir), double(r.tmin), double(r.tmax)};
}
template <Real T>
RayHitd to_double(const RayHit<T>& h) {
  RayHitd d;
  d.hit = h.hit;
  d.flags = h.flags;
  d.t = h.t;
  d.t_exit = h.t_exit;
  d.point = to_double(h.point);
  d.normal = to_double(h.normal);
  d.u = h.u;
  d.v = h.v;
  return d;
}
template <Real T>
Vec3<T> from_double(Vec3d v) {
  return {T(v.x), T(v.y), T(v.z)};
}

/// v with component k replaced. (Writing through Vec3::operator[] with a run-time index here was
/// miscompiled by GCC 12.2 at -O3: the SLP vectorizer let a later read see the old value.)
template <Real T>
Vec3<T> with_component(Vec3<T> v, int k, T value) {
  return {k == 0 ? value : v.x, k == 1 ? value : v.y, k == 2 ? value : v.z};
}

/// Hexadecimal floats, so that a printed failure is an exact repro.
inline std::string hex(double x) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}
template <Real T>
std::string hex(Vec3<T> v) {
  return "{" + hex(v.x) + ", " + hex(v.y) + ", " + hex(v.z) + "}";
}
template <Real T>
std::string describe(const Ray<T>& r) {
  return "Ray{origin " + hex(r.origin) + ", dir " + hex(r.dir) + ", tmin " + hex(r.tmin) + ", tmax " + hex(r.tmax) + "}";
}
template <Real T>
std::string describe(const RayHit<T>& h) {
  if (!h.hit) return "miss";
  return "hit{t " + std::to_string(h.t) + ", t_exit " + std::to_string(h.t_exit) + ", flags " + std::to_string(h.flags) +
         ", point " + hex(h.point) + ", normal " + hex(h.normal) + ", u " + std::to_string(h.u) + ", v " +
         std::to_string(h.v) + "}";
}
template <Real T>
std::string describe(const Sphere<T>& s) { return "Sphere{" + hex(s.center) + ", " + hex(s.radius) + "}"; }
template <Real T>
std::string describe(const Aabb<T>& b) { return "Aabb{" + hex(b.min) + ", " + hex(b.max) + "}"; }
template <Real T>
std::string describe(const Obb<T>& b) {
  return "Obb{" + hex(b.center) + ", " + hex(b.half_extents) + ", cols " + hex(b.rotation.col[0]) + " " +
         hex(b.rotation.col[1]) + " " + hex(b.rotation.col[2]) + "}";
}
template <Real T>
std::string describe(const Capsule<T>& c) { return "Capsule{" + hex(c.a) + ", " + hex(c.b) + ", " + hex(c.radius) + "}"; }
template <Real T>
std::string describe(const Cylinder<T>& c) { return "Cylinder{" + hex(c.a) + ", " + hex(c.b) + ", " + hex(c.radius) + "}"; }
template <Real T>
std::string describe(const Plane<T>& p) { return "Plane{" + hex(p.normal) + ", " + hex(p.offset) + "}"; }
template <Real T>
std::string describe(const Disc<T>& d) { return "Disc{" + hex(d.center) + ", " + hex(d.normal) + ", " + hex(d.radius) + "}"; }
template <Real T>
std::string describe(const Triangle<T>& t) { return "Triangle{" + hex(t.v0) + ", " + hex(t.v1) + ", " + hex(t.v2) + "}"; }
template <Real T>
std::string describe(const ConvexPolygon<T>& p) {
  std::string s = "ConvexPolygon{";
  for (const Vec3<T>& v : p.vertices()) s += hex(v) + " ";
  return s + "}";
}

// ---- checks shared by every test -----------------------------------------------------------------

template <Real T>
bool has_nan(const RayHit<T>& h) {
  const T fields[] = {h.t, h.t_exit, h.point.x, h.point.y, h.point.z, h.normal.x, h.normal.y, h.normal.z, h.u, h.v};
  return std::any_of(std::begin(fields), std::end(fields), [](T x) { return std::isnan(x); });
}

/// What every result must satisfy: no NaN anywhere; a miss keeps every default; a hit has t in
/// [tmin, tmax] and t_exit >= t. Unless `loose` (rays at the edge of the number range, where no
/// digit of the point survives), also a unit normal and point = origin + t dir.
template <Real T>
::testing::AssertionResult IsWellFormed(const RayHit<T>& h, const Ray<T>& ray, bool loose = false) {
  if (has_nan(h)) return ::testing::AssertionFailure() << "NaN in " << describe(h);
  if (!h.hit) {
    if (h.flags != 0 || h.t != kInfinity<T> || h.t_exit != kInfinity<T> || h.point != Vec3<T>{} ||
        h.normal != Vec3<T>{} || h.u != 0 || h.v != 0)
      return ::testing::AssertionFailure() << "a miss must keep the defaults: t " << h.t << " t_exit " << h.t_exit
                                           << " flags " << h.flags;
    return ::testing::AssertionSuccess();
  }
  if (!(h.t >= ray.tmin && h.t <= ray.tmax && std::isfinite(h.t)))
    return ::testing::AssertionFailure() << "t " << hex(h.t) << " outside [tmin, tmax] = [" << hex(ray.tmin) << ", "
                                         << hex(ray.tmax) << "]";
  if (!(h.t_exit >= h.t)) return ::testing::AssertionFailure() << "t_exit " << h.t_exit << " < t " << h.t;
  if (loose) return ::testing::AssertionSuccess();
  if (!is_finite(h.point) || !is_finite(h.normal)) return ::testing::AssertionFailure() << "non-finite " << describe(h);
  const double eps = std::numeric_limits<T>::epsilon();
  if (!(std::abs(length(to_double(h.normal)) - 1.0) <= Tolerance<T>::unit))
    return ::testing::AssertionFailure() << "normal not unit: " << describe(h);
  const Rayd r = to_double(ray);
  const Vec3d expected = r.at(double(h.t));
  const double err = distance(expected, to_double(h.point));
  const double scale = length(r.origin) + std::abs(double(h.t)) * length(r.dir) + length(to_double(h.point));
  if (err > 64 * eps * scale + std::numeric_limits<T>::min())
    return ::testing::AssertionFailure() << "point " << hex(h.point) << " is not origin + t dir " << hex(expected)
                                         << " (off by " << err << ")";
  return ::testing::AssertionSuccess();
}

template <Real T>
::testing::AssertionResult IsMiss(const RayHit<T>& h) {
  if (h.hit) return ::testing::AssertionFailure() << "expected a miss, got " << describe(h);
  return IsWellFormed(h, Ray<T>{});
}

/// A hand-worked expectation. normal is the expected unit normal.
struct Expected {
  double t = 0;
  Vec3d normal{};
  double t_exit = kInf;
  std::uint32_t flags = 0;
  double u = 0, v = 0;
};

/// Compares a result with a hand-worked expectation, each quantity to `tol` relative (absolute
/// below magnitude 1); the point is compared with origin + t dir at the expected t.
template <Real T>
::testing::AssertionResult IsHit(const RayHit<T>& h, const Ray<T>& ray, const Expected& e, double tol) {
  if (!h.hit) return ::testing::AssertionFailure() << "expected a hit at t = " << e.t << ", got a miss";
  if (auto ok = IsWellFormed(h, ray); !ok) return ok;
  auto near = [tol](double got, double want) {
    if (std::isinf(want)) return got == want;
    return std::abs(got - want) <= tol * std::max(1.0, std::abs(want));
  };
  if (h.flags != e.flags) return ::testing::AssertionFailure() << "flags " << h.flags << ", expected " << e.flags;
  if (!near(h.t, e.t)) return ::testing::AssertionFailure() << "t " << hex(h.t) << " = " << h.t << ", expected " << e.t;
  if (!near(h.t_exit, e.t_exit))
    return ::testing::AssertionFailure() << "t_exit " << h.t_exit << ", expected " << e.t_exit;
  const Vec3d n = to_double(h.normal);
  if (distance(n, e.normal) > 4 * tol)
    return ::testing::AssertionFailure() << "normal " << hex(n) << ", expected " << hex(e.normal);
  const Rayd r = to_double(ray);
  const Vec3d p = r.at(e.t);
  if (distance(to_double(h.point), p) > 4 * tol * std::max(1.0, length(p)))
    return ::testing::AssertionFailure() << "point " << hex(h.point) << ", expected " << hex(p);
  if (!near(h.u, e.u) || !near(h.v, e.v))
    return ::testing::AssertionFailure() << "barycentrics (" << h.u << ", " << h.v << "), expected (" << e.u << ", "
                                         << e.v << ")";
  return ::testing::AssertionSuccess();
}

/// Rays that each break is_valid() in one field, derived from a valid ray.
template <Real T>
std::vector<std::pair<std::string, Ray<T>>> invalid_variants(const Ray<T>& good) {
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = kInfinity<T>;
  std::vector<std::pair<std::string, Ray<T>>> out;
  auto add = [&](std::string name, auto change) {
    Ray<T> r = good;
    change(r);
    out.emplace_back(std::move(name), r);
  };
  add("zero dir", [](Ray<T>& r) { r.dir = {}; });
  add("negative zero dir", [](Ray<T>& r) { r.dir = {-T(0), -T(0), -T(0)}; });
  add("NaN origin.x", [&](Ray<T>& r) { r.origin.x = nan; });
  add("+inf origin.y", [&](Ray<T>& r) { r.origin.y = inf; });
  add("-inf origin.z", [&](Ray<T>& r) { r.origin.z = -inf; });
  add("NaN dir.x", [&](Ray<T>& r) { r.dir.x = nan; });
  add("NaN dir.z", [&](Ray<T>& r) { r.dir.z = nan; });
  add("+inf dir.y", [&](Ray<T>& r) { r.dir.y = inf; });
  add("-inf dir.z", [&](Ray<T>& r) { r.dir.z = -inf; });
  add("all-NaN dir", [&](Ray<T>& r) { r.dir = {nan, nan, nan}; });
  add("tmin > tmax", [](Ray<T>& r) { r.tmin = T(3); r.tmax = T(2); });
  add("NaN tmin", [&](Ray<T>& r) { r.tmin = nan; });
  add("NaN tmax", [&](Ray<T>& r) { r.tmax = nan; });
  add("-inf tmin", [&](Ray<T>& r) { r.tmin = -inf; });
  add("+inf tmin", [&](Ray<T>& r) { r.tmin = inf; });
  add("origin.x just beyond the working range", [&](Ray<T>& r) { r.origin.x = std::nextafter(T(kMaxCoordinate), inf); });
  add("origin.z at the largest finite value", [&](Ray<T>& r) { r.origin.z = -std::numeric_limits<T>::max(); });
  for (const auto& [name, r] : out) EXPECT_FALSE(is_valid(r)) << "test setup: " << name << " should be invalid";
  return out;
}

/// Valid rays at the edges of the number range: huge and subnormal directions, far origins.
template <Real T>
std::vector<std::pair<std::string, Ray<T>>> extreme_variants(const Ray<T>& good) {
  const T big = std::numeric_limits<T>::max(), tiny = std::numeric_limits<T>::denorm_min();
  std::vector<std::pair<std::string, Ray<T>>> out;
  auto add = [&](std::string name, auto change) {
    Ray<T> r = good;
    change(r);
    out.emplace_back(std::move(name), r);
  };
  add("huge dir", [&](Ray<T>& r) { r.dir = r.dir * (big / T(4) / max_component(abs(r.dir))); });
  add("max dir on every axis", [&](Ray<T>& r) { r.dir = {big, -big, big}; });
  add("subnormal dir", [&](Ray<T>& r) {
    const int k = max_dimension(r.dir);
    r.dir = with_component(Vec3<T>{}, k, std::copysign(tiny, good.dir[k]));
  });
  // Origins as far as the working range allows (beyond it a ray is invalid).
  const T far = T(kMaxCoordinate);
  add("far origin", [&](Ray<T>& r) { r.origin.x = far; });
  add("far origin looking back", [&](Ray<T>& r) { r.origin = {-far, T(0), T(0)}; r.dir = {T(1), T(0), T(0)}; });
  add("far origin and huge dir", [&](Ray<T>& r) { r.origin = {far, far, -far}; r.dir = {-big, -big, big}; });
  add("widest [tmin, tmax]", [&](Ray<T>& r) { r.tmin = -big; r.tmax = big; });
  add("tmax = max", [&](Ray<T>& r) { r.tmax = big; });
  for (const auto& [name, r] : out) EXPECT_TRUE(is_valid(r)) << "test setup: " << name << " should be valid";
  return out;
}

/// Every invalid variant of `good` misses with the defaults.
template <Real T, class Kernel>
void expect_invalid_rays_miss(Kernel kernel, const Ray<T>& good) {
  for (const auto& [name, r] : invalid_variants(good)) EXPECT_TRUE(IsMiss(kernel(r))) << name << ": " << describe(r);
}

/// Every extreme variant of `good` gives a NaN-free result with t in [tmin, tmax].
template <Real T, class Kernel>
void expect_extreme_rays_nan_free(Kernel kernel, const Ray<T>& good) {
  for (const auto& [name, r] : extreme_variants(good))
    EXPECT_TRUE(IsWellFormed(kernel(r), r, /*loose=*/true)) << name << ": " << describe(r);
}

// ---- solids: span of the unbounded line ----------------------------------------------------------

/// The unbounded line is inside the solid for t in [t0, t1]; n0, n1 are the outward normals there.
struct LineSpan {
  bool hit = false;
  double t0 = kInf, t1 = -kInf;
  Vec3d n0{}, n1{};

  /// A crossing of the surface: the span is from the first crossing to the last (convex solids).
  void add(double t, Vec3d n) {
    hit = true;
    if (t < t0) t0 = t, n0 = n;
    if (t > t1) t1 = t, n1 = n;
  }
};

/// The kernel conventions applied to a span: first point within [tmin, tmax]; starting inside
/// gives t = tmin, normal -unit(dir); t_exit is the span's end on the unbounded line.
inline RayHitd solid_hit(const LineSpan& s, const Rayd& ray) {
  RayHitd h;
  if (!s.hit || s.t1 < ray.tmin || s.t0 > ray.tmax) return h;
  h.hit = true;
  h.t_exit = s.t1;
  if (s.t0 >= ray.tmin) {
    h.t = s.t0;
    h.normal = s.n0;
  } else {
    h.t = ray.tmin;
    h.flags = kHitStartedInside;
    h.normal = -normalize(ray.dir);
  }
  h.point = ray.at(h.t);
  return h;
}

/// Sphere: walk to the point of closest approach, then back and forth by Pythagoras.
inline LineSpan line_vs_sphere(Vec3d center, double radius, const Rayd& ray) {
  LineSpan s;
  const double len = length(ray.dir);
  const Vec3d d = ray.dir / len;
  const double along = dot(center - ray.origin, d);
  const double miss2 = distance_squared(ray.origin + d * along, center);
  if (!(radius > 0) || miss2 > radius * radius) return s;
  const double half = std::sqrt(radius * radius - miss2);
  for (double dist : {along - half, along + half}) s.add(dist / len, normalize(ray.origin + d * dist - center));
  return s;
}

/// Box: the six face planes, each crossing kept when it lands inside the face's rectangle.
/// The faces the ray enters through go first, so that ties (edges, corners, flat boxes) give
/// the entry the entered face of the lowest axis.
inline LineSpan line_vs_box_faces(const Aabbd& box, const Rayd& ray) {
  LineSpan s;
  for (int leaving = 0; leaving < 2; ++leaving) {
    for (int axis = 0; axis < 3; ++axis) {
      if (ray.dir[axis] == 0) continue;
      const int side = (ray.dir[axis] < 0) != (leaving == 1) ? 1 : 0;
      const double plane = side ? box.max[axis] : box.min[axis];
      const double t = (plane - ray.origin[axis]) / ray.dir[axis];
      const Vec3d p = ray.at(t);
      bool on_face = true;
      for (int j = 0; j < 3; ++j) on_face = on_face && (j == axis || (p[j] >= box.min[j] && p[j] <= box.max[j]));
      if (on_face) s.add(t, with_component(Vec3d{}, axis, side ? 1.0 : -1.0));
    }
  }
  return s;
}

/// Oriented box: the six face planes in world space, the face rectangle tested on the box axes;
/// entered faces first, as for the axis-aligned box.
inline LineSpan line_vs_obb_faces(const Obb<double>& box, const Rayd& ray) {
  LineSpan s;
  Vec3d axes[3];
  for (int i = 0; i < 3; ++i) axes[i] = normalize(box.rotation.col[i]);
  for (int leaving = 0; leaving < 2; ++leaving) {
    for (int i = 0; i < 3; ++i) {
      const double along = dot(axes[i], ray.dir);
      if (along == 0) continue;
      const Vec3d n = axes[i] * ((along < 0) != (leaving == 1) ? 1.0 : -1.0);
      const double denom = dot(n, ray.dir);
      const Vec3d on_plane = box.center + n * box.half_extents[i];
      const double t = dot(n, on_plane - ray.origin) / denom;
      const Vec3d rel = ray.at(t) - box.center;
      bool on_face = true;
      for (int j = 0; j < 3; ++j) on_face = on_face && (j == i || std::abs(dot(rel, axes[j])) <= box.half_extents[j]);
      if (on_face) s.add(t, n);
    }
  }
  return s;
}

/// Crossings of the lateral surface of the cylinder around [a, b] whose axial position lies in
/// [0, |b - a|] (widened by `slack` relative): the line projected on the plane across the axis,
/// closest approach there, then Pythagoras.
inline void add_side_crossings(Vec3d a, Vec3d b, double radius, const Rayd& ray, double slack, LineSpan& s) {
  const double len = length(b - a);
  const Vec3d w = (b - a) / len;
  const Vec3d rel = ray.origin - a;
  const Vec3d o_across = rel - w * dot(rel, w);
  const Vec3d d_across = ray.dir - w * dot(ray.dir, w);
  const double speed2 = length_squared(d_across);
  if (speed2 == 0) return;
  const double t_close = -dot(o_across, d_across) / speed2;
  const double miss2 = length_squared(o_across + d_across * t_close);
  if (miss2 > radius * radius) return;
  const double half = std::sqrt((radius * radius - miss2) / speed2);
  for (double t : {t_close - half, t_close + half}) {
    const Vec3d q = ray.at(t) - a;
    const double axial = dot(q, w);
    if (axial < -slack * len || axial > (1 + slack) * len) continue;
    s.add(t, normalize(q - w * axial));
  }
}

/// Capsule: the nearest and farthest crossings of the side and of the two outer half-spheres.
inline LineSpan line_vs_capsule_parts(const Capsule<double>& c, const Rayd& ray) {
  if (!(c.radius > 0)) return {};
  if (c.a == c.b) return line_vs_sphere(c.a, c.radius, ray);
  LineSpan s;
  add_side_crossings(c.a, c.b, c.radius, ray, 1e-12, s);
  const Vec3d w = normalize(c.b - c.a);
  const double len = length(c.b - c.a);
  for (const auto& [end, outward] : {std::pair{c.a, -w}, std::pair{c.b, w}}) {
    const LineSpan ball = line_vs_sphere(end, c.radius, ray);
    if (!ball.hit) continue;
    if (dot(ray.at(ball.t0) - end, outward) >= -1e-12 * len) s.add(ball.t0, ball.n0);
    if (dot(ray.at(ball.t1) - end, outward) >= -1e-12 * len) s.add(ball.t1, ball.n1);
  }
  return s;
}

/// Crossing of the flat disc around `center` (radius inclusive); NaN when the line misses it.
inline double disc_crossing(Vec3d center, Vec3d unit_normal, double radius, const Rayd& ray) {
  const double denom = dot(unit_normal, ray.dir);
  if (denom == 0) return std::numeric_limits<double>::quiet_NaN();
  const double t = dot(unit_normal, center - ray.origin) / denom;
  Vec3d off = ray.at(t) - center;
  off = off - unit_normal * dot(off, unit_normal);
  return length(off) <= radius ? t : std::numeric_limits<double>::quiet_NaN();
}

/// Capped cylinder: crossings of the side (within the caps) and of the two cap discs.
inline LineSpan line_vs_cylinder_parts(const Cylinder<double>& c, const Rayd& ray) {
  LineSpan s;
  if (!(c.radius > 0) || c.a == c.b) return s;
  add_side_crossings(c.a, c.b, c.radius, ray, 0, s);
  const Vec3d w = normalize(c.b - c.a);
  for (const auto& [center, outward] : {std::pair{c.a, -w}, std::pair{c.b, w}}) {
    const double t = disc_crossing(center, outward, c.radius, ray);
    if (!std::isnan(t)) s.add(t, outward);
  }
  return s;
}

// ---- solids: signed distances and admissible normals, for grazing and edge cases ---------------

inline double box_sdf(Vec3d local, Vec3d half) {
  const Vec3d q = abs(local) - half;
  return length(max(q, Vec3d{})) + std::min(max_component(q), 0.0);
}
inline Vec3d obb_local(const Obb<double>& b, Vec3d p) {
  const Vec3d rel = p - b.center;
  return {dot(rel, normalize(b.rotation.col[0])), dot(rel, normalize(b.rotation.col[1])),
          dot(rel, normalize(b.rotation.col[2]))};
}
inline Vec3d closest_on_segment(Vec3d a, Vec3d b, Vec3d p) {
  const Vec3d ab = b - a;
  const double len2 = length_squared(ab);
  return len2 == 0 ? a : a + ab * std::clamp(dot(p - a, ab) / len2, 0.0, 1.0);
}
inline double cylinder_sdf(const Cylinder<double>& c, Vec3d p) {
  const double len = length(c.b - c.a);
  const Vec3d w = (c.b - c.a) / len;
  const double axial = dot(p - c.a, w);
  const double radial = length((p - c.a) - w * axial);
  const double dr = radial - c.radius, da = std::abs(axial - len / 2) - len / 2;
  return std::hypot(std::max(dr, 0.0), std::max(da, 0.0)) + std::min(std::max(dr, da), 0.0);
}

/// Angle between two directions, by atan2 so that it stays accurate near zero (acos does not).
inline double angle_between(Vec3d a, Vec3d b) { return std::atan2(length(cross(a, b)), dot(a, b)); }

/// The outward normals admissible at a surface point: one on smooth surfaces, two or three where
/// the point lies within delta of an edge or corner.
struct NormalSet {
  Vec3d n[3]{};
  int count = 0;
  void add(Vec3d v) {
    if (count < 3) n[count++] = v;
  }
  bool contains(Vec3d v, double angle) const {
    for (int i = 0; i < count; ++i)
      if (angle_between(v, n[i]) <= angle) return true;
    return false;
  }
};

inline NormalSet box_face_normals(Vec3d local, Vec3d half, double delta, const Vec3d axes[3]) {
  NormalSet set;
  for (int i = 0; i < 3; ++i)
    if (std::abs(std::abs(local[i]) - half[i]) <= delta) set.add(axes[i] * (local[i] < 0 ? -1.0 : 1.0));
  return set;
}

inline NormalSet cylinder_normals(const Cylinder<double>& c, Vec3d p, double delta) {
  NormalSet set;
  const double len = length(c.b - c.a);
  const Vec3d w = (c.b - c.a) / len;
  const double axial = dot(p - c.a, w);
  const Vec3d across = (p - c.a) - w * axial;
  if (std::abs(length(across) - c.radius) <= delta) set.add(normalize(across));
  if (std::abs(axial) <= delta) set.add(-w);
  if (std::abs(axial - len) <= delta) set.add(w);
  return set;
}

// ---- open surfaces: the crossing of the plane ---------------------------------------------------

/// Where the unbounded line crosses a flat surface's plane, and how far inside the surface's
/// boundary that is (signed distance in the plane, positive inside; +inf for an unbounded plane).
struct PlaneCrossing {
  bool crosses = false;
  double t = kInf;
  Vec3d normal{};
  double margin = kInf;
  double u = 0, v = 0;
};

inline RayHitd surface_hit(const PlaneCrossing& c, const Rayd& ray) {
  RayHitd h;
  if (!c.crosses || !(c.margin >= 0) || c.t < ray.tmin || c.t > ray.tmax) return h;
  h.hit = true;
  h.t = c.t;
  h.point = ray.at(c.t);
  h.normal = c.normal;
  h.u = c.u;
  h.v = c.v;
  if (dot(ray.dir, c.normal) > 0) h.flags = kHitBackFace;
  return h;
}

inline PlaneCrossing cross_plane(Vec3d normal, double offset, const Rayd& ray) {
  PlaneCrossing c;
  const double denom = dot(normal, ray.dir);
  if (denom == 0 || normal == Vec3d{}) return c;
  c.crosses = true;
  c.t = (offset - dot(normal, ray.origin)) / denom;
  c.normal = normalize(normal);
  return c;
}

inline PlaneCrossing cross_disc(const Disc<double>& d, const Rayd& ray) {
  PlaneCrossing c = cross_plane(d.normal, dot(d.normal, d.center), ray);
  if (c.crosses) c.margin = d.radius - distance(ray.at(c.t), d.center);
  return c;
}

inline double distance_to_segment(Vec3d p, Vec3d a, Vec3d b) { return distance(p, closest_on_segment(a, b, p)); }

/// Triangle: the plane of its vertices, then barycentrics as ratios of signed areas in 3D.
inline PlaneCrossing cross_triangle(const Triangle<double>& tri, const Rayd& ray) {
  const Vec3d n = cross(tri.v1 - tri.v0, tri.v2 - tri.v0);
  PlaneCrossing c = cross_plane(n, dot(n, tri.v0), ray);
  if (!c.crosses) return c;
  const Vec3d p = ray.at(c.t);
  const double area2 = dot(n, n);
  const double w0 = dot(n, cross(tri.v1 - p, tri.v2 - p)) / area2;
  const double w1 = dot(n, cross(tri.v2 - p, tri.v0 - p)) / area2;
  const double w2 = dot(n, cross(tri.v0 - p, tri.v1 - p)) / area2;
  const bool inside = w0 >= 0 && w1 >= 0 && w2 >= 0;
  const double edge = std::min({distance_to_segment(p, tri.v0, tri.v1), distance_to_segment(p, tri.v1, tri.v2),
                                distance_to_segment(p, tri.v2, tri.v0)});
  c.margin = inside ? edge : -edge;
  c.u = w1;
  c.v = w2;
  return c;
}

/// Convex polygon: a fan of triangles from the first vertex; the margin is measured to the
/// polygon's own edges, not to the fan's diagonals.
inline PlaneCrossing cross_polygon_fan(const std::vector<Vec3d>& vs, const Rayd& ray) {
  PlaneCrossing first;
  bool inside = false;
  for (std::size_t i = 1; i + 1 < vs.size(); ++i) {
    const PlaneCrossing c = cross_triangle({vs[0], vs[i], vs[i + 1]}, ray);
    if (i == 1) first = c;
    if (c.crosses && c.margin >= 0) {
      first = c;
      inside = true;
      break;
    }
  }
  if (!first.crosses) return first;
  const Vec3d p = ray.at(first.t);
  double edge = kInf;
  for (std::size_t i = 0; i < vs.size(); ++i) edge = std::min(edge, distance_to_segment(p, vs[i], vs[(i + 1) % vs.size()]));
  first.margin = inside ? edge : -edge;
  first.u = first.v = 0;
  return first;
}

// ---- seeded randomness ---------------------------------------------------------------------------

/// std::mt19937 with its own uniform mapping, so the cases are the same with every standard library.
class Rng {
 public:
  explicit Rng(std::uint32_t seed) : engine_(seed) {}
  double uniform() {
    const std::uint64_t hi = engine_() >> 5, lo = engine_() >> 6;
    return (double(hi) * 67108864.0 + double(lo)) * (1.0 / 9007199254740992.0);
  }
  double uniform(double a, double b) { return a + (b - a) * uniform(); }
  double log_uniform(double a, double b) { return a * std::exp(std::log(b / a) * uniform()); }
  bool chance(double p) { return uniform() < p; }
  Vec3d in_cube(double h) { return {uniform(-h, h), uniform(-h, h), uniform(-h, h)}; }
  Vec3d in_ball(double r) {
    for (;;) {
      const Vec3d p = in_cube(1);
      if (length_squared(p) <= 1) return p * r;
    }
  }
  Vec3d unit_vector() {
    for (;;) {
      const Vec3d p = in_ball(1);
      if (length_squared(p) > 1e-4) return normalize(p);
    }
  }
  std::mt19937& engine() { return engine_; }

 private:
  std::mt19937 engine_;
};

/// A hull of 8 points drawn in the ball of `radius` around centre (drawn again until they span a
/// volume); `points` receives them.
template <Real T>
ConvexHull<T> random_hull(Rng& rng, Vec3d centre, double radius, std::vector<Vec3<T>>& points) {
  for (;;) {
    points.clear();
    for (int i = 0; i < 8; ++i) points.push_back(from_double<T>(centre + rng.in_ball(radius)));
    Result<ConvexHull<T>> hull = ConvexHull<T>::make(points);
    if (hull.ok()) return std::move(hull).value();
  }
}

/// A random ray around a shape with centre c and bounding radius `size`: origins often inside or
/// near it, directions mostly aimed at points around it (so that many hit and some graze), of
/// length 0.1..10; tmin usually 0, sometimes positive (starting part-way, often inside) or
/// negative; tmax infinite or finite.
template <Real T>
Ray<T> random_ray(Rng& rng, Vec3d c, double size) {
  const double pick = rng.uniform();
  const Vec3d o = c + rng.in_ball(size * (pick < 0.15 ? 0.8 : pick < 0.85 ? 4.0 : 20.0));
  Vec3d dir = rng.chance(0.75) ? c + rng.in_ball(size * 1.1) - o : rng.unit_vector();
  dir = length_squared(dir) > 1e-12 ? normalize(dir) : rng.unit_vector();
  dir = dir * rng.log_uniform(0.1, 10);
  const double reach = (distance(o, c) + size) / length(dir);
  const double p = rng.uniform();
  const double tmin = p < 0.7 ? 0.0 : p < 0.9 ? rng.uniform(0, 2 * reach) : -rng.uniform(0, reach);
  const double tmax = rng.chance(0.55) ? kInf : tmin + rng.uniform(0, 2 * reach);
  Ray<T> ray{from_double<T>(o), from_double<T>(dir), T(tmin), T(tmax)};
  if (ray.tmax < ray.tmin) ray.tmax = ray.tmin;
  return ray;
}

/// The magnitude that float or double rounding errors of a case are proportional to: the
/// coordinates of the origin, the shape and the hit, and the distances between them.
inline double case_scale(const Rayd& ray, Vec3d c, double size, const RayHitd& ref) {
  return std::max({1.0, length(ray.origin), length(c), size + distance(ray.origin, c),
                   std::abs(ray.tmin) * length(ray.dir), ref.hit ? distance(ray.origin, ref.point) : 0.0});
}


/// Minimum of a convex function of t (a convex solid's signed distance along the ray) over
/// [lo, hi], by golden-section search.
template <class F>
double convex_minimum(F f, double lo, double hi) {
  const double g = 0.6180339887498949;
  double a = lo, b = hi;
  double x1 = b - g * (b - a), x2 = a + g * (b - a), f1 = f(x1), f2 = f(x2);
  for (int i = 0; i < 120 && b - a > 1e-15 * std::max(1.0, std::abs(a) + std::abs(b)); ++i) {
    if (f1 < f2) {
      b = x2, x2 = x1, f2 = f1, x1 = b - g * (b - a), f1 = f(x1);
    } else {
      a = x1, x1 = x2, f1 = f2, x2 = a + g * (b - a), f2 = f(x2);
    }
  }
  return std::min({f(lo), f(hi), f1, f2});
}

// ---- differential drivers ------------------------------------------------------------------------

/// Counts of one differential run. Grazing disagreements are hit/miss or flag differences within
/// the grazing distance of the deciding boundary; edge normals are kernel normals that are those
/// of another face the hit point lies within the grazing distance of.
struct DifferentialReport {
  std::string name;
  long rays = 0, hits = 0, started_inside = 0, grazing = 0, edge_normals = 0, failures = 0;
  double worst_t = 0, worst_exit = 0, worst_angle = 0;

  void fail(const std::string& what, const std::string& shape, const std::string& ray, const std::string& got,
            const std::string& want) {
    if (++failures <= 8)
      ADD_FAILURE() << name << ": " << what << "\n  shape " << shape << "\n  " << ray << "\n  kernel    " << got
                    << "\n  reference " << want;
  }
  /// Prints the counts and fails when anything failed or grazing disagreements exceed 0.1%.
  void finish() const {
    std::printf("[ stats    ] %s: %ld rays, %ld hits, %ld started inside; grazing disagreements %ld, edge normals %ld; "
                "worst t err %.3g, t_exit err %.3g (x scale), normal %.3g rad\n",
                name.c_str(), rays, hits, started_inside, grazing, edge_normals, worst_t, worst_exit, worst_angle);
    EXPECT_EQ(failures, 0) << name;
    EXPECT_LE(grazing, rays / 1000) << name << ": too many grazing disagreements";
    EXPECT_GT(hits, rays / 5) << name << ": the ray mix should hit often";
  }
};

template <class S>
std::string kernel_name(const char* shape) {
  return std::string(shape) + (std::is_same_v<S, float> ? "<float>" : "<double>");
}

/// Compares a solid kernel with its reference on `count` seeded random rays. Traits provides,
/// for a shape of T: random_shape<T>(rng), kernel(shape, ray), span(shape, rayd) (LineSpan),
/// sdf(shape, p), normals(shape, p, delta), center(shape), size(shape) (bounding radius),
/// curvature(shape) (smallest radius of curvature, for the normal's share of the t error), name,
/// and optionally adjust_ray(shape, ray, rng) to mix in rays special to the shape.
template <Real T, class Traits>
DifferentialReport run_solid_differential(std::uint32_t seed, int count) {
  using Tol = Tolerance<T>;
  Rng rng(seed);
  DifferentialReport rep;
  rep.name = kernel_name<T>(Traits::name);
  for (int i = 0; i < count; ++i) {
    const auto shape = Traits::template random_shape<T>(rng);
    const Vec3d c = Traits::center(shape);
    const double size = Traits::size(shape);
    Ray<T> ray = random_ray<T>(rng, c, size);
    if constexpr (requires { Traits::adjust_ray(shape, ray, rng); }) Traits::adjust_ray(shape, ray, rng);
    const Rayd rd = to_double(ray);
    const double dir_len = length(rd.dir);
    const Vec3d unit_dir = rd.dir / dir_len;
    const LineSpan span = Traits::span(shape, rd);
    const RayHitd ref = solid_hit(span, rd);
    const double scale = case_scale(rd, c, size, ref);
    const double delta = Tol::grazing * scale;
    const RayHit<T> got = Traits::kernel(shape, ray);
    ++rep.rays;
    rep.hits += ref.hit;
    rep.started_inside += ref.started_inside();
    auto fail = [&](const std::string& what) {
      rep.fail(what, describe(shape), describe(ray), describe(got), describe(ref));
    };
    auto sdf_at = [&](double t) { return Traits::sdf(shape, rd.at(t)); };
    if (auto ok = IsWellFormed(got, ray); !ok) {
      fail(ok.message());
      continue;
    }
    if (got.hit != ref.hit) {
      const double reach = std::max(rd.tmin, dot(c - rd.origin, rd.dir) / (dir_len * dir_len) + 2 * size / dir_len);
      const double closest = convex_minimum(sdf_at, rd.tmin, std::min(rd.tmax, reach));
      if (std::abs(closest) <= delta) ++rep.grazing;
      else fail("hit/miss (closest approach " + std::to_string(closest) + ")");
      continue;
    }
    if (!ref.hit) continue;
    if (got.back_face() || got.u != 0 || got.v != 0) fail("a solid sets neither kHitBackFace nor u, v");
    if (got.started_inside() != ref.started_inside()) {
      if (std::abs(sdf_at(rd.tmin)) <= delta) ++rep.grazing;
      else fail("started_inside");
      continue;
    }
    if (ref.started_inside()) {
      if (got.t != ray.tmin) fail("t must be tmin when starting inside");
      const double a = angle_between(to_double(got.normal), -unit_dir);
      rep.worst_angle = std::max(rep.worst_angle, a);
      if (a > Tol::angle) fail("normal must be -unit(dir) when starting inside");
    } else {
      const double cos_in = std::max(std::abs(dot(unit_dir, ref.normal)), kMinCos);
      const double t_err = std::abs(double(got.t) - ref.t) * dir_len * cos_in / scale;
      rep.worst_t = std::max(rep.worst_t, t_err);
      if (!(t_err <= Tol::distance)) fail("t");
      if (!(std::abs(Traits::sdf(shape, to_double(got.point))) <= Tol::distance * scale / cos_in))
        fail("point off the surface");
      const double allowed = Tol::angle + Tol::distance * scale / (cos_in * Traits::curvature(shape));
      const double a = angle_between(to_double(got.normal), ref.normal);
      if (a > allowed) {
        if (Traits::normals(shape, ref.point, delta).contains(to_double(got.normal), allowed)) ++rep.edge_normals;
        else fail("normal");
      } else {
        rep.worst_angle = std::max(rep.worst_angle, a);
      }
    }
    const double cos_out = std::max(std::abs(dot(unit_dir, span.n1)), kMinCos);
    const double exit_err = std::abs(double(got.t_exit) - ref.t_exit) * dir_len * cos_out / scale;
    rep.worst_exit = std::max(rep.worst_exit, std::isfinite(exit_err) ? exit_err : 0.0);
    if (!(exit_err <= Tol::distance)) fail("t_exit");
  }
  return rep;
}

/// Compares an open-surface kernel with its reference on `count` seeded random rays. Traits
/// provides random_shape<T>(rng), kernel(shape, ray), crossing(shape, rayd) (PlaneCrossing),
/// center(shape), size(shape), barycentric_point(shape, u, v) (the point u, v describe, or a NaN
/// vector for shapes without barycentrics), name, and optionally adjust_ray(shape, ray, rng).
template <Real T, class Traits>
DifferentialReport run_surface_differential(std::uint32_t seed, int count) {
  using Tol = Tolerance<T>;
  Rng rng(seed);
  DifferentialReport rep;
  rep.name = kernel_name<T>(Traits::name);
  for (int i = 0; i < count; ++i) {
    const auto shape = Traits::template random_shape<T>(rng);
    const Vec3d c = Traits::center(shape);
    const double size = Traits::size(shape);
    Ray<T> ray = random_ray<T>(rng, c, size);
    if constexpr (requires { Traits::adjust_ray(shape, ray, rng); }) Traits::adjust_ray(shape, ray, rng);
    const Rayd rd = to_double(ray);
    const double dir_len = length(rd.dir);
    const PlaneCrossing crossing = Traits::crossing(shape, rd);
    const RayHitd ref = surface_hit(crossing, rd);
    const double scale = case_scale(rd, c, size, ref);
    const double delta = Tol::grazing * scale;
    const RayHit<T> got = Traits::kernel(shape, ray);
    ++rep.rays;
    rep.hits += ref.hit;
    auto fail = [&](const std::string& what) {
      rep.fail(what, describe(shape), describe(ray), describe(got), describe(ref));
    };
    if (auto ok = IsWellFormed(got, ray); !ok) {
      fail(ok.message());
      continue;
    }
    if (got.t_exit != kInfinity<T>) fail("t_exit must stay +inf for an open surface");
    const double cos = crossing.crosses ? std::abs(dot(rd.dir / dir_len, crossing.normal)) : 0.0;
    // Distance from the plane of the ends of [tmin, tmax], to tell a crossing right at an end.
    const double at_tmin = crossing.crosses ? std::abs(crossing.t - rd.tmin) * dir_len * cos : kInf;
    const double at_tmax = crossing.crosses && std::isfinite(rd.tmax) ? std::abs(crossing.t - rd.tmax) * dir_len * cos : kInf;
    const bool grazing = cos <= Tol::grazing || std::abs(crossing.margin) <= delta || at_tmin <= delta || at_tmax <= delta;
    if (got.hit != ref.hit) {
      if (grazing) ++rep.grazing;
      else fail("hit/miss (margin " + std::to_string(crossing.margin) + ")");
      continue;
    }
    if (!ref.hit) continue;
    if (got.back_face() != ref.back_face() || got.started_inside()) {
      if (cos <= Tol::grazing && !got.started_inside()) ++rep.grazing;
      else fail("flags");
      continue;
    }
    const double cos_in = std::max(cos, kMinCos);
    const double t_err = std::abs(double(got.t) - ref.t) * dir_len * cos_in / scale;
    rep.worst_t = std::max(rep.worst_t, t_err);
    if (!(t_err <= Tol::distance)) fail("t");
    const double a = angle_between(to_double(got.normal), ref.normal);
    rep.worst_angle = std::max(rep.worst_angle, a);
    if (!(a <= Tol::angle)) fail("normal");
    const Vec3d from_uv = Traits::barycentric_point(shape, got.u, got.v);
    if (std::isnan(from_uv.x)) {
      if (got.u != 0 || got.v != 0) fail("u, v must be zero");
    } else if (!(distance(from_uv, to_double(got.point)) <= Tol::distance * scale / cos_in)) {
      fail("barycentrics do not reproduce the point");
    } else if (!(distance(from_uv, Traits::barycentric_point(shape, ref.u, ref.v)) <= Tol::distance * scale / cos_in)) {
      fail("barycentrics differ from the reference's");
    }
  }
  return rep;
}

}  // namespace hitscan::reference
