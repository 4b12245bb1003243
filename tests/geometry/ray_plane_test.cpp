#include "hitscan/geometry/ray_plane.hpp"

#include <gtest/gtest.h>

#include "geometry/reference_shapes.hpp"

namespace hitscan {
namespace {

using namespace reference;

struct PlaneTraits {
  static constexpr const char* name = "ray_vs_plane";
  template <Real T>
  static Plane<T> random_shape(Rng& rng) {
    const Vec3<T> n = normalize(from_double<T>(rng.unit_vector()));
    return {n, dot(n, from_double<T>(rng.in_cube(5)))};
  }
  template <Real T>
  static RayHit<T> kernel(const Plane<T>& p, const Ray<T>& r) { return ray_vs_plane(p, r); }
  template <Real T>
  static PlaneCrossing crossing(const Plane<T>& p, const Rayd& r) { return cross_plane(to_double(p.normal), p.offset, r); }
  /// The plane's point nearest the origin of the world, where the rays are aimed.
  template <Real T>
  static Vec3d center(const Plane<T>& p) { return to_double(p.normal) * double(p.offset); }
  template <Real T>
  static double size(const Plane<T>&) { return 2; }
  template <Real T>
  static Vec3d barycentric_point(const Plane<T>&, double, double) { return {std::nan(""), 0, 0}; }
};

struct DiscTraits {
  static constexpr const char* name = "ray_vs_disc";
  template <Real T>
  static Disc<T> random_shape(Rng& rng) {
    return {from_double<T>(rng.in_cube(5)), normalize(from_double<T>(rng.unit_vector())), T(rng.log_uniform(0.2, 3))};
  }
  template <Real T>
  static RayHit<T> kernel(const Disc<T>& d, const Ray<T>& r) { return ray_vs_disc(d, r); }
  template <Real T>
  static PlaneCrossing crossing(const Disc<T>& d, const Rayd& r) {
    return cross_disc({to_double(d.center), to_double(d.normal), double(d.radius)}, r);
  }
  template <Real T>
  static Vec3d center(const Disc<T>& d) { return to_double(d.center); }
  template <Real T>
  static double size(const Disc<T>& d) { return d.radius; }
  template <Real T>
  static Vec3d barycentric_point(const Disc<T>&, double, double) { return {std::nan(""), 0, 0}; }
};

template <Real T, class Shape, class Traits>
::testing::AssertionResult HitsWith(const Shape& shape, const Ray<T>& r, const Expected& e) {
  if (auto k = IsHit(Traits::kernel(shape, r), r, e, Tolerance<T>::hand); !k) return k << " [kernel]";
  const RayHitd ref = surface_hit(Traits::crossing(shape, to_double(r)), to_double(r));
  if (auto k = IsHit(ref, to_double(r), e, Tolerance<T>::hand); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <Real T, class Shape, class Traits>
::testing::AssertionResult MissesWith(const Shape& shape, const Ray<T>& r) {
  if (auto k = IsMiss(Traits::kernel(shape, r)); !k) return k << " [kernel]";
  if (auto k = IsMiss(surface_hit(Traits::crossing(shape, to_double(r)), to_double(r))); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <Real T>
::testing::AssertionResult Hits(const Plane<T>& p, const Ray<T>& r, const Expected& e) { return HitsWith<T, Plane<T>, PlaneTraits>(p, r, e); }
template <Real T>
::testing::AssertionResult Misses(const Plane<T>& p, const Ray<T>& r) { return MissesWith<T, Plane<T>, PlaneTraits>(p, r); }
template <Real T>
::testing::AssertionResult Hits(const Disc<T>& d, const Ray<T>& r, const Expected& e) { return HitsWith<T, Disc<T>, DiscTraits>(d, r, e); }
template <Real T>
::testing::AssertionResult Misses(const Disc<T>& d, const Ray<T>& r) { return MissesWith<T, Disc<T>, DiscTraits>(d, r); }

template <class T>
class RayPlane : public ::testing::Test {};
TYPED_TEST_SUITE(RayPlane, Reals, RealNames);

// The plane z = 2, facing +z.
template <Real T>
Plane<T> z_two() {
  return {{0, 0, 1}, 2};
}

TYPED_TEST(RayPlane, FrontCrossingHasThePlaneNormal) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(z_two<T>(), Ray<T>{{1, 1, 5}, {0, 0, -1}}, {.t = 3, .normal = {0, 0, 1}}));
  // Oblique, non-unit direction: t in units of dir.
  EXPECT_TRUE(Hits(z_two<T>(), Ray<T>{{0, 0, 5}, {3, 0, -6}}, {.t = 0.5, .normal = {0, 0, 1}}));
}

TYPED_TEST(RayPlane, CrossingFromBehindIsABackFaceWithTheUnflippedNormal) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(z_two<T>(), Ray<T>{{1, 1, 0}, {0, 0, 1}}, {.t = 2, .normal = {0, 0, 1}, .flags = kHitBackFace}));
  EXPECT_TRUE(Hits(z_two<T>(), Ray<T>{{0, 0, -2}, {1, 1, 8}}, {.t = 0.5, .normal = {0, 0, 1}, .flags = kHitBackFace}));
}

TYPED_TEST(RayPlane, TiltedPlaneFromPointNormal) {
  using T = TypeParam;
  // The plane through (1, 0, 0) facing (1, 1, 0)/sqrt(2); the ray along -x from (5, 0, 0)
  // meets it at x = 1 after 4 units, arriving on the front.
  const Plane<T> p = Plane<T>::from_point_normal({1, 0, 0}, {1, 1, 0});
  const double s = std::sqrt(0.5);
  EXPECT_TRUE(Hits(p, Ray<T>{{5, 0, 0}, {-1, 0, 0}}, {.t = 4, .normal = {s, s, 0}}));
}

TYPED_TEST(RayPlane, PlaneBehindTheRayIsMissed) {
  using T = TypeParam;
  EXPECT_TRUE(Misses(z_two<T>(), Ray<T>{{0, 0, 5}, {0, 0, 1}}));
  EXPECT_TRUE(Misses(z_two<T>(), Ray<T>{{0, 0, 0}, {0, 1, -1}}));
}

TYPED_TEST(RayPlane, ParallelRayMissesAlsoInsideThePlane) {
  using T = TypeParam;
  EXPECT_TRUE(Misses(z_two<T>(), Ray<T>{{0, 0, 5}, {1, 0, 0}}));
  EXPECT_TRUE(Misses(z_two<T>(), Ray<T>{{0, 0, 2}, {1, 2, 0}}));
  EXPECT_TRUE(Misses(z_two<T>(), Ray<T>{{0, 0, 2}, {1, 2, -T(0)}}));
}

TYPED_TEST(RayPlane, CrossingIsKeptOnlyWithinTminTmax) {
  using T = TypeParam;
  EXPECT_TRUE(Misses(z_two<T>(), Ray<T>{{1, 1, 5}, {0, 0, -1}, 0, T(2.5)}));
  EXPECT_TRUE(Misses(z_two<T>(), Ray<T>{{1, 1, 5}, {0, 0, -1}, T(3.5)}));
  EXPECT_TRUE(Hits(z_two<T>(), Ray<T>{{1, 1, 5}, {0, 0, -1}, 1, 3}, {.t = 3, .normal = {0, 0, 1}}));
  EXPECT_TRUE(Hits(z_two<T>(), Ray<T>{{1, 1, 5}, {0, 0, -1}, 3, 3}, {.t = 3, .normal = {0, 0, 1}}));
  // Negative tmin: the plane behind the origin is on the ray.
  EXPECT_TRUE(Hits(z_two<T>(), Ray<T>{{0, 0, 5}, {0, 0, 1}, -4}, {.t = -3, .normal = {0, 0, 1}, .flags = kHitBackFace}));
  // An origin on the plane crosses it at t = 0.
  EXPECT_TRUE(Hits(z_two<T>(), Ray<T>{{7, 1, 2}, {0, 0, -1}}, {.t = 0, .normal = {0, 0, 1}}));
}

TYPED_TEST(RayPlane, ZeroOrNonFiniteNormalMisses) {
  using T = TypeParam;
  const Ray<T> down{{0, 0, 5}, {0, 0, -1}};
  const T nan = std::numeric_limits<T>::quiet_NaN();
  EXPECT_TRUE(IsMiss(ray_vs_plane(Plane<T>{{0, 0, 0}, 2}, down)));
  EXPECT_TRUE(IsMiss(ray_vs_plane(Plane<T>{{0, 0, nan}, 2}, down)));
  EXPECT_TRUE(IsMiss(ray_vs_plane(Plane<T>{{0, kInfinity<T>, 1}, 2}, down)));
}

TYPED_TEST(RayPlane, InvalidRaysMiss) {
  using T = TypeParam;
  const Plane<T> p = z_two<T>();
  expect_invalid_rays_miss<T>([&](const Ray<T>& r) { return ray_vs_plane(p, r); }, Ray<T>{{0, 0, 5}, {0, 0, -1}});
  expect_invalid_rays_miss<T>([&](const Ray<T>& r) { return ray_vs_plane(p, r); }, Ray<T>{{0, 0, 0}, {1, -2, 3}});
}

TYPED_TEST(RayPlane, ExtremeFiniteRaysNeverYieldNaN) {
  using T = TypeParam;
  const Plane<T> p = z_two<T>();
  expect_extreme_rays_nan_free<T>([&](const Ray<T>& r) { return ray_vs_plane(p, r); }, Ray<T>{{0, 0, 5}, {0, 0, -1}});
  expect_extreme_rays_nan_free<T>([&](const Ray<T>& r) { return ray_vs_plane(p, r); }, Ray<T>{{0, 0, 0}, {1, -2, 3}});
}

TYPED_TEST(RayPlane, RandomRaysMatchTheReference) {
  run_surface_differential<TypeParam, PlaneTraits>(0x91a7eu, 100000).finish();
}

template <class T>
class RayDisc : public ::testing::Test {};
TYPED_TEST_SUITE(RayDisc, Reals, RealNames);

// Radius 2 around (1, 2, 3), facing +z.
template <Real T>
Disc<T> disc() {
  return {{1, 2, 3}, {0, 0, 1}, 2};
}

TYPED_TEST(RayDisc, HitsInsideTheRadius) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(disc<T>(), Ray<T>{{1, 2, 10}, {0, 0, -1}}, {.t = 7, .normal = {0, 0, 1}}));
  EXPECT_TRUE(Hits(disc<T>(), Ray<T>{{T(2.5), 2, 10}, {0, 0, -2}}, {.t = 3.5, .normal = {0, 0, 1}}));
  EXPECT_TRUE(Hits(disc<T>(), Ray<T>{{1, T(0.5), 0}, {0, 0, 1}}, {.t = 3, .normal = {0, 0, 1}, .flags = kHitBackFace}));
}

