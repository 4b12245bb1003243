// Sphere vs capsule and capsule vs capsule: hand-worked cases (touching, just apart, deep,
// parallel, crossing, sizes 10⁴ apart, degenerate shapes) and seeded random cases against the
// enumeration of segment pairs in double (reference_round_contacts.hpp).

#include "hitscan/geometry/contact_round.hpp"

#include <gtest/gtest.h>

#include "geometry/reference_round_contacts.hpp"

namespace hitscan {
namespace {

using namespace reference;

template <class T>
class ContactRound : public ::testing::Test {};
TYPED_TEST_SUITE(ContactRound, Reals, RealNames);

/// Capsule along z from -1 to 1, radius 1.
template <Real T>
Capsule<T> upright() {
  return {{0, 0, -1}, {0, 0, 1}, 1};
}

TYPED_TEST(ContactRound, SphereAgainstCapsuleSideAndCap) {
  using T = TypeParam;
  const double e = hand_error<T>();
  // Side: centre 2 from the axis, radius 0.5: apart by 0.5.
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{2, 0, T(0.3)}, T(0.5)}, upright<T>(), T(1)),
                        {{1.5, 0, 0.3}, {1, 0, 0.3}, {1, 0, 0}, -0.5}, e));
  // Cap: centre 3 above the top of the axis.
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{0, 0, 4}, T(0.5)}, upright<T>(), T(3)), {{0, 0, 3.5}, {0, 0, 2}, {0, 0, 1}, -1.5}, e));
  // Diagonal off the cap: (0.6, 0, 1.8) is 1 from the end (0, 0, 1), so it touches exactly.
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{T(1.2), 0, T(2.6)}, 1}, upright<T>()), {{0.6, 0, 1.8}, {0.6, 0, 1.8}, {0.6, 0, 0.8}, 0}, e));
  EXPECT_FALSE(contact(Sphere<T>{{2, 0, T(0.3)}, T(0.5)}, upright<T>()).touching);
  EXPECT_FALSE(overlap(Sphere<T>{{2, 0, T(0.3)}, T(0.5)}, upright<T>()));
}

TYPED_TEST(ContactRound, SphereTouchingJustApartAndDeep) {
  using T = TypeParam;
  const double e = hand_error<T>();
  EXPECT_TRUE(overlap(Sphere<T>{{2, 0, 0}, 1}, upright<T>()));
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{2, 0, 0}, 1}, upright<T>()), {{1, 0, 0}, {1, 0, 0}, {1, 0, 0}, 0}, e));
  EXPECT_FALSE(overlap(Sphere<T>{{T(2.001), 0, 0}, 1}, upright<T>()));
  EXPECT_FALSE(contact(Sphere<T>{{T(2.001), 0, 0}, 1}, upright<T>()).touching);
  EXPECT_TRUE(contact(Sphere<T>{{T(2.001), 0, 0}, 1}, upright<T>(), T(0.002)).touching);
  // Deep: centre 0.25 from the axis.
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{0, T(-0.25), T(0.5)}, T(0.5)}, upright<T>()),
                        {{0, 0.25, 0.5}, {0, -1, 0.5}, {0, -1, 0}, 1.25}, e));
}

TYPED_TEST(ContactRound, SphereCentreOnTheAxisLeavesSideways) {
  using T = TypeParam;
  const Contact<T> c = contact(Sphere<T>{{0, 0, T(0.5)}, T(0.5)}, upright<T>());
  ASSERT_TRUE(IsWellFormed(c, hand_error<T>()));
  ASSERT_TRUE(c.touching);
  EXPECT_NEAR(c.depth, 1.5, hand_error<T>());
  EXPECT_NEAR(c.normal.z, 0, hand_error<T>()) << "any direction perpendicular to the axis is a shortest way out";
}

