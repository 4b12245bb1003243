// Capsule vs oriented box: hand-worked cases (face, edge, corner, lying flat, deep, rotated 45°,
// exact in the limit, sizes 10⁴ apart, degenerate shapes) and seeded random cases against the
// double-precision references: golden-section search along the segment when apart, the brute
// convex hull of the Minkowski difference when the segment meets the box.

#include "hitscan/geometry/contact_capsule_box.hpp"

#include <gtest/gtest.h>

#include "geometry/reference_round_contacts.hpp"

namespace hitscan {
namespace {

using namespace reference;

template <class T>
class ContactCapsuleBox : public ::testing::Test {};
TYPED_TEST_SUITE(ContactCapsuleBox, Reals, RealNames);

/// Axis-aligned box around the origin with half extents (1, 2, 3).
template <Real T>
Obb<T> brick() {
  return {{0, 0, 0}, {1, 2, 3}, Mat3<T>::identity()};
}

TYPED_TEST(ContactCapsuleBox, LyingFlatOnAFaceTouchesHalfWayAlongIt) {
  using T = TypeParam;
  const double e = hand_error<T>();
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{T(-0.5), 0, 4}, {T(0.5), 0, 4}, T(0.5)}, brick<T>(), T(1)),
                        {{0, 0, 3.5}, {0, 0, 3}, {0, 0, 1}, -0.5}, e));
  // Overhanging the edge x = 1: the flat part is x in [0, 1], its middle x = 0.5.
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{0, 0, 4}, {4, 0, 4}, 1}, brick<T>()), {{0.5, 0, 3}, {0.5, 0, 3}, {0, 0, 1}, 0}, e));
  EXPECT_TRUE(overlap(Capsule<T>{{0, 0, 4}, {4, 0, 4}, 1}, brick<T>()));
}

TYPED_TEST(ContactCapsuleBox, EdgeAndCornerRegions) {
  using T = TypeParam;
  const double e = hand_error<T>();
  const double s = std::sqrt(0.5);
  // Along y beside the edge x = 1, z = 3, one unit out on both axes.
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{2, -1, 4}, {2, 1, 4}, T(0.5)}, brick<T>(), T(2)),
                        {{2 - 0.5 * s, 0, 4 - 0.5 * s}, {1, 0, 3}, {s, 0, s}, 0.5 - std::sqrt(2.0)}, e));
  // An end nearest the corner (1, 2, 3).
  const double r3 = 1 / std::sqrt(3.0);
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{2, 3, 4}, {5, 6, 7}, T(0.25)}, brick<T>(), T(2)),
                        {{2 - 0.25 * r3, 3 - 0.25 * r3, 4 - 0.25 * r3}, {1, 2, 3}, {r3, r3, r3}, 0.25 - std::sqrt(3.0)}, e));
  // The segment passing by the corner diagonally: closest at its middle.
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{3, 2, 3}, {1, 4, 3}, T(0.5)}, brick<T>(), T(2)),
                        {{2 - 0.5 * s, 3 - 0.5 * s, 3}, {1, 2, 3}, {s, s, 0}, 0.5 - std::sqrt(2.0)}, e));
}

TYPED_TEST(ContactCapsuleBox, TouchingJustApartAndMargin) {
  using T = TypeParam;
  const double e = hand_error<T>();
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{T(1.5), -1, 0}, {T(1.5), 1, 1}, T(0.5)}, brick<T>()),
                        {{1, 0, 0.5}, {1, 0, 0.5}, {1, 0, 0}, 0}, e));
  EXPECT_FALSE(overlap(Capsule<T>{{T(1.501), -1, 0}, {T(1.501), 1, 1}, T(0.5)}, brick<T>()));
  EXPECT_FALSE(contact(Capsule<T>{{T(1.501), -1, 0}, {T(1.501), 1, 1}, T(0.5)}, brick<T>()).touching);
  EXPECT_TRUE(contact(Capsule<T>{{T(1.501), -1, 0}, {T(1.501), 1, 1}, T(0.5)}, brick<T>(), T(0.01)).touching);
}