TYPED_TEST(RayDisc, RimIsIncludedAndJustOutsideMisses) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(disc<T>(), Ray<T>{{3, 2, 10}, {0, 0, -1}}, {.t = 7, .normal = {0, 0, 1}}));
  EXPECT_TRUE(Hits(disc<T>(), Ray<T>{{1, 0, 10}, {0, 0, -1}}, {.t = 7, .normal = {0, 0, 1}}));
  EXPECT_TRUE(Misses(disc<T>(), Ray<T>{{T(3.001), 2, 10}, {0, 0, -1}}));
  // (1 + 1.5, 2 + 1.5) is 2.12 from the centre: inside the bounding square, outside the disc.
  EXPECT_TRUE(Misses(disc<T>(), Ray<T>{{T(2.5), T(3.5), 10}, {0, 0, -1}}));
}

TYPED_TEST(RayDisc, TiltedDiscHitsAtItsRim) {
  using T = TypeParam;
  // Facing +x at the origin, radius 5: the ray along -x at (y, z) = (3, 4) touches the rim.
  const Disc<T> d{{0, 0, 0}, {1, 0, 0}, 5};
  EXPECT_TRUE(Hits(d, Ray<T>{{4, 3, 4}, {-2, 0, 0}}, {.t = 2, .normal = {1, 0, 0}}));
  EXPECT_TRUE(Hits(d, Ray<T>{{-4, -3, -4}, {2, 0, 0}}, {.t = 2, .normal = {1, 0, 0}, .flags = kHitBackFace}));
  EXPECT_TRUE(Misses(d, Ray<T>{{4, T(3.01), 4}, {-2, 0, 0}}));
}

