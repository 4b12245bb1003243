// Sphere and capsule casts on hand-worked geometry: head-on, grazing a box's edge and corner,
// parallel to a face, moving away, max_distance just short and just long, starting in contact
// and deep inside, degenerate capsules, and invalid input. Float and double. The random
// differential cases against the independent reference are in sweep_random_test.cpp.

#include "hitscan/geometry/sweep.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "geometry/reference_shapes.hpp"
#include "geometry/sweep_assertions.hpp"

namespace hitscan {
namespace {

using reference::IsHit;

template <class T>
class Sweep : public ::testing::Test {};
TYPED_TEST_SUITE(Sweep, reference::Reals, reference::RealNames);

/// Hand-worked answers hold to a few ulps of the case's size, and the advancement pairs to the
/// contact tolerance (1e-5 relative in float, 1e-7 absolute in double) over the approach cosine.
template <Real T>
double hand() {
  return std::is_same_v<T, float> ? 2e-5 : 1e-6;
}

template <Real T>
::testing::AssertionResult IsStart(const SweepHit<T>& h, double depth, Vec3d normal, double e) {
  if (!h.hit || !h.started_in_contact) return ::testing::AssertionFailure() << "not a start in contact";
  if (h.distance != T(0)) return ::testing::AssertionFailure() << "distance " << h.distance;
  const double dn = length(reference::to_double(h.normal) - normal);
  if (std::abs(double(h.depth) - depth) <= e && dn <= e) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "depth " << h.depth << " (want " << depth << "), normal "
                                       << reference::hex(h.normal);
}

template <Real T>
Obb<T> unit_box() {
  return {{0, 0, 0}, {1, 1, 1}, Mat3<T>::identity()};
}

TYPED_TEST(Sweep, SphereHeadOnIntoSphere) {
  using T = TypeParam;
  const auto h = sphere_cast(Sphere<T>{{-5, 0, 0}, 1}, Vec3<T>{1, 0, 0}, T(10), Sphere<T>{{0, 0, 0}, 2});
  EXPECT_TRUE(IsHit(h, 2, {-2, 0, 0}, {-1, 0, 0}, hand<T>()));
  EXPECT_EQ(h.depth, T(0));
}

TYPED_TEST(Sweep, MaxDistanceJustShortMissesJustLongHits) {
  using T = TypeParam;
  const Sphere<T> moving{{-5, 0, 0}, 1}, target{{0, 0, 0}, 2};
  EXPECT_FALSE(sphere_cast(moving, Vec3<T>{1, 0, 0}, T(1.999), target));
  EXPECT_TRUE(IsHit(sphere_cast(moving, Vec3<T>{1, 0, 0}, T(2.001), target), 2, {-2, 0, 0}, {-1, 0, 0}, hand<T>()));
  EXPECT_TRUE(sphere_cast(moving, Vec3<T>{1, 0, 0}, std::numeric_limits<T>::infinity(), target)) << "+inf: no limit";
  // The same for an advancement pair (capsule vs box).
  const Capsule<T> capsule{{-5, 0, -1}, {-5, 0, 1}, T(0.5)};
  EXPECT_FALSE(capsule_cast(capsule, Vec3<T>{1, 0, 0}, T(3.49), unit_box<T>()));
  const SweepHit<T> h = capsule_cast(capsule, Vec3<T>{1, 0, 0}, T(3.51), unit_box<T>());
  ASSERT_TRUE(h);
  EXPECT_NEAR(h.distance, 3.5, hand<T>());
  EXPECT_NEAR(h.normal.x, -1, hand<T>());
  // The capsule lands flat on the face x = -1: any point of the segment's shadow on it will do.
  EXPECT_NEAR(h.point.x, -1, hand<T>());
  EXPECT_LE(std::abs(h.point.z), 1 + hand<T>());
}

TYPED_TEST(Sweep, MovingAwayOrPassingByMisses) {
  using T = TypeParam;
  EXPECT_FALSE(sphere_cast(Sphere<T>{{3, 0, 0}, 1}, Vec3<T>{1, 0, 0}, T(100), Sphere<T>{{0, 0, 0}, 1}));
  EXPECT_FALSE(capsule_cast(Capsule<T>{{3, 0, 0}, {4, 0, 0}, 1}, Vec3<T>{1, 0, 0}, T(100), unit_box<T>()));
  EXPECT_FALSE(capsule_cast(Capsule<T>{{3, 0, 0}, {4, 0, 0}, 1}, Vec3<T>{0, 1, 0}, T(100),
                            Cylinder<T>{{0, 0, -1}, {0, 0, 1}, 1}));
  EXPECT_FALSE(sphere_cast(Sphere<T>{{0, 0, 3}, 1}, Vec3<T>{0, 0, 1}, T(100), Plane<T>{{0, 0, 1}, 0}));
}

// The rounded box: a sphere of radius 0.5 sliding down past the edge x = y = 1 at 0.3 beyond the
// x face touches the edge when its centre is 0.5 from it: (0.3, 0.4) from the edge line.
TYPED_TEST(Sweep, SphereGrazesBoxEdge) {
  using T = TypeParam;
  const auto h = sphere_cast(Sphere<T>{{T(1.3), 5, T(0.2)}, T(0.5)}, Vec3<T>{0, -1, 0}, T(10), unit_box<T>());
  EXPECT_TRUE(IsHit(h, 3.6, {1, 1, 0.2}, {0.6, 0.8, 0}, hand<T>()));
  // 0.5 beyond the face it only grazes; 0.51 beyond it passes.
  EXPECT_FALSE(sphere_cast(Sphere<T>{{T(1.51), 5, 0}, T(0.5)}, Vec3<T>{0, -1, 0}, T(10), unit_box<T>()));
}

TYPED_TEST(Sweep, SphereHitsBoxCornerAlongTheDiagonal) {
  using T = TypeParam;
  const Vec3<T> diagonal = normalize(Vec3<T>{-1, -1, -1});
  const auto h = sphere_cast(Sphere<T>{{5, 5, 5}, T(0.5)}, diagonal, T(10), unit_box<T>());
  const double k = 1 / std::sqrt(3.0);
  EXPECT_TRUE(IsHit(h, 4 * std::sqrt(3.0) - 0.5, {1, 1, 1}, {k, k, k}, hand<T>()));
}

// Entering the grown box through a face outside the face's region (here the y face at x = 1.1):
// the contact is on the edge capsule of x = y = 1, later than the grown box's entry.
TYPED_TEST(Sweep, SphereEnteringGrownBoxBeyondAFaceMeetsTheEdgeCapsule) {
  using T = TypeParam;
  // Along -x with y = 1.6 it stays beyond the grown face y = 1.55: a miss.
  EXPECT_FALSE(sphere_cast(Sphere<T>{{T(1.6), T(1.6), T(0.5)}, T(0.55)}, Vec3<T>{-1, 0, 0}, T(10), unit_box<T>()));
  // Tilted by -0.1 in y: the centre (1.6 - u, 1.6 - 0.1 u, 0.5) meets the edge capsule where
  // (0.6 - u)² + (0.6 - 0.1 u)² = 0.55², at x = 1.063, still beyond the x face.
  const Vec3<T> dir = normalize(Vec3<T>{-1, T(-0.1), 0});
  const auto h = sphere_cast(Sphere<T>{{T(1.6), T(1.6), T(0.5)}, T(0.55)}, dir, T(10), unit_box<T>());
  const double t = [] {
    const double a = 1.01, b = -1.32, c = 0.72 - 0.3025;
    return (-b - std::sqrt(b * b - 4 * a * c)) / (2 * a);
  }();
  const double travelled = t * std::sqrt(1.01);
  const Vec3d centre{1.6 - t, 1.6 - 0.1 * t, 0.5};
  const Vec3d n = normalize(Vec3d{centre.x - 1, centre.y - 1, 0});
  EXPECT_TRUE(IsHit(h, travelled, {1, 1, 0.5}, n, hand<T>()));
}

TYPED_TEST(Sweep, CapsuleParallelToBoxFaceLandsFlat) {
  using T = TypeParam;
  // Lying along x above the top face, falling: touches at distance 5 - 1 - 0.25.
  const auto h = capsule_cast(Capsule<T>{{T(-0.5), 0, 5}, {T(0.5), 0, 5}, T(0.25)}, Vec3<T>{0, 0, -1}, T(10), unit_box<T>());
  ASSERT_TRUE(h);
  EXPECT_NEAR(h.distance, 3.75, hand<T>());
  EXPECT_NEAR(h.normal.z, 1, hand<T>());
  EXPECT_NEAR(h.point.z, 1, hand<T>());
  EXPECT_LE(std::abs(h.point.x), 0.5 + hand<T>()) << "the point is under the capsule";
  // Sliding along the face it rests on, 0.01 above it: never touches.
  EXPECT_FALSE(capsule_cast(Capsule<T>{{-5, 0, T(1.26)}, {-4, 0, T(1.26)}, T(0.25)}, Vec3<T>{1, 0, 0}, T(10), unit_box<T>()));
}

TYPED_TEST(Sweep, StartingInContactReportsDepthAndNormal) {
  using T = TypeParam;
  const double e = hand<T>();
  // Overlapping spheres: depth 0.5, normal from the target to the moving one.
  const auto spheres = sphere_cast(Sphere<T>{{T(2.5), 0, 0}, 1}, Vec3<T>{-1, 0, 0}, T(10), Sphere<T>{{0, 0, 0}, 2});
  EXPECT_TRUE(IsStart(spheres, 0.5, {1, 0, 0}, e));
  EXPECT_NEAR(spheres.point.x, 2, e);
  // Exactly touching, moving away: still blocked at the start (depth 0).
  EXPECT_TRUE(IsStart(sphere_cast(Sphere<T>{{3, 0, 0}, 1}, Vec3<T>{1, 0, 0}, T(10), Sphere<T>{{0, 0, 0}, 2}), 0, {1, 0, 0}, e));
  // Capsule resting on a plane.
  EXPECT_TRUE(IsStart(capsule_cast(Capsule<T>{{0, 0, T(0.5)}, {1, 0, T(0.5)}, T(0.5)}, Vec3<T>{1, 0, 0}, T(10),
                                   Plane<T>{{0, 0, 1}, 0}),
                      0, {0, 0, 1}, e));
  // Capsule vs sphere, the sphere as target: normal from the sphere towards the capsule.
  EXPECT_TRUE(IsStart(capsule_cast(Capsule<T>{{-1, 0, T(1.5)}, {1, 0, T(1.5)}, T(0.75)}, Vec3<T>{0, 0, -1}, T(10),
                                   Sphere<T>{{0, 0, 0}, 1}),
                      0.25, {0, 0, 1}, e));
}

TYPED_TEST(Sweep, StartingDeepInsideUsesTheShortestWayOut) {
  using T = TypeParam;
  const double e = hand<T>();
  // Sphere centre inside the box, nearest the +x face: depth r + 0.8.
  EXPECT_TRUE(IsStart(sphere_cast(Sphere<T>{{T(0.2), 0, 0}, T(0.5)}, Vec3<T>{0, 1, 0}, T(10), unit_box<T>()), 1.3, {1, 0, 0}, e));
  // Sphere centre inside a cylinder, nearest the side.
  EXPECT_TRUE(IsStart(sphere_cast(Sphere<T>{{T(0.7), 0, 0}, T(0.5)}, Vec3<T>{0, 0, 1}, T(10), Cylinder<T>{{0, 0, -2}, {0, 0, 2}, 1}),
                      0.8, {1, 0, 0}, e));
  // ... and nearest the top cap.
  EXPECT_TRUE(IsStart(sphere_cast(Sphere<T>{{0, 0, T(1.8)}, T(0.5)}, Vec3<T>{1, 0, 0}, T(10), Cylinder<T>{{0, 0, -2}, {0, 0, 2}, 1}),
                      0.7, {0, 0, 1}, e));
  // A capsule whose segment pierces a triangle: face normal towards the segment's centre, depth
  // the radius plus how far the lower end lies below.
  const Triangle<T> triangle{{-2, -2, 0}, {2, -2, 0}, {0, 2, 0}};
  EXPECT_TRUE(IsStart(capsule_cast(Capsule<T>{{0, 0, T(-0.25)}, {0, 0, 1}, T(0.1)}, Vec3<T>{1, 0, 0}, T(10), triangle), 0.35,
                      {0, 0, 1}, e));
  // The same against a square polygon (its deepest fan triangle).
  const std::vector<Vec3<T>> square{{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  const ConvexPolygon<T> polygon = ConvexPolygon<T>::make(square).value();
  EXPECT_TRUE(IsStart(capsule_cast(Capsule<T>{{0, 0, T(-0.25)}, {0, 0, 1}, T(0.1)}, Vec3<T>{1, 0, 0}, T(10), polygon), 0.35,
                      {0, 0, 1}, e));
}

// No kernel gives a capsule's segment inside a cylinder a shortest way out: the contact is the
// way back along the path. Upright segment through the axis moving along +x: it clears the
// cylinder (radius 1) with its radius 0.1 after moving back 1.1.
TYPED_TEST(Sweep, CapsuleCoreInsideCylinderBacksOutAlongThePath) {
  using T = TypeParam;
  const auto h = capsule_cast(Capsule<T>{{0, 0, T(-0.5)}, {0, 0, T(0.5)}, T(0.1)}, Vec3<T>{1, 0, 0}, T(10),
                              Cylinder<T>{{0, 0, -2}, {0, 0, 2}, 1});
  EXPECT_TRUE(IsStart(h, 1.1, {-1, 0, 0}, hand<T>()));
  EXPECT_NEAR(h.point.x, -1, hand<T>());
}

TYPED_TEST(Sweep, SphereOntoCylinderSideAndCap) {
  using T = TypeParam;
  const Cylinder<T> c{{0, 0, -1}, {0, 0, 1}, 1};
  EXPECT_TRUE(IsHit(sphere_cast(Sphere<T>{{5, 0, 0}, T(0.5)}, Vec3<T>{-1, 0, 0}, T(10), c), 3.5, {1, 0, 0}, {1, 0, 0}, hand<T>()));
  EXPECT_TRUE(IsHit(sphere_cast(Sphere<T>{{T(0.3), 0, 5}, T(0.5)}, Vec3<T>{0, 0, -1}, T(10), c), 3.5, {0.3, 0, 1}, {0, 0, 1}, hand<T>()));
  // Straight down the axis (the GJK support direction along the axis: a regression for a rim
  // point lifted off the cap by rounding).
  EXPECT_TRUE(IsHit(sphere_cast(Sphere<T>{{0, 0, 5}, T(0.5)}, Vec3<T>{0, 0, -1}, T(10), c), 3.5, {0, 0, 1}, {0, 0, 1}, hand<T>()));
}

TYPED_TEST(Sweep, CapsuleOntoCylinderCap) {
  using T = TypeParam;
  const auto h = capsule_cast(Capsule<T>{{-3, 0, 5}, {T(-0.5), 0, 5}, T(0.25)}, Vec3<T>{0, 0, -1}, T(10),
                              Cylinder<T>{{0, 0, -1}, {0, 0, 1}, 1});
  ASSERT_TRUE(h);
  EXPECT_NEAR(h.distance, 3.75, hand<T>());
  EXPECT_NEAR(h.normal.z, 1, hand<T>());
  EXPECT_NEAR(h.point.z, 1, hand<T>());
  EXPECT_TRUE(h.point.x >= -1 - hand<T>() && h.point.x <= -0.5 + hand<T>()) << h.point.x;
}

// Capsules passing beside a box and a cylinder at a gap from them: a standing capsule (its side
// passes a face or the curved side), a lying one (its cap passes) and a tilted one, along x at
// y = reach + gap, where reach is how far the capsule reaches towards the target along y. A gap
// below zero meets the target; a gap within the contact tolerance still touches the box (a start
// in contact or a contact on the way), while a path tangent to the cylinder's curved side within
// the tolerance may go either way (the advancement's steps shrink with the approach there, as
// sweep_random_test allows for grazes); a gap of a few tolerances passes by. The shapes' sizes
// are about 1, so the tolerance is about 1e-5 in float and 1e-7 in double.
TYPED_TEST(Sweep, CapsulesPassingBesideABoxAndACylinderMeetThemExactlyWhenTheGapCloses) {
  using T = TypeParam;
  const double tol = std::is_same_v<T, float> ? 1.2e-5 : 1.1e-7;
  const Obb<T> box = unit_box<T>();
  const Cylinder<T> cylinder{{0, 0, -1}, {0, 0, 1}, 1};
  struct Pose {
    Vec3<T> half_axis;  // from the capsule's centre to its end b
    T reach;            // how far the capsule reaches along +y and -y from its centre
  };
  const T r = T(0.3);
  const Pose poses[] = {{{0, 0, T(0.6)}, r}, {{0, T(0.6), 0}, T(0.6) + r}, {{T(0.3), T(0.4), T(0.2)}, T(0.4) + r}};
  for (const Pose& pose : poses) {
    for (const double gap : {-1e-3, -10 * tol, 0.0, 0.3 * tol, 3 * tol, 1e-3}) {
      for (const double side : {-1.0, 1.0}) {
        // The box and the cylinder both reach y = +-1.
        const T y = T(side * (1.0 + double(pose.reach) + gap));
        const Vec3<T> centre{-4, y, 0};
        const Capsule<T> capsule{centre - pose.half_axis, centre + pose.half_axis, r};
        for (int target = 0; target < 2; ++target) {
          const SweepHit<T> h = target == 0 ? capsule_cast(capsule, Vec3<T>{1, 0, 0}, T(10), box)
                                            : capsule_cast(capsule, Vec3<T>{1, 0, 0}, T(10), cylinder);
          const std::string what = std::string(target == 0 ? "box" : "cylinder") + ", gap " + std::to_string(gap) +
                                   ", side " + std::to_string(side) + ", half axis " +
                                   std::to_string(pose.half_axis.x) + " " + std::to_string(pose.half_axis.y);
          if (gap < 0.0 || (gap <= 0.3 * tol && target == 0)) {
            EXPECT_TRUE(h.hit) << what;
          } else if (gap > tol) {
            EXPECT_FALSE(h.hit) << what;
          }
        }
      }
    }
  }
  // A sphere passing beside the cylinder likewise.
  for (const double gap : {-1e-3, -10 * tol, 3 * tol, 1e-3}) {
    const SweepHit<T> h =
        sphere_cast(Sphere<T>{{-4, T(1.0 + double(r) + gap), 0}, r}, Vec3<T>{1, 0, 0}, T(10), cylinder);
    EXPECT_EQ(h.hit, gap < 0.0) << "sphere, gap " << gap;
  }
}

TYPED_TEST(Sweep, CapsuleCrossingCapsule) {
  using T = TypeParam;
  // Along x at height 5 falling onto a capsule along y: touch when 5 - s = 0.5 + 0.25.
  const auto h = capsule_cast(Capsule<T>{{-1, 0, 5}, {1, 0, 5}, T(0.5)}, Vec3<T>{0, 0, -1}, T(10),
                              Capsule<T>{{0, -1, 0}, {0, 1, 0}, T(0.25)});
  EXPECT_TRUE(IsHit(h, 4.25, {0, 0, 0.25}, {0, 0, 1}, hand<T>()));
}

TYPED_TEST(Sweep, CapsuleOntoSphereFromAbove) {
  using T = TypeParam;
  // Horizontal capsule falling onto a sphere off its middle: the segment point above the centre
  // meets it when 1.5 above it.
  const auto h = capsule_cast(Capsule<T>{{-1, 0, 5}, {1, 0, 5}, T(0.5)}, Vec3<T>{0, 0, -1}, T(10), Sphere<T>{{T(0.5), 0, 0}, 1});
  EXPECT_TRUE(IsHit(h, 3.5, {0.5, 0, 1}, {0, 0, 1}, hand<T>()));
}

TYPED_TEST(Sweep, TiltedCapsuleOntoPlaneLandsOnItsLowerEnd) {
  using T = TypeParam;
  // Ends at heights 3 and 4, radius 0.5, falling along -z onto z = 1 (plane normal (0,0,2), offset 2):
  // lower end meets at 3 - 0.5 - 1 = 1.5.
  const auto h = capsule_cast(Capsule<T>{{0, 0, 3}, {1, 0, 4}, T(0.5)}, Vec3<T>{0, 0, -1}, T(10), Plane<T>{{0, 0, 2}, 2});
  EXPECT_TRUE(IsHit(h, 1.5, {0, 0, 1}, {0, 0, 1}, hand<T>()));
  // From below the plane, moving up: the back face, normal -z, upper end first.
  const auto below = capsule_cast(Capsule<T>{{0, 0, -3}, {1, 0, -2}, T(0.5)}, Vec3<T>{0, 0, 1}, T(10), Plane<T>{{0, 0, 1}, 1});
  EXPECT_TRUE(IsHit(below, 2.5, {1, 0, 1}, {0, 0, -1}, hand<T>()));
}

// Found by fuzz_capi (fuzz/regressions/fuzz_capi/sphere_cast_along_a_plane_tilted_by_a_denormal_hits_at_infinity):
// a path tilted by e toward the plane x = 2 meets it at (2 - r) / e, which for a tiny e lies
// beyond the largest finite float; that is a miss, not a hit at infinity.
TYPED_TEST(Sweep, PathsNearlyParallelToAPlaneMissWhenTheContactIsBeyondTheLargestFiniteDistance) {
  using T = TypeParam;
  const Vec3<T> up{0, 0, 1};
  const T inf = std::numeric_limits<T>::infinity();
  for (const int exponent : {-126, -128}) {
    SCOPED_TRACE(exponent);
    const T e = std::ldexp(T(1), exponent);
    const Plane<T> plane{{1, 0, e}, 2};  // |n| rounds to 1
    const double at = std::ldexp(1.5, -exponent);  // exact in double, 1.28e38 and 5.1e38
    const auto sphere = sphere_cast(Sphere<T>{{0, 0, 0}, T(0.5)}, up, inf, plane);
    const auto capsule = capsule_cast(Capsule<T>{{0, 0, 0}, {0, 1, 0}, T(0.5)}, up, inf, plane);
    if (at > std::numeric_limits<T>::max()) {
      EXPECT_FALSE(sphere.hit) << sphere.distance;
      EXPECT_FALSE(capsule.hit) << capsule.distance;
      continue;
    }
    for (const auto& h : {sphere, capsule}) {
      ASSERT_TRUE(h.hit);
      EXPECT_FALSE(h.started_in_contact);
      EXPECT_NEAR(double(h.distance) / at, 1.0, 1e-6);
      EXPECT_EQ(h.normal, (Vec3<T>{-1, 0, -e}));
    }
  }
}

TYPED_TEST(Sweep, SphereOntoTriangleFaceEdgeAndAlongItsPlane) {
  using T = TypeParam;
  const Triangle<T> t{{-2, -2, 0}, {2, -2, 0}, {0, 2, 0}};
  // Face, from the back side.
  EXPECT_TRUE(IsHit(sphere_cast(Sphere<T>{{0, 0, -5}, T(0.5)}, Vec3<T>{0, 0, 1}, T(10), t), 4.5, {0, 0, 0}, {0, 0, -1}, hand<T>()));
  // Edge y = -2, from beside it in the plane: moving along +y, touches the edge at distance 4.5.
  EXPECT_TRUE(IsHit(sphere_cast(Sphere<T>{{0, -7, 0}, T(0.5)}, Vec3<T>{0, 1, 0}, T(10), t), 4.5, {0, -2, 0}, {0, -1, 0}, hand<T>()));
  // Parallel to the plane, above the slab: never reaches it.
  EXPECT_FALSE(sphere_cast(Sphere<T>{{0, -7, T(0.6)}, T(0.5)}, Vec3<T>{0, 1, 0}, T(100), t));
  // Falling next to the triangle, beside its slab face: misses.
  EXPECT_FALSE(sphere_cast(Sphere<T>{{5, 0, 5}, T(0.5)}, Vec3<T>{0, 0, -1}, T(100), t));
}

TYPED_TEST(Sweep, SphereOntoPolygonVertex) {
  using T = TypeParam;
  const std::vector<Vec3<T>> square{{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  const ConvexPolygon<T> polygon = ConvexPolygon<T>::make(square).value();
  // Along the diagonal of the plane towards the corner (1, 1, 0).
  const Vec3<T> dir = normalize(Vec3<T>{-1, -1, 0});
  const auto h = sphere_cast(Sphere<T>{{4, 4, 0}, T(0.5)}, dir, T(10), polygon);
  const double k = 1 / std::sqrt(2.0);
  EXPECT_TRUE(IsHit(h, 3 * std::sqrt(2.0) - 0.5, {1, 1, 0}, {k, k, 0}, hand<T>()));
}

// A capsule with a == b is a sphere: every target answers as the sphere cast does.
// A capsule against a triangle, one case per feature of their sum, worked by hand. The triangle
// stands in the plane y = 0 with its top edge along x at z = 0 (or its apex at the origin); the
// capsule falls along -z.
TYPED_TEST(Sweep, CapsuleOntoTriangleByEachFeature) {
  using T = TypeParam;
  const Vec3<T> down{0, 0, -1};
  const Triangle<T> top_edge{{-1, 0, 0}, {1, 0, 0}, {0, 0, -2}};
  // The segment's inside across the top edge's inside: it crosses the plane y = 0 above the edge
  // and touches it when 5 - s = 0.5.
  EXPECT_TRUE(IsHit(capsule_cast(Capsule<T>{{0, -1, 5}, {0, 1, 5}, T(0.5)}, down, T(10), top_edge), 4.5, {0, 0, 0},
                    {0, 0, 1}, hand<T>()));
  // Slanted in the plane x = 0.25, the segment's line (0.25, y, 5 + y - s) and the edge's line
  // (x, 0, 0) lie |5 - s| / sqrt(2) apart along their common normal (0, -1, 1) / sqrt(2); the
  // closest points, (0.25, 0, 0) on the edge and y = -(5 - s) / 2 on the segment, lie within both.
  {
    const Capsule<T> slanted{{T(0.25), -1, 4}, {T(0.25), 1, 6}, T(0.5)};
    const double s = 5 - 0.5 * std::sqrt(2.0);
    EXPECT_TRUE(IsHit(capsule_cast(slanted, down, T(10), top_edge), s, {0.25, 0, 0},
                      {0, -1 / std::sqrt(2.0), 1 / std::sqrt(2.0)}, hand<T>()));
  }
  // An end onto the edge: the segment stays at y >= 0.2, so its lower end meets the edge's
  // capsule when 0.2^2 + z^2 = 0.5^2.
  const double z = std::sqrt(0.25 - 0.04);
  EXPECT_TRUE(IsHit(capsule_cast(Capsule<T>{{0, T(0.2), 5}, {0, 3, 5}, T(0.5)}, down, T(10), top_edge), 5 - z,
                    {0, 0, 0}, {0, 0.2 / 0.5, z / 0.5}, hand<T>()));
  // A corner onto the segment's inside: the apex at the origin meets the capsule along y.
  const Triangle<T> apex{{-1, 0, -2}, {1, 0, -2}, {0, 0, 0}};
  EXPECT_TRUE(IsHit(capsule_cast(Capsule<T>{{0, -1, 5}, {0, 1, 5}, T(0.5)}, down, T(10), apex), 4.5, {0, 0, 0},
                    {0, 0, 1}, hand<T>()));
  // The lower end onto the face of a level triangle, the capsule tilted.
  const Triangle<T> level{{-2, -2, 0}, {2, -2, 0}, {0, 2, 0}};
  EXPECT_TRUE(IsHit(capsule_cast(Capsule<T>{{0, 0, 3}, {T(0.5), 0, 4}, T(0.5)}, down, T(10), level), 2.5, {0, 0, 0},
                    {0, 0, 1}, hand<T>()));
  // Level and parallel to the face, both ends beyond it: the inside lands across the face, where
  // any point of the segment's shadow on it will do.
  {
    const SweepHit<T> flat = capsule_cast(Capsule<T>{{-5, 0, 3}, {5, 0, 3}, T(0.5)}, down, T(10), level);
    ASSERT_TRUE(flat.hit);
    EXPECT_FALSE(flat.started_in_contact);
    EXPECT_NEAR(double(flat.distance), 2.5, hand<T>());
    EXPECT_NEAR(length(reference::to_double(flat.normal) - Vec3d{0, 0, 1}), 0.0, hand<T>());
    EXPECT_NEAR(double(flat.point.y), 0.0, hand<T>());
    EXPECT_NEAR(double(flat.point.z), 0.0, hand<T>());
    EXPECT_LE(std::abs(double(flat.point.x)), 1 + hand<T>()) << "on the face, under the segment";
  }
  // Moving away from the plane, or parallel to it off the slab: a miss.
  EXPECT_FALSE(capsule_cast(Capsule<T>{{0, 0, 3}, {T(0.5), 0, 4}, T(0.5)}, Vec3<T>{0, 0, 1}, T(10), level));
  EXPECT_FALSE(capsule_cast(Capsule<T>{{0, 0, 3}, {T(0.5), 0, 4}, T(0.5)}, Vec3<T>{1, 0, 0}, T(10), level));
  // Just short of the contact: a miss; the limit at the contact itself: the same hit.
  const Capsule<T> across{{0, -1, 5}, {0, 1, 5}, T(0.5)};
  EXPECT_FALSE(capsule_cast(across, down, T(4.499), top_edge));
  const SweepHit<T> h = capsule_cast(across, down, T(10), top_edge);
  EXPECT_EQ(capsule_cast(across, down, h.distance, top_edge).distance, h.distance);
}

// The capsule against a triangle (and a capsule) where its features degenerate: a segment of
// radius 0, a segment parallel to an edge or to the target capsule (no common normal), a triangle
// whose corners lie on a line (the union of its edges), invalid input, and a limit of +inf.
TYPED_TEST(Sweep, CapsuleOntoTriangleDegenerateCases) {
  using T = TypeParam;
  const Vec3<T> down{0, 0, -1};
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const Triangle<T> top_edge{{-1, 0, 0}, {1, 0, 0}, {0, 0, -2}};
  // Radius 0: the bare segment across the plane y = 0 meets the top edge when 5 - s = 0.
  EXPECT_TRUE(IsHit(capsule_cast(Capsule<T>{{0, -1, 5}, {0, 1, 5}, 0}, down, T(10), top_edge), 5, {0, 0, 0}, {0, 0, 1},
                    hand<T>()));
  // ... and a bare segment beside the triangle, off its edge's span, misses.
  EXPECT_FALSE(capsule_cast(Capsule<T>{{2, -1, 5}, {2, 1, 5}, 0}, down, T(10), top_edge));
  // Parallel to the top edge, in the triangle's plane: the ends' balls land on the edge when
  // 5 - s = 0.5, somewhere under the segment.
  {
    const SweepHit<T> h = capsule_cast(Capsule<T>{{T(-0.5), 0, 5}, {T(0.5), 0, 5}, T(0.5)}, down, T(10), top_edge);
    ASSERT_TRUE(h.hit);
    EXPECT_FALSE(h.started_in_contact);
    EXPECT_NEAR(double(h.distance), 4.5, hand<T>());
    EXPECT_NEAR(length(reference::to_double(h.normal) - Vec3d{0, 0, 1}), 0.0, hand<T>());
    EXPECT_NEAR(double(h.point.z), 0.0, hand<T>());
    EXPECT_LE(std::abs(double(h.point.x)), 0.5 + hand<T>());
  }
  // A capsule parallel to a capsule target, overlapping it along x: the touch at 5 - s = 0.5 + 0.25,
  // somewhere on the shared span.
  {
    const SweepHit<T> h = capsule_cast(Capsule<T>{{-1, 0, 5}, {1, 0, 5}, T(0.5)}, down, T(10),
                                       Capsule<T>{{T(0.5), 0, 0}, {3, 0, 0}, T(0.25)});
    ASSERT_TRUE(h.hit);
    EXPECT_NEAR(double(h.distance), 4.25, hand<T>());
    EXPECT_NEAR(length(reference::to_double(h.normal) - Vec3d{0, 0, 1}), 0.0, hand<T>());
    EXPECT_NEAR(double(h.point.z), 0.25, hand<T>());
    EXPECT_GE(double(h.point.x), 0.5 - hand<T>());
    EXPECT_LE(double(h.point.x), 1 + hand<T>());
  }
  // Corners on a line (no plane): the segment along y meets the middle corner's edges at s = 4.5.
  const Triangle<T> line{{-1, 0, 0}, {0, 0, 0}, {1, 0, 0}};
  EXPECT_TRUE(IsHit(capsule_cast(Capsule<T>{{0, -1, 5}, {0, 1, 5}, T(0.5)}, down, inf, line), 4.5, {0, 0, 0},
                    {0, 0, 1}, hand<T>()));
  // Invalid input is a miss.
  const Capsule<T> capsule{{0, -1, 5}, {0, 1, 5}, T(0.5)};
  EXPECT_FALSE(capsule_cast(capsule, Vec3<T>{0, nan, -1}, T(10), top_edge));
  EXPECT_FALSE(capsule_cast(capsule, Vec3<T>{}, T(10), top_edge));
  EXPECT_FALSE(capsule_cast(capsule, down, T(10), Triangle<T>{{-1, 0, 0}, {1, inf, 0}, {0, 0, -2}}));
  EXPECT_FALSE(capsule_cast(Capsule<T>{{0, -1, 5}, {0, 1, inf}, T(0.5)}, down, T(10), top_edge));
  EXPECT_FALSE(capsule_cast(capsule, down, T(-1), top_edge));
}

TYPED_TEST(Sweep, DegenerateCapsuleCastsAsASphere) {
  using T = TypeParam;
  const Sphere<T> sphere{{T(0.3), T(-0.2), 6}, T(0.4)};
  const Capsule<T> point_capsule{sphere.center, sphere.center, sphere.radius};
  const Vec3<T> dir = normalize(Vec3<T>{T(0.05), T(0.02), -1});
  const std::vector<Vec3<T>> square{{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  const ConvexPolygon<T> polygon = ConvexPolygon<T>::make(square).value();
  const auto same = [&](const auto& target, const char* what) {
    const SweepHit<T> s = sphere_cast(sphere, dir, T(20), target), c = capsule_cast(point_capsule, dir, T(20), target);
    ASSERT_TRUE(s.hit && c.hit) << what;
    EXPECT_NEAR(s.distance, c.distance, hand<T>()) << what;
    EXPECT_NEAR(length(reference::to_double(s.normal) - reference::to_double(c.normal)), 0, 10 * hand<T>()) << what;
    EXPECT_NEAR(length(reference::to_double(s.point) - reference::to_double(c.point)), 0, 10 * hand<T>()) << what;
  };
  same(Sphere<T>{{0, 0, 0}, 1}, "sphere");
  same(Capsule<T>{{-1, 0, 0}, {1, 0, 0}, T(0.5)}, "capsule");
  same(Obb<T>::from_quat({0, 0, 0}, {1, T(0.5), T(0.7)}, Quat<T>::from_components(T(0.9), T(0.1), T(0.3), T(0.2))), "box");
  same(Cylinder<T>{{0, 0, -1}, {T(0.2), 0, 1}, T(0.8)}, "cylinder");
  same(Plane<T>{{0, 0, 1}, T(-0.5)}, "plane");
  same(Triangle<T>{{-2, -2, 0}, {2, -2, T(0.5)}, {0, 2, 0}}, "triangle");
  same(polygon, "polygon");
}

TYPED_TEST(Sweep, InvalidInputIsAMiss) {
  using T = TypeParam;
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  const Sphere<T> target{{0, 0, 0}, 1};
  const Sphere<T> moving{{-5, 0, 0}, 1};
  const Vec3<T> dir{1, 0, 0};
  EXPECT_FALSE(sphere_cast(moving, Vec3<T>{}, T(10), target)) << "zero direction";
  EXPECT_FALSE(sphere_cast(moving, Vec3<T>{nan, 0, 0}, T(10), target));
  EXPECT_FALSE(sphere_cast(moving, Vec3<T>{inf, 0, 0}, T(10), target));
  EXPECT_FALSE(sphere_cast(Sphere<T>{{nan, 0, 0}, 1}, dir, T(10), target));
  EXPECT_FALSE(sphere_cast(Sphere<T>{{-5, 0, 0}, nan}, dir, T(10), target));
  EXPECT_FALSE(sphere_cast(Sphere<T>{{-5, 0, 0}, -1}, dir, T(10), target)) << "negative radius";
  EXPECT_FALSE(sphere_cast(moving, dir, T(-1), target)) << "negative max_distance";
  EXPECT_FALSE(sphere_cast(moving, dir, nan, target)) << "NaN max_distance";
  EXPECT_FALSE(sphere_cast(moving, dir, T(10), Sphere<T>{{0, nan, 0}, 1}));
  EXPECT_FALSE(sphere_cast(moving, dir, T(10), Obb<T>{{0, 0, 0}, {1, -1, 1}, Mat3<T>::identity()}));
  EXPECT_FALSE(sphere_cast(moving, dir, T(10), Cylinder<T>{{0, 0, 0}, {0, 0, 0}, 1})) << "degenerate cylinder";
  EXPECT_FALSE(sphere_cast(moving, dir, T(10), Triangle<T>{{0, 0, 0}, {1, inf, 0}, {0, 1, 0}}));
  EXPECT_FALSE(capsule_cast(Capsule<T>{{-5, 0, 0}, {-5, nan, 0}, 1}, dir, T(10), target));
  EXPECT_FALSE(capsule_cast(Capsule<T>{{-5, 0, 0}, {-5, 1, 0}, -1}, dir, T(10), unit_box<T>()));
  EXPECT_FALSE(capsule_cast(Capsule<T>{{-5, 0, 0}, {-5, 1, 0}, 1}, Vec3<T>{}, T(10), Plane<T>{}));
  EXPECT_FALSE(capsule_cast(Capsule<T>{{-5, 0, 0}, {-5, 1, 0}, 1}, dir, nan, Cylinder<T>{}));
  const SweepHit<T> miss = sphere_cast(moving, Vec3<T>{}, T(10), target);
  EXPECT_EQ(miss.distance, inf);
  EXPECT_FALSE(miss.started_in_contact);
}

}  // namespace
}  // namespace hitscan
