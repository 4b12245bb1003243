// Sphere against sphere, Aabb and Obb: hand-worked cases, and seeded random cases compared with the
// double-precision references of reference_contacts.hpp (a point against six face rectangles).

#include "hitscan/geometry/contact_sphere_box.hpp"

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
class ContactSphereBox : public ::testing::Test {};
TYPED_TEST_SUITE(ContactSphereBox, Reals, RealNames);

/// Hand-worked cases: results of size about 1 to within a few roundings.
template <Real T>
constexpr double hand() {
  return std::is_same_v<T, float> ? 2e-6 : 1e-13;
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
double tolerance_at(double size) {
  return ContactTolerance<T>{}.at_size(T(size));
}

// ---- sphere vs sphere ----------------------------------------------------------------------------------

TYPED_TEST(ContactSphereBox, SpheresTouchOverlapAndSeparateAlongTheLineOfCentres) {
  using T = TypeParam;
  const Sphere<T> a{{0, 0, 0}, 1};
  EXPECT_TRUE(overlap(a, Sphere<T>{{3, 0, 0}, 2}));
  EXPECT_TRUE(IsContact(contact(a, Sphere<T>{{3, 0, 0}, 2}), {true, {-1, 0, 0}, 0, {1, 0, 0}, {1, 0, 0}}));
  EXPECT_TRUE(IsContact(contact(a, Sphere<T>{{0, T(2.5), 0}, 2}), {true, {0, -1, 0}, 0.5, {0, 1, 0}, {0, 0.5, 0}}));
  // 3-4-5: apart by 3, touching only with a margin of at least 3.
  const Sphere<T> far{{3, 4, 0}, 1};
  EXPECT_FALSE(overlap(a, far));
  EXPECT_TRUE(IsContact(contact(a, far, T(3)), {true, {-0.6, -0.8, 0}, -3, {0.6, 0.8, 0}, {2.4, 3.2, 0}}));
  EXPECT_FALSE(contact(a, far, T(2.9)).touching);
  // Within the tolerance counts; a gap well beyond it does not.
  EXPECT_TRUE(overlap(a, Sphere<T>{{T(3 + 0.5 * tolerance_at<T>(2)), 0, 0}, 2}));
  EXPECT_FALSE(overlap(a, Sphere<T>{{T(3.001), 0, 0}, 2}));
}

TYPED_TEST(ContactSphereBox, CoincidentCentresGiveAUnitNormal) {
  using T = TypeParam;
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{1, 2, 3}, 1}, Sphere<T>{{1, 2, 3}, T(0.5)}), {true, {0, 0, 1}, 1.5, {1, 2, 2}, {1, 2, 3.5}}));
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{1, 2, 3}, 0}, Sphere<T>{{1, 2, 3}, 0}), {true, {0, 0, 1}, 0, {1, 2, 3}, {1, 2, 3}}));
}

TYPED_TEST(ContactSphereBox, RandomSpherePairsMatchTheDistanceOfCentres) {
  using T = TypeParam;
  Rng rng(0x5e7e5u);
  for (int i = 0; i < 20000; ++i) {
    const Sphere<T> a{from_double<T>(rng.in_cube(3)), T(rng.log_uniform(0.01, 3))};
    const Vec3d dir = rng.unit_vector();
    const double gap = rng.chance(0.3) ? rng.uniform(-2, 2) * tolerance_at<T>(3) : rng.uniform(-1, 1);
    const Sphere<T> b{from_double<T>(to_double(a.center) + dir * (double(a.radius) + 2 + gap)), 2};
    const double separation = distance(to_double(a.center), to_double(b.center)) - double(a.radius) - 2;
    const double tolerance = tolerance_at<T>(2), band = accuracy<T>() * 8;
    const bool touching = overlap(a, b);
    if (touching != (separation <= tolerance)) {
      ASSERT_LE(std::abs(separation - tolerance), band) << i;
    }
    const Contact<T> c = contact(a, b, T(4));
    ASSERT_EQ(contact(a, b).touching, touching) << i;
    ASSERT_NEAR(c.depth, -separation, band) << i;
    ASSERT_LE(distance(to_double(c.normal), -dir), band) << i;
    ASSERT_NEAR(dot(to_double(c.point_on_b) - to_double(c.point_on_a), to_double(c.normal)), c.depth, band) << i;
  }
}

