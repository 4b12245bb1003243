// Far from the origin: the same shapes and rays placed 0, 1e3, 1e4 and 1e5 m from the origin, the
// error of the hit point and of t measured for the float and the double kernels, and the standard
// mitigation shown: a floating origin.
//
// Floats are spaced 2^-7 m = 7.8 mm apart between 65536 and 131072, so a scene whose coordinates
// are about 1e5 cannot even be stored in float to better than half of that: the shape, the ray
// and the returned point each move by up to ~4 mm per coordinate before and after the kernel runs.
// No float kernel can undo that; the double kernels (spacing 1.5e-11 m there) can, and so can a
// floating origin: positions kept in double and re-expressed relative to a point near the camera
// (the subtraction done in double) before they are converted to float.
//
// The reference is independent of the kernels: each shape and ray is generated in the shape's
// local frame in double, the true hit is offset + local hit, and the local hit is computed in long
// double by a different method (closest approach for balls, the line's span in each piece for
// capsules and cylinders, 3D sign tests for triangles). Errors are taken in the local frame:
// (kernel point + frame origin) - offset is formed exactly in long double. Rays are kept to those
// whose hit is well conditioned (see well_conditioned), so that the measured error is the
// precision of the coordinates, not the sensitivity of a grazing hit.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "hitscan/geometry/ray_capsule.hpp"
#include "hitscan/geometry/ray_cylinder.hpp"
#include "hitscan/geometry/ray_obb.hpp"
#include "hitscan/geometry/ray_plane.hpp"
#include "hitscan/geometry/ray_sphere.hpp"
#include "hitscan/geometry/ray_triangle.hpp"

