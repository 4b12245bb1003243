#include "hitscan/math/mat3.hpp"
#include "math/random_math.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace hitscan {
namespace {

using namespace test;

template <class T>
class Mat3Test : public ::testing::Test {};
TYPED_TEST_SUITE(Mat3Test, RealTypes);

template <class T>
Mat3<T> random_rotation(std::mt19937& rng) {
  const Vec3<T> v = random_vec<T>(rng);
  return Mat3<T>::from_quat(Quat<T>::from_components(T(uniform(rng, -1, 1)), v.x, v.y, v.z));
}

/// Largest |entry| of Mᵀ M - I.
template <class T>
double orthonormality_error(const Mat3<T>& m) {
  double worst = 0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      worst = std::max(worst, std::abs(double(dot(m.col[i], m.col[j])) - (i == j ? 1.0 : 0.0)));
    }
  }
  return worst;
}

template <class T>
double max_entry_difference(const Mat3<T>& a, const Mat3<T>& b) {
  double worst = 0;
  for (int c = 0; c < 3; ++c) worst = std::max(worst, double(max_component(abs(a.col[c] - b.col[c]))));
  return worst;
}

TYPED_TEST(Mat3Test, ConstructionAndAccessByHand) {
  using T = TypeParam;
  const Mat3<T> id{};
  EXPECT_EQ(id.col[0], (Vec3<T>{1, 0, 0}));
  EXPECT_EQ(id.col[1], (Vec3<T>{0, 1, 0}));
  EXPECT_EQ(id.col[2], (Vec3<T>{0, 0, 1}));
  const Mat3<T> m = Mat3<T>::from_columns({1, 4, 7}, {2, 5, 8}, {3, 6, 10});
  EXPECT_EQ(m.row(0), (Vec3<T>{1, 2, 3}));
  EXPECT_EQ(m.row(2), (Vec3<T>{7, 8, 10}));
  const Mat3<T> t = m.transposed();
  EXPECT_EQ(t.col[0], (Vec3<T>{1, 2, 3}));
  EXPECT_EQ(t.col[2], (Vec3<T>{7, 8, 10}));
  const Mat3<T> d = Mat3<T>::diagonal({2, 3, 4});
  EXPECT_EQ(d.col[1], (Vec3<T>{0, 3, 0}));
  EXPECT_EQ((d * Vec3<T>{1, 1, 1}), (Vec3<T>{2, 3, 4}));
}

TYPED_TEST(Mat3Test, ProductsByHand) {
  using T = TypeParam;
  // Rows (1 2 3), (4 5 6), (7 8 10).
  const Mat3<T> m = Mat3<T>::from_columns({1, 4, 7}, {2, 5, 8}, {3, 6, 10});
  EXPECT_EQ((m * Vec3<T>{1, 0, -1}), (Vec3<T>{-2, -2, -3}));
  EXPECT_EQ(m.transpose_mul(Vec3<T>{1, 0, -1}), (Vec3<T>{-6, -6, -7}));
  // Multiplying on the right by this swaps the first two columns and doubles the third.
  const Mat3<T> swap = Mat3<T>::from_columns({0, 1, 0}, {1, 0, 0}, {0, 0, 2});
  const Mat3<T> p = m * swap;
  EXPECT_EQ(p.col[0], m.col[1]);
  EXPECT_EQ(p.col[1], m.col[0]);
  EXPECT_EQ(p.col[2], m.col[2] * T(2));
  EXPECT_EQ((Mat3<T>{} * m).col[2], m.col[2]);
}

TYPED_TEST(Mat3Test, DeterminantByHand) {
  using T = TypeParam;
  EXPECT_EQ(Mat3<T>{}.determinant(), 1);
  EXPECT_EQ(Mat3<T>::diagonal({2, 3, 4}).determinant(), 24);
  const Mat3<T> m = Mat3<T>::from_columns({1, 4, 7}, {2, 5, 8}, {3, 6, 10});
  EXPECT_EQ(m.determinant(), -3);
  EXPECT_EQ(Mat3<T>::from_columns(m.col[1], m.col[0], m.col[2]).determinant(), 3);  // swapping columns flips the sign
  EXPECT_EQ(Mat3<T>::from_columns({1, 2, 3}, {2, 4, 6}, {0, 0, 1}).determinant(), 0);
}

TYPED_TEST(Mat3Test, TransposeMulAndProductAgreeWithDefinitions) {
  using T = TypeParam;
  std::mt19937 rng(31);
  for (int i = 0; i < 10000; ++i) {
    const Mat3<T> a = Mat3<T>::from_columns(random_vec<T>(rng), random_vec<T>(rng), random_vec<T>(rng));
    const Mat3<T> b = Mat3<T>::from_columns(random_vec<T>(rng), random_vec<T>(rng), random_vec<T>(rng));
    const Vec3<T> v = random_vec<T>(rng);
    ASSERT_EQ(a.transpose_mul(v), a.transposed() * v) << i;
    ASSERT_LE(distance((a * b) * v, a * (b * v)), 8 * tolerance<T>()) << i;
    // det(AB) = det A det B.
    ASSERT_NEAR((a * b).determinant(), a.determinant() * b.determinant(), 8 * tolerance<T>()) << i;
  }
}