TYPED_TEST(RayDisc, ParallelBehindAndOutOfRangeMiss) {
  using T = TypeParam;
  EXPECT_TRUE(Misses(disc<T>(), Ray<T>{{-5, 2, 3}, {1, 0, 0}}));
  EXPECT_TRUE(Misses(disc<T>(), Ray<T>{{1, 2, 10}, {0, 0, 1}}));
  EXPECT_TRUE(Misses(disc<T>(), Ray<T>{{1, 2, 10}, {0, 0, -1}, 0, T(6.9)}));
  EXPECT_TRUE(Misses(disc<T>(), Ray<T>{{1, 2, 10}, {0, 0, -1}, T(7.1)}));
  EXPECT_TRUE(Hits(disc<T>(), Ray<T>{{1, 2, 10}, {0, 0, -1}, 2, 7}, {.t = 7, .normal = {0, 0, 1}}));
}

TYPED_TEST(RayDisc, DegenerateRadiusOrNormalMisses) {
  using T = TypeParam;
  const Ray<T> through_centre{{1, 2, 10}, {0, 0, -1}};
  for (T r : {T(0), -T(0), T(-1), std::numeric_limits<T>::quiet_NaN()})
    EXPECT_TRUE(IsMiss(ray_vs_disc(Disc<T>{{1, 2, 3}, {0, 0, 1}, r}, through_centre))) << "radius " << r;
  EXPECT_TRUE(IsMiss(ray_vs_disc(Disc<T>{{1, 2, 3}, {0, 0, 0}, 2}, through_centre)));
  EXPECT_TRUE(IsMiss(ray_vs_disc(Disc<T>{{1, 2, 3}, {std::numeric_limits<T>::quiet_NaN(), 0, 1}, 2}, through_centre)));
}

TYPED_TEST(RayDisc, InvalidRaysMiss) {
  using T = TypeParam;
  const Disc<T> d = disc<T>();
  expect_invalid_rays_miss<T>([&](const Ray<T>& r) { return ray_vs_disc(d, r); }, Ray<T>{{1, 2, 10}, {0, 0, -1}});
}

TYPED_TEST(RayDisc, ExtremeFiniteRaysNeverYieldNaN) {
  using T = TypeParam;
  const Disc<T> d = disc<T>();
  expect_extreme_rays_nan_free<T>([&](const Ray<T>& r) { return ray_vs_disc(d, r); }, Ray<T>{{1, 2, 10}, {0, 0, -1}});
}

TYPED_TEST(RayDisc, RandomRaysMatchTheReference) {
  run_surface_differential<TypeParam, DiscTraits>(0xd15cu, 100000).finish();
}

}  // namespace
}  // namespace hitscan