// ---- sphere vs axis-aligned box -------------------------------------------------------------------------

TYPED_TEST(ContactSphereBox, SphereAgainstAabbFacesEdgesAndCorners) {
  using T = TypeParam;
  const Aabb<T> box{{-1, -2, -3}, {1, 2, 3}};
  // Touching the +x face, and just apart from it (1e-3 is far beyond the tolerance at size 3).
  EXPECT_TRUE(overlap(Sphere<T>{{2, 0, 0}, 1}, box));
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{2, 0, 0}, 1}, box), {true, {1, 0, 0}, 0, {1, 0, 0}, {1, 0, 0}}));
  EXPECT_FALSE(overlap(Sphere<T>{{T(2.001), 0, 0}, 1}, box));
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{T(2.001), 0, 0}, 1}, box, T(0.01)), {true, {1, 0, 0}, -0.001, {1.001, 0, 0}, {1, 0, 0}}));
  // Beside the edge x = 1, y = 2: the closest point is on the edge, the normal diagonal.
  const double s = std::sqrt(0.5);
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{2, 3, 0}, T(1.5)}, box), {true, {s, s, 0}, 1.5 - std::sqrt(2.0), {2 - 1.5 * s, 3 - 1.5 * s, 0}, {1, 2, 0}}));
  // Beyond the corner (1, 2, 3) by (1, 1, 1).
  const double t = 1 / std::sqrt(3.0);
  EXPECT_FALSE(overlap(Sphere<T>{{2, 3, 4}, T(1.7)}, box));
  EXPECT_TRUE(overlap(Sphere<T>{{2, 3, 4}, T(1.75)}, box));
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{2, 3, 4}, 1}, box, T(1)), {true, {t, t, t}, 1 - std::sqrt(3.0), {2 - t, 3 - t, 4 - t}, {1, 2, 3}}));
}

TYPED_TEST(ContactSphereBox, CentreInsideAabbGetsTheNearestFaceAndTheTrueDepth) {
  using T = TypeParam;
  const Aabb<T> box{{-1, -2, -3}, {1, 2, 3}};
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{T(0.5), 0, 0}, T(0.25)}, box), {true, {1, 0, 0}, 0.75, {0.25, 0, 0}, {1, 0, 0}}));
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{0, T(-1.5), T(0.2)}, 1}, box), {true, {0, -1, 0}, 1.5, {0, -0.5, 0.2}, {0, -2, 0.2}}));
  // Deep: at the centre the x faces tie; the lowest axis and its max face win.
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{0, 0, 0}, T(0.5)}, box), {true, {1, 0, 0}, 1.5, {-0.5, 0, 0}, {1, 0, 0}}));
  // On the surface: depth is the radius, the normal the face's.
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{0, 0, 3}, 1}, box), {true, {0, 0, 1}, 1, {0, 0, 2}, {0, 0, 3}}));
}

TYPED_TEST(ContactSphereBox, FlatAndInvalidBoxes) {
  using T = TypeParam;
  // A square of zero thickness in z = 0.
  const Aabb<T> plate{{-1, -1, 0}, {1, 1, 0}};
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{0, 0, T(0.5)}, 1}, plate), {true, {0, 0, 1}, 0.5, {0, 0, -0.5}, {0, 0, 0}}));
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{0, 0, T(-0.5)}, 1}, plate), {true, {0, 0, -1}, 0.5, {0, 0, 0.5}, {0, 0, 0}}));
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{0, 0, 0}, 1}, plate), {true, {0, 0, 1}, 1, {0, 0, -1}, {0, 0, 0}}));
  // A point box and a point sphere.
  EXPECT_TRUE(overlap(Sphere<T>{{1, 0, 0}, 1}, Aabb<T>::from_point({0, 0, 0})));
  EXPECT_TRUE(overlap(Sphere<T>{{0, 0, 0}, 0}, Aabb<T>::from_point({0, 0, 0})));
  EXPECT_FALSE(overlap(Sphere<T>{{T(0.01), 0, 0}, 0}, Aabb<T>::from_point({0, 0, 0})));
  // Invalid boxes, radii and half extents touch nothing.
  const T nan = std::numeric_limits<T>::quiet_NaN();
  EXPECT_FALSE(overlap(Sphere<T>{{0, 0, 0}, 100}, Aabb<T>::empty()));
  EXPECT_FALSE(contact(Sphere<T>{{0, 0, 0}, 100}, Aabb<T>::empty()).touching);
  EXPECT_FALSE(overlap(Sphere<T>{{0, 0, 0}, 100}, Aabb<T>{{0, 0, 0}, {nan, 1, 1}}));
  EXPECT_FALSE(overlap(Sphere<T>{{0, 0, 0}, -1}, plate));
  EXPECT_FALSE(overlap(Sphere<T>{{0, 0, 0}, nan}, plate));
  EXPECT_FALSE(overlap(Sphere<T>{{nan, 0, 0}, 1}, plate));
  EXPECT_FALSE(contact(Sphere<T>{{nan, 0, 0}, 1}, plate).touching);
  EXPECT_FALSE(overlap(Sphere<T>{{0, 0, 0}, 1}, Obb<T>{{0, 0, 0}, {1, -1, 1}, {}}));
  EXPECT_FALSE(overlap(Sphere<T>{{0, 0, 0}, 1}, Obb<T>{{0, 0, 0}, {1, nan, 1}, {}}));
  EXPECT_FALSE(overlap(Sphere<T>{{0, nan, 0}, 1}, Obb<T>{}));
  EXPECT_FALSE(sphere_inside(Sphere<T>{{0, nan, 0}, 0}, Obb<T>{}));
  EXPECT_FALSE(sphere_inside(Sphere<T>{{0, 0, 0}, -1}, Aabb<T>{{-1, -1, -1}, {1, 1, 1}}));
}

