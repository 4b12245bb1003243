#include "hitscan/geometry/ray_capsule.hpp"

#include <gtest/gtest.h>

#include "geometry/reference_shapes.hpp"

namespace hitscan {
namespace {

using namespace reference;

struct CapsuleTraits {
  static constexpr const char* name = "ray_vs_capsule";
  /// Random segments, 2% of them a single point (a sphere).
  template <Real T>
  static Capsule<T> random_shape(Rng& rng) {
    const Vec3d a = rng.in_cube(5);
    const Vec3d b = rng.chance(0.02) ? a : a + rng.unit_vector() * rng.uniform(0.05, 4);
    return {from_double<T>(a), from_double<T>(b), T(rng.log_uniform(0.1, 2))};
  }
  template <Real T>
  static RayHit<T> kernel(const Capsule<T>& c, const Ray<T>& r) { return ray_vs_capsule(c, r); }
  template <Real T>
  static Capsule<double> to_d(const Capsule<T>& c) { return {to_double(c.a), to_double(c.b), double(c.radius)}; }
  template <Real T>
  static LineSpan span(const Capsule<T>& c, const Rayd& r) { return line_vs_capsule_parts(to_d(c), r); }
  template <Real T>
  static double sdf(const Capsule<T>& c, Vec3d p) {
    const Capsule<double> d = to_d(c);
    return distance(p, closest_on_segment(d.a, d.b, p)) - d.radius;
  }
  template <Real T>
  static NormalSet normals(const Capsule<T>& c, Vec3d p, double) {
    const Capsule<double> d = to_d(c);
    NormalSet set;
    set.add(normalize(p - closest_on_segment(d.a, d.b, p)));
    return set;
  }
  template <Real T>
  static Vec3d center(const Capsule<T>& c) { return (to_double(c.a) + to_double(c.b)) * 0.5; }
  template <Real T>
  static double size(const Capsule<T>& c) { return distance(to_double(c.a), to_double(c.b)) / 2 + c.radius; }
  template <Real T>
  static double curvature(const Capsule<T>& c) { return c.radius; }
  /// Some rays along the axis (exactly parallel when the axis is).
  template <Real T>
  static void adjust_ray(const Capsule<T>& c, Ray<T>& ray, Rng& rng) {
    if (c.a != c.b && rng.chance(0.08)) ray.dir = (c.b - c.a) * T(rng.chance(0.5) ? 1 : -1) * T(rng.log_uniform(0.1, 4));
  }
};

template <Real T>
::testing::AssertionResult Hits(const Capsule<T>& c, const Ray<T>& r, const Expected& e) {
  if (auto k = IsHit(ray_vs_capsule(c, r), r, e, Tolerance<T>::hand); !k) return k << " [kernel]";
  const RayHitd ref = solid_hit(CapsuleTraits::span(c, to_double(r)), to_double(r));
  if (auto k = IsHit(ref, to_double(r), e, Tolerance<T>::hand); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <Real T>
::testing::AssertionResult Misses(const Capsule<T>& c, const Ray<T>& r) {
  if (auto k = IsMiss(ray_vs_capsule(c, r)); !k) return k << " [kernel]";
  if (auto k = IsMiss(solid_hit(CapsuleTraits::span(c, to_double(r)), to_double(r))); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <class T>
class RayCapsule : public ::testing::Test {};
TYPED_TEST_SUITE(RayCapsule, Reals, RealNames);

// Axis from (0, 0, -1) to (0, 0, 1), radius 0.5: the caps reach z = +-1.5.
template <Real T>
Capsule<T> upright() {
  return {{0, 0, -1}, {0, 0, 1}, T(0.5)};
}

TYPED_TEST(RayCapsule, SideHitHasTheRadialNormal) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}}, {.t = 4.5, .normal = {1, 0, 0}, .t_exit = 5.5}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{0, -5, T(0.75)}, {0, 2, 0}}, {.t = 2.25, .normal = {0, -1, 0}, .t_exit = 2.75}));
  // Diagonal in the xy plane: meets the side at (0.3, 0.4, 0.2).
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{3, 4, T(0.2)}, {-3, -4, 0}}, {.t = 0.9, .normal = {0.6, 0.8, 0}, .t_exit = 1.1}));
}

