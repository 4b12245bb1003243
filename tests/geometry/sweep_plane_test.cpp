// Box and hull casts against a plane (geometry/sweep_plane.hpp): hand-worked falls onto a face,
// an edge and a corner, from either side, starts across the plane, paths along it, away from it
// and just short of it, a contact beyond the largest finite distance, invalid input; and seeded
// random cases against a brute-force reference in double over the moving shape's vertices (the
// box's eight corners, the hull's points), in float and double.

#include "hitscan/geometry/sweep_plane.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "geometry/reference_shapes.hpp"
#include "geometry/sweep_assertions.hpp"
#include "hitscan/geometry/shape_size.hpp"

namespace hitscan {
namespace {

using reference::from_double;
using reference::IsHit;
using reference::Rng;
using reference::to_double;

template <class T>
class SweepPlane : public ::testing::Test {};
TYPED_TEST_SUITE(SweepPlane, reference::Reals, reference::RealNames);

template <Real T>
double hand() {
  return std::is_same_v<T, float> ? 1e-5 : 1e-12;
}

template <Real T>
Obb<T> axis_box(Vec3<T> center, Vec3<T> half) {
  return {center, half, Mat3<T>::identity()};
}

template <Real T>
ConvexHull<T> cube_hull(Vec3<T> center, T half) {
  std::vector<Vec3<T>> corners;
  for (int i = 0; i < 8; ++i) {
    corners.push_back(center + Vec3<T>{i & 1 ? half : -half, i & 2 ? half : -half, i & 4 ? half : -half});
  }
  return ConvexHull<T>::make(corners).value();
}

TYPED_TEST(SweepPlane, BoxFallsOntoTheMiddleOfItsLowestFaceEdgeOrCorner) {
  using T = TypeParam;
  // The plane y = 0, its normal not unit length.
  const Plane<T> floor{{0, 2, 0}, 0};
  // Face down: the middle of the bottom face.
  EXPECT_TRUE(IsHit(box_cast(axis_box<T>({1, 5, 2}, {1, 1, 1}), Vec3<T>{0, -1, 0}, T(10), floor), 4, {1, 0, 2},
                    {0, 1, 0}, hand<T>()));
  // Tilted a quarter turn's half about z: the middle of its lowest edge, sqrt(1/2) below the centre.
  const Obb<T> tilted = Obb<T>::from_quat({1, 5, 2}, {T(0.5), T(0.5), 2},
                                          Quat<T>::from_axis_angle({0, 0, 1}, T(0.78539816339744831)));
  const double lowest = std::sqrt(0.5);
  EXPECT_TRUE(IsHit(box_cast(tilted, Vec3<T>{0, -1, 0}, T(100), floor), 5 - lowest, {1, 0, 2}, {0, 1, 0}, hand<T>()));
  // Tilted about z and x: a corner, straight below the centre by the box's reach along y.
  const Obb<T> corner_down = Obb<T>::from_quat(
      {0, 5, 0}, {1, 1, 1}, Quat<T>::from_axis_angle({1, 0, 0}, T(0.6)) * Quat<T>::from_axis_angle({0, 0, 1}, T(0.5)));
  const SweepHit<T> on_corner = box_cast(corner_down, Vec3<T>{0, -1, 0}, T(100), floor);
  double reach = 0;
  Vec3d corner = to_double(corner_down.center);
  for (int i = 0; i < 3; ++i) {
    const Vec3d axis = to_double(corner_down.rotation.col[i]);
    reach += std::abs(axis.y);
    corner = corner - axis * (axis.y < 0 ? -1.0 : 1.0);
  }
  EXPECT_TRUE(IsHit(on_corner, 5 - reach, {corner.x, 0, corner.z}, {0, 1, 0}, hand<T>()));
}

TYPED_TEST(SweepPlane, HullFallsOntoItsSupportPoint) {
  using T = TypeParam;
  const ConvexHull<T> cube = cube_hull<T>({1, 5, 2}, 1);
  const SweepHit<T> h = convex_cast(cube, Vec3<T>{0, -1, 0}, T(10), Plane<T>{{0, 1, 0}, 0});
  ASSERT_TRUE(h.hit);
  EXPECT_FALSE(h.started_in_contact);
  EXPECT_NEAR(double(h.distance), 4.0, hand<T>());
  EXPECT_EQ(h.normal, (Vec3<T>{0, 1, 0}));
  // A corner of the bottom face, wherever the support lands among its four.
  EXPECT_NEAR(double(h.point.y), 0.0, hand<T>());
  EXPECT_NEAR(std::abs(double(h.point.x) - 1), 1.0, hand<T>());
  EXPECT_NEAR(std::abs(double(h.point.z) - 2), 1.0, hand<T>());
}

TYPED_TEST(SweepPlane, FromBehindTheNormalFacesTheOtherWay) {
  using T = TypeParam;
  const Plane<T> floor{{0, 1, 0}, 0};
  EXPECT_TRUE(IsHit(box_cast(axis_box<T>({0, -4, 0}, {1, 1, 1}), Vec3<T>{0, 1, 0}, T(100), floor), 3, {0, 0, 0},
                    {0, -1, 0}, hand<T>()));
  const SweepHit<T> hull = convex_cast(cube_hull<T>({0, -4, 0}, 1), Vec3<T>{0, 2, 0}, T(100), floor);
  ASSERT_TRUE(hull.hit);
  EXPECT_NEAR(double(hull.distance), 1.5, hand<T>());  // in units of the direction, of length 2
  EXPECT_EQ(hull.normal, (Vec3<T>{0, -1, 0}));
}

TYPED_TEST(SweepPlane, StartAcrossThePlaneReportsTheDepthToClearIt) {
  using T = TypeParam;
  const Plane<T> floor{{0, 0, 1}, 0};
  // Its middle above the plane, 0.2 of it below: the front, depth 0.2, whichever way it moves.
  for (const Vec3<T> direction : {Vec3<T>{1, 0, 0}, Vec3<T>{0, 0, 1}, Vec3<T>{0, 0, -1}}) {
    const SweepHit<T> box = box_cast(axis_box<T>({0, 0, T(0.3)}, {T(0.5), T(0.5), T(0.5)}), direction, T(10), floor);
    ASSERT_TRUE(box.hit);
    EXPECT_TRUE(box.started_in_contact);
    EXPECT_EQ(box.distance, T(0));
    EXPECT_NEAR(double(box.depth), 0.2, 1e-6);
    EXPECT_EQ(box.normal, (Vec3<T>{0, 0, 1}));
    EXPECT_NEAR(double(box.point.z), 0.0, hand<T>());
    const SweepHit<T> hull = convex_cast(cube_hull<T>({0, 0, T(-0.3)}, T(0.5)), direction, T(10), floor);
    ASSERT_TRUE(hull.hit);
    EXPECT_TRUE(hull.started_in_contact);
    EXPECT_NEAR(double(hull.depth), 0.2, 1e-6);
    EXPECT_EQ(hull.normal, (Vec3<T>{0, 0, -1}));
  }
  // Resting on it, within the tolerance: a start in contact of depth 0.
  const SweepHit<T> resting = box_cast(axis_box<T>({0, 0, 1}, {1, 1, 1}), Vec3<T>{1, 0, 0}, T(10), floor);
  ASSERT_TRUE(resting.hit);
  EXPECT_TRUE(resting.started_in_contact);
  EXPECT_EQ(resting.depth, T(0));
}

TYPED_TEST(SweepPlane, PathsAlongOrAwayFromThePlaneOrShortOfItMiss) {
  using T = TypeParam;
  const Plane<T> floor{{0, 1, 0}, 0};
  const Obb<T> box = axis_box<T>({0, 5, 0}, {1, 1, 1});
  const ConvexHull<T> hull = cube_hull<T>({0, 5, 0}, 1);
  for (const Vec3<T> direction : {Vec3<T>{1, 0, 0}, Vec3<T>{0, 1, 0}, Vec3<T>{1, 1, 0}}) {
    EXPECT_FALSE(box_cast(box, direction, std::numeric_limits<T>::infinity(), floor).hit);
    EXPECT_FALSE(convex_cast(hull, direction, std::numeric_limits<T>::infinity(), floor).hit);
  }
  EXPECT_FALSE(box_cast(box, Vec3<T>{0, -1, 0}, std::nextafter(T(4), T(0)), floor).hit);
  EXPECT_TRUE(box_cast(box, Vec3<T>{0, -1, 0}, T(4), floor).hit);
  EXPECT_FALSE(convex_cast(hull, Vec3<T>{0, -1, 0}, std::nextafter(T(4), T(0)), floor).hit);
  EXPECT_TRUE(convex_cast(hull, Vec3<T>{0, -1, 0}, T(4), floor).hit);
}

// The kernel-level form of fuzz_capi's box_cast_along_a_plane_tilted_by_a_denormal_hits_at_infinity
// (query/scene_box_cast_test.cpp): a path tilted by e toward the plane x = 2 meets it after
// (2 - 0.5) / e. Beyond the largest finite T that is a miss, not a hit at infinity; just inside it
// is a hit there.
TYPED_TEST(SweepPlane, ContactBeyondTheLargestFiniteDistanceIsAMiss) {
  using T = TypeParam;
  const int max_exponent = std::numeric_limits<T>::max_exponent;
  const Obb<T> box = axis_box<T>({0, 0, 0}, {T(0.5), T(0.5), T(0.5)});
  const T inf = std::numeric_limits<T>::infinity();
  const Plane<T> beyond{{1, 0, std::ldexp(T(1), -max_exponent)}, 2};
  EXPECT_FALSE(box_cast(box, Vec3<T>{0, 0, 1}, inf, beyond).hit);
  const Plane<T> inside{{1, 0, std::ldexp(T(1), 2 - max_exponent)}, 2};
  const SweepHit<T> h = box_cast(box, Vec3<T>{0, 0, 1}, inf, inside);
  ASSERT_TRUE(h.hit);
  EXPECT_NEAR(double(h.distance) / std::ldexp(1.5, max_exponent - 2), 1.0, 1e-6);
  EXPECT_EQ(h.normal, (Vec3<T>{-1, 0, -std::ldexp(T(1), 2 - max_exponent)}));
}

TYPED_TEST(SweepPlane, InvalidInputMisses) {
  using T = TypeParam;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T inf = std::numeric_limits<T>::infinity();
  const Plane<T> floor{{0, 1, 0}, 0};
  const Obb<T> box = axis_box<T>({0, 5, 0}, {1, 1, 1});
  const ConvexHull<T> hull = cube_hull<T>({0, 5, 0}, 1);
  const Vec3<T> down{0, -1, 0};
  EXPECT_TRUE(box_cast(box, down, T(10), floor).hit);  // the valid case the others vary
  EXPECT_FALSE(box_cast(box, Vec3<T>{}, T(10), floor).hit);
  EXPECT_FALSE(box_cast(box, Vec3<T>{nan, -1, 0}, T(10), floor).hit);
  EXPECT_FALSE(box_cast(box, Vec3<T>{0, -inf, 0}, T(10), floor).hit);
  EXPECT_FALSE(box_cast(box, down, T(-1), floor).hit);
  EXPECT_FALSE(box_cast(box, down, nan, floor).hit);
  EXPECT_FALSE(box_cast(box, down, T(10), Plane<T>{{0, 0, 0}, 0}).hit);
  EXPECT_FALSE(box_cast(box, down, T(10), Plane<T>{{0, nan, 0}, 0}).hit);
  EXPECT_FALSE(box_cast(box, down, T(10), Plane<T>{{0, 1, 0}, inf}).hit);
  EXPECT_FALSE(box_cast(axis_box<T>({0, 5, 0}, {1, -1, 1}), down, T(10), floor).hit);
  EXPECT_FALSE(box_cast(axis_box<T>({0, nan, 0}, {1, 1, 1}), down, T(10), floor).hit);
  EXPECT_FALSE(convex_cast(hull, Vec3<T>{}, T(10), floor).hit);
  EXPECT_FALSE(convex_cast(hull, down, T(-1), floor).hit);
  EXPECT_FALSE(convex_cast(hull, down, T(10), Plane<T>{{0, 0, 0}, 0}).hit);
}

// ---- against a brute-force reference over the vertices -------------------------------------------

// The first contact of a convex shape, given by its vertices, moving along d with the plane, in
// double: its extent along the unit normal from every vertex, the side of its middle, and the
// vertex nearest the plane on that side (with the gap to the next, to tell whether it is unique).
struct PlaneReference {
  bool front = true;
  double gap = 0;       // from the plane to the near end of the extent, on the side of the middle
  double middle = 0;    // how far the extent's middle is from the plane
  double approach = 0;  // -dot(side normal, d)
  Vec3d unit{};         // the plane's unit normal
  Vec3d side{};         // the unit normal on the shape's side
  Vec3d nearest{};      // the vertex nearest the plane on that side
  double runner_up = 0; // how much farther the next vertex is
  double offset = 0;
};

PlaneReference reference_of(const std::vector<Vec3d>& vertices, Vec3d d, Vec3d normal, double offset) {
  PlaneReference r;
  const double scale = length(normal);
  const Vec3d n = normal / scale;
  r.unit = n;
  r.offset = offset / scale;
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (const Vec3d& v : vertices) low = std::min(low, dot(n, v)), high = std::max(high, dot(n, v));
  r.middle = 0.5 * (low + high) - r.offset;
  r.front = r.middle >= 0;
  r.side = r.front ? n : -n;
  r.gap = r.front ? low - r.offset : r.offset - high;
  r.approach = -dot(r.side, d);
  double best = std::numeric_limits<double>::infinity(), second = best;
  for (const Vec3d& v : vertices) {
    const double h = dot(r.side, v);
    if (h < best) second = best, best = h, r.nearest = v;
    else second = std::min(second, h);
  }
  r.runner_up = second - best;
  return r;
}

struct RandomCounts {
  int hits = 0, starts = 0, misses = 0, skipped = 0;
};

// One random case: the kernel's answer against the reference, with eps the rounding of the
// inputs' size in T. Cases within a few eps of a decision (touching at the start, the middle in the
// plane, the contact at max_distance, a path nearly along the plane) are skipped.
template <Real T>
void compare(const SweepHit<T>& h, const std::vector<Vec3d>& vertices, Vec3d d, T max_distance, Vec3d normal,
             double offset, double touching, double eps, RandomCounts& counts) {
  const PlaneReference r = reference_of(vertices, d, normal, offset);
  if (std::abs(r.gap - touching) <= eps || std::abs(r.middle) <= eps || std::abs(r.approach) <= 1e-3) {
    ++counts.skipped;
    return;
  }
  if (r.gap <= touching) {
    ASSERT_TRUE(h.hit);
    ASSERT_TRUE(h.started_in_contact);
    EXPECT_EQ(h.distance, T(0));
    EXPECT_NEAR(double(h.depth), std::max(-r.gap, 0.0), eps);
    EXPECT_GT(dot(to_double(h.normal), r.side), 1 - eps);
    EXPECT_NEAR(dot(r.unit, to_double(h.point)), r.offset, eps);
    ++counts.starts;
    return;
  }
  const double s = r.gap / r.approach;
  const double s_eps = (eps + s * r.approach * eps) / r.approach;
  if (r.approach > 0 && std::abs(s - double(max_distance)) <= s_eps) {
    ++counts.skipped;
    return;
  }
  if (!(r.approach > 0) || s > double(max_distance)) {
    EXPECT_FALSE(h.hit) << "reference: approach " << r.approach << ", distance " << s;
    ++counts.misses;
    return;
  }
  ASSERT_TRUE(h.hit) << "reference distance " << s;
  EXPECT_FALSE(h.started_in_contact);
  EXPECT_NEAR(double(h.distance), s, s_eps);
  EXPECT_GT(dot(to_double(h.normal), r.side), 1 - eps);
  const Vec3d point = to_double(h.point);
  EXPECT_NEAR(dot(r.unit, point), r.offset, eps * (1 + s));
  if (r.runner_up > 1e-3) {
    const Vec3d moved = r.nearest + d * s;
    EXPECT_LE(length(point - moved), eps * (1 + s) + s_eps) << "the vertex nearest the plane, moved to the contact";
  }
  ++counts.hits;
}

template <Real T>
double random_eps(double size) {
  return (std::is_same_v<T, float> ? 4e-6 : 1e-14) * size;
}

// `cases` random casts against the reference: a shape around a centre in the cube of half side 5,
// drawn by cast(rng, centre, vertices, size), which gives its vertices and its size and returns
// its cast along the path against the plane; a plane of random normal (not unit length) within 5
// of the origin; a unit path mostly toward the plane from the shape's side, else anywhere, with
// max_distance infinite or up to 20.
template <Real T, class Cast>
RandomCounts compare_random(std::uint32_t seed, int cases, Cast cast) {
  Rng rng(seed);
  RandomCounts counts;
  for (int i = 0; i < cases; ++i) {
    const Vec3d centre = rng.in_cube(5);
    const Vec3d n = rng.unit_vector();
    const Plane<T> plane{from_double<T>(n * rng.uniform(0.5, 2)), T(rng.uniform(-5, 5))};
    const double side = dot(to_double(plane.normal), centre) >= double(plane.offset) ? 1 : -1;
    const Vec3<T> direction = from_double<T>(rng.chance(0.7) ? normalize(-n * side + rng.in_ball(0.8)) : rng.unit_vector());
    const T max_distance = rng.chance(0.5) ? std::numeric_limits<T>::infinity() : T(rng.uniform(0, 20));
    std::vector<Vec3d> vertices;
    T size = 0;
    const SweepHit<T> h = cast(rng, centre, vertices, size, direction, max_distance, plane);
    SCOPED_TRACE(i);
    compare(h, vertices, to_double(direction), max_distance, to_double(plane.normal), double(plane.offset),
            double(ContactTolerance<T>{}.at_size(size)), random_eps<T>(30), counts);
    if (::testing::Test::HasFatalFailure()) break;
  }
  std::printf("[ measured ] %d hits, %d starts in contact, %d misses, %d skipped\n", counts.hits, counts.starts,
              counts.misses, counts.skipped);
  return counts;
}

// The random cases cover hits, starts in contact and misses, and skip few as undecidable.
void expect_every_kind(const RandomCounts& counts, int cases) {
  EXPECT_GT(counts.hits, cases / 4);
  EXPECT_GT(counts.starts, cases / 40);
  EXPECT_GT(counts.misses, cases / 15);
  EXPECT_LT(counts.skipped, cases / 40);
}

TYPED_TEST(SweepPlane, RandomBoxesMatchTheirCornersInDouble) {
  using T = TypeParam;
  const RandomCounts counts = compare_random<T>(
      71, 4000,
      [](Rng& rng, Vec3d centre, std::vector<Vec3d>& corners, T& size, Vec3<T> direction, T max_distance,
         const Plane<T>& plane) {
        const Vec3d q = rng.in_cube(1);
        const Obb<T> box = Obb<T>::from_quat(
            from_double<T>(centre), Vec3<T>{T(rng.uniform(0.1, 2)), T(rng.uniform(0.1, 2)), T(rng.uniform(0.1, 2))},
            Quat<T>::from_components(T(rng.uniform(-1, 1)), T(q.x), T(q.y), T(q.z)));
        for (int c = 0; c < 8; ++c) {
          Vec3d p = to_double(box.center);
          for (int k = 0; k < 3; ++k) {
            p = p + to_double(box.rotation.col[k]) * (double(box.half_extents[k]) * (c >> k & 1 ? 1 : -1));
          }
          corners.push_back(p);
        }
        size = size_of(box);
        return box_cast(box, direction, max_distance, plane);
      });
  expect_every_kind(counts, 4000);
}

TYPED_TEST(SweepPlane, RandomHullsMatchTheirPointsInDouble) {
  using T = TypeParam;
  const RandomCounts counts = compare_random<T>(
      72, 2000,
      [](Rng& rng, Vec3d centre, std::vector<Vec3d>& points, T& size, Vec3<T> direction, T max_distance,
         const Plane<T>& plane) {
        std::vector<Vec3<T>> drawn;
        const ConvexHull<T> hull = reference::random_hull<T>(rng, centre, 1.5, drawn);
        // All the points drawn: those inside the hull never lead.
        for (const Vec3<T>& p : drawn) points.push_back(to_double(p));
        size = size_of(hull);
        return convex_cast(hull, direction, max_distance, plane);
      });
  expect_every_kind(counts, 2000);
}

}  // namespace
}  // namespace hitscan