// ---- sphere vs oriented box -----------------------------------------------------------------------------

TYPED_TEST(ContactSphereBox, SphereAgainstBoxRotated45Degrees) {
  using T = TypeParam;
  // A unit cube turned 45° about z: its vertical edge at +x lies sqrt(2) from the centre.
  const Obb<T> box = Obb<T>::from_quat({1, 2, 3}, {1, 1, 1}, Quat<T>::from_axis_angle({0, 0, 1}, kPi<T> / 4));
  const double r2 = std::sqrt(2.0), s = std::sqrt(0.5);
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{T(1 + r2 + 0.5), 2, 3}, T(0.5)}, box), {true, {1, 0, 0}, 0, {1 + r2, 2, 3}, {1 + r2, 2, 3}}));
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{T(1 + r2 + 0.4), 2, 3}, T(0.5)}, box), {true, {1, 0, 0}, 0.1, {1 + r2 - 0.1, 2, 3}, {1 + r2, 2, 3}}));
  EXPECT_FALSE(overlap(Sphere<T>{{T(1 + r2 + 0.51), 2, 3}, T(0.5)}, box));
  // Facing the face whose normal is (1, 1, 0) / sqrt(2), 0.3 beyond the sphere's reach.
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{T(1 + 1.8 * s), T(2 + 1.8 * s), 3}, T(0.5)}, box, 1),
                        {true, {s, s, 0}, -0.3, {1 + 1.3 * s, 2 + 1.3 * s, 3}, {1 + s, 2 + s, 3}}));
  // Centre inside, 0.3 below that face: depth 0.3 + radius.
  EXPECT_TRUE(IsContact(contact(Sphere<T>{{T(1 + 0.7 * s), T(2 + 0.7 * s), 3}, T(0.1)}, box),
                        {true, {s, s, 0}, 0.4, {1 + 0.6 * s, 2 + 0.6 * s, 3}, {1 + s, 2 + s, 3}}));
}