TYPED_TEST(ContactRound, ParallelCapsules) {
  using T = TypeParam;
  const double e = hand_error<T>();
  // Side by side, 1.5 apart, radii 0.5 and 0.25: apart by 0.75.
  const Capsule<T> b{{0, 0, 0}, {0, 0, 4}, T(0.5)};
  const Contact<T> c = contact(Capsule<T>{{T(1.5), 0, 1}, {T(1.5), 0, 3}, T(0.25)}, b, T(1));
  ASSERT_TRUE(IsWellFormed(c, e));
  EXPECT_NEAR(c.depth, -0.75, e);
  EXPECT_NEAR(distance(to_double(c.normal), Vec3d{1, 0, 0}), 0, e);
  EXPECT_NEAR(c.point_on_a.x, 1.25, e);
  EXPECT_NEAR(c.point_on_b.x, 0.5, e);
  EXPECT_NEAR(c.point_on_a.z, c.point_on_b.z, e);
  EXPECT_GE(c.point_on_a.z, 1 - e);
  EXPECT_LE(c.point_on_a.z, 3 + e);
  // End to end along a common line: the caps meet.
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{0, 0, 5}, {0, 0, 7}, T(0.5)}, b), {{0, 0, 4.5}, {0, 0, 4.5}, {0, 0, 1}, 0}, e));
  // Collinear and overlapping: a fixed direction perpendicular to the axis, depth = the radii.
  const Contact<T> inside = contact(Capsule<T>{{0, 0, 1}, {0, 0, 2}, T(0.25)}, b);
  ASSERT_TRUE(IsWellFormed(inside, e));
  EXPECT_NEAR(inside.depth, 0.75, e);
  EXPECT_NEAR(inside.normal.z, 0, e);
}

TYPED_TEST(ContactRound, CrossingCapsules) {
  using T = TypeParam;
  const double e = hand_error<T>();
  const Capsule<T> b{{0, -2, 0}, {0, 2, 0}, T(0.5)};
  // Along x, 0.1 above B's axis: the normal is +z, depth 1 - 0.1.
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{-2, 0, T(0.1)}, {2, 0, T(0.1)}, T(0.5)}, b),
                        {{0, 0, -0.4}, {0, 0, 0.5}, {0, 0, 1}, 0.9}, e));
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{-2, 0, T(-0.1)}, {2, 0, T(-0.1)}, T(0.5)}, b),
                        {{0, 0, 0.4}, {0, 0, -0.5}, {0, 0, -1}, 0.9}, e));
  // Axes that meet: the plane's normal, oriented from B's centre to A's where that decides.
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{-2, 1, 1}, {2, 1, 1}, T(0.5)}, Capsule<T>{{0, -2, 1}, {0, 2, 1}, T(0.5)}),
                        {{0, 1, 0.5}, {0, 1, 1.5}, {0, 0, 1}, 1}, e))
      << "A's centre (0, 1, 1) and B's (0, 0, 1) lie in the plane: the cross product's sign stands";
}

TYPED_TEST(ContactRound, CrossingCapsulesKeepAnExactNormalInTheLimit) {
  using T = TypeParam;
  // Axes passing 1e-6 apart away from the origin: the points' difference is mostly rounding (in
  // float, the gap is below the coordinates' resolution), the cross product of the axes is not.
  const Vec3<T> o{100, -50, 25};
  const Vec3<T> u = normalize(Vec3<T>{1, 2, 0}), v = normalize(Vec3<T>{-2, 1, 0});
  const T gap = T(1e-6);
  const Capsule<T> b{o - v * T(3), o + v * T(3), T(0.5)};
  const Capsule<T> a{o - u * T(3) + Vec3<T>{0, 0, gap}, o + u * T(3) + Vec3<T>{0, 0, gap}, T(0.5)};
  const Contact<T> c = contact(a, b);
  ASSERT_TRUE(IsWellFormed(c, hand_error<T>(200)));
  // In double the gap is resolved and decides the side; in float either side of the plane is right.
  const double side = std::is_same_v<T, double> ? 1.0 : (c.normal.z < 0 ? -1.0 : 1.0);
  EXPECT_LE(angle_between(to_double(c.normal), {0, 0, side}), hand_error<T>(4)) << describe(c);
  EXPECT_NEAR(c.depth, 1 - 1e-6, hand_error<T>(200));
}

