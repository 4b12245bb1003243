#include "hitscan/math/vec3.hpp"
#include "math/random_math.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace hitscan {
namespace {

using namespace test;

template <class T>
class Vec3Test : public ::testing::Test {};
TYPED_TEST_SUITE(Vec3Test, RealTypes);

/// Relative tolerance for unit-sized results of a few operations.
template <class T>
double tolerance() { return std::is_same_v<T, float> ? 1e-5 : 1e-13; }

/// Uniform in [lo, hi) from the raw engine output, the same sequence on every platform.

template <class T>
void expect_vec_near(Vec3<T> actual, Vec3<T> expected, double tol) {
  EXPECT_NEAR(actual.x, expected.x, tol);
  EXPECT_NEAR(actual.y, expected.y, tol);
  EXPECT_NEAR(actual.z, expected.z, tol);
}

TYPED_TEST(Vec3Test, ArithmeticByHand) {
  using T = TypeParam;
  const Vec3<T> a{1, 2, 3}, b{4, -5, 6};
  EXPECT_EQ(a + b, (Vec3<T>{5, -3, 9}));
  EXPECT_EQ(a - b, (Vec3<T>{-3, 7, -3}));
  EXPECT_EQ(-a, (Vec3<T>{-1, -2, -3}));
  EXPECT_EQ(a * T(2), (Vec3<T>{2, 4, 6}));
  EXPECT_EQ(T(2) * a, (Vec3<T>{2, 4, 6}));
  EXPECT_EQ(a / T(2), (Vec3<T>{T(0.5), 1, T(1.5)}));
  EXPECT_EQ(mul(a, b), (Vec3<T>{4, -10, 18}));
  EXPECT_EQ(div(a, b), (Vec3<T>{T(0.25), T(-0.4), T(0.5)}));
  Vec3<T> c = a;
  c += b;
  EXPECT_EQ(c, (Vec3<T>{5, -3, 9}));
  c -= b;
  EXPECT_EQ(c, a);
  c *= T(3);
  EXPECT_EQ(c, (Vec3<T>{3, 6, 9}));
  EXPECT_NE(a, b);
}

TYPED_TEST(Vec3Test, IndexReadsAndWritesComponents) {
  using T = TypeParam;
  Vec3<T> a{7, 8, 9};
  EXPECT_EQ(a[0], 7);
  EXPECT_EQ(a[1], 8);
  EXPECT_EQ(a[2], 9);
  a[1] = 5;
  a[2] = -1;
  EXPECT_EQ(a, (Vec3<T>{7, 5, -1}));
}

TYPED_TEST(Vec3Test, ProductsAndLengthsByHand) {
  using T = TypeParam;
  const Vec3<T> a{1, 2, 3}, b{4, -5, 6};
  EXPECT_EQ(dot(a, b), 12);
  EXPECT_EQ(cross(a, b), (Vec3<T>{27, 6, -13}));
  EXPECT_EQ(cross(Vec3<T>{1, 0, 0}, Vec3<T>{0, 1, 0}), (Vec3<T>{0, 0, 1}));  // right-handed
  EXPECT_EQ(length_squared(a), 14);
  EXPECT_EQ(length(Vec3<T>{3, 4, 0}), 5);
  EXPECT_EQ(length(Vec3<T>{2, 3, 6}), 7);
  EXPECT_EQ(distance(Vec3<T>{1, 1, 1}, Vec3<T>{3, 4, 7}), 7);
  EXPECT_EQ(distance_squared(Vec3<T>{1, 1, 1}, Vec3<T>{3, 4, 7}), 49);
}

TYPED_TEST(Vec3Test, CrossIsAntisymmetricOrthogonalAndObeysLagrange) {
  using T = TypeParam;
  std::mt19937 rng(11);
  for (int i = 0; i < 10000; ++i) {
    const Vec3<T> a = random_vec<T>(rng), b = random_vec<T>(rng);
    const Vec3<T> c = cross(a, b);
    ASSERT_EQ(c, -cross(b, a)) << i;  // exact: the same products, subtracted the other way
    const double scale = double(length(a)) * length(b);
    ASSERT_NEAR(dot(c, a), 0, tolerance<T>() * scale * length(a)) << i;
    ASSERT_NEAR(dot(c, b), 0, tolerance<T>() * scale * length(b)) << i;
    // |a × b|² + (a · b)² = |a|² |b|².
    ASSERT_NEAR(double(length_squared(c)) + square(double(dot(a, b))), scale * scale, tolerance<T>() * scale * scale) << i;
  }
}

TYPED_TEST(Vec3Test, NormalizeGivesUnitVectorAlongInput) {
  using T = TypeParam;
  std::mt19937 rng(12);
  for (int i = 0; i < 10000; ++i) {
    const Vec3<T> a = random_vec<T>(rng, 100);
    const Vec3<T> n = normalize(a);
    ASSERT_NEAR(length(n), 1, tolerance<T>()) << i;
    ASSERT_NEAR(length(cross(n, a)), 0, tolerance<T>() * length(a)) << i;
    ASSERT_GT(dot(n, a), 0) << i;
  }
  expect_vec_near(normalize(Vec3<T>{0, 3, 4}), Vec3<T>{0, T(0.6), T(0.8)}, tolerance<T>());
}

TYPED_TEST(Vec3Test, NormalizeOfZeroOrNonFiniteIsZero) {
  using T = TypeParam;
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = kInfinity<T>;
  EXPECT_EQ(normalize(Vec3<T>{}), (Vec3<T>{}));
  EXPECT_EQ(normalize(Vec3<T>{nan, 0, 0}), (Vec3<T>{}));
  EXPECT_EQ(normalize(Vec3<T>{1, nan, 0}), (Vec3<T>{}));
  EXPECT_EQ(normalize(Vec3<T>{0, 0, inf}), (Vec3<T>{}));
  EXPECT_EQ(normalize(Vec3<T>{-inf, 1, 0}), (Vec3<T>{}));
}

// |a|² overflows or leaves the normal range for these, yet each is a finite non-zero vector.
TYPED_TEST(Vec3Test, NormalizeOfHugeAndTinyVectorsIsUnit) {
  using T = TypeParam;
  const T huge = std::numeric_limits<T>::max() / 4, tiny = std::numeric_limits<T>::denorm_min() * 8;
  EXPECT_EQ(normalize(Vec3<T>{huge, 0, 0}), (Vec3<T>{1, 0, 0}));
  EXPECT_EQ(normalize(Vec3<T>{0, -tiny, 0}), (Vec3<T>{0, -1, 0}));
  const T third = T(1) / std::sqrt(T(3));
  expect_vec_near(normalize(Vec3<T>{huge, huge, -huge}), Vec3<T>{third, third, -third}, tolerance<T>());
  const T small = std::sqrt(std::numeric_limits<T>::min()) / 4;  // squares to a subnormal
  expect_vec_near(normalize(Vec3<T>{small, 0, small}), Vec3<T>{1 / std::sqrt(T(2)), 0, 1 / std::sqrt(T(2))}, tolerance<T>());
}

TYPED_TEST(Vec3Test, ComponentWiseHelpers) {
  using T = TypeParam;
  const Vec3<T> a{1, -5, 3}, b{2, -7, 3};
  EXPECT_EQ(min(a, b), (Vec3<T>{1, -7, 3}));
  EXPECT_EQ(max(a, b), (Vec3<T>{2, -5, 3}));
  EXPECT_EQ(abs(a), (Vec3<T>{1, 5, 3}));
  EXPECT_EQ(clamp(Vec3<T>{-2, 0.5, 9}, Vec3<T>{-1, -1, -1}, Vec3<T>{1, 1, 1}), (Vec3<T>{-1, 0.5, 1}));
  EXPECT_EQ(min_component(a), -5);
  EXPECT_EQ(max_component(a), 3);
  EXPECT_EQ(max_dimension(a), 1);
  EXPECT_EQ(max_dimension(Vec3<T>{0, 1, -2}), 2);
  EXPECT_EQ(max_dimension(Vec3<T>{-4, 1, 2}), 0);
  EXPECT_EQ(max_dimension(Vec3<T>{2, -2, 2}), 0);  // ties go to the lower index
  EXPECT_EQ(lerp(a, b, T(0)), a);
  EXPECT_EQ(lerp(a, b, T(1)), b);
  EXPECT_EQ(lerp(Vec3<T>{0, 0, 0}, Vec3<T>{2, 4, -8}, T(0.25)), (Vec3<T>{0.5, 1, -2}));
  EXPECT_TRUE(is_finite(a));
  EXPECT_FALSE(is_finite(Vec3<T>{1, kInfinity<T>, 0}));
  EXPECT_FALSE(is_finite(Vec3<T>{1, 0, std::numeric_limits<T>::quiet_NaN()}));
}

TEST(Vec3Cast, ConvertsBetweenPrecisions) {
  EXPECT_EQ(vec3_cast<double>(Vec3f{0.5f, -2, 3}), (Vec3d{0.5, -2, 3}));
  EXPECT_EQ(vec3_cast<float>(Vec3d{0.1, 0, 1}), (Vec3f{0.1f, 0, 1}));
}

// Includes the poles and the -z hemisphere, where the construction switches sign.
TYPED_TEST(Vec3Test, OrthonormalBasisIsOrthonormalAndRightHanded) {
  using T = TypeParam;
  std::mt19937 rng(13);
  std::vector<Vec3<T>> normals = {{0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {0, -1, 0}, normalize(Vec3<T>{T(1e-4), 0, -1})};
  for (int i = 0; i < 10000; ++i) normals.push_back(normalize(random_vec<T>(rng)));
  for (const Vec3<T>& n : normals) {
    Vec3<T> b1, b2;
    orthonormal_basis(n, b1, b2);
    const double tol = 4 * tolerance<T>();
    ASSERT_NEAR(length(b1), 1, tol);
    ASSERT_NEAR(length(b2), 1, tol);
    ASSERT_NEAR(dot(b1, b2), 0, tol);
    ASSERT_NEAR(dot(b1, n), 0, tol);
    ASSERT_NEAR(dot(b2, n), 0, tol);
    const Vec3<T> c = cross(b1, b2);
    ASSERT_NEAR(c.x, n.x, tol);
    ASSERT_NEAR(c.y, n.y, tol);
    ASSERT_NEAR(c.z, n.z, tol);
  }
}

}  // namespace
}  // namespace hitscan
