#include "hitscan/math/transform.hpp"
#include "math/random_math.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace hitscan {
namespace {

using namespace test;

template <class T>
class TransformTest : public ::testing::Test {};
TYPED_TEST_SUITE(TransformTest, RealTypes);

/// A rotation, a translation and a non-uniform scale with each factor in ±[0.2, 5] (negative
/// factors mirror).
template <class T>
Transform<T> random_transform(std::mt19937& rng) {
  Transform<T> x;
  const Vec3<T> v = random_vec<T>(rng);
  x.rotation = Quat<T>::from_components(T(uniform(rng, -1, 1)), v.x, v.y, v.z);
  x.translation = random_vec<T>(rng, 10);
  for (int i = 0; i < 3; ++i) {
    const double magnitude = std::exp(uniform(rng, std::log(0.2), std::log(5.0)));
    x.scale[i] = T(rng() % 8 == 0 ? -magnitude : magnitude);
  }
  return x;
}

template <class T>
void expect_vec_near(Vec3<T> actual, Vec3<T> expected, double tol) {
  EXPECT_NEAR(actual.x, expected.x, tol);
  EXPECT_NEAR(actual.y, expected.y, tol);
  EXPECT_NEAR(actual.z, expected.z, tol);
}

TYPED_TEST(TransformTest, IdentityLeavesEverythingAlone) {
  using T = TypeParam;
  const Transform<T> x = Transform<T>::identity();
  const Vec3<T> p{1, -2, 3};
  EXPECT_EQ(x.apply_point(p), p);
  EXPECT_EQ(x.apply_vector(p), p);
  EXPECT_EQ(x.inverse_point(p), p);
  EXPECT_EQ(x.apply_normal(Vec3<T>{0, 0, 2}), (Vec3<T>{0, 0, 1}));
  EXPECT_TRUE(x.is_invertible());
}

// Scale first, then rotate, then translate.
TYPED_TEST(TransformTest, ScaleRotateTranslateOrderByHand) {
  using T = TypeParam;
  Transform<T> x;
  x.scale = {2, 1, 3};
  x.rotation = Quat<T>::from_axis_angle({0, 0, 1}, kPi<T> / 2);
  x.translation = {10, 0, 0};
  const double tol = 8 * tolerance<T>();
  expect_vec_near(x.apply_point({1, 0, 0}), Vec3<T>{10, 2, 0}, tol);   // (2,0,0) -> (0,2,0) -> (10,2,0)
  expect_vec_near(x.apply_point({0, 1, 1}), Vec3<T>{9, 0, 3}, tol);    // (0,1,3) -> (-1,0,3) -> (9,0,3)
  expect_vec_near(x.apply_vector({1, 0, 0}), Vec3<T>{0, 2, 0}, tol);   // no translation
  expect_vec_near(x.inverse_point({10, 2, 0}), Vec3<T>{1, 0, 0}, tol);
  expect_vec_near(x.inverse_vector({0, 2, 0}), Vec3<T>{1, 0, 0}, tol);
  // The plane x = 1 scaled by 2 along x is x = 2, rotated to y = 2: its normal becomes +y.
  expect_vec_near(x.apply_normal({1, 0, 0}), Vec3<T>{0, 1, 0}, tol);
  // A normal along (1, 0, 1) is not carried like a vector under non-uniform scale: S⁻¹ n.
  expect_vec_near(x.apply_normal({1, 0, 1}), normalize(Vec3<T>{0, T(0.5), T(1) / 3}), tol);
}

TYPED_TEST(TransformTest, InversePointUndoesApplyPoint) {
  using T = TypeParam;
  std::mt19937 rng(41);
  for (int i = 0; i < 10000; ++i) {
    const Transform<T> x = random_transform<T>(rng);
    const Vec3<T> p = random_vec<T>(rng, 10);
    // Scales up to 5 and translations up to 10: errors relative to a scene of size ~100.
    ASSERT_LE(distance(x.inverse_point(x.apply_point(p)), p), 100 * 4 * tolerance<T>()) << i;
    ASSERT_LE(distance(x.apply_point(x.inverse_point(p)), p), 100 * 4 * tolerance<T>()) << i;
    ASSERT_LE(distance(x.inverse_vector(x.apply_vector(p)), p), 100 * 4 * tolerance<T>()) << i;
  }
}

TYPED_TEST(TransformTest, LinearPartMatchesApplyVector) {
  using T = TypeParam;
  std::mt19937 rng(42);
  for (int i = 0; i < 10000; ++i) {
    const Transform<T> x = random_transform<T>(rng);
    const Vec3<T> v = random_vec<T>(rng);
    ASSERT_LE(distance(x.linear() * v, x.apply_vector(v)), 16 * tolerance<T>()) << i;
    ASSERT_LE(distance(x.linear() * v + x.translation, x.apply_point(v)), 16 * tolerance<T>()) << i;
    ASSERT_NEAR(x.linear().determinant(), x.scale.x * x.scale.y * x.scale.z,
                4 * tolerance<T>() * std::abs(x.scale.x * x.scale.y * x.scale.z)) << i;
  }
}

// A normal must stay perpendicular to every tangent of its surface, whose tangents transform as
// vectors, and keep facing the same side.
TYPED_TEST(TransformTest, ApplyNormalStaysPerpendicularToTransformedTangents) {
  using T = TypeParam;
  std::mt19937 rng(43);
  for (int i = 0; i < 10000; ++i) {
    const Transform<T> x = random_transform<T>(rng);
    const Vec3<T> n = normalize(random_vec<T>(rng));
    Vec3<T> t1, t2;
    orthonormal_basis(n, t1, t2);
    const Vec3<T> n2 = x.apply_normal(n);
    ASSERT_NEAR(length(n2), 1, 4 * tolerance<T>()) << i;
    for (const Vec3<T>& t : {t1, t2, normalize(t1 * T(0.3) - t2)}) {
      const Vec3<T> moved = x.apply_vector(t);
      ASSERT_NEAR(dot(n2, moved), 0, 8 * tolerance<T>() * length(moved)) << i;
    }
    ASSERT_GT(dot(n2, x.apply_vector(n)), 0) << i;
  }
}

TYPED_TEST(TransformTest, InvertibleOnlyWithFiniteNonZeroScale) {
  using T = TypeParam;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  Transform<T> x;
  x.scale = {2, -1, T(0.5)};
  EXPECT_TRUE(x.is_invertible());
  x.scale.y = 0;
  EXPECT_FALSE(x.is_invertible());
  x.scale.y = kInfinity<T>;
  EXPECT_FALSE(x.is_invertible());
  x.scale.y = 1;
  x.translation.z = nan;
  EXPECT_FALSE(x.is_invertible());
  x.translation.z = 0;
  x.rotation.x = nan;
  EXPECT_FALSE(x.is_invertible());
}

}  // namespace
}  // namespace hitscan