namespace hitscan {
namespace {

// ---- long double vectors and the local-frame references ----------------------------------------

using Wide = long double;
constexpr Wide kWideInf = std::numeric_limits<Wide>::infinity();

using W3 = Vec3<Wide>;
template <Real T>
W3 wide(Vec3<T> v) {
  return vec3_cast<Wide>(v);
}
Wide norm(W3 a) { return length(a); }

/// The ray's line, local frame.
struct Line {
  W3 o, d;
};

/// The part [t0, t1] of the line inside a solid (empty when t0 > t1).
struct Span {
  Wide t0 = kWideInf, t1 = -kWideInf;
  bool empty() const { return !(t0 <= t1); }
};
Span intersect(Span a, Span b) { return {std::max(a.t0, b.t0), std::min(a.t1, b.t1)}; }

/// Ball by closest approach and Pythagoras (the kernel solves a quadratic).
Span line_vs_ball(W3 c, Wide r, const Line& l) {
  const Wide dd = dot(l.d, l.d);
  const Wide tc = dot(c - l.o, l.d) / dd;
  const W3 q = l.o + l.d * tc - c;
  const Wide h2 = r * r - dot(q, q);
  if (h2 < 0) return {};
  const Wide half = std::sqrt(h2 / dd);
  return {tc - half, tc + half};
}

/// lo <= o + t d <= hi.
Span line_vs_slab(Wide o, Wide d, Wide lo, Wide hi) {
  if (d == 0) return o >= lo && o <= hi ? Span{-kWideInf, kWideInf} : Span{};
  const Wide a = (lo - o) / d, b = (hi - o) / d;
  return {std::min(a, b), std::max(a, b)};
}

/// The infinite cylinder of radius r around the line through a along the unit u.
Span line_vs_infinite_cylinder(W3 a, W3 u, Wide r, const Line& l) {
  const W3 w = l.o - a;
  const W3 dp = l.d - u * dot(l.d, u), wp = w - u * dot(w, u);
  const Wide qa = dot(dp, dp), qb = dot(dp, wp), qc = dot(wp, wp) - r * r;
  if (qa == 0) return qc <= 0 ? Span{-kWideInf, kWideInf} : Span{};
  const Wide disc = qb * qb - qa * qc;
  if (disc < 0) return {};
  const Wide s = std::sqrt(disc);
  return {(-qb - s) / qa, (-qb + s) / qa};
}

/// The capped cylinder around [a, b]: the infinite cylinder within the slab between the caps.
Span line_vs_capped_cylinder(Vec3d a, Vec3d b, Wide r, const Line& l) {
  const W3 axis = wide(b) - wide(a);
  const Wide length = norm(axis);
  const W3 u = axis * (1 / length);
  const Span side = line_vs_infinite_cylinder(wide(a), u, r, l);
  return intersect(side, line_vs_slab(dot(l.o - wide(a), u), dot(l.d, u), 0, length));
}

/// Entering a solid from outside: the first point of the span, ahead of the origin.
std::optional<Wide> entry(Span s) {
  if (s.empty() || !(s.t0 > 0)) return std::nullopt;
  return s.t0;
}

// ---- seeded random input --------------------------------------------------------------------------

struct Rng {
  std::mt19937_64 gen;
  explicit Rng(unsigned seed) : gen(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen); }
  Vec3d in_ball(double r) {
    for (;;) {
      const Vec3d p{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
      if (dot(p, p) <= 1) return p * r;
    }
  }
  Vec3d unit() {
    for (;;) {
      const Vec3d p = in_ball(1);
      if (dot(p, p) > 0.01) return normalize(p);
    }
  }
};

// ---- where the geometry is placed, and which frame the kernel sees ----------------------------------

/// The true position of a local point p is offset + p, held in double as a world position would
/// be; the kernel gets T(world - origin), the subtraction done in double. origin = 0 is the plain
/// world frame; origin = offset + camera is a floating origin at the camera.
struct Frame {
  Vec3d offset{};
  Vec3d origin{};
  template <Real T>
  Vec3<T> position(Vec3d local) const {
    return vec3_cast<T>((offset + local) - origin);
  }
};

template <Real T>
Mat3<T> cast(const Mat3d& m) {
  return Mat3<T>::from_columns(vec3_cast<T>(m.col[0]), vec3_cast<T>(m.col[1]), vec3_cast<T>(m.col[2]));
}

// ---- the kernels, each with its random shape, its aim and its reference -----------------------------

struct SphereKernel {
  static constexpr const char* name = "ray_vs_sphere";
  using Shape = Sphere<double>;
  static Shape random_shape(Rng& rng) { return {rng.in_ball(0.3), rng.uniform(0.4, 1.0)}; }
  static Vec3d aim(const Shape& s, Rng& rng) { return s.center + rng.in_ball(s.radius); }
  static std::optional<Wide> reference(const Shape& s, const Line& l) {
    return entry(line_vs_ball(wide(s.center), s.radius, l));
  }
  template <Real T>
  static RayHit<T> hit(const Shape& s, const Frame& f, const Ray<T>& r) {
    return ray_vs_sphere(Sphere<T>{f.position<T>(s.center), T(s.radius)}, r);
  }
};

struct ObbKernel {
  static constexpr const char* name = "ray_vs_obb";
  using Shape = Obb<double>;
  static Shape random_shape(Rng& rng) {
    const Vec3d half{rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8)};
    return Shape::from_quat(rng.in_ball(0.3), half, Quat<double>::from_axis_angle(rng.unit(), rng.uniform(0, 3.1)));
  }
  static Vec3d aim(const Shape& s, Rng& rng) {
    const Vec3d h = s.half_extents;
    return s.center + s.rotation * Vec3d{rng.uniform(-h.x, h.x), rng.uniform(-h.y, h.y), rng.uniform(-h.z, h.z)};
  }
  /// Slabs in the box's frame, taken there in long double.
  static std::optional<Wide> reference(const Shape& s, const Line& l) {
    Span span{-kWideInf, kWideInf};
    const W3 rel = l.o - wide(s.center);
    for (int i = 0; i < 3; ++i) {
      const W3 axis = wide(s.rotation.col[i]);
      const Wide h = s.half_extents[i];
      span = intersect(span, line_vs_slab(dot(rel, axis), dot(l.d, axis), -h, h));
    }
    return entry(span);
  }
  template <Real T>
  static RayHit<T> hit(const Shape& s, const Frame& f, const Ray<T>& r) {
    return ray_vs_obb(Obb<T>{f.position<T>(s.center), vec3_cast<T>(s.half_extents), cast<T>(s.rotation)}, r);
  }
};

/// A random segment of length 0.4 to 1.6 m around a point near the local origin.
template <class Shape>
Shape random_rounded(Rng& rng) {
  const Vec3d c = rng.in_ball(0.3), axis = rng.unit() * rng.uniform(0.2, 0.8);
  return {c - axis, c + axis, rng.uniform(0.2, 0.6)};
}

struct CapsuleKernel {
  static constexpr const char* name = "ray_vs_capsule";
  using Shape = Capsule<double>;
  static Shape random_shape(Rng& rng) { return random_rounded<Shape>(rng); }
  static Vec3d aim(const Shape& s, Rng& rng) { return lerp(s.a, s.b, rng.uniform(0, 1)) + rng.in_ball(s.radius); }
  /// The union of the two end balls and the capped cylinder between them (all convex, overlapping).
  static std::optional<Wide> reference(const Shape& s, const Line& l) {
    Span span;
    for (const Span piece : {line_vs_ball(wide(s.a), s.radius, l), line_vs_ball(wide(s.b), s.radius, l),
                             line_vs_capped_cylinder(s.a, s.b, s.radius, l)}) {
      if (!piece.empty()) span = {std::min(span.t0, piece.t0), std::max(span.t1, piece.t1)};
    }
    return entry(span);
  }
  template <Real T>
  static RayHit<T> hit(const Shape& s, const Frame& f, const Ray<T>& r) {
    return ray_vs_capsule(Capsule<T>{f.position<T>(s.a), f.position<T>(s.b), T(s.radius)}, r);
  }
};

struct CylinderKernel {
  static constexpr const char* name = "ray_vs_cylinder";
  using Shape = Cylinder<double>;
  static Shape random_shape(Rng& rng) { return random_rounded<Shape>(rng); }
  static Vec3d aim(const Shape& s, Rng& rng) { return lerp(s.a, s.b, rng.uniform(0, 1)) + rng.in_ball(s.radius); }
  static std::optional<Wide> reference(const Shape& s, const Line& l) {
    return entry(line_vs_capped_cylinder(s.a, s.b, s.radius, l));
  }
  template <Real T>
  static RayHit<T> hit(const Shape& s, const Frame& f, const Ray<T>& r) {
    return ray_vs_cylinder(Cylinder<T>{f.position<T>(s.a), f.position<T>(s.b), T(s.radius)}, r);
  }
};

struct TriangleKernel {
  static constexpr const char* name = "ray_vs_triangle";
  using Shape = Triangle<double>;
  /// Roughly equilateral, 0.5 to 1 m from its centre to each corner, in a random plane.
  static Shape random_shape(Rng& rng) {
    Vec3d b1, b2;
    orthonormal_basis(rng.unit(), b1, b2);
    const Vec3d c = rng.in_ball(0.3);
    Vec3d v[3];
    for (int k = 0; k < 3; ++k) {
      const double angle = 2 * kPi<double> * k / 3 + rng.uniform(-0.3, 0.3);
      v[k] = c + (b1 * std::cos(angle) + b2 * std::sin(angle)) * rng.uniform(0.5, 1.0);
    }
    return {v[0], v[1], v[2]};
  }
  static Vec3d aim(const Shape& s, Rng& rng) {
    const double a = rng.uniform(0, 1), b = rng.uniform(0, 1);
    const double u = a + b > 1 ? 1 - a : a, v = a + b > 1 ? 1 - b : b;
    return s.v0 + (s.v1 - s.v0) * u + (s.v2 - s.v0) * v;
  }
  /// The plane's crossing, inside when it lies on the inner side of all three edges (3D sign
  /// tests against the normal; the kernel shears the triangle into the ray's frame instead).
  static std::optional<Wide> reference(const Shape& s, const Line& l) {
    const W3 a = wide(s.v0), b = wide(s.v1), c = wide(s.v2);
    const W3 n = cross(b - a, c - a);
    const Wide t = dot(n, a - l.o) / dot(n, l.d);
    const W3 p = l.o + l.d * t;
    const bool inside = dot(cross(b - a, p - a), n) >= 0 && dot(cross(c - b, p - b), n) >= 0 &&
                        dot(cross(a - c, p - c), n) >= 0;
    if (!inside || !(t > 0)) return std::nullopt;
    return t;
  }
  template <Real T>
  static RayHit<T> hit(const Shape& s, const Frame& f, const Ray<T>& r) {
    return ray_vs_triangle(Triangle<T>{f.position<T>(s.v0), f.position<T>(s.v1), f.position<T>(s.v2)}, r);
  }
};

struct PlaneKernel {
  static constexpr const char* name = "ray_vs_plane";
  using Shape = Plane<double>;
  static Shape random_shape(Rng& rng) { return Shape::from_point_normal(rng.in_ball(0.3), rng.unit()); }
  /// Within a metre of the plane's point nearest the local origin.
  static Vec3d aim(const Shape& s, Rng& rng) {
    const Vec3d d = rng.in_ball(1.0);
    return s.normal * s.offset + (d - s.normal * dot(d, s.normal));
  }
  static std::optional<Wide> reference(const Shape& s, const Line& l) {
    const W3 n = wide(s.normal);
    const Wide t = (Wide(s.offset) - dot(n, l.o)) / dot(n, l.d);
    if (!(t > 0)) return std::nullopt;
    return t;
  }
  /// The plane's world offset dot(n, offset) + local offset, held in double like a position.
  template <Real T>
  static RayHit<T> hit(const Shape& s, const Frame& f, const Ray<T>& r) {
    const double world = dot(s.normal, f.offset) + s.offset;
    return ray_vs_plane(Plane<T>{vec3_cast<T>(s.normal), T(world - dot(s.normal, f.origin))}, r);
  }
};

// ---- cases: shapes, rays from a camera about 10 m away, and their reference hits ---------------------

constexpr int kShapes = 32;
constexpr int kRaysPerShape = 16;
constexpr double kOffsets[] = {0, 1e3, 1e4, 1e5};

/// Each coordinate of the placement is +-d, so d sets the spacing of the floats that hold it.
Vec3d offset_vector(double d) { return {d, -d, d}; }

struct ReferenceHit {
  Wide t;
  W3 point;
};

template <class K>
std::optional<ReferenceHit> reference_hit(const typename K::Shape& shape, const Rayd& ray) {
  const Line line{wide(ray.origin), wide(ray.dir)};
  const std::optional<Wide> t = K::reference(shape, line);
  if (!t) return std::nullopt;
  return ReferenceHit{*t, line.o + line.d * *t};
}

/// The hit moves by at most 4 h when the ray moves sideways by h = 3 cm in any of four directions:
/// the ray meets the surface at less than ~75 degrees from its normal and passes at least 2 cm
/// from any edge or silhouette, farther than float rounding at 1e5 m moves the ray and the shape.
template <class K>
bool well_conditioned(const typename K::Shape& shape, const Rayd& ray, const ReferenceHit& hit) {
  constexpr double kShift = 0.03, kLipschitz = 4;
  Vec3d e1, e2;
  orthonormal_basis(ray.dir, e1, e2);
  for (const Vec3d side : {e1, -e1, e2, -e2}) {
    const std::optional<ReferenceHit> moved = reference_hit<K>(shape, Rayd{ray.origin + side * kShift, ray.dir});
    if (!moved || norm(moved->point - hit.point) > kLipschitz * kShift) return false;
  }
  return true;
}

template <class K>
struct Case {
  typename K::Shape shape;
  Vec3d camera;
  std::vector<Rayd> rays;
  std::vector<ReferenceHit> hits;
};

template <class K>
std::vector<Case<K>> make_cases(unsigned seed) {
  Rng rng(seed);
  std::vector<Case<K>> cases;
  for (int s = 0; s < kShapes; ++s) {
    Case<K> c{K::random_shape(rng), rng.unit() * rng.uniform(8, 12), {}, {}};
    for (int attempt = 0; attempt < 1000 && c.rays.size() < kRaysPerShape; ++attempt) {
      const Vec3d origin = c.camera + rng.in_ball(0.5);
      const Rayd ray{origin, normalize(K::aim(c.shape, rng) - origin)};
      const std::optional<ReferenceHit> hit = reference_hit<K>(c.shape, ray);
      if (!hit || !well_conditioned<K>(c.shape, ray, *hit)) continue;
      c.rays.push_back(ray);
      c.hits.push_back(*hit);
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

// ---- measurement -----------------------------------------------------------------------------------

struct Stats {
  double max = 0, median = 0;
};
Stats stats(std::vector<double> errors) {
  if (errors.empty()) return {};
  const auto middle = errors.begin() + static_cast<std::ptrdiff_t>(errors.size() / 2);
  std::nth_element(errors.begin(), middle, errors.end());
  return {*std::max_element(errors.begin(), errors.end()), *middle};
}

/// Errors of one precision in one frame over every case: the hit point (metres, Euclidean) and
/// t (metres: the directions are unit), and the rays that missed.
struct Errors {
  Stats point, t;
  int misses = 0;
};

template <class K, Real T>
Errors measure(const std::vector<Case<K>>& cases, double d, bool floating_origin) {
  std::vector<double> point, t;
  int misses = 0;
  for (const Case<K>& c : cases) {
    const Vec3d offset = offset_vector(d);
    const Frame frame{offset, floating_origin ? offset + c.camera : Vec3d{}};
    // The frame's origin relative to the placement, exact in long double.
    const W3 shift = wide(frame.origin) - wide(offset);
    for (std::size_t i = 0; i < c.rays.size(); ++i) {
      const Ray<T> ray{frame.position<T>(c.rays[i].origin), vec3_cast<T>(c.rays[i].dir)};
      const RayHit<T> hit = K::template hit<T>(c.shape, frame, ray);
      if (!hit.hit) {
        ++misses;
        continue;
      }
      point.push_back(double(norm(wide(vec3_cast<double>(hit.point)) + shift - c.hits[i].point)));
      t.push_back(double(std::abs(Wide(hit.t) - c.hits[i].t)));
    }
  }
  return {stats(std::move(point)), stats(std::move(t)), misses};
}

struct Row {
  double offset;
  Errors single, twice, floating;  // float, double, float through a floating origin
};

/// Distance between adjacent floats at x.
double ulp(float x) { return double(std::nextafter(x, kInfinity<float>)) - double(x); }

template <class K>
const std::vector<Row>& table() {
  static const std::vector<Row> rows = [] {
    const std::vector<Case<K>> cases = make_cases<K>(20240611u);
    std::size_t rays = 0;
    for (const Case<K>& c : cases) rays += c.rays.size();
    std::printf("\n%s, %zu rays from ~10 m: hit point and t error in metres, max / median\n", K::name, rays);
    std::printf("  offset |    float point    |      float t      |   double point    |     double t      |"
                " float, floating origin: point | t\n");
    std::vector<Row> out;
    for (const double d : kOffsets) {
      const Row r{d, measure<K, float>(cases, d, false), measure<K, double>(cases, d, false),
                  measure<K, float>(cases, d, true)};
      std::printf("  %6.0f | %.1e / %.1e | %.1e / %.1e | %.1e / %.1e | %.1e / %.1e | %.1e / %.1e | %.1e / %.1e\n",
                  d, r.single.point.max, r.single.point.median, r.single.t.max, r.single.t.median,
                  r.twice.point.max, r.twice.point.median, r.twice.t.max, r.twice.t.median, r.floating.point.max,
                  r.floating.point.median, r.floating.t.max, r.floating.t.median);
      out.push_back(r);
    }
    return out;
  }();
  return rows;
}

template <class K>
class FarFromOrigin : public ::testing::Test {};
using Kernels = ::testing::Types<SphereKernel, ObbKernel, CapsuleKernel, CylinderKernel, TriangleKernel, PlaneKernel>;
struct KernelNames {
  template <class K>
  static std::string GetName(int) {
    return K::name;
  }
};
TYPED_TEST_SUITE(FarFromOrigin, Kernels, KernelNames);

TYPED_TEST(FarFromOrigin, EveryWellConditionedRayHitsInEveryPrecisionAndFrame) {
  for (const Row& r : table<TypeParam>()) {
    EXPECT_EQ(r.single.misses, 0) << "offset " << r.offset;
    EXPECT_EQ(r.twice.misses, 0) << "offset " << r.offset;
    EXPECT_EQ(r.floating.misses, 0) << "offset " << r.offset;
  }
}

TYPED_TEST(FarFromOrigin, FloatErrorGrowsInProportionToTheOffset) {
  const std::vector<Row>& rows = table<TypeParam>();
  const Row& origin = rows.front();
  for (const Row& r : rows) {
    if (r.offset == 0) continue;
    // The placement's float spacing sets the scale: the median hit is a fraction of a spacing
    // off, the worst a few spacings (input rounding, amplified at most 4x by the conditioning,
    // plus the rounding of the returned point).
    const double spacing = ulp(float(r.offset));
    EXPECT_GT(r.single.point.median, 0.1 * spacing) << "offset " << r.offset;
    EXPECT_LT(r.single.point.median, 2 * spacing) << "offset " << r.offset;
    EXPECT_LT(r.single.point.max, 16 * spacing) << "offset " << r.offset;
    EXPECT_LT(r.single.t.max, 16 * spacing) << "offset " << r.offset;
  }
  // At 1e5 m the float hit is millimetres off, thousands of times its error at the origin.
  const Row& far = rows.back();
  EXPECT_GT(far.single.point.median, 1e-3);
  EXPECT_GT(far.single.point.median, 1000 * origin.single.point.median);
  EXPECT_GT(far.single.point.max, 1000 * origin.single.point.max);
}

TYPED_TEST(FarFromOrigin, DoubleKernelsStayBelowAMicrometreAt1e5Metres) {
  for (const Row& r : table<TypeParam>()) {
    EXPECT_LT(r.twice.point.max, 1e-6) << "offset " << r.offset;
    EXPECT_LT(r.twice.t.max, 1e-6) << "offset " << r.offset;
    // In fact within a few double spacings of the placement.
    const double spacing = std::max(r.offset, 16.0) * kEpsilon<double>;
    EXPECT_LT(r.twice.point.max, 64 * spacing) << "offset " << r.offset;
  }
}

TYPED_TEST(FarFromOrigin, FloatingOriginRestoresTheFloatErrorAtTheOrigin) {
  const std::vector<Row>& rows = table<TypeParam>();
  const Row& origin = rows.front();
  for (const Row& r : rows) {
    // Same level as the plain float kernel with the scene at the origin: the coordinates the
    // kernel sees are again tens of metres, whatever the offset.
    EXPECT_LT(r.floating.point.max, 4 * origin.single.point.max) << "offset " << r.offset;
    EXPECT_LT(r.floating.point.median, 4 * origin.single.point.median) << "offset " << r.offset;
    EXPECT_LT(r.floating.t.max, 4 * origin.single.t.max) << "offset " << r.offset;
    EXPECT_LT(r.floating.point.max, 1e-5) << "offset " << r.offset;
  }
}

}  // namespace
}  // namespace hitscan