/// The sphere-box drivers: a random box (rotated unless axis_aligned) with its centre within its
/// own size of the origin (the tolerance is relative to the shapes' size, so coordinates must not
/// dwarf it), and a sphere with its centre inside, near the surface, or anywhere around.
template <Real T, bool kAxisAligned>
void run_sphere_box_against_reference(std::uint32_t seed, int cases) {
  Rng rng(seed);
  int mismatches = 0, near_tolerance = 0, inside_cases = 0;
  double worst_depth = 0;
  for (int i = 0; i < cases; ++i) {
    Box ref = rng.box({}, 0.1, 3, 0.05, kAxisAligned);
    ref.center = rng.in_cube(ref.size());
    const Obb<T> obb = obb_of<T>(ref);
    const Aabb<T> aabb = aabb_of<T>(ref);
    ref = kAxisAligned ? box_of(aabb) : box_of(obb);  // what the kernel sees, in double
    const double r = rng.chance(0.03) ? 0.0 : rng.log_uniform(0.05, 3);
    const double tolerance = tolerance_at<T>(std::max(r, ref.size()));
    Vec3d c;
    const double pick = rng.uniform();
    if (pick < 0.2) {
      c = ref.world({rng.uniform(-1, 1) * ref.half.x, rng.uniform(-1, 1) * ref.half.y, rng.uniform(-1, 1) * ref.half.z});
    } else if (pick < 0.7) {
      // Outside the surface point nearest a random point, at a separation about the tolerance or r.
      const PointBox p = point_vs_box(ref, ref.center + rng.in_cube(2 * ref.size() + r));
      const double gap = rng.chance(0.5) ? rng.uniform(-1, 3) * tolerance : rng.uniform(-0.5, 1) * r;
      c = p.nearest + p.normal * std::max(0.0, r + gap);
    } else {
      c = ref.center + rng.in_cube(2 * ref.size() + 2 * r);
    }
    const Sphere<T> sphere{from_double<T>(c), T(r)};
    c = to_double(sphere.center);
    const PointBox p = point_vs_box(ref, c);
    const double separation = p.signed_distance - r;
    const double band = accuracy<T>() * std::max({length(c), length(ref.center) + length(ref.half), r});
    near_tolerance += std::abs(separation - tolerance) < 4 * tolerance;
    inside_cases += p.signed_distance < 0;

    const bool touching = kAxisAligned ? overlap(sphere, aabb) : overlap(sphere, obb);
    if (touching != (separation <= tolerance) && std::abs(separation - tolerance) > band) {
      ADD_FAILURE() << "case " << i << ": overlap " << touching << ", reference separation " << separation;
      if (++mismatches > 10) return;
    }
    const Contact<T> k = kAxisAligned ? contact(sphere, aabb, T(100)) : contact(sphere, obb, T(100));
    const Contact<T> k0 = kAxisAligned ? contact(sphere, aabb) : contact(sphere, obb);
    ASSERT_EQ(k0.touching, touching) << "case " << i;
    ASSERT_TRUE(k.touching) << "case " << i;
    worst_depth = std::max(worst_depth, std::abs(k.depth + separation) / band);
    ASSERT_NEAR(k.depth, -separation, band) << "case " << i << " " << describe(k);
    ASSERT_NEAR(length(to_double(k.normal)), 1, band) << "case " << i;
    ASSERT_NEAR(dot(to_double(k.point_on_b) - to_double(k.point_on_a), to_double(k.normal)), k.depth, band) << "case " << i;
    ASSERT_LE(distance(to_double(k.point_on_a), c - to_double(k.normal) * r), band) << "case " << i;
    // The normal and the box's point, where the reference's are unambiguous.
    if (p.signed_distance > 1e3 * band || (p.signed_distance < -band && p.second - (-p.signed_distance) > band)) {
      const double direction_error = p.signed_distance > 0 ? band / p.signed_distance : band;
      ASSERT_LE(distance(to_double(k.normal), p.normal), 4 * direction_error) << "case " << i << " " << describe(k);
      ASSERT_LE(distance(to_double(k.point_on_b), p.nearest), band) << "case " << i << " " << describe(k);
    }
    // Inside: the centre at least r behind every face plane, up to the tolerance.
    double beyond_faces = -kInf;
    for (const Face& f : faces(ref)) beyond_faces = std::max(beyond_faces, dot(c - f.center, f.normal) + r);
    const bool inside_kernel = kAxisAligned ? sphere_inside(sphere, aabb) : sphere_inside(sphere, obb);
    if (inside_kernel != (beyond_faces <= tolerance) && std::abs(beyond_faces - tolerance) > band) {
      ADD_FAILURE() << "case " << i << ": sphere_inside " << inside_kernel << ", reference " << beyond_faces;
      if (++mismatches > 10) return;
    }
  }
  std::printf("[ sphere vs %s, %s ] %d cases, %d within 4 tolerances of touching, %d centres inside; "
              "worst depth error %.2f of the band\n",
              kAxisAligned ? "aabb" : "obb", std::is_same_v<T, float> ? "float" : "double", cases, near_tolerance,
              inside_cases, worst_depth);
}

TYPED_TEST(ContactSphereBox, RandomSpheresAndAabbsMatchTheFaceRectangleReference) {
  run_sphere_box_against_reference<TypeParam, true>(0xabbu, 30000);
}