TYPED_TEST(ContactRound, EndOfOneCapsuleOnTheOthersAxis) {
  using T = TypeParam;
  const double e = hand_error<T>();
  // A's end (0, 0, 0) lies on B's axis (along y): the points meet; the normal is that of the
  // plane of the two axes.
  const Contact<T> c = contact(Capsule<T>{{0, 0, 0}, {3, 0, 0}, T(0.5)}, Capsule<T>{{0, -2, 0}, {0, 2, 0}, T(0.5)});
  ASSERT_TRUE(IsWellFormed(c, e));
  EXPECT_NEAR(c.depth, 1, e);
  EXPECT_NEAR(std::abs(c.normal.z), 1, e);
}

TYPED_TEST(ContactRound, SizesTenThousandApart) {
  using T = TypeParam;
  // A grain (radius 1e-2) against a column of radius 100 and length 200 (size 200: the tolerance
  // is 2e-3 in float).
  const Vec3<T> o{3, 2, -1};
  const Capsule<T> column{o + Vec3<T>{0, 0, -100}, o + Vec3<T>{0, 0, 100}, 100};
  const T r = T(0.01);
  for (const double gap : {5e-3, -5e-3, 0.02}) {
    const Sphere<T> grain{o + Vec3<T>{0, T(100 + 0.01 + gap), 17}, r};
    const Contact<T> c = contact(grain, column, T(0.05));
    ASSERT_TRUE(IsWellFormed(c, hand_error<T>(200)));
    ASSERT_TRUE(c.touching);
    EXPECT_NEAR(c.depth, -gap, hand_error<T>(200)) << "gap " << gap;
    EXPECT_LE(angle_between(to_double(c.normal), {0, 1, 0}), hand_error<T>(4));
    EXPECT_EQ(overlap(grain, column), gap < 0) << "gap " << gap;
    // The same grain as a capsule against the column.
    const Capsule<T> rod{grain.center, grain.center + Vec3<T>{T(0.01), 0, 0}, r};
    EXPECT_EQ(overlap(rod, column), gap < 0) << "gap " << gap;
    EXPECT_NEAR(contact(rod, column, T(0.05)).depth, -gap, hand_error<T>(200));
  }
  // And a tiny capsule touched by a huge sphere.
  const Capsule<T> needle{{0, 0, 0}, {0, 0, T(0.02)}, T(0.001)};
  EXPECT_TRUE(overlap(Sphere<T>{{T(10.0005), 0, T(0.01)}, 10}, needle));
  EXPECT_FALSE(overlap(Sphere<T>{{T(10.002), 0, T(0.01)}, 10}, needle));
}