TYPED_TEST(Mat3Test, FromQuatIsARotation) {
  using T = TypeParam;
  std::mt19937 rng(32);
  for (int i = 0; i < 10000; ++i) {
    const Mat3<T> r = random_rotation<T>(rng);
    ASSERT_LE(orthonormality_error(r), 4 * tolerance<T>()) << i;
    ASSERT_NEAR(r.determinant(), 1, 4 * tolerance<T>()) << i;
    const Vec3<T> v = random_vec<T>(rng);
    ASSERT_LE(distance(r.transpose_mul(r * v), v), 4 * tolerance<T>()) << i;
  }
}

// Small errors added to every entry, as after many incremental updates.
TYPED_TEST(Mat3Test, OrthonormalizedRepairsDriftedRotation) {
  using T = TypeParam;
  std::mt19937 rng(33);
  const double drift = 1e-3;
  for (int i = 0; i < 10000; ++i) {
    const Mat3<T> r = random_rotation<T>(rng);
    const Mat3<T> drifted = Mat3<T>::from_columns(r.col[0] + random_vec<T>(rng, drift), r.col[1] + random_vec<T>(rng, drift),
                                                  r.col[2] + random_vec<T>(rng, drift));
    const Mat3<T> fixed = drifted.orthonormalized();
    ASSERT_LE(orthonormality_error(fixed), 1e-6) << i;
    ASSERT_NEAR(fixed.determinant(), 1, 1e-6) << i;
    ASSERT_LE(max_entry_difference(fixed, r), 5 * drift) << i;
    // Column 0 keeps its direction; column 1 stays in the plane of the first two.
    ASSERT_LE(length(cross(fixed.col[0], normalize(drifted.col[0]))), 4 * tolerance<T>()) << i;
    ASSERT_NEAR(dot(fixed.col[1], normalize(cross(drifted.col[0], drifted.col[1]))), 0, 4 * tolerance<T>()) << i;
    ASSERT_GT(dot(fixed.col[1], drifted.col[1]), 0) << i;
  }
}

TYPED_TEST(Mat3Test, OrthonormalizedMakesLeftHandedInputRightHanded) {
  using T = TypeParam;
  const Mat3<T> mirror = Mat3<T>::diagonal({1, 1, -1});
  const Mat3<T> fixed = mirror.orthonormalized();
  EXPECT_EQ(fixed.col[2], (Vec3<T>{0, 0, 1}));
  EXPECT_EQ(fixed.determinant(), 1);
}

// Gram–Schmidt subtracts nearly equal vectors here; one pass leaves column 1 visibly tilted
// towards column 0 in float.
TYPED_TEST(Mat3Test, OrthonormalizedNearlyParallelColumnsStayOrthonormal) {
  using T = TypeParam;
  std::mt19937 rng(34);
  for (int i = 0; i < 1000; ++i) {
    const Mat3<T> r = random_rotation<T>(rng);
    const T angle = T(std::pow(10.0, uniform(rng, -3, -1.5)));
    const Vec3<T> c1 = r.col[0] * std::cos(angle) + r.col[1] * std::sin(angle);
    const Mat3<T> fixed = Mat3<T>::from_columns(r.col[0] * T(3), c1 * T(2), r.col[2]).orthonormalized();
    ASSERT_LE(orthonormality_error(fixed), 1e-6) << i << " angle " << angle;
    ASSERT_NEAR(fixed.determinant(), 1, 1e-6) << i;
  }
}

// Exactly parallel columns leave only rounding noise after the projection is removed; that
// noise used to be normalised into a column that was neither unit nor orthogonal.
TYPED_TEST(Mat3Test, OrthonormalizedParallelOrZeroColumnsGiveIdentity) {
  using T = TypeParam;
  const Mat3<T> cases[] = {
      Mat3<T>::from_columns({1, 2, 3}, {2, 4, 6}, {0, 0, 1}),
      Mat3<T>::from_columns({T(0.1), T(0.7), T(0.3)}, {T(0.3), T(2.1), T(0.9)}, {0, 0, 1}),
      Mat3<T>::from_columns({1, 2, 3}, {-1, -2, -3}, {0, 1, 0}),
      Mat3<T>::from_columns({0, 0, 0}, {0, 1, 0}, {0, 0, 1}),
      Mat3<T>::from_columns({1, 0, 0}, {0, 0, 0}, {0, 0, 1}),
  };
  for (const Mat3<T>& m : cases) {
    const Mat3<T> fixed = m.orthonormalized();
    EXPECT_EQ(fixed.col[0], (Vec3<T>{1, 0, 0}));
    EXPECT_EQ(fixed.col[1], (Vec3<T>{0, 1, 0}));
    EXPECT_EQ(fixed.col[2], (Vec3<T>{0, 0, 1}));
  }
}

}  // namespace
}  // namespace hitscan