TYPED_TEST(ContactSphereBox, RandomSpheresAndObbsMatchTheFaceRectangleReference) {
  run_sphere_box_against_reference<TypeParam, false>(0x0bbu, 30000);
}

TYPED_TEST(ContactSphereBox, TouchingSpheresDoNotFlicker) {
  using T = TypeParam;
  // A sphere placed exactly against a face, an edge or a corner (in double), then rounded to T:
  // it touches in every case, and 3 tolerances further out it never does.
  Rng rng(0xf11cu);
  for (int i = 0; i < 20000; ++i) {
    Box ref = rng.box({}, 0.1, 3, 0.05);
    ref.center = rng.in_cube(ref.size());
    const Vec3d l{rng.uniform(-1, 1) * ref.half.x, rng.uniform(-1, 1) * ref.half.y, rng.uniform(-1, 1) * ref.half.z};
    // Push 1, 2 or 3 coordinates onto their faces; the outward normal is a positive mix of theirs.
    const int features = 1 + static_cast<int>(rng.uniform(0, 2.999));
    const int first = static_cast<int>(rng.uniform(0, 2.999));
    Vec3d local = l, normal{};
    for (int f = 0; f < features; ++f) {
      const int k = (first + f) % 3;
      const double sign = rng.chance(0.5) ? 1 : -1;
      local = with(local, k, sign * ref.half[k]);
      normal = normal + ref.axis[k] * (sign * rng.uniform(0.1, 1));
    }
    normal = normalize(normal);
    const double r = rng.log_uniform(0.05, 3);
    const double tolerance = tolerance_at<T>(std::max(r, ref.size()));
    const Obb<T> box = obb_of<T>(ref);
    const Sphere<T> resting{from_double<T>(ref.world(local) + normal * r), T(r)};
    const Sphere<T> lifted{from_double<T>(ref.world(local) + normal * (r + 3 * tolerance)), T(r)};
    ASSERT_TRUE(overlap(resting, box)) << i;
    const Contact<T> c = contact(resting, box);
    ASSERT_TRUE(c.touching) << i;
    ASSERT_LE(std::abs(c.depth), tolerance) << i;
    ASSERT_FALSE(overlap(lifted, box)) << i;
  }
}

TYPED_TEST(ContactSphereBox, SizesFourOrdersOfMagnitudeApart) {
  using T = TypeParam;
  Rng rng(0x10000u);
  for (int i = 0; i < 2000; ++i) {
    // A sphere of radius 0.01 against a box of half extents 100, and a sphere of radius 100
    // against a box of half extents 0.01; apart or overlapping by half the small size.
    const bool small_sphere = i % 2 == 0;
    const double small = 0.01, big = 100;
    Box ref = rng.box({}, small_sphere ? big : small, small_sphere ? big : small, 0);
    const Obb<T> box = obb_of<T>(ref);
    ref = box_of(box);
    const double r = small_sphere ? small : big;
    const PointBox p = point_vs_box(ref, ref.center + rng.unit_vector() * (3 * ref.size() + r));
    const double gap = (rng.chance(0.5) ? 0.5 : -0.5) * small;
    const Sphere<T> sphere{from_double<T>(p.nearest + p.normal * (r + gap)), T(r)};
    const double separation = point_vs_box(ref, to_double(sphere.center)).signed_distance - r;
    ASSERT_EQ(overlap(sphere, box), gap < 0) << i << " separation " << separation;
    ASSERT_EQ(overlap(sphere, CachedObb<T>::from_obb(box)), gap < 0) << i;
    ASSERT_NEAR(contact(sphere, box, T(1)).depth, -separation, 0.02 * small) << i;
  }
}

