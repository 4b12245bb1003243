#include "hitscan/geometry/ray_cylinder.hpp"

#include <gtest/gtest.h>

#include "geometry/reference_shapes.hpp"

namespace hitscan {
namespace {

using namespace reference;

struct CylinderTraits {
  static constexpr const char* name = "ray_vs_cylinder";
  /// Random axes, 15% of them along a world axis (so that rays can be exactly parallel).
  template <Real T>
  static Cylinder<T> random_shape(Rng& rng) {
    const Vec3d a = rng.in_cube(5);
    Vec3d axis = rng.unit_vector();
    if (rng.chance(0.15)) axis = with_component(Vec3d{}, int(rng.uniform(0, 3)) % 3, rng.chance(0.5) ? 1.0 : -1.0);
    return {from_double<T>(a), from_double<T>(a + axis * rng.uniform(0.05, 4)), T(rng.log_uniform(0.1, 2))};
  }
  template <Real T>
  static RayHit<T> kernel(const Cylinder<T>& c, const Ray<T>& r) { return ray_vs_cylinder(c, r); }
  template <Real T>
  static Cylinder<double> to_d(const Cylinder<T>& c) { return {to_double(c.a), to_double(c.b), double(c.radius)}; }
  template <Real T>
  static LineSpan span(const Cylinder<T>& c, const Rayd& r) { return line_vs_cylinder_parts(to_d(c), r); }
  template <Real T>
  static double sdf(const Cylinder<T>& c, Vec3d p) { return cylinder_sdf(to_d(c), p); }
  template <Real T>
  static NormalSet normals(const Cylinder<T>& c, Vec3d p, double delta) { return cylinder_normals(to_d(c), p, delta); }
  template <Real T>
  static Vec3d center(const Cylinder<T>& c) { return (to_double(c.a) + to_double(c.b)) * 0.5; }
  template <Real T>
  static double size(const Cylinder<T>& c) { return std::hypot(distance(to_double(c.a), to_double(c.b)) / 2, double(c.radius)); }
  template <Real T>
  static double curvature(const Cylinder<T>& c) { return c.radius; }
  /// Some rays along the axis (exactly parallel when the axis is a world axis).
  template <Real T>
  static void adjust_ray(const Cylinder<T>& c, Ray<T>& ray, Rng& rng) {
    if (rng.chance(0.08)) ray.dir = (c.b - c.a) * T(rng.chance(0.5) ? 1 : -1) * T(rng.log_uniform(0.1, 4));
  }
};

template <Real T>
::testing::AssertionResult Hits(const Cylinder<T>& c, const Ray<T>& r, const Expected& e) {
  if (auto k = IsHit(ray_vs_cylinder(c, r), r, e, Tolerance<T>::hand); !k) return k << " [kernel]";
  const RayHitd ref = solid_hit(CylinderTraits::span(c, to_double(r)), to_double(r));
  if (auto k = IsHit(ref, to_double(r), e, Tolerance<T>::hand); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <Real T>
::testing::AssertionResult Misses(const Cylinder<T>& c, const Ray<T>& r) {
  if (auto k = IsMiss(ray_vs_cylinder(c, r)); !k) return k << " [kernel]";
  if (auto k = IsMiss(solid_hit(CylinderTraits::span(c, to_double(r)), to_double(r))); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <class T>
class RayCylinder : public ::testing::Test {};
TYPED_TEST_SUITE(RayCylinder, Reals, RealNames);

// Axis from (0, 0, -1) to (0, 0, 1), radius 0.5.
template <Real T>
Cylinder<T> upright() {
  return {{0, 0, -1}, {0, 0, 1}, T(0.5)};
}

TYPED_TEST(RayCylinder, SideHitHasTheRadialNormal) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}}, {.t = 4.5, .normal = {1, 0, 0}, .t_exit = 5.5}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{3, 4, T(0.9)}, {-3, -4, 0}}, {.t = 0.9, .normal = {0.6, 0.8, 0}, .t_exit = 1.1}));
}