TYPED_TEST(ContactRound, DegenerateShapes) {
  using T = TypeParam;
  const double e = hand_error<T>();
  // A point capsule is a sphere.
  const Capsule<T> ball{{1, 2, 3}, {1, 2, 3}, T(0.5)};
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{1, 2, 5}, T(0.5)}, ball, T(2)), {{1, 2, 4.5}, {1, 2, 3.5}, {0, 0, 1}, -1}, e));
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{1, 2, 5}, {1, 2, 5}, T(0.5)}, ball, T(2)), {{1, 2, 4.5}, {1, 2, 3.5}, {0, 0, 1}, -1}, e));
  // Coincident points: +z.
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{1, 2, 3}, 1}, ball), {{1, 2, 2}, {1, 2, 3.5}, {0, 0, 1}, 1.5}, e));
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{1, 2, 3}, {1, 2, 3}, 1}, ball), {{1, 2, 2}, {1, 2, 3.5}, {0, 0, 1}, 1.5}, e));
  // Zero radii: segments and points touch only where they meet.
  EXPECT_TRUE(overlap(Capsule<T>{{-1, 0, 0}, {1, 0, 0}, 0}, Capsule<T>{{0, -1, 0}, {0, 1, 0}, 0}));
  EXPECT_FALSE(overlap(Capsule<T>{{-1, 0, T(0.01)}, {1, 0, T(0.01)}, 0}, Capsule<T>{{0, -1, 0}, {0, 1, 0}, 0}));
  const Contact<T> cross = contact(Capsule<T>{{-1, 0, 0}, {1, 0, 0}, 0}, Capsule<T>{{0, -1, 0}, {0, 1, 0}, 0});
  EXPECT_TRUE(IsContact(cross, {{0, 0, 0}, {0, 0, 0}, {0, 0, 1}, 0}, e));
  EXPECT_TRUE(overlap(Sphere<T>{{0, 0, T(0.5)}, 0}, upright<T>()));
  // Negative or NaN radii touch nothing.
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (const T r : {T(-1), nan}) {
    EXPECT_FALSE(overlap(Sphere<T>{{0, 0, 0}, r}, upright<T>()));
    EXPECT_FALSE(contact(Sphere<T>{{0, 0, 0}, r}, upright<T>()).touching);
    EXPECT_FALSE(overlap(Capsule<T>{{0, 0, 0}, {1, 0, 0}, r}, upright<T>()));
    EXPECT_FALSE(contact(upright<T>(), Capsule<T>{{0, 0, 0}, {1, 0, 0}, r}).touching);
  }
  // NaN and infinite coordinates never touch and never trap.
  EXPECT_FALSE(contact(Sphere<T>{{nan, 0, 0}, 1}, upright<T>()).touching);
  EXPECT_FALSE(contact(Capsule<T>{{0, 0, 0}, {nan, 0, 0}, 1}, upright<T>()).touching);
  // An infinite coordinate: unspecified, but a touching contact still has finite unit normals.
  const Contact<T> infinite = contact(Capsule<T>{{kInfinity<T>, 0, 0}, {0, 0, 0}, 1}, upright<T>());
  if (infinite.touching) {
    EXPECT_TRUE(is_finite(infinite.normal) && std::abs(length(infinite.normal) - 1) < 1e-6);
  }
}

TYPED_TEST(ContactRound, NaNAnywhereTouchesNothing) {
  using T = TypeParam;
  const Sphere<T> sphere{{0, T(0.5), 0}, 1};
  const Capsule<T> capsule{{-1, T(0.2), 0}, {1, T(0.3), 0}, T(0.5)};
  ASSERT_TRUE(overlap(sphere, upright<T>()) && overlap(capsule, upright<T>()));
  for_each_nan_field<T>(sphere, [&](const Sphere<T>& v, std::size_t k) {
    EXPECT_FALSE(overlap(v, upright<T>())) << k;
    EXPECT_FALSE(contact(v, upright<T>(), T(1)).touching) << k;
  });
  for_each_nan_field<T>(capsule, [&](const Capsule<T>& v, std::size_t k) {
    EXPECT_FALSE(overlap(v, upright<T>())) << k;
    EXPECT_FALSE(contact(v, upright<T>(), T(1)).touching) << k;
    EXPECT_FALSE(overlap(sphere, v)) << k;
    EXPECT_FALSE(contact(sphere, v, T(1)).touching) << k;
    EXPECT_FALSE(contact(upright<T>(), v, T(1)).touching) << k;
  });
}

TYPED_TEST(ContactRound, NegativeMarginCountsAsZero) {
  using T = TypeParam;
  const Sphere<T> s{{T(1.9), 0, 0}, 1};
  EXPECT_TRUE(contact(s, upright<T>(), T(-1)).touching);
  EXPECT_EQ(contact(s, upright<T>(), T(-1)).depth, contact(s, upright<T>()).depth);
}

// ---- random cases against the reference ------------------------------------------------------

/// A random segment of length 0 (3%) to 6, around the origin.
Segment<double> random_segment(Rng& rng, double extent) {
  const Vec3d a = rng.in_cube(extent);
  if (rng.chance(0.03)) return {a, a};
  return {a, a + rng.unit_vector() * rng.log_uniform(0.01, 6)};
}