TYPED_TEST(ContactSphereBox, SphereInsideBoxes) {
  using T = TypeParam;
  const Aabb<T> box{{-1, -2, -3}, {1, 2, 3}};
  EXPECT_TRUE(sphere_inside(Sphere<T>{{0, 0, 0}, 1}, box));  // inscribed: touches the x faces from inside
  EXPECT_FALSE(sphere_inside(Sphere<T>{{0, 0, 0}, T(1.001)}, box));
  EXPECT_TRUE(sphere_inside(Sphere<T>{{0, T(1.5), T(2.5)}, T(0.5)}, box));
  EXPECT_FALSE(sphere_inside(Sphere<T>{{0, T(1.5), T(2.6)}, T(0.5)}, box));
  EXPECT_TRUE(sphere_inside(Sphere<T>{{1, 2, 3}, 0}, box));  // a point on a corner
  EXPECT_FALSE(sphere_inside(Sphere<T>{{0, 0, 0}, T(0.1)}, Aabb<T>{{-1, -1, 0}, {1, 1, 0}}));
  // Turned 45°, the cube's inscribed sphere is still inside; one that fits the axis-aligned
  // bounds of the turned cube is not.
  const Obb<T> turned = Obb<T>::from_quat({5, 0, 0}, {1, 1, 1}, Quat<T>::from_axis_angle({0, 0, 1}, kPi<T> / 4));
  EXPECT_TRUE(sphere_inside(Sphere<T>{{5, 0, 0}, 1}, turned));
  EXPECT_FALSE(sphere_inside(Sphere<T>{{T(5.1), 0, 0}, 1}, turned));
  EXPECT_FALSE(sphere_inside(Sphere<T>{{5, 0, 0}, T(1.2)}, turned));
}

TYPED_TEST(ContactSphereBox, DriftedRotationNeedsReorthonormalising) {
  using T = TypeParam;
  // A tilted box spinning about its own z axis at 1 rad/s for ten seconds, integrated at 60 Hz by
  // the explicit update R += dt w x R without repair. Each step is a rotation by atan(dt) times a
  // stretch by sqrt(1 + dt²) across w, so the x and y axes end (1 + dt²)^300 = 1.087 times too
  // long while still pointing the right way.
  const Mat3<T> start = Mat3<T>::from_quat(Quat<T>::from_euler({T(0.3), T(-0.7), T(1.1)}));
  const Vec3<T> w = start.col[2];
  const T dt = T(1) / T(60);
  Mat3<T> drifted = start;
  for (int step = 0; step < 600; ++step) {
    for (Vec3<T>& axis : drifted.col) axis = axis + cross(w, axis) * dt;
  }
  ASSERT_NEAR(length(drifted.col[0]), 1.087, 1e-3);
  const Mat3<T> intended = Mat3<T>::from_quat(Quat<T>::from_axis_angle(w, T(600 * std::atan(1.0 / 60)))) * start;
  const Obb<T> box{{0, 0, 0}, {2, 1, T(0.5)}, drifted};

  // A sphere overlapping the intended box by 0.1 beyond its +x face.
  const Sphere<T> sphere{intended.col[0] * T(2.4), T(0.5)};
  ASSERT_TRUE(overlap(sphere, Obb<T>{{0, 0, 0}, box.half_extents, intended}));
  // Taken as it is, the drifted frame stretches the sphere's local coordinates by 8.7 %: 2.4
  // becomes 2.61, and the overlap is reported as a gap of 0.11.
  EXPECT_FALSE(overlap(sphere, box));
  EXPECT_NEAR(contact(sphere, box).depth, 0.1 - 2.4 * 0.087, 2e-3);
  // Re-orthonormalised (CachedObb does it), the answer is right again.
  const CachedObb<T> repaired = CachedObb<T>::from_obb(box);
  EXPECT_TRUE(overlap(sphere, repaired));
  EXPECT_NEAR(contact(sphere, repaired.box).depth, 0.1, 1e-4);
  EXPECT_NEAR(repaired.circumradius, std::sqrt(4 + 1 + 0.25), 1e-6);
}