TYPED_TEST(RayCylinder, RayParallelToTheAxisEntersThroughACap) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{0, 0, 5}, {0, 0, -1}}, {.t = 4, .normal = {0, 0, 1}, .t_exit = 6}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{T(0.3), T(-0.2), 5}, {0, 0, -1}}, {.t = 4, .normal = {0, 0, 1}, .t_exit = 6}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{0, T(0.4), -3}, {0, 0, 4}}, {.t = 0.5, .normal = {0, 0, -1}, .t_exit = 1}));
  EXPECT_TRUE(Misses(upright<T>(), Ray<T>{{T(0.6), 0, 5}, {0, 0, -1}}));
  EXPECT_TRUE(Misses(upright<T>(), Ray<T>{{0, 0, 5}, {0, 0, 1}}));
}

TYPED_TEST(RayCylinder, RayGrazingTheRimAlongTheAxisHitsTheCap) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{T(0.5), 0, 5}, {0, 0, -1}}, {.t = 4, .normal = {0, 0, 1}, .t_exit = 6}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{0, T(-0.5), -5}, {0, 0, 1}}, {.t = 4, .normal = {0, 0, -1}, .t_exit = 6}));
}

TYPED_TEST(RayCylinder, RayTangentToTheSideTouchesAtOnePoint) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{5, T(0.5), 0}, {-1, 0, 0}}, {.t = 5, .normal = {0, 1, 0}, .t_exit = 5}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{T(-0.5), -5, T(0.25)}, {0, 2, 0}}, {.t = 2.5, .normal = {-1, 0, 0}, .t_exit = 2.5}));
  EXPECT_TRUE(Misses(upright<T>(), Ray<T>{{5, T(0.5001), 0}, {-1, 0, 0}}));
}

TYPED_TEST(RayCylinder, SideRayOutsideTheCapsMisses) {
  using T = TypeParam;
  EXPECT_TRUE(Misses(upright<T>(), Ray<T>{{5, 0, T(1.5)}, {-1, 0, 0}}));
  EXPECT_TRUE(Misses(upright<T>(), Ray<T>{{5, 0, T(-1.01)}, {-1, 0, 0}}));
  EXPECT_TRUE(Misses(upright<T>(), Ray<T>{{5, T(0.51), 0}, {-1, 0, 0}}));
}

TYPED_TEST(RayCylinder, ObliqueRaysThroughCapAndSide) {
  using T = TypeParam;
  // In through the top cap at (0.375, 0, 1), out through the side at (0.5, 0, -1/3).
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{0, 0, 5}, {T(0.09375), 0, -1}}, {.t = 4, .normal = {0, 0, 1}, .t_exit = 16.0 / 3}));
  // In through the side at (0.5, 0, 0.9375), out through the top cap at (0, 0, 1).
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{4, 0, T(0.5)}, {-1, 0, T(0.125)}}, {.t = 3.5, .normal = {1, 0, 0}, .t_exit = 4}));
}

TYPED_TEST(RayCylinder, StartingInsideHitsAtTminWithTheExit) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{0, 0, 0}, {2, 0, 0}}, {.t = 0, .normal = {-1, 0, 0}, .t_exit = 0.25, .flags = kHitStartedInside}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{0, 0, T(0.5)}, {0, 0, 1}}, {.t = 0, .normal = {0, 0, -1}, .t_exit = 0.5, .flags = kHitStartedInside}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{0, 0, 5}, {0, 0, -1}, 5, 6}, {.t = 5, .normal = {0, 0, 1}, .t_exit = 6, .flags = kHitStartedInside}));
}

