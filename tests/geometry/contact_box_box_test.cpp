// Box against box: hand-worked cases, and seeded random cases compared with the double-precision
// references of reference_contacts.hpp (overlap by vertex/edge/face enumeration, distance by
// vertex-face and edge-edge pairs, depth as the least vertex projection over the 15 axes).

#include "hitscan/geometry/contact_box_box.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>

#include "geometry/reference_contacts.hpp"

namespace hitscan {
namespace {

using namespace contact_reference;

template <class T>
class ContactBoxBox : public ::testing::Test {};
TYPED_TEST_SUITE(ContactBoxBox, Reals, RealNames);

template <Real T>
constexpr double hand() {
  return std::is_same_v<T, float> ? 4e-6 : 1e-13;
}

template <Real T>
double tolerance_at(double size) {
  return ContactTolerance<T>{}.at_size(T(size));
}

template <Real T>
std::string describe(const Contact<T>& c) {
  std::ostringstream s;
  s.precision(9);
  s << "{touching " << c.touching << ", normal (" << c.normal.x << ", " << c.normal.y << ", " << c.normal.z
    << "), depth " << c.depth << ", on_a (" << c.point_on_a.x << ", " << c.point_on_a.y << ", " << c.point_on_a.z
    << "), on_b (" << c.point_on_b.x << ", " << c.point_on_b.y << ", " << c.point_on_b.z << ")}";
  return s.str();
}

struct Expected {
  bool touching;
  Vec3d normal;
  double depth;
  Vec3d on_a, on_b;
};

template <Real T>
::testing::AssertionResult IsContact(const Contact<T>& c, const Expected& e, double tolerance = hand<T>()) {
  const bool ok = c.touching == e.touching && distance(to_double(c.normal), e.normal) <= tolerance &&
                  std::abs(c.depth - e.depth) <= tolerance && distance(to_double(c.point_on_a), e.on_a) <= tolerance &&
                  distance(to_double(c.point_on_b), e.on_b) <= tolerance;
  if (ok) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << describe(c);
}

template <Real T>
Obb<T> turned(Vec3<T> center, Vec3<T> half_extents, Quat<T> q) {
  return Obb<T>::from_quat(center, half_extents, q);
}

// ---- axis-aligned boxes ----------------------------------------------------------------------------------

TYPED_TEST(ContactBoxBox, AabbsRestingApartAndInside) {
  using T = TypeParam;
  const Aabb<T> b{{0, 0, 0}, {2, 2, 2}};
  // Resting on the top face, then sunk in by 0.25, then lifted just clear of it.
  EXPECT_TRUE(overlap(Aabb<T>{{T(0.5), T(0.5), 2}, {T(1.5), T(1.5), 3}}, b));
  EXPECT_TRUE(IsContact(contact(Aabb<T>{{T(0.5), T(0.5), 2}, {T(1.5), T(1.5), 3}}, b), {true, {0, 0, 1}, 0, {1, 1, 2}, {1, 1, 2}}));
  EXPECT_TRUE(IsContact(contact(Aabb<T>{{T(0.5), T(0.5), T(1.75)}, {T(1.5), T(1.5), T(2.75)}}, b), {true, {0, 0, 1}, 0.25, {1, 1, 1.75}, {1, 1, 2}}));
  const Aabb<T> lifted{{T(0.5), T(0.5), T(2.001)}, {T(1.5), T(1.5), 3}};
  EXPECT_FALSE(overlap(lifted, b));
  EXPECT_TRUE(IsContact(contact(lifted, b, T(0.01)), {true, {0, 0, 1}, -0.001, {1, 1, 2.001}, {1, 1, 2}}));
  // Apart diagonally: gaps of 1 on x and y, distance sqrt(2).
  const double s = std::sqrt(0.5);
  EXPECT_TRUE(IsContact(contact(Aabb<T>{{3, 3, 0}, {4, 4, 1}}, b, T(2)), {true, {s, s, 0}, -std::sqrt(2.0), {3, 3, 0.5}, {2, 2, 0.5}}));
  EXPECT_FALSE(contact(Aabb<T>{{3, 3, 0}, {4, 4, 1}}, b, T(1.4)).touching);
  // Inside: the cheapest way out is through B's min x face (ties go to the lowest axis).
  EXPECT_TRUE(IsContact(contact(Aabb<T>{{T(0.5), T(0.5), T(0.5)}, {1, 1, 1}}, b), {true, {-1, 0, 0}, 1, {1, 0.75, 0.75}, {0, 0.75, 0.75}}));
  // Flat and invalid boxes.
  EXPECT_TRUE(overlap(Aabb<T>{{0, 0, 2}, {2, 2, 2}}, b));
  EXPECT_TRUE(overlap(Aabb<T>{{1, 1, 1}, {1, 1, 1}}, b));
  EXPECT_FALSE(overlap(Aabb<T>{{3, 1, 1}, {3, 1, 1}}, b));
  EXPECT_FALSE(overlap(Aabb<T>::empty(), b));
  EXPECT_FALSE(overlap(b, Aabb<T>{{0, 0, 0}, {std::numeric_limits<T>::quiet_NaN(), 1, 1}}));
  EXPECT_FALSE(contact(Aabb<T>::empty(), b, T(100)).touching);
}

TYPED_TEST(ContactBoxBox, RandomAabbsMatchTheEnumerationReference) {
  using T = TypeParam;
  Rng rng(0xaabbu);
  int near_tolerance = 0;
  for (int i = 0; i < 6000; ++i) {
    const Aabb<T> a = aabb_of<T>(rng.box(rng.in_cube(1), 0.1, 3, 0.05, true));
    Box rb = rng.box({}, 0.1, 3, 0.05, true);
    const Box ra = box_of(a);
    const Vec3d dir = rng.unit_vector();
    const double tolerance = tolerance_at<T>(std::max(ra.size(), rb.size()));
    const double s = touching_offset(ra, rb, dir);
    rb.center = ra.center + dir * (rng.chance(0.5) ? s + rng.uniform(-2, 4) * tolerance : s * rng.uniform(0, 1.5));
    const Aabb<T> b = aabb_of<T>(rb);
    rb = box_of(b);
    const double separation = box_separation(ra, rb);
    const double band = accuracy<T>() * 10;
    near_tolerance += std::abs(separation - tolerance) < 4 * tolerance;
    const bool touching = overlap(a, b);
    if (touching != (separation <= tolerance)) {
      ASSERT_LE(std::abs(separation - tolerance), band) << i << " separation " << separation;
    }
    ASSERT_EQ(contact(a, b).touching, touching) << i;
    const Contact<T> c = contact(a, b, T(10));
    ASSERT_NEAR(c.depth, -separation, band) << i << " " << describe(c);
    ASSERT_NEAR(dot(to_double(c.point_on_b) - to_double(c.point_on_a), to_double(c.normal)), c.depth, band) << i;
    ASSERT_NEAR(penetration_along(ra, rb, to_double(c.normal)), double(c.depth), band) << i;
  }
  EXPECT_GT(near_tolerance, 1200);
}

// ---- oriented boxes --------------------------------------------------------------------------------------

TYPED_TEST(ContactBoxBox, BoxRestingOnAFaceGetsTheCentreOfThePatch) {
  using T = TypeParam;
  const Obb<T> b{{0, 0, 0}, {2, 2, 1}, {}};
  const Quat<T> q = Quat<T>::from_axis_angle({0, 0, 1}, kPi<T> / 6);
  // A cube turned 30° about z, its bottom face 0.1 below B's top face.
  const Obb<T> sunk = turned<T>({T(0.3), T(-0.2), T(1.4)}, {T(0.5), T(0.5), T(0.5)}, q);
  EXPECT_TRUE(IsContact(contact(sunk, b), {true, {0, 0, 1}, 0.1, {0.3, -0.2, 0.9}, {0.3, -0.2, 1}}));
  const Obb<T> resting = turned<T>({T(0.3), T(-0.2), T(1.5)}, {T(0.5), T(0.5), T(0.5)}, q);
  EXPECT_TRUE(overlap(resting, b));
  EXPECT_TRUE(IsContact(contact(resting, b), {true, {0, 0, 1}, 0, {0.3, -0.2, 1}, {0.3, -0.2, 1}}));
  // Lifted 1e-3 clear: apart, the closest points are a corner of the cube and the face below it.
  const Obb<T> lifted = turned<T>({T(0.3), T(-0.2), T(1.501)}, {T(0.5), T(0.5), T(0.5)}, q);
  EXPECT_FALSE(overlap(lifted, b));
  const Contact<T> c = contact(lifted, b, T(0.01));
  EXPECT_TRUE(c.touching);
  EXPECT_NEAR(c.depth, -0.001, hand<T>());
  EXPECT_NEAR(c.normal.z, 1, hand<T>());
  EXPECT_NEAR(c.point_on_a.z, 1.001, hand<T>());
  EXPECT_NEAR(c.point_on_b.z, 1, hand<T>());
  // A big box on a small one: the patch is the small box's top face, centred under it.
  const Obb<T> big = turned<T>({T(0.7), 0, T(1.9)}, {5, 5, 1}, q);
  EXPECT_TRUE(IsContact(contact(big, b), {true, {0, 0, 1}, 0.1, {0, 0, 0.9}, {0, 0, 1}}));
}

TYPED_TEST(ContactBoxBox, CrossedEdgesMeetAlongTheirCommonPerpendicular) {
  using T = TypeParam;
  // Two bars turned 45° about their long axes (x for A, y for B): A's top edge runs along x at
  // height sqrt(2)/2, B's bottom edge along y at d - sqrt(2)/2. Neither has a face normal along
  // z, so only the cross product of the two edges sees the 0.1 overlap.
  const double h = std::sqrt(0.5);
  const Obb<T> a = turned<T>({0, 0, 0}, {2, T(0.5), T(0.5)}, Quat<T>::from_axis_angle({1, 0, 0}, kPi<T> / 4));
  const Obb<T> b = turned<T>({0, 0, T(2 * h - 0.1)}, {T(0.5), 2, T(0.5)}, Quat<T>::from_axis_angle({0, 1, 0}, kPi<T> / 4));
  EXPECT_TRUE(IsContact(contact(a, b), {true, {0, 0, -1}, 0.1, {0, 0, h}, {0, 0, h - 0.1}}));
  const Obb<T> clear = turned<T>({0, 0, T(2 * h + 0.1)}, {T(0.5), 2, T(0.5)}, Quat<T>::from_axis_angle({0, 1, 0}, kPi<T> / 4));
  EXPECT_FALSE(overlap(a, clear));
  EXPECT_TRUE(IsContact(contact(a, clear, T(0.2)), {true, {0, 0, -1}, -0.1, {0, 0, h}, {0, 0, h + 0.1}}));
}

TYPED_TEST(ContactBoxBox, CornerIntoAFace) {
  using T = TypeParam;
  // A unit cube stood on a corner (its body diagonal along z), the corner 0.05 into B's top face.
  const Obb<T> b{{0, 0, -1}, {3, 3, 1}, {}};
  const Quat<T> q = Quat<T>::from_axis_angle({1, -1, 0}, T(std::acos(1 / std::sqrt(3.0))));
  const double up = 0.5 * std::sqrt(3.0);
  EXPECT_TRUE(IsContact(contact(turned<T>({T(0.2), T(0.1), T(up - 0.05)}, {T(0.5), T(0.5), T(0.5)}, q), b),
                        {true, {0, 0, 1}, 0.05, {0.2, 0.1, -0.05}, {0.2, 0.1, 0}}));
  const Obb<T> clear = turned<T>({T(0.2), T(0.1), T(up + 0.02)}, {T(0.5), T(0.5), T(0.5)}, q);
  EXPECT_FALSE(overlap(clear, b));
  EXPECT_TRUE(IsContact(contact(clear, b, T(0.1)), {true, {0, 0, 1}, -0.02, {0.2, 0.1, 0.02}, {0.2, 0.1, 0}}));
}

TYPED_TEST(ContactBoxBox, CornerToCornerUsesTheTrueDistanceNotTheAxisBound) {
  using T = TypeParam;
  // Cubes corner to corner, gap g on each axis: no axis separates them by more than g, but the
  // distance is sqrt(3) g. Within the tolerance band that distance decides.
  const Obb<T> a{{0, 0, 0}, {T(0.5), T(0.5), T(0.5)}, {}};
  const double tolerance = tolerance_at<T>(0.5);
  const auto at = [](double g) { return Obb<T>{{T(1 + g), T(1 + g), T(1 + g)}, {T(0.5), T(0.5), T(0.5)}, {}}; };
  EXPECT_FALSE(overlap(a, at(0.8 * tolerance)));  // sqrt(3) 0.8 = 1.39 tolerances apart
  EXPECT_TRUE(overlap(a, at(0.5 * tolerance)));   // 0.87 tolerances
  EXPECT_FALSE(contact(a, at(0.8 * tolerance)).touching);
  EXPECT_TRUE(contact(a, at(0.5 * tolerance)).touching);
  const double t = 1 / std::sqrt(3.0);
  EXPECT_TRUE(IsContact(contact(a, at(0.1), T(1)), {true, {-t, -t, -t}, -0.1 * std::sqrt(3.0), {0.5, 0.5, 0.5}, {0.6, 0.6, 0.6}}));
  // The same for axis-aligned boxes.
  const Aabb<T> aa{{-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}};
  const auto aabb_at = [](double g) { return Aabb<T>{{T(0.5 + g), T(0.5 + g), T(0.5 + g)}, {T(1.5 + g), T(1.5 + g), T(1.5 + g)}}; };
  EXPECT_FALSE(overlap(aa, aabb_at(0.8 * tolerance)));
  EXPECT_TRUE(overlap(aa, aabb_at(0.5 * tolerance)));
}

TYPED_TEST(ContactBoxBox, NearlyParallelEdgesAtEveryAngle) {
  using T = TypeParam;
  // Two bars 100 long turned 45° about x (diamond sections), B above A and turned by theta about
  // z, so their long edges cross at angle theta, 0.01 apart or 0.01 deep. From theta ~ 2e-4 up,
  // only the cross product of the two long edges (along z, of length sin theta) separates them.
  const double h = std::sqrt(0.5);
  const Quat<T> diamond = Quat<T>::from_axis_angle({1, 0, 0}, kPi<T> / 4);
  const Obb<T> a = turned<T>({0, 0, 0}, {50, T(0.5), T(0.5)}, diamond);
  for (double theta : {0.0, 1e-9, 1e-7, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.5}) {
    for (double gap : {0.01, -0.01}) {
      SCOPED_TRACE(::testing::Message() << "theta " << theta << ", gap " << gap);
      const Obb<T> b = turned<T>({0, 0, T(2 * h + gap)}, {50, T(0.5), T(0.5)}, Quat<T>::from_axis_angle({0, 0, 1}, T(theta)) * diamond);
      EXPECT_EQ(overlap(a, b), gap < 0);
      const Contact<T> c = contact(a, b, T(1));
      const double separation = box_separation(box_of(a), box_of(b)), error = 200 * accuracy<T>();
      EXPECT_NEAR(c.depth, -separation, error) << describe(c);
      // Overlapping, moving A by depth along the normal (one of the 15 axes) separates them.
      if (gap < 0) {
        EXPECT_NEAR(penetration_along(box_of(a), box_of(b), to_double(c.normal)), double(c.depth), error);
      }
    }
  }
}

/// Random pairs: box B put along a random direction from A, at the offset where they just touch
/// (found by bisection on the enumeration reference), a few tolerances either side of it, or
/// anywhere from deep inside to well apart.
template <Real T>
void run_obb_pairs_against_reference(std::uint32_t seed, int cases, double parallel_share) {
  Rng rng(seed);
  int near_tolerance = 0, apart = 0, overlapping = 0, off_a = 0, off_b = 0;
  double worst_depth = 0;
  for (int i = 0; i < cases; ++i) {
    Box ra = rng.box({}, 0.1, 3);
    ra.center = rng.in_cube(ra.size());
    Box rb = rng.box({}, 0.1, 3);
    if (rng.chance(parallel_share)) {
      // B turned from A by a tiny angle about a random axis: nearly parallel edges everywhere.
      const Mat3d tilt = Mat3d::from_quat(Quatd::from_axis_angle(rng.unit_vector(), rng.log_uniform(1e-9, 1e-2)));
      for (int k = 0; k < 3; ++k) rb.axis[k] = tilt * ra.axis[k];
    }
    const Vec3d dir = rng.unit_vector();
    const double tolerance = tolerance_at<T>(std::max(ra.size(), rb.size()));
    const double s = touching_offset(ra, rb, dir);
    const double pick = rng.uniform();
    rb.center = ra.center + dir * (pick < 0.5 ? s + rng.uniform(-2, 4) * tolerance : s * rng.uniform(0, 1.5));
    const Obb<T> a = obb_of<T>(ra), b = obb_of<T>(rb);
    ra = box_of(a), rb = box_of(b);
    const double separation = box_separation(ra, rb);
    const double band = accuracy<T>() * (length(ra.center) + length(rb.center) + length(ra.half) + length(rb.half));
    near_tolerance += std::abs(separation - tolerance) < 4 * tolerance;

    const bool touching = overlap(a, b);
    if (touching != (separation <= tolerance)) {
      ASSERT_LE(std::abs(separation - tolerance), band) << "case " << i << " separation " << separation;
    }
    ASSERT_EQ(contact(a, b).touching, touching) << "case " << i;
    const CachedObb<T> cached_a = CachedObb<T>::from_obb(a), cached_b = CachedObb<T>::from_obb(b);
    ASSERT_EQ(overlap(cached_a, cached_b), overlap(cached_a.box, cached_b.box)) << "case " << i;

    const Contact<T> c = contact(a, b, T(10));
    ASSERT_TRUE(c.touching) << "case " << i;
    const Vec3d n = to_double(c.normal), pa = to_double(c.point_on_a), pb = to_double(c.point_on_b);
    ASSERT_NEAR(length(n), 1, band) << "case " << i;
    // Flat faces are taken at the centre of their patch, which may lie up to the tolerance above
    // their deepest corner.
    ASSERT_NEAR(dot(pb - pa, n), c.depth, band + tolerance) << "case " << i << " " << describe(c);
    if (separation > band) {
      // Apart: the exact distance and closest points.
      ++apart;
      ASSERT_NEAR(c.depth, -separation, band) << "case " << i << " " << describe(c);
      ASSERT_NEAR(point_vs_box(ra, pa).signed_distance, 0, band) << "case " << i;
      ASSERT_NEAR(point_vs_box(rb, pb).signed_distance, 0, band) << "case " << i;
    } else if (separation < -band) {
      // Overlapping: the least penetration over the 15 axes (a face may win by the tolerance),
      // and moving A by depth along the normal separates it, whatever axis that is.
      ++overlapping;
      const double depth = -separation;
      worst_depth = std::max(worst_depth, (c.depth - depth) / (tolerance + band));
      ASSERT_GE(c.depth, depth - band) << "case " << i << " " << describe(c);
      ASSERT_LE(c.depth, depth + tolerance + band) << "case " << i << " " << describe(c);
      ASSERT_NEAR(penetration_along(ra, rb, n), c.depth, band) << "case " << i << " " << describe(c);
      // Each point lies on its own box.
      off_a += point_vs_box(ra, pa).signed_distance > band;
      off_b += point_vs_box(rb, pb).signed_distance > band;
    }
  }
  std::printf("[ obb vs obb, %s ] %d cases, %d within 4 tolerances of touching, %d apart, %d overlapping; "
              "depth above the least at most %.2f tolerances; contact points off A %d, off B %d\n",
              std::is_same_v<T, float> ? "float" : "double", cases, near_tolerance, apart, overlapping, worst_depth, off_a,
              off_b);
  EXPECT_GT(near_tolerance, cases / 5);
  EXPECT_EQ(off_a + off_b, 0);
}

TYPED_TEST(ContactBoxBox, RandomObbPairsMatchTheEnumerationReference) {
  run_obb_pairs_against_reference<TypeParam>(0x0bb0bbu, 8000, 0);
}

TYPED_TEST(ContactBoxBox, RandomNearlyParallelObbPairsMatchTheEnumerationReference) {
  run_obb_pairs_against_reference<TypeParam>(0x11u, 4000, 1);
}

TYPED_TEST(ContactBoxBox, TouchingBoxesDoNotFlicker) {
  using T = TypeParam;
  // B placed where it just touches A (bisection in double), then rounded to T: every feature pair
  // (face, edge, corner) occurs. It touches in every case; lifted 3 tolerances further along the
  // same direction it does not (when the reference agrees that it has moved clear).
  Rng rng(0xf11c2u);
  int lifted_clear = 0;
  for (int i = 0; i < 3000; ++i) {
    Box ra = rng.box({}, 0.1, 3, 0.1);
    ra.center = rng.in_cube(ra.size());
    Box rb = rng.box({}, 0.1, 3, 0.1);
    const Vec3d dir = rng.unit_vector();
    const double tolerance = tolerance_at<T>(std::max(ra.size(), rb.size()));
    const double s = touching_offset(ra, rb, dir);
    rb.center = ra.center + dir * s;
    const Obb<T> a = obb_of<T>(ra);
    ASSERT_TRUE(overlap(a, obb_of<T>(rb))) << i;
    const Contact<T> c = contact(a, obb_of<T>(rb));
    ASSERT_TRUE(c.touching) << i;
    ASSERT_LE(std::abs(c.depth), tolerance) << i;
    rb.center = ra.center + dir * (s + 3 * tolerance);
    if (box_separation(box_of(a), box_of(obb_of<T>(rb))) > 2 * tolerance) {
      ++lifted_clear;
      ASSERT_FALSE(overlap(a, obb_of<T>(rb))) << i;
    }
  }
  EXPECT_GT(lifted_clear, 1500);
}

TYPED_TEST(ContactBoxBox, SizesFourOrdersOfMagnitudeApart) {
  using T = TypeParam;
  // A box of half extents about 0.01 against one of about 100, apart or sunk by about half the
  // small size: the answer must follow the reference wherever it is clear of the tolerance.
  Rng rng(0x10001u);
  int decided = 0;
  for (int i = 0; i < 1000; ++i) {
    Box ra = rng.box({}, 0.005, 0.02, 0.1);
    Box rb = rng.box({}, 50, 200, 0.1);
    if (i % 2) std::swap(ra, rb);
    const Vec3d dir = rng.unit_vector();
    const double tolerance = tolerance_at<T>(std::max(ra.size(), rb.size()));
    rb.center = ra.center + dir * (touching_offset(ra, rb, dir) + (rng.chance(0.5) ? 0.005 : -0.005));
    const Obb<T> a = obb_of<T>(ra), b = obb_of<T>(rb);
    const double separation = box_separation(box_of(a), box_of(b));
    if (std::abs(separation - tolerance) < 5e-4) continue;
    ++decided;
    ASSERT_EQ(overlap(a, b), separation <= tolerance) << i << " separation " << separation;
    ASSERT_EQ(overlap(CachedObb<T>::from_obb(a), CachedObb<T>::from_obb(b)), separation <= tolerance) << i;
    ASSERT_NEAR(contact(a, b, T(1)).depth, -separation, separation > 0 ? 1e-4 : 1e-4 + tolerance) << i;
  }
  EXPECT_GT(decided, 500);
}

TYPED_TEST(ContactBoxBox, FlatBoxesOfZeroThickness) {
  using T = TypeParam;
  const Obb<T> b{{0, 0, 0}, {1, 1, 1}, {}};
  const Obb<T> plate{{T(0.5), 0, 1}, {1, 1, 0}, {}};  // lying on B's top face
  EXPECT_TRUE(overlap(plate, b));
  EXPECT_NEAR(contact(plate, b).depth, 0, hand<T>());
  const Obb<T> upright = turned<T>({0, 0, T(1.5)}, {1, 1, 0}, Quat<T>::from_axis_angle({1, 0, 0}, kPi<T> / 2));
  EXPECT_TRUE(overlap(upright, b));  // a vertical plate 0.5 into B's top
  EXPECT_TRUE(IsContact(contact(upright, b), {true, {0, 0, 1}, 0.5, {0, 0, 0.5}, {0, 0, 1}}));
  // Two plates: crossing at right angles, coplanar and overlapping, and parallel 0.01 apart.
  const Obb<T> floor{{0, 0, 0}, {1, 1, 0}, {}};
  EXPECT_TRUE(overlap(floor, turned<T>({0, 0, 0}, {1, 1, 0}, Quat<T>::from_axis_angle({0, 1, 0}, kPi<T> / 2))));
  EXPECT_TRUE(overlap(floor, Obb<T>{{T(1.5), 0, 0}, {1, 1, 0}, {}}));
  EXPECT_NEAR(contact(floor, Obb<T>{{T(1.5), 0, 0}, {1, 1, 0}, {}}).depth, 0, hand<T>());
  EXPECT_FALSE(overlap(floor, Obb<T>{{0, 0, T(0.01)}, {1, 1, 0}, {}}));
  // A segment through the floor, a point inside B and one outside.
  EXPECT_TRUE(overlap(Obb<T>{{T(0.3), T(0.3), 0}, {0, 0, 1}, {}}, floor));
  EXPECT_TRUE(overlap(Obb<T>{{T(0.3), T(0.3), 0}, {0, 0, 0}, {}}, b));
  EXPECT_FALSE(overlap(Obb<T>{{2, 0, 0}, {0, 0, 0}, {}}, b));
}

TYPED_TEST(ContactBoxBox, InvalidBoxesTouchNothing) {
  using T = TypeParam;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const Obb<T> b{{0, 0, 0}, {1, 1, 1}, {}};
  EXPECT_FALSE(overlap(Obb<T>{{0, 0, 0}, {1, -1, 1}, {}}, b));
  EXPECT_FALSE(overlap(b, Obb<T>{{0, 0, 0}, {1, nan, 1}, {}}));
  EXPECT_FALSE(overlap(b, Obb<T>{{nan, 0, 0}, {1, 1, 1}, {}}));
  EXPECT_FALSE(contact(b, Obb<T>{{nan, 0, 0}, {1, 1, 1}, {}}, T(100)).touching);
  Obb<T> broken = b;
  broken.rotation.col[1].y = nan;
  EXPECT_FALSE(overlap(broken, b));
  EXPECT_FALSE(overlap(b, broken));
}

TYPED_TEST(ContactBoxBox, TwoStageTestEqualsTheExactTest) {
  using T = TypeParam;
  Rng rng(0x2b2u);
  int rejected = 0, touching = 0;
  for (int i = 0; i < 8000; ++i) {
    Box ra = rng.box(rng.in_cube(3), 0.01, 3, 0.1);
    Box rb = rng.box({}, 0.01, 3, 0.1);
    const CachedObb<T> a = CachedObb<T>::from_obb(obb_of<T>(ra));
    // B's centre at the sum of the circumradii along a corner direction of both (where the
    // bounding test is on its own boundary), or just touching A.
    const Vec3d dir = rng.chance(0.5) ? normalize(corners(ra)[i % 8] - ra.center) : rng.unit_vector();
    const double tolerance = tolerance_at<T>(std::max(ra.size(), rb.size()));
    const double reach = length(ra.half) + length(rb.half) + tolerance;
    rb.center = ra.center + dir * (rng.chance(0.5) ? reach * (1 + rng.uniform(-1, 1) * 1e-6) : touching_offset(ra, rb, dir));
    const CachedObb<T> b = CachedObb<T>::from_obb(obb_of<T>(rb));
    const bool exact = overlap(a.box, b.box);
    ASSERT_EQ(overlap(a, b), exact) << i;
    touching += exact;
    rejected += distance_squared(a.box.center, b.box.center) > square(a.circumradius + b.circumradius + T(tolerance));
  }
  EXPECT_GT(rejected, 800);
  EXPECT_GT(touching, 2000);
}

}  // namespace
}  // namespace hitscan