TYPED_TEST(ContactCapsuleBox, DeepSegmentsUseTheShallowestAxis) {
  using T = TypeParam;
  const double e = hand_error<T>();
  // Straight through the middle along z: out through the nearest side face, x = 1.
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{0, 0, -5}, {0, 0, 5}, T(0.25)}, brick<T>()),
                        {{-0.25, 0, 0}, {1, 0, 0}, {1, 0, 0}, 1.25}, e));
  // In through the top, its end 0.8 below it: out through the top.
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{0, 0, T(2.2)}, {0, 0, 5}, T(0.5)}, brick<T>()),
                        {{0, 0, 1.7}, {0, 0, 3}, {0, 0, 1}, 1.3}, e));
  // A sphere (a == b) inside: the nearest face and the true depth.
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{T(0.5), 0, 0}, {T(0.5), 0, 0}, T(0.25)}, brick<T>()),
                        {{0.25, 0, 0}, {1, 0, 0}, {1, 0, 0}, 0.75}, e));
  // Cutting off the edge x = 1, y = 2 (parallel to z) along the line x + y = 2.5: out along the
  // cross-product axis (segment x box z axis), the direction (1, 1, 0) / sqrt(2), by the distance
  // between the lines x + y = 2.5 and x + y = 3.
  const double s = std::sqrt(0.5);
  const Contact<T> c = contact(Capsule<T>{{0, T(2.5), 0}, {2, T(0.5), 0}, T(0.1)}, brick<T>());
  ASSERT_TRUE(IsWellFormed(c, e));
  EXPECT_NEAR(distance(to_double(c.normal), Vec3d{s, s, 0}), 0, e) << describe(c);
  EXPECT_NEAR(c.depth, 0.1 + 0.5 * s, e);
}

TYPED_TEST(ContactCapsuleBox, RotatedFortyFiveDegrees) {
  using T = TypeParam;
  const double e = hand_error<T>(4);
  const T c45 = T(std::sqrt(0.5));
  const Obb<T> diamond{{0, 0, 0}, {1, 1, 1}, Mat3<T>::from_columns({c45, c45, 0}, {-c45, c45, 0}, {0, 0, 1})};
  // Its vertical edge points along +x, at x = sqrt(2).
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{2, 0, T(-0.5)}, {2, 0, T(0.5)}, T(0.5)}, diamond, T(1)),
                        {{1.5, 0, 0}, {std::sqrt(2.0), 0, 0}, {1, 0, 0}, 0.5 - (2 - std::sqrt(2.0))}, e));
  // Lying along its face x + y = sqrt(2) (centre (c, c, 0), c = sqrt(0.5)), 0.5 out.
  const Vec3<T> face_center = diamond.rotation.col[0], along = diamond.rotation.col[1];
  const Vec3<T> core = face_center * T(1.5);
  const Contact<T> f = contact(Capsule<T>{core - along * T(0.5), core + along * T(0.5), T(0.25)}, diamond, T(1));
  const double c = std::sqrt(0.5);
  EXPECT_TRUE(IsContact(f, {{1.25 * c, 1.25 * c, 0}, {c, c, 0}, {c, c, 0}, -0.25}, e));
}