TYPED_TEST(RayCapsule, RayAlongTheAxisIsDecidedByTheCaps) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{0, 0, 5}, {0, 0, -1}}, {.t = 3.5, .normal = {0, 0, 1}, .t_exit = 6.5}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{0, 0, -5}, {0, 0, 2}}, {.t = 1.75, .normal = {0, 0, -1}, .t_exit = 3.25}));
  // Parallel, 0.3 off the axis: the cap sphere at z = 1 + sqrt(0.25 - 0.09) = 1.4.
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{T(0.3), 0, 5}, {0, 0, -1}}, {.t = 3.6, .normal = {0.6, 0, 0.8}, .t_exit = 6.4}));
  EXPECT_TRUE(Misses(upright<T>(), Ray<T>{{T(0.6), 0, 5}, {0, 0, -1}}));
  EXPECT_TRUE(Misses(upright<T>(), Ray<T>{{0, 0, 5}, {0, 0, 1}}));
}

TYPED_TEST(RayCapsule, SeamBetweenSideAndCapIsHit) {
  using T = TypeParam;
  // At z = 1 the side and the top half-sphere meet; both give the normal (1, 0, 0).
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{5, 0, 1}, {-1, 0, 0}}, {.t = 4.5, .normal = {1, 0, 0}, .t_exit = 5.5}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{-5, 0, -1}, {1, 0, 0}}, {.t = 4.5, .normal = {-1, 0, 0}, .t_exit = 5.5}));
}

TYPED_TEST(RayCapsule, TangentRayTouchesAtOnePoint) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{5, T(0.5), 0}, {-1, 0, 0}}, {.t = 5, .normal = {0, 1, 0}, .t_exit = 5}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{5, 0, T(1.5)}, {-1, 0, 0}}, {.t = 5, .normal = {0, 0, 1}, .t_exit = 5}));
  EXPECT_TRUE(Misses(upright<T>(), Ray<T>{{5, T(0.5001), 0}, {-1, 0, 0}}));
}

TYPED_TEST(RayCapsule, SideHitJustShortOfTheSeamHasTheRadialNormal) {
  using T = TypeParam;
  // At z = 1 - 3e-4 the side is entered at t = 4.5; the top ball's surface is entered only
  // 9e-8 later (below float's resolution at 4.5), but that entry lies inside the side part.
  // The normal at the side point is (1, 0, 0); the ball's normal there would tilt by 6e-4 rad.
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{5, 0, T(0.9997)}, {-1, 0, 0}}, {.t = 4.5, .normal = {1, 0, 0}, .t_exit = 5.5}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{0, -5, T(-0.9997)}, {0, 1, 0}}, {.t = 4.5, .normal = {0, -1, 0}, .t_exit = 5.5}));
}

TYPED_TEST(RayCapsule, CapHitFromTheSide) {
  using T = TypeParam;
  // At z = 1.3 only the top half-sphere is there: x = sqrt(0.25 - 0.09) = 0.4.
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{5, 0, T(1.3)}, {-1, 0, 0}}, {.t = 4.6, .normal = {0.8, 0, 0.6}, .t_exit = 5.4}));
  EXPECT_TRUE(Misses(upright<T>(), Ray<T>{{5, 0, T(1.51)}, {-1, 0, 0}}));
}

TYPED_TEST(RayCapsule, StartingInsideHitsAtTminWithTheExit) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{0, 0, T(1.2)}, {0, 0, 1}}, {.t = 0, .normal = {0, 0, -1}, .t_exit = 0.3, .flags = kHitStartedInside}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{0, 0, 0}, {0, 4, 0}}, {.t = 0, .normal = {0, -1, 0}, .t_exit = 0.125, .flags = kHitStartedInside}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, 5, 5}, {.t = 5, .normal = {1, 0, 0}, .t_exit = 5.5, .flags = kHitStartedInside}));
}