template <Real T>
void check_random_pair(Rng& rng, bool sphere, long& checked) {
  const Segment<double> sb = random_segment(rng, 3);
  Segment<double> sa = random_segment(rng, 4);
  if (sphere) sa.b = sa.a;
  if (!sphere && rng.chance(0.1) && sb.a != sb.b) {  // parallel to B, sometimes overlapping it
    const Vec3d along = normalize(sb.b - sb.a);
    sa.b = sa.a + along * rng.uniform(-4, 4);
  }
  const T ra = rng.chance(0.03) ? T(0) : T(rng.log_uniform(0.01, 2));
  const T rb = rng.chance(0.03) ? T(0) : T(rng.log_uniform(0.01, 2));
  const Capsule<T> b{from_double<T>(sb.a), from_double<T>(sb.b), rb};
  const Capsule<T> a{from_double<T>(sa.a), from_double<T>(sa.b), ra};
  const Sphere<T> as{a.a, ra};
  // The reference on the values the kernel sees.
  const PointPair ref = segment_pair(to_double(a.a), to_double(a.b), to_double(b.a), to_double(b.b));
  const double separation = ref.distance - double(ra) - double(rb);
  const double scale = std::max({1.0, max_component(abs(ref.on_a)), max_component(abs(ref.on_b)), double(ra), double(rb),
                                 distance(to_double(a.a), to_double(a.b)), distance(to_double(b.a), to_double(b.b))});
  const double err = ContactError<T>::distance * scale;
  const std::string what = (sphere ? "sphere " + describe(as) : "capsule " + describe(a)) + " vs " + describe(b);

  const Contact<T> c = sphere ? contact(as, b, kInfinity<T>) : contact(a, b, kInfinity<T>);
  ASSERT_TRUE(c.touching) << what;
  ASSERT_TRUE(IsWellFormed(c, 4 * err)) << what;
  ASSERT_NEAR(double(c.depth), -separation, err) << what;
  // The points: at A's radius from A's segment and B's from B's.
  const Vec3d pa = to_double(c.point_on_a), pb = to_double(c.point_on_b);
  ASSERT_NEAR(distance(pa, closest_on_segment(to_double(a.a), to_double(a.b), pa)), double(ra), 4 * err) << what;
  ASSERT_NEAR(distance(pb, closest_on_segment(to_double(b.a), to_double(b.b), pb)), double(rb), 4 * err) << what;
  // The normal is unique where the segments are apart; it is the direction between the points.
  if (ref.distance > 1e-2 * scale) {
    ASSERT_LE(angle_between(to_double(c.normal), ref.on_a - ref.on_b), ContactError<T>::angle) << what << "\n" << describe(c);
  }
  // overlap() and contact() with no margin agree bit for bit; both agree with the reference away
  // from the tolerance band.
  const ContactTolerance<T> tol{};
  const T size = max(sphere ? ra : ra + T(0.5) * length(a.b - a.a), rb + T(0.5) * length(b.b - b.a));
  const bool o = sphere ? overlap(as, b, tol) : overlap(a, b, tol);
  ASSERT_EQ(o, (sphere ? contact(as, b) : contact(a, b)).touching) << what;
  const double band = double(tol.at_size(size));
  if (std::abs(separation - band) > err) {
    ASSERT_EQ(o, separation < band) << what;
  }
  ++checked;
}

TYPED_TEST(ContactRound, RandomSphereCapsulePairsMatchTheReference) {
  Rng rng(0x5ca9u);
  long checked = 0;
  for (int i = 0; i < 20000 && !::testing::Test::HasFatalFailure(); ++i) check_random_pair<TypeParam>(rng, true, checked);
  EXPECT_EQ(checked, 20000);
}

TYPED_TEST(ContactRound, RandomCapsulePairsMatchTheReference) {
  Rng rng(0xca95u);
  long checked = 0;
  for (int i = 0; i < 20000 && !::testing::Test::HasFatalFailure(); ++i) check_random_pair<TypeParam>(rng, false, checked);
  EXPECT_EQ(checked, 20000);
}

}  // namespace
}  // namespace hitscan