TYPED_TEST(ContactCapsuleBox, ExactInTheLimit) {
  using T = TypeParam;
  const bool single = std::is_same_v<T, float>;
  const double gap = single ? 1e-5 : 1e-11;
  const double e = single ? 1e-6 : 1e-14;
  // Parallel to the top face, gap above the capsule's reach.
  const Contact<T> flat = contact(Capsule<T>{{T(-0.5), 0, T(3.5 + gap)}, {T(0.5), 0, T(3.5 + gap)}, T(0.5)}, brick<T>(), T(1));
  EXPECT_NEAR(flat.depth, -gap, e);
  EXPECT_EQ(flat.normal, (Vec3<T>{0, 0, 1}));
  EXPECT_FALSE(overlap(Capsule<T>{{T(-0.5), 0, T(3.501)}, {T(0.5), 0, T(3.501)}, T(0.5)}, brick<T>()));
  // Tilted by gap over its length: the lower end decides.
  const Contact<T> tilt = contact(Capsule<T>{{-1, 0, T(3.5 + gap)}, {1, 0, T(3.5 + 2 * gap)}, T(0.5)}, brick<T>(), T(1));
  EXPECT_NEAR(tilt.depth, -gap, e);
  EXPECT_NEAR(tilt.point_on_a.x, -1, e);
  // Grazing the edge x = 1, z = 3 diagonally, gap out.
  const double s = std::sqrt(0.5);
  const Vec3<T> edge_out{T(1 + (0.5 + gap) * s), 0, T(3 + (0.5 + gap) * s)};
  const Contact<T> graze = contact(Capsule<T>{edge_out - Vec3<T>{0, 1, 0}, edge_out + Vec3<T>{0, 1, 0}, T(0.5)}, brick<T>(), T(1));
  EXPECT_NEAR(graze.depth, -gap, 4 * e);
  EXPECT_LE(angle_between(to_double(graze.normal), {s, 0, s}), single ? 1e-3 : 1e-9);
  // Just inside the face: depth = radius + how far the segment's end is in.
  const Contact<T> in = contact(Capsule<T>{{0, 0, T(3 - gap)}, {0, 0, 5}, T(0.5)}, brick<T>());
  EXPECT_NEAR(in.depth, 0.5 + gap, e);
  EXPECT_EQ(in.normal, (Vec3<T>{0, 0, 1}));
}

TYPED_TEST(ContactCapsuleBox, SizesTenThousandApart) {
  using T = TypeParam;
  // A grain of a capsule (radius 1e-3, length 2e-3) against a box of half extent 10: the
  // tolerance is 1e-4 in float.
  Rng rng(7);
  const Obb<T> big{{T(5), T(-3), T(2)}, {10, 10, 10}, random_rotation<T>(rng)};
  const Vec3<T> face_point = big.center + big.rotation * Vec3<T>{T(3), T(-2), 10};
  const Vec3<T> up = big.rotation.col[2], along = big.rotation.col[0];
  for (const double gap : {5e-4, -5e-4, 2e-3}) {
    const Vec3<T> c = face_point + up * T(1e-3 + gap);
    const Capsule<T> grain{c - along * T(1e-3), c + along * T(1e-3), T(1e-3)};
    EXPECT_EQ(overlap(grain, big), gap < 0) << "gap " << gap;
    const Contact<T> k = contact(grain, big, T(1e-2));
    ASSERT_TRUE(IsWellFormed(k, hand_error<T>(20)));
    EXPECT_NEAR(k.depth, -gap, hand_error<T>(20)) << "gap " << gap;
    EXPECT_LE(angle_between(to_double(k.normal), to_double(up)), 1e-4);
  }
  // And a small box against a capsule of radius 10.
  const Obb<T> speck{{0, 0, T(10.0015)}, {T(1e-3), T(1e-3), T(1e-3)}, Mat3<T>::identity()};
  EXPECT_FALSE(overlap(Capsule<T>{{-5, 0, 0}, {5, 0, 0}, 10}, speck));
  EXPECT_TRUE(overlap(Capsule<T>{{-5, 0, T(0.001)}, {5, 0, T(0.001)}, 10}, speck));
}