TYPED_TEST(RayCylinder, TminTmaxAndDirectionLengthFollowTheRayConvention) {
  using T = TypeParam;
  EXPECT_TRUE(Misses(upright<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, 0, T(4.4)}));
  EXPECT_TRUE(Misses(upright<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, T(5.6)}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, 2, T(4.5)}, {.t = 4.5, .normal = {1, 0, 0}, .t_exit = 5.5}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{5, 0, 0}, {-4, 0, 0}}, {.t = 1.125, .normal = {1, 0, 0}, .t_exit = 1.375}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{0, 0, 5}, {0, 0, 1}, -8}, {.t = -6, .normal = {0, 0, -1}, .t_exit = -4}));
}

TYPED_TEST(RayCylinder, TiltedCylinder) {
  using T = TypeParam;
  // Axis from (0, 0, 0) to (3, 4, 0), radius 1.
  const Cylinder<T> c{{0, 0, 0}, {3, 4, 0}, 1};
  EXPECT_TRUE(Hits(c, Ray<T>{{T(1.5), 2, 10}, {0, 0, -1}}, {.t = 9, .normal = {0, 0, 1}, .t_exit = 11}));
  EXPECT_TRUE(Hits(c, Ray<T>{{-3, -4, 0}, {T(0.6), T(0.8), 0}}, {.t = 5, .normal = {-0.6, -0.8, 0}, .t_exit = 10}));
  EXPECT_TRUE(Hits(c, Ray<T>{{6, 8, T(0.5)}, {T(-0.6), T(-0.8), 0}}, {.t = 5, .normal = {0.6, 0.8, 0}, .t_exit = 10}));
  // Beyond the end cap plane of b: the capsule would be hit there, the cylinder is not.
  EXPECT_TRUE(Misses(c, Ray<T>{{T(3.3), T(4.4), 10}, {0, 0, -1}}));
}

TYPED_TEST(RayCylinder, DegenerateCylindersMiss) {
  using T = TypeParam;
  const Ray<T> through{{5, 0, 0}, {-1, 0, 0}};
  EXPECT_TRUE(IsMiss(ray_vs_cylinder(Cylinder<T>{{0, 0, 0}, {0, 0, 0}, 1}, through)));
  EXPECT_TRUE(IsMiss(ray_vs_cylinder(Cylinder<T>{{0, 0, 0}, {0, 0, 0}, 1}, Ray<T>{{0, 0, 5}, {0, 0, -1}})));
  for (T r : {T(0), -T(0), T(-1), std::numeric_limits<T>::quiet_NaN()})
    EXPECT_TRUE(IsMiss(ray_vs_cylinder(Cylinder<T>{{0, 0, -1}, {0, 0, 1}, r}, through))) << "radius " << r;
}

TYPED_TEST(RayCylinder, InvalidRaysMiss) {
  using T = TypeParam;
  expect_invalid_rays_miss<T>([](const Ray<T>& r) { return ray_vs_cylinder(upright<T>(), r); }, Ray<T>{{5, 0, 0}, {-1, 0, 0}});
  expect_invalid_rays_miss<T>([](const Ray<T>& r) { return ray_vs_cylinder(upright<T>(), r); }, Ray<T>{{0, 0, 5}, {0, 0, -1}});
}

TYPED_TEST(RayCylinder, ExtremeFiniteRaysNeverYieldNaN) {
  using T = TypeParam;
  expect_extreme_rays_nan_free<T>([](const Ray<T>& r) { return ray_vs_cylinder(upright<T>(), r); }, Ray<T>{{5, 0, 0}, {-1, 0, 0}});
  expect_extreme_rays_nan_free<T>([](const Ray<T>& r) { return ray_vs_cylinder(upright<T>(), r); }, Ray<T>{{0, 0, 5}, {0, 0, -1}});
  expect_extreme_rays_nan_free<T>([](const Ray<T>& r) { return ray_vs_cylinder(upright<T>(), r); }, Ray<T>{{0, 0, 0}, {1, 2, 3}});
}

TYPED_TEST(RayCylinder, RandomRaysMatchSideAndDiscs) {
  run_solid_differential<TypeParam, CylinderTraits>(0xc1du, 100000).finish();
}

}  // namespace
}  // namespace hitscan
