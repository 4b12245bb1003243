#include "hitscan/math/quat.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "hitscan/math/mat3.hpp"
#include "math/random_math.hpp"

namespace hitscan {
namespace {

using namespace test;

template <class T>
class QuatTest : public ::testing::Test {};
TYPED_TEST_SUITE(QuatTest, RealTypes);

template <class T>
void expect_vec_near(Vec3<T> actual, Vec3<T> expected, double tol) {
  EXPECT_NEAR(actual.x, expected.x, tol);
  EXPECT_NEAR(actual.y, expected.y, tol);
  EXPECT_NEAR(actual.z, expected.z, tol);
}

/// Rotation matrices about the world axes, entry by entry.
template <class T>
Mat3<T> rotation_x(T a) { return Mat3<T>::from_columns({1, 0, 0}, {0, std::cos(a), std::sin(a)}, {0, -std::sin(a), std::cos(a)}); }
template <class T>
Mat3<T> rotation_y(T a) { return Mat3<T>::from_columns({std::cos(a), 0, -std::sin(a)}, {0, 1, 0}, {std::sin(a), 0, std::cos(a)}); }
template <class T>
Mat3<T> rotation_z(T a) { return Mat3<T>::from_columns({std::cos(a), std::sin(a), 0}, {-std::sin(a), std::cos(a), 0}, {0, 0, 1}); }

TYPED_TEST(QuatTest, IdentityLeavesVectorsAlone) {
  using T = TypeParam;
  const Quat<T> q = Quat<T>::identity();
  EXPECT_EQ(q.w, 1);
  EXPECT_EQ(q.vector_part(), (Vec3<T>{}));
  EXPECT_EQ(q.rotate(Vec3<T>{1, -2, 3}), (Vec3<T>{1, -2, 3}));
  EXPECT_EQ(Quat<T>{}.rotate(Vec3<T>{4, 5, 6}), (Vec3<T>{4, 5, 6}));
}

TYPED_TEST(QuatTest, QuarterTurnsByHand) {
  using T = TypeParam;
  const T quarter = kPi<T> / 2;
  const double tol = tolerance<T>();
  expect_vec_near(Quat<T>::from_axis_angle({0, 0, 1}, quarter).rotate({1, 0, 0}), Vec3<T>{0, 1, 0}, tol);
  expect_vec_near(Quat<T>::from_axis_angle({1, 0, 0}, quarter).rotate({0, 1, 0}), Vec3<T>{0, 0, 1}, tol);
  expect_vec_near(Quat<T>::from_axis_angle({0, 1, 0}, quarter).rotate({0, 0, 1}), Vec3<T>{1, 0, 0}, tol);
  // The axis need not be unit length; a negative angle turns the other way.
  expect_vec_near(Quat<T>::from_axis_angle({0, 0, 5}, -quarter).rotate({1, 0, 0}), Vec3<T>{0, -1, 0}, tol);
  const Quat<T> half_turn = Quat<T>::from_axis_angle({1, 1, 0}, kPi<T>);
  expect_vec_near(half_turn.rotate({1, 0, 0}), Vec3<T>{0, 1, 0}, tol);
  expect_vec_near(half_turn.rotate({0, 0, 1}), Vec3<T>{0, 0, -1}, tol);
}

TYPED_TEST(QuatTest, FromComponentsNormalises) {
  using T = TypeParam;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const Quat<T> a = Quat<T>::from_components(2, 0, 0, 0);
  EXPECT_EQ(a.w, 1);
  const Quat<T> b = Quat<T>::from_components(1, 1, 1, 1);
  EXPECT_NEAR(b.w, 0.5, tolerance<T>());
  EXPECT_NEAR(b.z, 0.5, tolerance<T>());
  const Quat<T> c = Quat<T>::from_components(0, 3, 0, -4);
  EXPECT_NEAR(c.x, 0.6, tolerance<T>());
  EXPECT_NEAR(c.z, -0.8, tolerance<T>());
  for (const Quat<T>& bad : {Quat<T>::from_components(0, 0, 0, 0), Quat<T>::from_components(nan, 0, 0, 1),
                             Quat<T>::from_components(1, kInfinity<T>, 0, 0)}) {
    EXPECT_EQ(bad.w, 1);
    EXPECT_EQ(bad.vector_part(), (Vec3<T>{}));
  }
}

TYPED_TEST(QuatTest, ZeroOrNonFiniteAxisGivesIdentity) {
  using T = TypeParam;
  for (const Vec3<T>& axis : {Vec3<T>{}, Vec3<T>{std::numeric_limits<T>::quiet_NaN(), 0, 0}, Vec3<T>{0, kInfinity<T>, 0}}) {
    const Quat<T> q = Quat<T>::from_axis_angle(axis, T(0.7));
    EXPECT_EQ(q.w, 1);
    EXPECT_EQ(q.vector_part(), (Vec3<T>{}));
  }
}

// Rodrigues: v cos θ + (k × v) sin θ + k (k · v)(1 - cos θ), evaluated in double.
TYPED_TEST(QuatTest, FromAxisAngleMatchesRodrigues) {
  using T = TypeParam;
  std::mt19937 rng(21);
  for (int i = 0; i < 10000; ++i) {
    const Vec3<T> axis = random_vec<T>(rng);
    const T angle = T(uniform(rng, -2 * kPi<double>, 2 * kPi<double>));
    const Vec3<T> v = random_vec<T>(rng, 2);
    const Vec3d k = normalize(vec3_cast<double>(axis)), vd = vec3_cast<double>(v);
    const double c = std::cos(double(angle)), s = std::sin(double(angle));
    const Vec3d expected = vd * c + cross(k, vd) * s + k * (dot(k, vd) * (1 - c));
    const Vec3d actual = vec3_cast<double>(Quat<T>::from_axis_angle(axis, angle).rotate(v));
    ASSERT_LE(distance(actual, expected), 16 * tolerance<T>()) << i;
  }
}

// from_euler(x, y, z) is Rz(z) Ry(y) Rx(x): X first, about the fixed world axes.
TYPED_TEST(QuatTest, FromEulerMatchesProductOfAxisMatrices) {
  using T = TypeParam;
  std::mt19937 rng(22);
  for (int i = 0; i < 10000; ++i) {
    const Vec3<T> angles = random_vec<T>(rng, kPi<double>);
    const Mat3<T> expected = rotation_z(angles.z) * rotation_y(angles.y) * rotation_x(angles.x);
    const Mat3<T> actual = Mat3<T>::from_quat(Quat<T>::from_euler(angles));
    for (int c = 0; c < 3; ++c) {
      ASSERT_LE(distance(actual.col[c], expected.col[c]), 4 * tolerance<T>()) << i << " column " << c;
    }
  }
  // Hand-worked: a quarter turn about X takes y to z, which the quarter turn about Z keeps;
  // x is kept by the first and taken to y by the second.
  const T q = kPi<T> / 2;
  const Quat<T> xz = Quat<T>::from_euler({q, 0, q});
  expect_vec_near(xz.rotate({0, 1, 0}), Vec3<T>{0, 0, 1}, tolerance<T>());
  expect_vec_near(xz.rotate({1, 0, 0}), Vec3<T>{0, 1, 0}, tolerance<T>());
}

TYPED_TEST(QuatTest, RotateMatchesMatrixFromQuat) {
  using T = TypeParam;
  std::mt19937 rng(23);
  for (int i = 0; i < 10000; ++i) {
    const Quat<T> q = random_quat<T>(rng);
    const Vec3<T> v = random_vec<T>(rng, 2);
    ASSERT_LE(distance(q.rotate(v), Mat3<T>::from_quat(q) * v), 8 * tolerance<T>()) << i;
  }
}

TYPED_TEST(QuatTest, RotationKeepsLengthsAndAngles) {
  using T = TypeParam;
  std::mt19937 rng(24);
  for (int i = 0; i < 10000; ++i) {
    const Quat<T> q = random_quat<T>(rng);
    const Vec3<T> a = random_vec<T>(rng), b = random_vec<T>(rng);
    ASSERT_NEAR(length(q.rotate(a)), length(a), 4 * tolerance<T>()) << i;
    ASSERT_NEAR(dot(q.rotate(a), q.rotate(b)), dot(a, b), 4 * tolerance<T>()) << i;
    // Orientation too: a rotation maps a × b to the cross of the images.
    ASSERT_LE(distance(q.rotate(cross(a, b)), cross(q.rotate(a), q.rotate(b))), 8 * tolerance<T>()) << i;
  }
}

TYPED_TEST(QuatTest, ProductRotatesByRightFactorFirst) {
  using T = TypeParam;
  std::mt19937 rng(25);
  for (int i = 0; i < 10000; ++i) {
    const Quat<T> a = random_quat<T>(rng), b = random_quat<T>(rng);
    const Vec3<T> v = random_vec<T>(rng, 2);
    ASSERT_LE(distance((a * b).rotate(v), a.rotate(b.rotate(v))), 8 * tolerance<T>()) << i;
    const Quat<T> ab = a * b;
    ASSERT_NEAR(ab.w * ab.w + length_squared(ab.vector_part()), 1, 2 * tolerance<T>()) << i;
  }
  // Two quarter turns about z make a half turn.
  const Quat<T> quarter = Quat<T>::from_axis_angle({0, 0, 1}, kPi<T> / 2);
  expect_vec_near((quarter * quarter).rotate({1, 0, 0}), Vec3<T>{-1, 0, 0}, tolerance<T>());
}

TYPED_TEST(QuatTest, InverseRotateAndConjugateUndoRotate) {
  using T = TypeParam;
  std::mt19937 rng(26);
  for (int i = 0; i < 10000; ++i) {
    const Quat<T> q = random_quat<T>(rng);
    const Vec3<T> v = random_vec<T>(rng, 2);
    ASSERT_LE(distance(q.inverse_rotate(q.rotate(v)), v), 8 * tolerance<T>()) << i;
    ASSERT_LE(distance(q.conjugate().rotate(q.rotate(v)), v), 8 * tolerance<T>()) << i;
    // q and -q are the same rotation.
    const Quat<T> minus_q{-q.w, -q.x, -q.y, -q.z};
    ASSERT_LE(distance(minus_q.rotate(v), q.rotate(v)), 8 * tolerance<T>()) << i;
  }
  const Quat<T> q = Quat<T>::from_components(1, 2, 3, 4);
  EXPECT_EQ(q.conjugate().w, q.w);
  EXPECT_EQ(q.conjugate().vector_part(), -q.vector_part());
}

// Quat<float>::rotate runs on SIMD lanes; its answers are the bits of the formula written out
// per component in float, for unit and raw quaternions and for vectors with zero, tiny and large
// components.
TEST(QuatFloat, RotateGivesTheBitsOfTheScalarFormula) {
  const auto formula = [](const Quatf& q, Vec3f v) {
    const float tx = (q.y * v.z - q.z * v.y) * 2.0f, ty = (q.z * v.x - q.x * v.z) * 2.0f,
                tz = (q.x * v.y - q.y * v.x) * 2.0f;
    return Vec3f{v.x + tx * q.w + (q.y * tz - q.z * ty), v.y + ty * q.w + (q.z * tx - q.x * tz),
                 v.z + tz * q.w + (q.x * ty - q.y * tx)};
  };
  // Bit for bit, but any NaN matches any NaN (which operand's payload survives is the compiler's
  // choice of operand order, in either form).
  const auto same_bits = [](Vec3f a, Vec3f b) {
    for (int i = 0; i < 3; ++i) {
      if (std::isnan(a[i]) && std::isnan(b[i])) continue;
      if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0) return false;
    }
    return true;
  };
  std::mt19937 rng(61);
  std::uniform_real_distribution<float> d(-100.0f, 100.0f);
  for (int i = 0; i < 100000; ++i) {
    const Quatf unit = Quatf::from_components(d(rng), d(rng), d(rng), d(rng));
    const Quatf raw{d(rng), d(rng), d(rng), d(rng)};
    Vec3f v{d(rng), d(rng), d(rng)};
    if (i % 5 == 1) v.y = 0.0f;
    if (i % 7 == 2) v = v * 1e-39f;  // subnormal components
    if (i % 11 == 3) v = v * 1e30f;
    if (i % 13 == 4) v.z = kInfinity<float>;  // non-finite input keeps the formula's infinities and NaNs
    if (i % 17 == 5) v.x = std::numeric_limits<float>::quiet_NaN();
    for (const Quatf& q : {unit, raw}) {
      ASSERT_TRUE(same_bits(q.rotate(v), formula(q, v))) << i;
      ASSERT_TRUE(same_bits(q.inverse_rotate(v), formula(q.conjugate(), v))) << i;
    }
  }
}

}  // namespace
}  // namespace hitscan