TYPED_TEST(ContactCapsuleBox, DegenerateShapes) {
  using T = TypeParam;
  const double e = hand_error<T>();
  // A flat box (zero height) and a point box.
  const Obb<T> tile{{0, 0, 0}, {1, 1, 0}, Mat3<T>::identity()};
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{0, 0, 1}, {0, 0, 2}, T(0.5)}, tile, T(1)), {{0, 0, 0.5}, {0, 0, 0}, {0, 0, 1}, -0.5}, e));
  const Contact<T> through = contact(Capsule<T>{{T(0.2), 0, -1}, {T(0.2), 0, 1}, T(0.1)}, tile);
  ASSERT_TRUE(IsWellFormed(through, e));
  EXPECT_NEAR(through.depth, 0.9, e) << "out along x, the shallowest way: " << describe(through);
  const Obb<T> dot_box{{1, 1, 1}, {0, 0, 0}, Mat3<T>::identity()};
  EXPECT_TRUE(IsContact(contact(Capsule<T>{{1, 1, 3}, {1, 1, 5}, 1}, dot_box, T(2)), {{1, 1, 2}, {1, 1, 1}, {0, 0, 1}, -1}, e));
  // Zero radius: the segment itself.
  EXPECT_TRUE(overlap(Capsule<T>{{1, 0, 0}, {5, 0, 0}, 0}, brick<T>()));
  EXPECT_FALSE(overlap(Capsule<T>{{T(1.01), 0, 0}, {5, 0, 0}, 0}, brick<T>()));
  // Invalid radii and extents touch nothing; NaN never traps.
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (const T bad : {T(-1), nan}) {
    EXPECT_FALSE(overlap(Capsule<T>{{0, 0, 0}, {1, 0, 0}, bad}, brick<T>()));
    EXPECT_FALSE(contact(Capsule<T>{{0, 0, 0}, {1, 0, 0}, 1}, Obb<T>{{0, 0, 0}, {1, bad, 1}, {}}).touching);
  }
  EXPECT_FALSE(contact(Capsule<T>{{nan, 0, 0}, {1, 0, 0}, 1}, brick<T>()).touching);
  EXPECT_FALSE(overlap(Capsule<T>{{0, 0, 0}, {1, 0, 0}, 1}, Obb<T>{{nan, 0, 0}, {1, 1, 1}, {}}));
}

TYPED_TEST(ContactCapsuleBox, NaNAnywhereTouchesNothing) {
  using T = TypeParam;
  Rng rng(5);
  const Obb<T> box{{0, 0, T(0.5)}, {1, 2, 3}, random_rotation<T>(rng)};
  const Capsule<T> capsule{{-2, 0, 0}, {2, 1, 0}, T(0.5)};
  ASSERT_TRUE(overlap(capsule, box));
  for_each_nan_field<T>(capsule, [&](const Capsule<T>& v, std::size_t k) {
    EXPECT_FALSE(overlap(v, box)) << k;
    EXPECT_FALSE(contact(v, box, T(1)).touching) << k;
  });
  for_each_nan_field<T>(box, [&](const Obb<T>& v, std::size_t k) {
    EXPECT_FALSE(overlap(capsule, v)) << k;
    EXPECT_FALSE(contact(capsule, v, T(1)).touching) << k;
  });
}

// ---- random cases against the reference ------------------------------------------------------

/// How many random cases fell in each regime.
struct Regimes {
  long deep = 0, apart = 0, touching = 0;
};