TYPED_TEST(RayCapsule, TminTmaxAndDirectionLengthFollowTheRayConvention) {
  using T = TypeParam;
  EXPECT_TRUE(Misses(upright<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, 0, T(4.4)}));
  EXPECT_TRUE(Misses(upright<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, T(5.6)}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, 1, T(4.5)}, {.t = 4.5, .normal = {1, 0, 0}, .t_exit = 5.5}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{5, 0, 0}, {T(-0.5), 0, 0}}, {.t = 9, .normal = {1, 0, 0}, .t_exit = 11}));
  EXPECT_TRUE(Hits(upright<T>(), Ray<T>{{5, 0, 0}, {1, 0, 0}, -10}, {.t = -5.5, .normal = {-1, 0, 0}, .t_exit = -4.5}));
}

TYPED_TEST(RayCapsule, PointSegmentIsASphere) {
  using T = TypeParam;
  const Capsule<T> ball{{1, 2, 3}, {1, 2, 3}, 2};
  EXPECT_TRUE(Hits(ball, Ray<T>{{1, 2, 10}, {0, 0, -1}}, {.t = 5, .normal = {0, 0, 1}, .t_exit = 9}));
  EXPECT_TRUE(Hits(ball, Ray<T>{{T(2.2), 2, 10}, {0, 0, -1}}, {.t = 5.4, .normal = {0.6, 0, 0.8}, .t_exit = 8.6}));
  EXPECT_TRUE(Misses(ball, Ray<T>{{T(3.1), 2, 10}, {0, 0, -1}}));
}

TYPED_TEST(RayCapsule, TiltedCapsule) {
  using T = TypeParam;
  // Axis from (0, 0, 0) to (3, 4, 0), radius 1; the ray straight down over the middle of the axis
  // meets the side at z = 1, and the one along the axis meets the end cap at distance 1 before a.
  const Capsule<T> c{{0, 0, 0}, {3, 4, 0}, 1};
  EXPECT_TRUE(Hits(c, Ray<T>{{T(1.5), 2, 10}, {0, 0, -1}}, {.t = 9, .normal = {0, 0, 1}, .t_exit = 11}));
  EXPECT_TRUE(Hits(c, Ray<T>{{-3, -4, 0}, {T(0.6), T(0.8), 0}}, {.t = 4, .normal = {-0.6, -0.8, 0}, .t_exit = 11}));
  EXPECT_TRUE(Misses(c, Ray<T>{{T(1.5), 2, 10}, {0, 0, 1}}));
}

TYPED_TEST(RayCapsule, DegenerateRadiusMisses) {
  using T = TypeParam;
  const Ray<T> through{{5, 0, 0}, {-1, 0, 0}};
  for (T r : {T(0), -T(0), T(-1), std::numeric_limits<T>::quiet_NaN()})
    EXPECT_TRUE(IsMiss(ray_vs_capsule(Capsule<T>{{0, 0, -1}, {0, 0, 1}, r}, through))) << "radius " << r;
  EXPECT_TRUE(IsMiss(ray_vs_capsule(Capsule<T>{{0, 0, 0}, {0, 0, 0}, 0}, through)));
}

TYPED_TEST(RayCapsule, InvalidRaysMiss) {
  using T = TypeParam;
  expect_invalid_rays_miss<T>([](const Ray<T>& r) { return ray_vs_capsule(upright<T>(), r); }, Ray<T>{{5, 0, 0}, {-1, 0, 0}});
  expect_invalid_rays_miss<T>([](const Ray<T>& r) { return ray_vs_capsule(upright<T>(), r); }, Ray<T>{{0, 0, 5}, {0, 0, -1}});
}

TYPED_TEST(RayCapsule, ExtremeFiniteRaysNeverYieldNaN) {
  using T = TypeParam;
  expect_extreme_rays_nan_free<T>([](const Ray<T>& r) { return ray_vs_capsule(upright<T>(), r); }, Ray<T>{{5, 0, 0}, {-1, 0, 0}});
  expect_extreme_rays_nan_free<T>([](const Ray<T>& r) { return ray_vs_capsule(upright<T>(), r); }, Ray<T>{{0, 0, 5}, {0, 0, -1}});
  expect_extreme_rays_nan_free<T>([](const Ray<T>& r) { return ray_vs_capsule(upright<T>(), r); }, Ray<T>{{0, 0, 0}, {1, 2, 3}});
}

TYPED_TEST(RayCapsule, RandomRaysMatchSpheresAndSide) {
  run_solid_differential<TypeParam, CapsuleTraits>(0xca95u, 100000).finish();
}

}  // namespace
}  // namespace hitscan
