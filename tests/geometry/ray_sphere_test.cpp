#include "hitscan/geometry/ray_sphere.hpp"

#include <gtest/gtest.h>

#include "geometry/reference_shapes.hpp"

namespace hitscan {
namespace {

using namespace reference;

struct SphereTraits {
  static constexpr const char* name = "ray_vs_sphere";
  template <Real T>
  static Sphere<T> random_shape(Rng& rng) {
    return {from_double<T>(rng.in_cube(5)), T(rng.log_uniform(0.2, 3))};
  }
  template <Real T>
  static RayHit<T> kernel(const Sphere<T>& s, const Ray<T>& r) { return ray_vs_sphere(s, r); }
  template <Real T>
  static LineSpan span(const Sphere<T>& s, const Rayd& r) { return line_vs_sphere(to_double(s.center), s.radius, r); }
  template <Real T>
  static double sdf(const Sphere<T>& s, Vec3d p) { return distance(p, to_double(s.center)) - s.radius; }
  template <Real T>
  static NormalSet normals(const Sphere<T>& s, Vec3d p, double) {
    NormalSet set;
    set.add(normalize(p - to_double(s.center)));
    return set;
  }
  template <Real T>
  static Vec3d center(const Sphere<T>& s) { return to_double(s.center); }
  template <Real T>
  static double size(const Sphere<T>& s) { return s.radius; }
  template <Real T>
  static double curvature(const Sphere<T>& s) { return s.radius; }
};

/// The kernel and the reference both give the hand-worked hit.
template <Real T>
::testing::AssertionResult Hits(const Sphere<T>& s, const Ray<T>& r, const Expected& e) {
  if (auto k = IsHit(ray_vs_sphere(s, r), r, e, Tolerance<T>::hand); !k) return k << " [kernel]";
  const RayHitd ref = solid_hit(SphereTraits::span(s, to_double(r)), to_double(r));
  if (auto k = IsHit(ref, to_double(r), e, Tolerance<T>::hand); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <Real T>
::testing::AssertionResult Misses(const Sphere<T>& s, const Ray<T>& r) {
  if (auto k = IsMiss(ray_vs_sphere(s, r)); !k) return k << " [kernel]";
  if (auto k = IsMiss(solid_hit(SphereTraits::span(s, to_double(r)), to_double(r))); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <class T>
class RaySphere : public ::testing::Test {};
TYPED_TEST_SUITE(RaySphere, Reals, RealNames);

TYPED_TEST(RaySphere, HitsTheNearSurfaceFromOutside) {
  using T = TypeParam;
  const Sphere<T> s{{0, 0, 0}, 1};
  EXPECT_TRUE(Hits(s, Ray<T>{{0, 0, -5}, {0, 0, 1}}, {.t = 4, .normal = {0, 0, -1}, .t_exit = 6}));
  EXPECT_TRUE(Hits(s, Ray<T>{{3, -4, 0}, {-3, 4, 0}}, {.t = 0.8, .normal = {0.6, -0.8, 0}, .t_exit = 1.2}));
}

TYPED_TEST(RaySphere, OffCentreHitHasTheRadialNormal) {
  using T = TypeParam;
  // x = 0.6 meets the unit sphere at z = -0.8.
  const Sphere<T> s{{1, 2, 3}, 1};
  EXPECT_TRUE(Hits(s, Ray<T>{{T(1.6), 2, -2}, {0, 0, 1}}, {.t = 4.2, .normal = {0.6, 0, -0.8}, .t_exit = 5.8}));
}

TYPED_TEST(RaySphere, PassingBesideMisses) {
  using T = TypeParam;
  const Sphere<T> s{{0, 0, 0}, 1};
  EXPECT_TRUE(Misses(s, Ray<T>{{2, 0, -5}, {0, 0, 1}}));
  EXPECT_TRUE(Misses(s, Ray<T>{{T(1.0001), 0, -5}, {0, 0, 1}}));
  EXPECT_TRUE(Misses(s, Ray<T>{{0, 5, -5}, {0, 0, 1}}));
}

TYPED_TEST(RaySphere, TangentRayHitsAtOnePoint) {
  using T = TypeParam;
  const Sphere<T> s{{0, 0, 0}, 1};
  EXPECT_TRUE(Hits(s, Ray<T>{{1, 0, -5}, {0, 0, 1}}, {.t = 5, .normal = {1, 0, 0}, .t_exit = 5}));
  EXPECT_TRUE(Hits(s, Ray<T>{{-4, 1, 0}, {2, 0, 0}}, {.t = 2, .normal = {0, 1, 0}, .t_exit = 2}));
}

TYPED_TEST(RaySphere, StartingInsideHitsAtTminWithTheExit) {
  using T = TypeParam;
  const Sphere<T> s{{0, 0, 0}, 1};
  EXPECT_TRUE(Hits(s, Ray<T>{{0, 0, 0}, {0, 0, 2}}, {.t = 0, .normal = {0, 0, -1}, .t_exit = 0.5, .flags = kHitStartedInside}));
  EXPECT_TRUE(Hits(s, Ray<T>{{0, T(0.5), 0}, {0, -1, 0}}, {.t = 0, .normal = {0, 1, 0}, .t_exit = 1.5, .flags = kHitStartedInside}));
  // The origin is outside but origin + tmin dir is inside.
  EXPECT_TRUE(Hits(s, Ray<T>{{0, 0, -5}, {0, 0, 1}, T(4.5)}, {.t = 4.5, .normal = {0, 0, -1}, .t_exit = 6, .flags = kHitStartedInside}));
  // tmin inside and tmax before the exit: still a hit at tmin, t_exit beyond tmax.
  EXPECT_TRUE(Hits(s, Ray<T>{{0, 0, -5}, {0, 0, 1}, T(4.5), T(5)}, {.t = 4.5, .normal = {0, 0, -1}, .t_exit = 6, .flags = kHitStartedInside}));
}

TYPED_TEST(RaySphere, SphereBehindTheRayIsMissed) {
  using T = TypeParam;
  const Sphere<T> s{{0, 0, 0}, 1};
  EXPECT_TRUE(Misses(s, Ray<T>{{0, 0, 5}, {0, 0, 1}}));
  EXPECT_TRUE(Misses(s, Ray<T>{{T(0.5), 0, 3}, {0, 0, 7}}));
}

TYPED_TEST(RaySphere, NegativeTminReachesBehindTheOrigin) {
  using T = TypeParam;
  // [tmin, tmax] = [-10, inf): the sphere behind the origin is on the ray.
  const Sphere<T> s{{0, 0, 0}, 1};
  EXPECT_TRUE(Hits(s, Ray<T>{{0, 0, 5}, {0, 0, 1}, -10}, {.t = -6, .normal = {0, 0, -1}, .t_exit = -4}));
}

TYPED_TEST(RaySphere, HitBeyondTmaxIsMissedAndTmaxIsInclusive) {
  using T = TypeParam;
  const Sphere<T> s{{0, 0, 0}, 1};
  EXPECT_TRUE(Misses(s, Ray<T>{{0, 0, -5}, {0, 0, 1}, 0, T(3.9)}));
  EXPECT_TRUE(Hits(s, Ray<T>{{0, 0, -5}, {0, 0, 1}, 0, 4}, {.t = 4, .normal = {0, 0, -1}, .t_exit = 6}));
  EXPECT_TRUE(Hits(s, Ray<T>{{0, 0, -5}, {0, 0, 1}, 1, 4}, {.t = 4, .normal = {0, 0, -1}, .t_exit = 6}));
}

TYPED_TEST(RaySphere, TminPastTheSphereMisses) {
  using T = TypeParam;
  const Sphere<T> s{{0, 0, 0}, 1};
  EXPECT_TRUE(Misses(s, Ray<T>{{0, 0, -5}, {0, 0, 1}, T(6.5)}));
  EXPECT_TRUE(Misses(s, Ray<T>{{0, 0, -5}, {0, 0, 1}, T(6.5), T(100)}));
}

TYPED_TEST(RaySphere, NonUnitDirectionMeasuresTInUnitsOfDir) {
  using T = TypeParam;
  const Sphere<T> s{{0, 0, 0}, 1};
  EXPECT_TRUE(Hits(s, Ray<T>{{0, 0, -5}, {0, 0, 4}}, {.t = 1, .normal = {0, 0, -1}, .t_exit = 1.5}));
  EXPECT_TRUE(Hits(s, Ray<T>{{0, 0, -5}, {0, 0, T(0.25)}}, {.t = 16, .normal = {0, 0, -1}, .t_exit = 24}));
  EXPECT_TRUE(Misses(s, Ray<T>{{0, 0, -5}, {0, 0, 4}, 0, T(0.99)}));
}

TYPED_TEST(RaySphere, DegenerateRadiusMisses) {
  using T = TypeParam;
  const Ray<T> through_centre{{0, 0, -5}, {0, 0, 1}};
  for (T r : {T(0), -T(0), T(-1), std::numeric_limits<T>::quiet_NaN(), -kInfinity<T>})
    EXPECT_TRUE(IsMiss(ray_vs_sphere(Sphere<T>{{0, 0, 0}, r}, through_centre))) << "radius " << r;
  EXPECT_TRUE(IsMiss(ray_vs_sphere(Sphere<T>{{std::numeric_limits<T>::quiet_NaN(), 0, 0}, 1}, through_centre)));
}

TYPED_TEST(RaySphere, InvalidRaysMiss) {
  using T = TypeParam;
  const Sphere<T> s{{0, 0, 0}, 1};
  expect_invalid_rays_miss<T>([&](const Ray<T>& r) { return ray_vs_sphere(s, r); }, Ray<T>{{0, 0, -5}, {0, 0, 1}});
  expect_invalid_rays_miss<T>([&](const Ray<T>& r) { return ray_vs_sphere(s, r); }, Ray<T>{{0, 0, 0}, {1, 2, 3}});
}

TYPED_TEST(RaySphere, ExtremeFiniteRaysNeverYieldNaN) {
  using T = TypeParam;
  const Sphere<T> s{{0, 0, 0}, 1};
  expect_extreme_rays_nan_free<T>([&](const Ray<T>& r) { return ray_vs_sphere(s, r); }, Ray<T>{{0, 0, -5}, {0, 0, 1}});
  expect_extreme_rays_nan_free<T>([&](const Ray<T>& r) { return ray_vs_sphere(s, r); }, Ray<T>{{0, 0, 0}, {1, 2, 3}});
}

TYPED_TEST(RaySphere, DistantSmallSphereBesideTheRayIsMissed) {
  using T = TypeParam;
  // |oc|^2 - r^2 = 1e6 + 1.44e-6 - 1e-6 rounds to b^2 in float, so the textbook discriminant
  // says "tangent"; the ray passes 1.2e-3 from the centre of a sphere of radius 1e-3.
  const Sphere<T> s{{T(0.0012), 0, 1000}, T(0.001)};
  EXPECT_TRUE(Misses(s, Ray<T>{{0, 0, 0}, {0, 0, 1}}));
}

TYPED_TEST(RaySphere, DistantSmallSphereOnTheRayIsHitAccurately) {
  using T = TypeParam;
  // Passing 6e-4 from the centre: half chord sqrt(1e-6 - 3.6e-7) = 8e-4.
  const Sphere<T> s{{T(0.0006), 0, 1000}, T(0.001)};
  const RayHit<T> h = ray_vs_sphere(s, Ray<T>{{0, 0, 0}, {0, 0, 1}});
  ASSERT_TRUE(h.hit);
  EXPECT_NEAR(h.t, 1000 - 8e-4, 2e-4);
  EXPECT_NEAR(h.t_exit, 1000 + 8e-4, 2e-4);
  // The normal inherits the float rounding of a point 1000 units away (ulp 6e-5 on a radius of 1e-3).
  EXPECT_NEAR(h.normal.x, -0.6, 0.15);
  EXPECT_NEAR(h.normal.z, -0.8, 0.15);
}

TYPED_TEST(RaySphere, RandomRaysMatchTheGeometricReference) {
  run_solid_differential<TypeParam, SphereTraits>(0x5badu, 100000).finish();
}

}  // namespace
}  // namespace hitscan