TYPED_TEST(ContactSphereBox, NonUniformScaleMatchesTheEllipsoidInTheLocalFrame) {
  using T = TypeParam;
  Rng rng(0x5ca1eu);
  int touching_count = 0;
  for (int i = 0; i < 5000; ++i) {
    const Vec3d lo = rng.in_cube(2), size{rng.uniform(0, 3), rng.uniform(0, 3), rng.uniform(0, 3)};
    const Aabb<T> local{from_double<T>(lo), from_double<T>(lo + size)};
    Vec3d scale{};
    for (int k = 0; k < 3; ++k) scale = with(scale, k, (rng.chance(0.5) ? -1 : 1) * rng.log_uniform(0.2, 3));
    const Vec3d axis = rng.unit_vector();
    const Transform<T> transform{Quat<T>::from_axis_angle(from_double<T>(axis), T(rng.uniform(0, 6.3))),
                                 from_double<T>(rng.in_cube(3)), from_double<T>(scale)};
    const Obb<T> box = obb_from_scaled_box(local, transform);
    // The box's corners are the transformed corners of the local box.
    const Box world = box_of(box), body = box_of(local);
    const double band = accuracy<T>() * 30;
    for (const Vec3d& corner : corners(body)) {
      const Vec3d mapped = to_double(transform.apply_point(from_double<T>(corner)));
      double nearest = kInf;
      for (const Vec3d& w : corners(world)) nearest = std::min(nearest, distance(w, mapped));
      ASSERT_LE(nearest, band) << i;
    }
    // In the local frame the sphere is the ellipsoid sum s_i² (x_i - c_i)² <= r², and the least of
    // that sum over the box is sum s_i² e_i², e the centre's excess beyond the box on each axis:
    // the world-space squared distance, axis by axis.
    const Sphere<T> sphere{from_double<T>(world.center + rng.in_cube(length(world.half) + 1)), T(rng.log_uniform(0.1, 3))};
    const Vec3d c = to_double(transform.inverse_point(sphere.center));
    double d2 = 0;
    for (int k = 0; k < 3; ++k) {
      const double e = std::max({body.center[k] - body.half[k] - c[k], c[k] - body.center[k] - body.half[k], 0.0});
      d2 += scale[k] * scale[k] * e * e;
    }
    const double separation = std::sqrt(d2) - double(sphere.radius);
    const double tolerance = tolerance_at<T>(std::max(double(sphere.radius), world.size()));
    const bool touching = overlap(sphere, box);
    touching_count += touching;
    if (touching != (separation <= tolerance)) {
      ASSERT_LE(std::abs(separation - tolerance), band) << i;
    }
    if (d2 > 0) {
      ASSERT_NEAR(contact(sphere, box, T(20)).depth, -separation, band) << i;
    }
  }
  EXPECT_GT(touching_count, 500);
  EXPECT_LT(touching_count, 4500);
  // A zero scale flattens the box; an invalid local box stays invalid.
  const Obb<T> flat = obb_from_scaled_box(Aabb<T>{{-1, -1, -1}, {1, 1, 1}}, Transform<T>{{}, {}, {2, 0, 1}});
  EXPECT_EQ(flat.half_extents, (Vec3<T>{2, 0, 1}));
  EXPECT_TRUE(overlap(Sphere<T>{{0, T(0.5), 0}, T(0.5)}, flat));
  EXPECT_FALSE(overlap(Sphere<T>{{0, 0, 0}, 10}, obb_from_scaled_box(Aabb<T>::empty(), Transform<T>{})));
}

TYPED_TEST(ContactSphereBox, TwoStageTestEqualsTheExactTest) {
  using T = TypeParam;
  Rng rng(0x257u);
  int rejected = 0, touching = 0;
  for (int i = 0; i < 50000; ++i) {
    Box ref = rng.box({}, 0.01, 3, 0.1);
    ref.center = rng.in_cube(3);
    const CachedObb<T> cached = CachedObb<T>::from_obb(obb_of<T>(ref));
    const double r = rng.chance(0.05) ? 0.0 : rng.log_uniform(0.01, 3);
    const double tolerance = tolerance_at<T>(std::max(r, ref.size()));
    // Often right at the bounding sphere, where the rejection decides (towards a corner, where the
    // exact test is on its own boundary too), or at the box's surface.
    const Vec3d dir = rng.chance(0.3) ? normalize(corners(ref)[static_cast<int>(rng.uniform(0, 7.999))] - ref.center)
                                      : rng.unit_vector();
    const double reach = double(cached.circumradius) + r + tolerance;
    Vec3d c = ref.center + dir * (reach * (1 + rng.uniform(-1, 1) * 1e-6));
    if (rng.chance(0.3)) {
      const PointBox p = point_vs_box(ref, ref.center + dir * reach);
      c = p.nearest + p.normal * (r + rng.uniform(-2, 2) * tolerance);
    }
    const Sphere<T> sphere{from_double<T>(c), T(r)};
    const bool exact = overlap(sphere, cached.box);
    ASSERT_EQ(overlap(sphere, cached), exact) << i;
    touching += exact;
    rejected += distance_squared(sphere.center, cached.box.center) > square(sphere.radius + cached.circumradius + T(tolerance));
  }
  EXPECT_GT(rejected, 10000);
  EXPECT_GT(touching, 5000);
}

}  // namespace
}  // namespace hitscan
