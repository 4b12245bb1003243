#include "hitscan/geometry/ray_triangle.hpp"

#include <gtest/gtest.h>

#include <array>

#include "geometry/reference_shapes.hpp"

namespace hitscan {
namespace {

using namespace reference;

template <Real T>
Triangle<double> tri_to_double(const Triangle<T>& t) {
  return {to_double(t.v0), to_double(t.v1), to_double(t.v2)};
}

/// Random triangles around the origin's neighbourhood, skinny ones included, none degenerate.
template <Real T>
Triangle<T> random_triangle(Rng& rng) {
  const Vec3d c = rng.in_cube(5);
  const double spread = rng.log_uniform(0.2, 2);
  for (;;) {
    const Triangle<T> t{from_double<T>(c + rng.in_ball(spread)), from_double<T>(c + rng.in_ball(spread)),
                        from_double<T>(c + rng.in_ball(spread))};
    const Triangle<double> d = tri_to_double(t);
    if (length(cross(d.v1 - d.v0, d.v2 - d.v0)) > 1e-3 * spread * spread) return t;
  }
}

template <Real T>
void aim_at_triangle(const Triangle<T>& t, Ray<T>& ray, Rng& rng) {
  if (rng.chance(0.4)) return;
  double u = rng.uniform(), v = rng.uniform();
  if (u + v > 1) u = 1 - u, v = 1 - v;
  const Triangle<double> d = tri_to_double(t);
  const Vec3d centroid = (d.v0 + d.v1 + d.v2) / 3.0;
  const Vec3d target = centroid + (d.v0 * (1 - u - v) + d.v1 * u + d.v2 * v - centroid) * 1.2;
  const Vec3d to = target - to_double(ray.origin);
  if (length_squared(to) > 1e-12) ray.dir = from_double<T>(normalize(to) * length(to_double(ray.dir)));
}

template <class Kernel>
struct TriangleTraitsOf {
  template <Real T>
  static Triangle<T> random_shape(Rng& rng) { return random_triangle<T>(rng); }
  template <Real T>
  static RayHit<T> kernel(const Triangle<T>& t, const Ray<T>& r) { return Kernel::run(t, r); }
  template <Real T>
  static PlaneCrossing crossing(const Triangle<T>& t, const Rayd& r) { return cross_triangle(tri_to_double(t), r); }
  template <Real T>
  static Vec3d center(const Triangle<T>& t) { return (to_double(t.v0) + to_double(t.v1) + to_double(t.v2)) / 3.0; }
  template <Real T>
  static double size(const Triangle<T>& t) {
    const Vec3d c = center(t);
    return std::max({distance(c, to_double(t.v0)), distance(c, to_double(t.v1)), distance(c, to_double(t.v2))});
  }
  template <Real T>
  static Vec3d barycentric_point(const Triangle<T>& t, double u, double v) {
    return to_double(t.v0) * (1 - u - v) + to_double(t.v1) * u + to_double(t.v2) * v;
  }
  /// Most rays re-aimed (same length) at a point of the triangle grown by 20% about its centroid,
  /// so that a good share hits and some pass just outside the edges.
  template <Real T>
  static void adjust_ray(const Triangle<T>& t, Ray<T>& ray, Rng& rng) { aim_at_triangle(t, ray, rng); }
};

struct Watertight {
  static constexpr const char* name = "ray_vs_triangle";
  template <Real T>
  static RayHit<T> run(const Triangle<T>& t, const Ray<T>& r) { return ray_vs_triangle(t, r); }
};
struct MollerTrumbore {
  static constexpr const char* name = "ray_vs_triangle_moller_trumbore";
  template <Real T>
  static RayHit<T> run(const Triangle<T>& t, const Ray<T>& r) { return ray_vs_triangle_moller_trumbore(t, r); }
};
struct WatertightTraits : TriangleTraitsOf<Watertight> {
  static constexpr const char* name = "ray_vs_triangle";
};
struct MollerTrumboreTraits : TriangleTraitsOf<MollerTrumbore> {
  static constexpr const char* name = "ray_vs_triangle_moller_trumbore";
};

/// Both kernels and the reference give the hand-worked hit.
template <Real T>
::testing::AssertionResult Hits(const Triangle<T>& tri, const Ray<T>& r, const Expected& e) {
  if (auto k = IsHit(ray_vs_triangle(tri, r), r, e, Tolerance<T>::hand); !k) return k << " [watertight]";
  if (auto k = IsHit(ray_vs_triangle_moller_trumbore(tri, r), r, e, Tolerance<T>::hand); !k) return k << " [Moller-Trumbore]";
  const RayHitd ref = surface_hit(cross_triangle(tri_to_double(tri), to_double(r)), to_double(r));
  if (auto k = IsHit(ref, to_double(r), e, Tolerance<T>::hand); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <Real T>
::testing::AssertionResult Misses(const Triangle<T>& tri, const Ray<T>& r) {
  if (auto k = IsMiss(ray_vs_triangle(tri, r)); !k) return k << " [watertight]";
  if (auto k = IsMiss(ray_vs_triangle_moller_trumbore(tri, r)); !k) return k << " [Moller-Trumbore]";
  if (auto k = IsMiss(surface_hit(cross_triangle(tri_to_double(tri), to_double(r)), to_double(r))); !k)
    return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <class T>
class RayTriangle : public ::testing::Test {};
TYPED_TEST_SUITE(RayTriangle, Reals, RealNames);

// The unit right triangle in z = 0, facing +z.
template <Real T>
Triangle<T> unit_tri() {
  return {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
}

TYPED_TEST(RayTriangle, FrontHitGivesTBarycentricsAndTheFaceNormal) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(unit_tri<T>(), Ray<T>{{T(0.25), T(0.25), 1}, {0, 0, -1}}, {.t = 1, .normal = {0, 0, 1}, .u = 0.25, .v = 0.25}));
  EXPECT_TRUE(Hits(unit_tri<T>(), Ray<T>{{T(0.875), T(0.0625), 3}, {0, 0, -2}}, {.t = 1.5, .normal = {0, 0, 1}, .u = 0.875, .v = 0.0625}));
  // Oblique with a non-unit direction: at t = 0.5 the point is (0.25, 0.125, 0).
  EXPECT_TRUE(Hits(unit_tri<T>(), Ray<T>{{0, 0, 2}, {T(0.5), T(0.25), -4}}, {.t = 0.5, .normal = {0, 0, 1}, .u = 0.25, .v = 0.125}));
}

TYPED_TEST(RayTriangle, BackHitKeepsTheFaceNormalAndSetsTheFlag) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(unit_tri<T>(), Ray<T>{{T(0.25), T(0.5), -2}, {0, 0, 1}}, {.t = 2, .normal = {0, 0, 1}, .flags = kHitBackFace, .u = 0.25, .v = 0.5}));
  // Wound the other way, the same ray meets the front.
  const Triangle<T> flipped{{0, 0, 0}, {0, 1, 0}, {1, 0, 0}};
  EXPECT_TRUE(Hits(flipped, Ray<T>{{T(0.25), T(0.5), -2}, {0, 0, 1}}, {.t = 2, .normal = {0, 0, -1}, .u = 0.5, .v = 0.25}));
}

TYPED_TEST(RayTriangle, GeneralTriangleBarycentrics) {
  using T = TypeParam;
  // v0 + 0.5 (v1 - v0) + 0.25 (v2 - v0) = (1, 2, 3) + (1.5, 0, 0) + (0, 0, 1) = (2.5, 2, 4), on
  // the plane y = 2 with normal (v1 - v0) x (v2 - v0) = (3, 0, 0) x (0, 0, 4) = (0, -12, 0).
  const Triangle<T> tri{{1, 2, 3}, {4, 2, 3}, {1, 2, 7}};
  EXPECT_TRUE(Hits(tri, Ray<T>{{T(2.5), 10, 4}, {0, -2, 0}}, {.t = 4, .normal = {0, -1, 0}, .flags = kHitBackFace, .u = 0.5, .v = 0.25}));
  EXPECT_TRUE(Hits(tri, Ray<T>{{T(2.5), -6, 4}, {0, 1, 0}}, {.t = 8, .normal = {0, -1, 0}, .u = 0.5, .v = 0.25}));
}

TYPED_TEST(RayTriangle, OutsideBehindAndInThePlaneMiss) {
  using T = TypeParam;
  EXPECT_TRUE(Misses(unit_tri<T>(), Ray<T>{{T(0.75), T(0.75), 1}, {0, 0, -1}}));
  EXPECT_TRUE(Misses(unit_tri<T>(), Ray<T>{{T(-0.01), T(0.5), 1}, {0, 0, -1}}));
  EXPECT_TRUE(Misses(unit_tri<T>(), Ray<T>{{T(0.5), T(-0.01), 1}, {0, 0, -1}}));
  EXPECT_TRUE(Misses(unit_tri<T>(), Ray<T>{{T(0.25), T(0.25), 1}, {0, 0, 1}}));
  // In the triangle's plane, crossing it: a surface has no thickness to hit.
  EXPECT_TRUE(Misses(unit_tri<T>(), Ray<T>{{-1, T(0.25), 0}, {1, 0, 0}}));
  EXPECT_TRUE(Misses(unit_tri<T>(), Ray<T>{{-1, -1, 0}, {1, 1, 0}}));
}

TYPED_TEST(RayTriangle, TminTmaxLimitTheHit) {
  using T = TypeParam;
  const Ray<T> down{{T(0.25), T(0.25), 1}, {0, 0, -1}};
  EXPECT_TRUE(Misses(unit_tri<T>(), Ray<T>{down.origin, down.dir, 0, T(0.99)}));
  EXPECT_TRUE(Misses(unit_tri<T>(), Ray<T>{down.origin, down.dir, T(1.01)}));
  EXPECT_TRUE(Hits(unit_tri<T>(), Ray<T>{down.origin, down.dir, 1, 1}, {.t = 1, .normal = {0, 0, 1}, .u = 0.25, .v = 0.25}));
  EXPECT_TRUE(Hits(unit_tri<T>(), Ray<T>{{T(0.25), T(0.25), -1}, {0, 0, -1}, -3, -0.5},
                   {.t = -1, .normal = {0, 0, 1}, .u = 0.25, .v = 0.25}));
}

TYPED_TEST(RayTriangle, DegenerateTrianglesMiss) {
  using T = TypeParam;
  const Ray<T> down{{T(0.5), T(0.5), 3}, {0, 0, -1}};
  const Triangle<T> degenerate[] = {
      {{0, 0, 0}, {1, 1, 0}, {2, 2, 0}},                  // collinear
      {{0, 0, 0}, {1, 1, 0}, {1, 1, 0}},                  // repeated vertex
      {{T(0.5), T(0.5), 0}, {T(0.5), T(0.5), 0}, {T(0.5), T(0.5), 0}},  // a point
      {{0, 0, 0}, {1, 0, 0}, {std::numeric_limits<T>::quiet_NaN(), 1, 0}},
  };
  for (const Triangle<T>& tri : degenerate) {
    EXPECT_TRUE(IsMiss(ray_vs_triangle(tri, down))) << describe(tri);
    EXPECT_TRUE(IsMiss(ray_vs_triangle_moller_trumbore(tri, down))) << describe(tri);
  }
}

TYPED_TEST(RayTriangle, InvalidRaysMiss) {
  using T = TypeParam;
  const Triangle<T> tri = unit_tri<T>();
  for (const Ray<T>& good : {Ray<T>{{T(0.25), T(0.25), 1}, {0, 0, -1}}, Ray<T>{{0, 0, -1}, {1, 2, 3}}}) {
    expect_invalid_rays_miss<T>([&](const Ray<T>& r) { return ray_vs_triangle(tri, r); }, good);
    expect_invalid_rays_miss<T>([&](const Ray<T>& r) { return ray_vs_triangle_moller_trumbore(tri, r); }, good);
    for (const auto& [name, r] : invalid_variants(good)) {
      EXPECT_FALSE(WatertightRay<T>::from_ray(r).valid) << name;
      EXPECT_TRUE(IsMiss(ray_vs_triangle(tri, WatertightRay<T>::from_ray(r), r.dir))) << name;
    }
  }
}

TYPED_TEST(RayTriangle, ExtremeFiniteRaysNeverYieldNaN) {
  using T = TypeParam;
  const Triangle<T> tri = unit_tri<T>();
  for (const Ray<T>& good : {Ray<T>{{T(0.25), T(0.25), 1}, {0, 0, -1}}, Ray<T>{{0, 0, -1}, {1, 2, 3}}}) {
    expect_extreme_rays_nan_free<T>([&](const Ray<T>& r) { return ray_vs_triangle(tri, r); }, good);
    expect_extreme_rays_nan_free<T>([&](const Ray<T>& r) { return ray_vs_triangle_moller_trumbore(tri, r); }, good);
  }
}

TYPED_TEST(RayTriangle, WatertightRayPicksTheDominantAxisAndTheOverloadAgrees) {
  using T = TypeParam;
  const WatertightRay<T> w = WatertightRay<T>::from_ray({{1, 2, 3}, {T(0.5), -3, 1}, T(0.25), 7});
  EXPECT_TRUE(w.valid);
  EXPECT_EQ(w.kz, 1);
  EXPECT_NE(w.kx, w.ky);
  EXPECT_NE(w.kx, 1);
  EXPECT_NE(w.ky, 1);
  EXPECT_EQ(w.tmin, T(0.25));
  EXPECT_EQ(w.tmax, T(7));
  EXPECT_EQ(WatertightRay<T>::from_ray({{0, 0, 0}, {-4, 1, 2}}).kz, 0);
  EXPECT_EQ(WatertightRay<T>::from_ray({{0, 0, 0}, {1, 1, -2}}).kz, 2);
  // Every pattern of signs and ties: kz is max_dimension's axis, and (kx, ky) the next two axes
  // in cyclic order, swapped when dir points backwards along kz (the winding kept).
  const T magnitudes[] = {0, 1, 2};
  for (const T x : magnitudes) {
    for (const T y : magnitudes) {
      for (const T z : magnitudes) {
        for (int signs = 0; signs < 8; ++signs) {
          const Vec3<T> d{(signs & 1) ? -x : x, (signs & 2) ? -y : y, (signs & 4) ? -z : z};
          const WatertightRay<T> p = WatertightRay<T>::from_ray({{0, 0, 0}, d});
          if (x == 0 && y == 0 && z == 0) {
            EXPECT_FALSE(p.valid);
            continue;
          }
          const int kz = max_dimension(d);
          const int next = (kz + 1) % 3, after = (kz + 2) % 3;
          const bool backwards = d[kz] < 0;
          EXPECT_EQ(p.kz, kz) << hex(d);
          EXPECT_EQ(p.kx, backwards ? after : next) << hex(d);
          EXPECT_EQ(p.ky, backwards ? next : after) << hex(d);
        }
      }
    }
  }
  // The precomputed form gives bit-identical results.
  Rng rng(0x77u);
  for (int i = 0; i < 2000; ++i) {
    const Triangle<T> tri = random_triangle<T>(rng);
    const Ray<T> r = random_ray<T>(rng, WatertightTraits::center(tri), WatertightTraits::size(tri));
    const RayHit<T> a = ray_vs_triangle(tri, r), b = ray_vs_triangle(tri, WatertightRay<T>::from_ray(r), r.dir);
    ASSERT_EQ(a.hit, b.hit) << describe(tri) << " " << describe(r);
    EXPECT_EQ(a.t, b.t);
    EXPECT_EQ(a.u, b.u);
    EXPECT_EQ(a.v, b.v);
    EXPECT_EQ(a.flags, b.flags);
    EXPECT_EQ(a.normal, b.normal);
  }
}

TYPED_TEST(RayTriangle, RandomRaysMatchPlaneAndBarycentricReferenceWatertight) {
  run_surface_differential<TypeParam, WatertightTraits>(0x7a1u, 100000).finish();
}

TYPED_TEST(RayTriangle, RandomRaysMatchPlaneAndBarycentricReferenceMollerTrumbore) {
  run_surface_differential<TypeParam, MollerTrumboreTraits>(0x7a2u, 100000).finish();
}

TYPED_TEST(RayTriangle, MollerTrumboreAgreesWithWatertightAwayFromEdges) {
  using T = TypeParam;
  using Tol = Tolerance<T>;
  Rng rng(0x3e7u);
  long compared = 0, hits = 0;
  for (int i = 0; i < 100000; ++i) {
    const Triangle<T> tri = random_triangle<T>(rng);
    const double size = WatertightTraits::size(tri);
    Ray<T> r = random_ray<T>(rng, WatertightTraits::center(tri), size);
    aim_at_triangle(tri, r, rng);
    const Rayd rd = to_double(r);
    const PlaneCrossing c = cross_triangle(tri_to_double(tri), rd);
    const double cos = c.crosses ? std::abs(dot(normalize(rd.dir), c.normal)) : 0.0;
    // Away from the edges, from grazing angles and from the ends of [tmin, tmax].
    if (cos < 0.05 || std::abs(c.margin) < 1e-3 * size) continue;
    if (c.crosses && std::min(std::abs(c.t - rd.tmin), std::abs(c.t - rd.tmax)) * length(rd.dir) < 1e-3 * size) continue;
    ++compared;
    const RayHit<T> w = ray_vs_triangle(tri, r), m = ray_vs_triangle_moller_trumbore(tri, r);
    ASSERT_EQ(w.hit, m.hit) << describe(tri) << " " << describe(r);
    if (!w.hit) continue;
    ++hits;
    const double scale = case_scale(rd, WatertightTraits::center(tri), size, to_double(w));
    EXPECT_LE(std::abs(double(w.t) - m.t) * length(rd.dir) * cos, Tol::distance * scale) << describe(tri) << " " << describe(r);
    EXPECT_LE(distance(WatertightTraits::barycentric_point(tri, w.u, w.v), WatertightTraits::barycentric_point(tri, m.u, m.v)),
              Tol::distance * scale / cos);
    EXPECT_EQ(w.flags, m.flags);
    EXPECT_LE(angle_between(to_double(w.normal), to_double(m.normal)), Tol::angle);
  }
  EXPECT_GT(compared, 50000);
  EXPECT_GT(hits, 10000);
}

// ---- watertightness -------------------------------------------------------------------------------

/// A ray from `origin` through `target` (direction rounded to T, as a caller would compute it).
template <Real T>
Ray<T> through(Vec3<T> origin, Vec3<T> target) {
  return {origin, target - origin};
}

/// A random origin on either side of a surface that is a height field of slope < 0.35 around
/// `target`: steep enough (slope >= 1.5) that the ray crosses the surface once there.
template <Real T>
Vec3<T> origin_above_or_below(Rng& rng, Vec3<T> target) {
  const double x = rng.uniform(-2, 2), y = rng.uniform(-2, 2);
  const double z = (1.5 * std::hypot(x, y) + rng.uniform(0.2, 3)) * (rng.chance(0.5) ? 1 : -1);
  return from_double<T>(to_double(target) + Vec3d{x, y, z});
}

template <Real T, std::size_t N>
int count_hits(const std::array<Triangle<T>, N>& tris, const Ray<T>& r) {
  int n = 0;
  for (const Triangle<T>& tri : tris) n += ray_vs_triangle(tri, r).hit;
  return n;
}

template <class T>
class WatertightTriangles : public ::testing::Test {};
TYPED_TEST_SUITE(WatertightTriangles, Reals, RealNames);

TYPED_TEST(WatertightTriangles, RayThroughASharedEdgeHitsExactlyOneOfTwoTriangles) {
  using T = TypeParam;
  // (A, B, C) and (B, D, C) share the edge B-C, traversed in opposite directions.
  // Flat, with the shared edge on the y axis, so that (0, y, 0) is exactly on it for every y.
  const std::array<Triangle<T>, 2> flat{{{{-1, T(0.2), 0}, {0, -1, 0}, {0, 1, 0}}, {{0, -1, 0}, {1, T(-0.3), 0}, {0, 1, 0}}}};
  // A hinge along an oblique edge: not planar, no coordinate exact on the edge but its ends.
  const Vec3<T> A{T(-1.3), T(0.1), T(0.3)}, B{T(0.1), T(-0.9), T(0.05)}, C{T(-0.2), T(1.1), T(-0.1)}, D{T(1.2), T(0.2), T(-0.25)};
  const std::array<Triangle<T>, 2> hinge{{{A, B, C}, {B, D, C}}};
  Rng rng(0xed9eu);
  long rays = 0, wrong = 0;
  auto check = [&](const std::array<Triangle<T>, 2>& pair, Vec3<T> target) {
    const Ray<T> r = through(origin_above_or_below(rng, target), target);
    ++rays;
    const int n = count_hits(pair, r);
    if (n != 1 && ++wrong <= 5) ADD_FAILURE() << n << " hits for " << describe(r) << " aimed at " << hex(target);
  };
  for (int i = 0; i < 6000; ++i) {
    check(flat, {0, 0, 0});                                                    // the midpoint
    check(flat, {0, T(rng.uniform(-0.9, 0.9)), 0});                            // exactly on the edge
    check(flat, {0, T(std::ldexp(std::floor(rng.uniform(-7, 7)), -3)), 0});    // dyadic points on it
    check(hinge, (B + C) * T(0.5));
    check(hinge, lerp(B, C, T(rng.uniform(0.05, 0.95))));
  }
  // The shared vertices themselves are on the outer boundary of the pair, so they are not aimed at.
  EXPECT_EQ(wrong, 0) << "of " << rays << " rays";
  EXPECT_GE(rays, 10000);
}

TYPED_TEST(WatertightTriangles, RayThroughASharedVertexHitsExactlyOneTriangleOfAFan) {
  using T = TypeParam;
  // Six triangles around a vertex V, consistently wound: a flat hexagon and a tent.
  auto fan = [](Vec3<T> v, auto ring_point) {
    std::array<Triangle<T>, 6> tris{};
    for (int k = 0; k < 6; ++k) tris[k] = {v, ring_point(k), ring_point((k + 1) % 6)};
    return tris;
  };
  const auto flat = fan({0, 0, 0}, [](int k) {
    return Vec3<T>{T(std::cos(k * kPi<double> / 3)), T(std::sin(k * kPi<double> / 3)), 0};
  });
  const Vec3<T> apex{T(0.1), T(-0.05), T(0.2)};
  const auto tent = fan(apex, [](int k) {
    const double a = k * kPi<double> / 3 + 0.1;
    return Vec3<T>{T(1.3 * std::cos(a) + 0.1), T(1.1 * std::sin(a)), T(k % 2 ? 0.1 : -0.1)};
  });
  Rng rng(0xfa4u);
  long rays = 0, wrong = 0;
  auto check = [&](const std::array<Triangle<T>, 6>& tris, Vec3<T> target) {
    const Ray<T> r = through(origin_above_or_below(rng, target), target);
    ++rays;
    const int n = count_hits(tris, r);
    if (n != 1 && ++wrong <= 5) ADD_FAILURE() << n << " hits for " << describe(r) << " aimed at " << hex(target);
  };
  for (int i = 0; i < 6000; ++i) {
    check(flat, {0, 0, 0});
    check(tent, apex);
  }
  EXPECT_EQ(wrong, 0) << "of " << rays << " rays";
}

TYPED_TEST(WatertightTriangles, RayFromInsideAClosedOctahedronHitsExactlyOneFaceThroughEdgesAndVertices) {
  using T = TypeParam;
  // Vertices at +-1 on each axis; faces wound outward. Points on its edges such as (s, 1 - s, 0)
  // with dyadic s are exact in float and double.
  std::array<Triangle<T>, 8> faces{};
  int n = 0;
  for (int sx : {-1, 1})
    for (int sy : {-1, 1})
      for (int sz : {-1, 1}) {
        Triangle<T> f{{T(sx), 0, 0}, {0, T(sy), 0}, {0, 0, T(sz)}};
        if (sx * sy * sz < 0) std::swap(f.v1, f.v2);
        faces[n++] = f;
      }
  for (const Triangle<T>& f : faces) {
    const Vec3d normal = cross(to_double(f.v1) - to_double(f.v0), to_double(f.v2) - to_double(f.v0));
    ASSERT_GT(dot(normal, to_double(f.v0)), 0) << "test setup: faces must face outward";
  }
  Rng rng(0x0c7u);
  long rays = 0, wrong = 0, back_faces = 0;
  for (int i = 0; i < 12000; ++i) {
    // An origin well inside, a target on an edge or at a vertex.
    const Vec3<T> origin = from_double<T>(rng.in_ball(0.4));
    const int axis = int(rng.uniform(0, 3)) % 3;
    const T sa = rng.chance(0.5) ? T(1) : T(-1), sb = rng.chance(0.5) ? T(1) : T(-1);
    Vec3<T> target{};
    if (rng.chance(0.3)) {
      target = with_component(Vec3<T>{}, axis, sa);  // a vertex
    } else {
      const T s = T(std::ldexp(std::floor(rng.uniform(0, 1 << 20)), -20));
      target = with_component(with_component(Vec3<T>{}, axis, sa * s), (axis + 1) % 3, sb * (1 - s));
    }
    const Ray<T> r = through(origin, target);
    ++rays;
    int hits = 0;
    for (const Triangle<T>& f : faces) {
      const RayHit<T> h = ray_vs_triangle(f, r);
      hits += h.hit;
      back_faces += h.hit && h.back_face();
    }
    if (hits != 1 && ++wrong <= 5) ADD_FAILURE() << hits << " hits for " << describe(r) << " aimed at " << hex(target);
  }
  EXPECT_EQ(wrong, 0) << "of " << rays << " rays";
  EXPECT_EQ(back_faces, rays - wrong) << "from inside every hit is on a back face";
}

}  // namespace
}  // namespace hitscan
