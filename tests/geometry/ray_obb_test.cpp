#include "hitscan/geometry/ray_obb.hpp"

#include <gtest/gtest.h>

#include "geometry/reference_shapes.hpp"

namespace hitscan {
namespace {

using namespace reference;

template <Real T>
Obb<double> obb_to_double(const Obb<T>& b) {
  return {to_double(b.center), to_double(b.half_extents),
          Mat3d::from_columns(to_double(b.rotation.col[0]), to_double(b.rotation.col[1]), to_double(b.rotation.col[2]))};
}

struct ObbTraits {
  static constexpr const char* name = "ray_vs_obb";
  /// Mostly random rotations; some axis permutations (exact), whose faces are parallel to rays
  /// with zero components.
  template <Real T>
  static Obb<T> random_shape(Rng& rng) {
    const Vec3<T> c = from_double<T>(rng.in_cube(5));
    const Vec3<T> h = from_double<T>({rng.uniform(0.1, 3), rng.uniform(0.1, 3), rng.uniform(0.1, 3)});
    if (rng.chance(0.1)) return {c, h, Mat3<T>::from_columns({0, 1, 0}, {0, 0, 1}, {1, 0, 0})};
    const Vec3d q = rng.in_cube(1);
    return Obb<T>::from_quat(c, h, Quat<T>::from_components(T(rng.uniform(-1, 1)), T(q.x), T(q.y), T(q.z)));
  }
  template <Real T>
  static RayHit<T> kernel(const Obb<T>& b, const Ray<T>& r) { return ray_vs_obb(b, r); }
  template <Real T>
  static LineSpan span(const Obb<T>& b, const Rayd& r) { return line_vs_obb_faces(obb_to_double(b), r); }
  template <Real T>
  static double sdf(const Obb<T>& b, Vec3d p) {
    return box_sdf(obb_local(obb_to_double(b), p), to_double(b.half_extents));
  }
  template <Real T>
  static NormalSet normals(const Obb<T>& b, Vec3d p, double delta) {
    const Obb<double> bd = obb_to_double(b);
    const Vec3d axes[3] = {normalize(bd.rotation.col[0]), normalize(bd.rotation.col[1]), normalize(bd.rotation.col[2])};
    return box_face_normals(obb_local(bd, p), bd.half_extents, delta, axes);
  }
  template <Real T>
  static Vec3d center(const Obb<T>& b) { return to_double(b.center); }
  template <Real T>
  static double size(const Obb<T>& b) { return length(to_double(b.half_extents)); }
  template <Real T>
  static double curvature(const Obb<T>&) { return kInf; }
};

template <Real T>
::testing::AssertionResult Hits(const Obb<T>& b, const Ray<T>& r, const Expected& e) {
  if (auto k = IsHit(ray_vs_obb(b, r), r, e, Tolerance<T>::hand); !k) return k << " [kernel]";
  const RayHitd ref = solid_hit(ObbTraits::span(b, to_double(r)), to_double(r));
  if (auto k = IsHit(ref, to_double(r), e, Tolerance<T>::hand); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <Real T>
::testing::AssertionResult Misses(const Obb<T>& b, const Ray<T>& r) {
  if (auto k = IsMiss(ray_vs_obb(b, r)); !k) return k << " [kernel]";
  if (auto k = IsMiss(solid_hit(ObbTraits::span(b, to_double(r)), to_double(r))); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <class T>
class RayObb : public ::testing::Test {};
TYPED_TEST_SUITE(RayObb, Reals, RealNames);

// Centre (1, 2, 3), half extents (1, 2, 0.5), turned a quarter about z: local x is world y, local
// y is world -x. In the world it spans x in [-1, 3], y in [1, 3], z in [2.5, 3.5].
template <Real T>
Obb<T> quarter_turned() {
  return {{1, 2, 3}, {1, 2, T(0.5)}, Mat3<T>::from_columns({0, 1, 0}, {-1, 0, 0}, {0, 0, 1})};
}

// The cube of half extent 1 at the origin, turned 45 degrees about z.
template <Real T>
Obb<T> diamond() {
  const T s = T(std::sqrt(0.5));
  return {{0, 0, 0}, {1, 1, 1}, Mat3<T>::from_columns({s, s, 0}, {-s, s, 0}, {0, 0, 1})};
}

TYPED_TEST(RayObb, FacesAreHitWithWorldNormals) {
  using T = TypeParam;
  const Obb<T> b = quarter_turned<T>();
  EXPECT_TRUE(Hits(b, Ray<T>{{10, 2, 3}, {-1, 0, 0}}, {.t = 7, .normal = {1, 0, 0}, .t_exit = 11}));
  EXPECT_TRUE(Hits(b, Ray<T>{{-5, 2, 3}, {1, 0, 0}}, {.t = 4, .normal = {-1, 0, 0}, .t_exit = 8}));
  EXPECT_TRUE(Hits(b, Ray<T>{{1, 10, 3}, {0, -1, 0}}, {.t = 7, .normal = {0, 1, 0}, .t_exit = 9}));
  EXPECT_TRUE(Hits(b, Ray<T>{{1, 2, 10}, {0, 0, -2}}, {.t = 3.25, .normal = {0, 0, 1}, .t_exit = 3.75}));
  const double s = std::sqrt(0.5);
  const T k = T(5 * std::sqrt(2.0));
  EXPECT_TRUE(Hits(diamond<T>(), Ray<T>{{5, 5, 0}, {-1, -1, 0}}, {.t = 5 - s, .normal = {s, s, 0}, .t_exit = 5 + s}));
  EXPECT_TRUE(Hits(diamond<T>(), Ray<T>{{k, -k, 0}, {-1, 1, 0}}, {.t = 5 * std::sqrt(2.0) - s, .normal = {s, -s, 0}, .t_exit = 5 * std::sqrt(2.0) + s}));
}

TYPED_TEST(RayObb, MissesBesideAndParallelToAFace) {
  using T = TypeParam;
  const Obb<T> b = quarter_turned<T>();
  EXPECT_TRUE(Misses(b, Ray<T>{{10, T(3.5), 3}, {-1, 0, 0}}));
  EXPECT_TRUE(Misses(b, Ray<T>{{10, 2, T(3.6)}, {-1, 0, 0}}));
  EXPECT_TRUE(Misses(b, Ray<T>{{10, 2, 3}, {1, 0, 0}}));
  // The diamond reaches |x| + |y| <= sqrt(2) ~ 1.414.
  EXPECT_TRUE(Misses(diamond<T>(), Ray<T>{{5, T(1.5), 0}, {-1, 0, 0}}));
  EXPECT_TRUE(Misses(diamond<T>(), Ray<T>{{0, 0, 5}, {1, 1, 0}}));
}

TYPED_TEST(RayObb, StartingInsideHitsAtTminWithTheExit) {
  using T = TypeParam;
  const Obb<T> b = quarter_turned<T>();
  // From the centre along (3, 4, 0): leaves through y = 3 at t = 0.25 (x = 3 only at 2/3).
  EXPECT_TRUE(Hits(b, Ray<T>{{1, 2, 3}, {3, 4, 0}}, {.t = 0, .normal = {-0.6, -0.8, 0}, .t_exit = 0.25, .flags = kHitStartedInside}));
  EXPECT_TRUE(Hits(b, Ray<T>{{10, 2, 3}, {-1, 0, 0}, 8, 9}, {.t = 8, .normal = {1, 0, 0}, .t_exit = 11, .flags = kHitStartedInside}));
}

TYPED_TEST(RayObb, TminTmaxAndDirectionLengthFollowTheRayConvention) {
  using T = TypeParam;
  const Obb<T> b = quarter_turned<T>();
  EXPECT_TRUE(Misses(b, Ray<T>{{10, 2, 3}, {-1, 0, 0}, 0, T(6.9)}));
  EXPECT_TRUE(Misses(b, Ray<T>{{10, 2, 3}, {-1, 0, 0}, T(11.1)}));
  EXPECT_TRUE(Hits(b, Ray<T>{{10, 2, 3}, {-1, 0, 0}, 3, 7}, {.t = 7, .normal = {1, 0, 0}, .t_exit = 11}));
  EXPECT_TRUE(Hits(b, Ray<T>{{10, 2, 3}, {-4, 0, 0}}, {.t = 1.75, .normal = {1, 0, 0}, .t_exit = 2.75}));
  EXPECT_TRUE(Hits(b, Ray<T>{{10, 2, 3}, {1, 0, 0}, -20}, {.t = -11, .normal = {-1, 0, 0}, .t_exit = -7}));
}

TYPED_TEST(RayObb, ZeroExtentIsAValidBoxNegativeOrNaNIsAMiss) {
  using T = TypeParam;
  const Ray<T> down{{0, 0, 5}, {0, 0, -1}};
  EXPECT_TRUE(Hits(Obb<T>{{0, 0, 0}, {1, 1, 0}, Mat3<T>{}}, down, {.t = 5, .normal = {0, 0, 1}, .t_exit = 5}));
  const Mat3<T> tilt = diamond<T>().rotation;
  EXPECT_TRUE(IsMiss(ray_vs_obb(Obb<T>{{0, 0, 0}, {1, -1, 1}, tilt}, down)));
  EXPECT_TRUE(IsMiss(ray_vs_obb(Obb<T>{{0, 0, 0}, {-T(0.5), 1, 1}, Mat3<T>{}}, down)));
  EXPECT_TRUE(IsMiss(ray_vs_obb(Obb<T>{{0, 0, 0}, {1, 1, std::numeric_limits<T>::quiet_NaN()}, tilt}, down)));
}

TYPED_TEST(RayObb, InvalidRaysMiss) {
  using T = TypeParam;
  expect_invalid_rays_miss<T>([](const Ray<T>& r) { return ray_vs_obb(quarter_turned<T>(), r); }, Ray<T>{{10, 2, 3}, {-1, 0, 0}});
  expect_invalid_rays_miss<T>([](const Ray<T>& r) { return ray_vs_obb(diamond<T>(), r); }, Ray<T>{{0, 0, 0}, {1, 2, 3}});
}

TYPED_TEST(RayObb, ExtremeFiniteRaysNeverYieldNaN) {
  using T = TypeParam;
  expect_extreme_rays_nan_free<T>([](const Ray<T>& r) { return ray_vs_obb(quarter_turned<T>(), r); }, Ray<T>{{10, 2, 3}, {-1, 0, 0}});
  expect_extreme_rays_nan_free<T>([](const Ray<T>& r) { return ray_vs_obb(diamond<T>(), r); }, Ray<T>{{0, 0, 0}, {1, 2, 3}});
}

TYPED_TEST(RayObb, RandomRaysMatchTheSixWorldFacePlanes) {
  run_solid_differential<TypeParam, ObbTraits>(0x0bbu, 100000).finish();
}

}  // namespace
}  // namespace hitscan