template <Real T>
void check_random_capsule_box(Rng& rng, Regimes& seen) {
  Obb<T> box;
  box.center = from_double<T>(rng.in_cube(2));
  box.half_extents = from_double<T>({rng.log_uniform(0.05, 3), rng.log_uniform(0.05, 3), rng.log_uniform(0.05, 3)});
  if (rng.chance(0.05)) box.half_extents = with_component(box.half_extents, int(rng.uniform(0, 3)), T(0));
  box.rotation = rng.chance(0.2) ? Mat3<T>::identity() : random_rotation<T>(rng);
  const Vec3d a = to_double(box.center) + rng.in_ball(0.5 + length(to_double(box.half_extents)));
  Vec3d dir = rng.unit_vector();
  if (rng.chance(0.15)) dir = to_double(box.rotation.col[int(rng.uniform(0, 3))]);  // parallel to a face
  const Vec3d b = rng.chance(0.03) ? a : a + dir * rng.log_uniform(0.01, 6);
  const Capsule<T> capsule{from_double<T>(a), from_double<T>(b), rng.chance(0.03) ? T(0) : T(rng.log_uniform(0.01, 1.5))};
  const std::string what = describe(capsule) + " vs " + describe(box);

  const Obb<double> box_d = to_double(box);
  const Vec3d a0 = to_double(capsule.a), a1 = to_double(capsule.b);
  const double r = capsule.radius;
  const HullDepth hull = hull_depth(box_minus_segment(box_d, a0, a1));
  const PointPair apart = segment_box(a0, a1, box_d);
  const double scale = std::max({1.0, max_component(abs(a0)), max_component(abs(a1)), max_component(abs(box_d.center)),
                                 max_component(box_d.half_extents), r});
  const double err = ContactError<T>::distance * scale;
  const ContactTolerance<T> tol{};
  const double size = std::max(r + 0.5 * distance(a0, a1), max_component(box_d.half_extents));
  const double slack = double(tol.at_size(T(size)));

  const Contact<T> c = contact(capsule, box, kInfinity<T>);
  ASSERT_TRUE(c.touching) << what;
  ASSERT_TRUE(IsWellFormed(c, 4 * err)) << what;
  const Vec3d n = to_double(c.normal), pa = to_double(c.point_on_a), pb = to_double(c.point_on_b);
  if (hull.inside && hull.depth > 0) {
    ++seen.deep;
    // Deep: the least depth over all directions, give or take the preference for face axes.
    ASSERT_GE(double(c.depth), r + hull.depth - err) << what << "\n" << describe(c);
    ASSERT_LE(double(c.depth), r + hull.depth + slack + err) << what << "\n" << describe(c);
    // And the depth really is what it takes to clear the box along the normal.
    ASSERT_NEAR(double(c.depth), r + overlap_along_box_segment(box_d, a0, a1, n), 4 * err) << what;
  } else {
    ++seen.apart;
    ASSERT_NEAR(double(c.depth), r - apart.distance, err) << what << "\n" << describe(c);
    if (apart.distance > 1e-2 * scale) {
      ASSERT_LE(angle_between(n, apart.on_a - apart.on_b), ContactError<T>::angle) << what << "\n" << describe(c);
      ASSERT_NEAR(distance(pb, closest_on_box(box_d, pb)), 0, 4 * err) << "point_on_b on the box: " << what;
      ASSERT_NEAR(distance(pa + n * r, closest_on_segment(a0, a1, pa + n * r)), 0, 4 * err) << what;
    }
  }
  const bool o = overlap(capsule, box, tol);
  ASSERT_EQ(o, contact(capsule, box).touching) << what;
  seen.touching += o;
  const double separation = hull.inside ? -(r + hull.depth) : apart.distance - r;
  if (std::abs(separation - slack) > err) {
    ASSERT_EQ(o, separation < slack) << what;
  }
}

TYPED_TEST(ContactCapsuleBox, RandomCasesMatchTheReferences) {
  Rng rng(0xb0c5u);
  Regimes seen;
  for (int i = 0; i < 4000 && !::testing::Test::HasFatalFailure(); ++i) check_random_capsule_box<TypeParam>(rng, seen);
  std::printf("capsule vs box: %ld segments inside, %ld apart, %ld touching\n", seen.deep, seen.apart, seen.touching);
  EXPECT_GT(seen.deep, 150);
  EXPECT_GT(seen.touching, 600);
  EXPECT_GT(seen.apart, 1500);
}

}  // namespace
}  // namespace hitscan
