#include "hitscan/geometry/closest_point.hpp"
#include "math/random_math.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace hitscan {
namespace {

using namespace test;

using V3d = Vec3<double>;

template <class T>
class ClosestPoint : public ::testing::Test {};
TYPED_TEST_SUITE(ClosestPoint, RealTypes);

template <class T>
void expect_vec_near(Vec3<T> actual, Vec3<T> expected, double tolerance) {
  EXPECT_NEAR(actual.x, expected.x, tolerance);
  EXPECT_NEAR(actual.y, expected.y, tolerance);
  EXPECT_NEAR(actual.z, expected.z, tolerance);
}

template <class T>
double hand_tolerance() { return std::is_same_v<T, float> ? 1e-6 : 1e-14; }

// ---------------------------------------------------------------------------------------------
// Hand-worked cases.

TYPED_TEST(ClosestPoint, SegmentProjectsInteriorAndClampsToEnds) {
  using T = TypeParam;
  const Segment<T> s{{1, 0, 0}, {5, 0, 0}};
  const SegmentClosestPoint<T> mid = closest_point_on_segment_with_parameter(s, Vec3<T>{2, 3, -4});
  expect_vec_near(mid.point, Vec3<T>{2, 0, 0}, hand_tolerance<T>());
  EXPECT_NEAR(mid.t, 0.25, hand_tolerance<T>());
  const SegmentClosestPoint<T> before = closest_point_on_segment_with_parameter(s, Vec3<T>{-3, 1, 1});
  EXPECT_EQ(before.point, s.a);
  EXPECT_EQ(before.t, T(0));
  const SegmentClosestPoint<T> after = closest_point_on_segment_with_parameter(s, Vec3<T>{9, 0, 1});
  EXPECT_EQ(after.point, s.b);
  EXPECT_EQ(after.t, T(1));
  EXPECT_EQ(closest_point_on_segment(s, Vec3<T>{9, 0, 1}), s.b);
  expect_vec_near(closest_point_on_segment(s, Vec3<T>{3, 0, 0}), Vec3<T>{3, 0, 0}, hand_tolerance<T>());
}

TYPED_TEST(ClosestPoint, DegenerateSegmentIsItsPoint) {
  using T = TypeParam;
  const Segment<T> s{{1, 2, 3}, {1, 2, 3}};
  const SegmentClosestPoint<T> c = closest_point_on_segment_with_parameter(s, Vec3<T>{7, -1, 0});
  EXPECT_EQ(c.point, s.a);
  EXPECT_EQ(c.t, T(0));
}

// The unit right triangle in z = 0; each case sits in one Voronoi region.
TYPED_TEST(ClosestPoint, TriangleEachVoronoiRegion) {
  using T = TypeParam;
  const Triangle<T> tri{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  struct Case {
    Vec3<T> p, point;
    T u, v;
    Feature feature;
    int index;
  };
  const Case cases[] = {
      {{T(0.25), T(0.25), 2}, {T(0.25), T(0.25), 0}, T(0.25), T(0.25), Feature::face, 0},
      {{T(0.2), T(0.3), -1}, {T(0.2), T(0.3), 0}, T(0.2), T(0.3), Feature::face, 0},
      {{-1, -1, 1}, {0, 0, 0}, 0, 0, Feature::vertex, 0},
      {{2, -1, 0}, {1, 0, 0}, 1, 0, Feature::vertex, 1},
      {{-1, 2, 0}, {0, 1, 0}, 0, 1, Feature::vertex, 2},
      {{T(0.5), -1, T(0.5)}, {T(0.5), 0, 0}, T(0.5), 0, Feature::edge, 0},
      {{1, 1, -3}, {T(0.5), T(0.5), 0}, T(0.5), T(0.5), Feature::edge, 1},
      {{T(0.75), T(0.75), 0}, {T(0.5), T(0.5), 0}, T(0.5), T(0.5), Feature::edge, 1},
      {{-1, T(0.25), 0}, {0, T(0.25), 0}, 0, T(0.25), Feature::edge, 2},
      {{0, 0, 0}, {0, 0, 0}, 0, 0, Feature::vertex, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "p = " << c.p.x << ", " << c.p.y << ", " << c.p.z);
    const TriangleClosestPoint<T> r = closest_point_on_triangle(tri, c.p);
    expect_vec_near(r.point, c.point, hand_tolerance<T>());
    EXPECT_NEAR(r.u, c.u, hand_tolerance<T>());
    EXPECT_NEAR(r.v, c.v, hand_tolerance<T>());
    EXPECT_EQ(r.feature, c.feature);
    EXPECT_EQ(r.index, c.index);
  }
}

// An obtuse triangle, where the region of an edge reaches past the perpendicular of a vertex.
TYPED_TEST(ClosestPoint, ObtuseTriangleEdgeAndVertexRegions) {
  using T = TypeParam;
  const Triangle<T> tri{{0, 0, 0}, {4, 0, 0}, {-1, 1, 0}};
  const TriangleClosestPoint<T> above_v0 = closest_point_on_triangle(tri, Vec3<T>{0, -2, 0});
  EXPECT_EQ(above_v0.feature, Feature::vertex);
  EXPECT_EQ(above_v0.index, 0);
  const TriangleClosestPoint<T> beside_v2 = closest_point_on_triangle(tri, Vec3<T>{-3, 0, 1});
  EXPECT_EQ(beside_v2.feature, Feature::vertex);
  EXPECT_EQ(beside_v2.index, 2);
  const TriangleClosestPoint<T> edge2 = closest_point_on_triangle(tri, Vec3<T>{-1, 0, 0});
  EXPECT_EQ(edge2.feature, Feature::edge);
  EXPECT_EQ(edge2.index, 2);
  expect_vec_near(edge2.point, Vec3<T>{T(-0.5), T(0.5), 0}, hand_tolerance<T>());
  EXPECT_NEAR(edge2.v, 0.5, hand_tolerance<T>());
}

TYPED_TEST(ClosestPoint, CollinearTriangleGivesNearestPointOfItsSegment) {
  using T = TypeParam;
  // The middle vertex is v0, so no single edge spans the set.
  const Triangle<T> tri{{1, 0, 0}, {0, 0, 0}, {2, 0, 0}};
  const TriangleClosestPoint<T> side = closest_point_on_triangle(tri, Vec3<T>{T(1.5), 1, 0});
  expect_vec_near(side.point, Vec3<T>{T(1.5), 0, 0}, hand_tolerance<T>());
  EXPECT_EQ(side.feature, Feature::edge);
  const Vec3<T> recon = tri.v0 * (T(1) - side.u - side.v) + tri.v1 * side.u + tri.v2 * side.v;
  expect_vec_near(recon, side.point, hand_tolerance<T>());
  const TriangleClosestPoint<T> beyond = closest_point_on_triangle(tri, Vec3<T>{3, 0, 0});
  EXPECT_EQ(beyond.point, tri.v2);
  EXPECT_EQ(beyond.feature, Feature::vertex);
  EXPECT_EQ(beyond.index, 2);
  EXPECT_EQ(closest_point_on_triangle(tri, Vec3<T>{-1, -1, 0}).point, tri.v1);
}

TYPED_TEST(ClosestPoint, CoincidentTriangleVerticesGiveNoNaN) {
  using T = TypeParam;
  const Triangle<T> point{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
  const TriangleClosestPoint<T> r = closest_point_on_triangle(point, Vec3<T>{3, 0, 2});
  EXPECT_EQ(r.point, point.v0);
  EXPECT_EQ(r.feature, Feature::vertex);
  const Triangle<T> two_equal{{0, 0, 0}, {0, 0, 0}, {0, 2, 0}};
  const TriangleClosestPoint<T> s = closest_point_on_triangle(two_equal, Vec3<T>{5, 1, 0});
  expect_vec_near(s.point, Vec3<T>{0, 1, 0}, hand_tolerance<T>());
  EXPECT_NEAR(s.v, 0.5, hand_tolerance<T>());
}

TYPED_TEST(ClosestPoint, AabbFaceEdgeCornerAndInside) {
  using T = TypeParam;
  const Aabb<T> box{{-1, -1, -1}, {1, 1, 1}};
  const Vec3<T> p_face{3, T(0.5), T(-0.2)}, p_edge{3, 4, T(0.1)}, p_corner{3, -4, 5}, p_in{T(0.3), T(-0.2), T(0.9)};
  EXPECT_EQ(closest_point_on_aabb(box, p_face).point, (Vec3<T>{1, T(0.5), T(-0.2)}));
  EXPECT_EQ(closest_point_on_aabb(box, p_edge).point, (Vec3<T>{1, 1, T(0.1)}));
  EXPECT_EQ(closest_point_on_aabb(box, p_corner).point, (Vec3<T>{1, -1, 1}));
  EXPECT_FALSE(closest_point_on_aabb(box, p_corner).inside);
  EXPECT_EQ(closest_point_on_aabb(box, p_in).point, p_in);
  EXPECT_TRUE(closest_point_on_aabb(box, p_in).inside);
  EXPECT_TRUE(closest_point_on_aabb(box, Vec3<T>{1, 0, -1}).inside);  // the surface belongs to the solid
}

TYPED_TEST(ClosestPoint, ObbFaceEdgeCornerAndInside) {
  using T = TypeParam;
  // A quarter turn about z: the box's x axis is world +y, its y axis world -x.
  const Obb<T> box = Obb<T>::from_quat({1, 2, 3}, {2, 1, T(0.5)}, Quat<T>::from_axis_angle({0, 0, 1}, kPi<T> / 2));
  const double tol = hand_tolerance<T>() * 10;
  expect_vec_near(closest_point_on_obb(box, Vec3<T>{1, 7, 3}).point, Vec3<T>{1, 4, 3}, tol);
  expect_vec_near(closest_point_on_obb(box, Vec3<T>{4, 2, 3}).point, Vec3<T>{2, 2, 3}, tol);
  expect_vec_near(closest_point_on_obb(box, Vec3<T>{9, 9, 4}).point, Vec3<T>{2, 4, T(3.5)}, tol);
  expect_vec_near(closest_point_on_obb(box, Vec3<T>{11, 12, 13}).point, Vec3<T>{2, 4, T(3.5)}, tol);
  const Vec3<T> in{T(1.5), T(3.5), T(3.2)};
  const SolidClosestPoint<T> r = closest_point_on_obb(box, in);
  EXPECT_TRUE(r.inside);
  EXPECT_EQ(r.point, in);
  EXPECT_FALSE(closest_point_on_obb(box, Vec3<T>{T(2.5), 2, 3}).inside);
}

TYPED_TEST(ClosestPoint, SphereSurfaceInsideAndPointSphere) {
  using T = TypeParam;
  const Sphere<T> s{{1, 2, 3}, 2};
  expect_vec_near(closest_point_on_sphere(s, Vec3<T>{1, 2, 8}).point, Vec3<T>{1, 2, 5}, hand_tolerance<T>());
  expect_vec_near(closest_point_on_sphere(s, Vec3<T>{4, 6, 3}).point, Vec3<T>{T(2.2), T(3.6), 3}, hand_tolerance<T>());
  const SolidClosestPoint<T> in = closest_point_on_sphere(s, Vec3<T>{T(1.5), 2, 3});
  EXPECT_TRUE(in.inside);
  EXPECT_EQ(in.point, (Vec3<T>{T(1.5), 2, 3}));
  EXPECT_TRUE(closest_point_on_sphere(s, s.center).inside);
  EXPECT_EQ(closest_point_on_sphere(Sphere<T>{{1, 2, 3}, 0}, Vec3<T>{5, 5, 5}).point, (Vec3<T>{1, 2, 3}));
  EXPECT_EQ(closest_point_on_sphere(Sphere<T>{{1, 2, 3}, -1}, Vec3<T>{5, 5, 5}).point, (Vec3<T>{1, 2, 3}));
}

TYPED_TEST(ClosestPoint, CapsuleSideCapInsideAndDegenerate) {
  using T = TypeParam;
  const Capsule<T> c{{0, 0, -1}, {0, 0, 1}, T(0.5)};
  expect_vec_near(closest_point_on_capsule(c, Vec3<T>{2, 0, 0}).point, Vec3<T>{T(0.5), 0, 0}, hand_tolerance<T>());
  expect_vec_near(closest_point_on_capsule(c, Vec3<T>{0, 0, 3}).point, Vec3<T>{0, 0, T(1.5)}, hand_tolerance<T>());
  const T k = T(0.5) / std::sqrt(T(3));
  expect_vec_near(closest_point_on_capsule(c, Vec3<T>{1, 1, 2}).point, Vec3<T>{k, k, 1 + k}, hand_tolerance<T>());
  const SolidClosestPoint<T> in = closest_point_on_capsule(c, Vec3<T>{T(0.1), T(0.1), T(1.2)});
  EXPECT_TRUE(in.inside);
  EXPECT_EQ(in.point, (Vec3<T>{T(0.1), T(0.1), T(1.2)}));
  const Capsule<T> ball{{1, 1, 1}, {1, 1, 1}, 1};
  expect_vec_near(closest_point_on_capsule(ball, Vec3<T>{1, 1, 4}).point, Vec3<T>{1, 1, 2}, hand_tolerance<T>());
}

TYPED_TEST(ClosestPoint, SegmentPairsCrossingClampedParallelAndDegenerate) {
  using T = TypeParam;
  const double tol = hand_tolerance<T>();
  const auto check = [&](Segment<T> a, Segment<T> b, double s, double t, double d2) {
    const SegmentPairClosestPoints<T> r = closest_points_between_segments(a, b);
    EXPECT_NEAR(r.s, s, tol);
    EXPECT_NEAR(r.t, t, tol);
    EXPECT_NEAR(r.distance_squared, d2, tol);
    expect_vec_near(r.on_first, lerp(a.a, a.b, r.s), tol);
    expect_vec_near(r.on_second, lerp(b.a, b.b, r.t), tol);
  };
  check({{-1, 0, 0}, {1, 0, 0}}, {{0, -1, 1}, {0, 1, 1}}, 0.5, 0.5, 1);          // skew, crossing
  check({{-1, 0, 0}, {1, 0, 0}}, {{0, -1, 0}, {0, 1, 0}}, 0.5, 0.5, 0);          // intersecting
  check({{0, 0, 0}, {1, 0, 0}}, {{2, -1, 1}, {2, 1, 1}}, 1, 0.5, 2);             // line solution clamped
  check({{0, 0, 0}, {1, 0, 0}}, {{2, 1, 0}, {3, 1, 0}}, 1, 0, 2);                // parallel, disjoint
  check({{0, 0, 0}, {1, 0, 0}}, {{3, 1, 0}, {2, 1, 0}}, 1, 1, 2);                // antiparallel, disjoint
  check({{0.5, 1, 0}, {0.5, 1, 0}}, {{0, 0, 0}, {1, 0, 0}}, 0, 0.5, 1);          // point vs segment
  check({{0, 0, 0}, {1, 0, 0}}, {{0.25, 2, 0}, {0.25, 2, 0}}, 0.25, 0, 4);       // segment vs point
  check({{1, 1, 1}, {1, 1, 1}}, {{1, 1, 3}, {1, 1, 3}}, 0, 0, 4);                // point vs point
  // Parallel and overlapping: many pairs are closest; any returned one must be at distance 1.
  const Segment<T> a{{0, 0, 0}, {2, 0, 0}}, b{{1, 1, 0}, {3, 1, 0}};
  const SegmentPairClosestPoints<T> r = closest_points_between_segments(a, b);
  EXPECT_NEAR(r.distance_squared, 1, tol);
  EXPECT_NEAR(r.on_first.x, r.on_second.x, tol);
}

// ---------------------------------------------------------------------------------------------
// Non-finite and extreme input: documented behaviour, no trap.

template <class T>
void expect_parameters_in_range(const TriangleClosestPoint<T>& r) {
  EXPECT_TRUE(r.u >= 0 && r.u <= 1 && r.v >= 0 && r.v <= 1) << r.u << " " << r.v;
  EXPECT_LE(r.index, 2);
}

TYPED_TEST(ClosestPoint, NonFiniteInputKeepsParametersInRange) {
  using T = TypeParam;
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = kInfinity<T>;
  const Vec3<T> queries[] = {{nan, 0, 0}, {inf, 0, 0}, {-inf, inf, 0}, {nan, nan, nan}, {inf, inf, inf}};
  const Segment<T> seg{{0, 0, 0}, {1, 0, 0}};
  const Triangle<T> tri{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  for (const Vec3<T>& p : queries) {
    const SegmentClosestPoint<T> c = closest_point_on_segment_with_parameter(seg, p);
    EXPECT_TRUE(c.t >= 0 && c.t <= 1);
    expect_parameters_in_range(closest_point_on_triangle(tri, p));
    expect_parameters_in_range(closest_point_on_triangle(Triangle<T>{{nan, 0, 0}, {1, 0, 0}, {0, 1, 0}}, p));
    EXPECT_FALSE(closest_point_on_aabb(Aabb<T>{{-1, -1, -1}, {1, 1, 1}}, p).inside);
    EXPECT_FALSE(closest_point_on_obb(Obb<T>{}, p).inside);
    EXPECT_FALSE(closest_point_on_sphere(Sphere<T>{}, p).inside);
    EXPECT_FALSE(closest_point_on_capsule(Capsule<T>{}, p).inside);
    const SegmentPairClosestPoints<T> pair = closest_points_between_segments(seg, Segment<T>{p, {0, 1, 0}});
    EXPECT_TRUE(pair.s >= 0 && pair.s <= 1 && pair.t >= 0 && pair.t <= 1);
  }
  // A NaN query against finite shapes still lands on the shape.
  EXPECT_EQ(closest_point_on_segment(seg, Vec3<T>{nan, 0, 0}), seg.a);
  EXPECT_EQ(closest_point_on_aabb(Aabb<T>{{-1, -1, -1}, {1, 1, 1}}, Vec3<T>{nan, 0, 5}).point, (Vec3<T>{-1, 0, 1}));
  EXPECT_EQ(closest_point_on_triangle(tri, Vec3<T>{nan, 0, 0}).point, tri.v0);
  // The far +x limit of the box is its +x face.
  EXPECT_EQ(closest_point_on_aabb(Aabb<T>{{-1, -1, -1}, {1, 1, 1}}, Vec3<T>{inf, 0, 0}).point, (Vec3<T>{1, 0, 0}));
}

TYPED_TEST(ClosestPoint, InvalidSolidsGiveDocumentedPoints) {
  using T = TypeParam;
  const Vec3<T> p{3, -4, 5};
  const SolidClosestPoint<T> empty = closest_point_on_aabb(Aabb<T>::empty(), p);
  EXPECT_EQ(empty.point, Aabb<T>::empty().max);
  EXPECT_FALSE(empty.inside);
  const SolidClosestPoint<T> flipped = closest_point_on_aabb(Aabb<T>{{1, 1, 1}, {-1, -1, -1}}, Vec3<T>{});
  EXPECT_EQ(flipped.point, (Vec3<T>{-1, -1, -1}));
  EXPECT_FALSE(flipped.inside);
  const SolidClosestPoint<T> negative = closest_point_on_obb(Obb<T>{{}, {1, -1, 1}, {}}, Vec3<T>{});
  EXPECT_EQ(negative.point, (Vec3<T>{0, -1, 0}));
  EXPECT_FALSE(negative.inside);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  EXPECT_EQ(closest_point_on_sphere(Sphere<T>{{1, 2, 3}, nan}, p).point, (Vec3<T>{1, 2, 3}));
  const Capsule<T> line{{0, 0, -1}, {0, 0, 1}, -2};
  EXPECT_EQ(closest_point_on_capsule(line, p).point, (Vec3<T>{0, 0, 1}));
  // Signed zeros: a point on the boundary is returned as given.
  const Vec3<T> minus_zero{T(-0.0), 0, 0};
  const SolidClosestPoint<T> boundary = closest_point_on_aabb(Aabb<T>{{0, -1, -1}, {1, 1, 1}}, minus_zero);
  EXPECT_TRUE(boundary.inside);
  EXPECT_TRUE(std::signbit(boundary.point.x));
}

TYPED_TEST(ClosestPoint, HugeFiniteInputGivesFinitePoints) {
  using T = TypeParam;
  std::mt19937 rng(7);
  const T big = std::numeric_limits<T>::max() / 8;
  const auto huge = [&] {
    const auto one = [&] { return big * static_cast<T>(static_cast<double>(rng()) / 4294967296.0 * 2 - 1); };
    return Vec3<T>{one(), one(), one()};
  };
  for (int i = 0; i < 2000; ++i) {
    const Vec3<T> p = huge(), a = huge(), b = huge(), c = huge();
    const T r = big * T(0.5);
    EXPECT_TRUE(is_finite(closest_point_on_segment(Segment<T>{a, b}, p)));
    EXPECT_TRUE(is_finite(closest_point_on_triangle(Triangle<T>{a, b, c}, p).point));
    EXPECT_TRUE(is_finite(closest_point_on_aabb(Aabb<T>{min(a, b), max(a, b)}, p).point));
    EXPECT_TRUE(is_finite(closest_point_on_obb(Obb<T>::from_quat(a, abs(b) * T(0.5), Quat<T>::from_components(1, 2, 3, 4)), p).point));
    EXPECT_TRUE(is_finite(closest_point_on_sphere(Sphere<T>{a, r}, p).point));
    EXPECT_TRUE(is_finite(closest_point_on_capsule(Capsule<T>{a, b, r}, p).point));
    const SegmentPairClosestPoints<T> pair = closest_points_between_segments(Segment<T>{a, b}, Segment<T>{c, p});
    EXPECT_TRUE(is_finite(pair.on_first) && is_finite(pair.on_second));
  }
}

// ---------------------------------------------------------------------------------------------
// Seeded random cases against references in double that reach the answer another way: ternary
// search instead of projection, candidate sets instead of Voronoi regions, world-space faces
// instead of the box frame. Scene: shapes in [-1, 1]³, queries in [-2, 2]³ (size 4).

constexpr int kRandomCases = 100000;

// Distance errors allowed: 2e-6 (float) and 1e-11 (double) of the scene size of 4, at least ten
// times the worst error seen over these seeds.
template <class T>
double random_tolerance() { return 4 * (std::is_same_v<T, float> ? 2e-6 : 1e-11); }

// A thin triangle's plane is known in T only to about epsilon / sin(angle at v0), and below
// sin² = epsilon the kernel takes the edges instead (off by at most the width, size sin): the
// header's accuracy statement, as an allowance on top of random_tolerance.
template <class T>
double thin_triangle_allowance(V3d a, V3d b, V3d c) {
  const double size = std::max({distance(a, b), distance(b, c), distance(c, a)});
  const double lengths = length(b - a) * length(c - a);
  const double sin_a = lengths > 0 ? length(cross(b - a, c - a)) / lengths : 0;
  const double eps = kEpsilon<T>;
  return 4 * size * eps / std::max(sin_a, std::sqrt(eps));
}

/// Uniform in [lo, hi) from the raw engine output, so the sequence is the same on every platform.

template <class T>
Vec3<T> random_point(std::mt19937& rng, double half) {
  return {T(uniform(rng, -half, half)), T(uniform(rng, -half, half)), T(uniform(rng, -half, half))};
}

template <class T>
V3d to_double(Vec3<T> v) { return vec3_cast<double>(v); }

/// Squared distance along a segment is convex in the parameter: ternary search needs no formula.
double reference_distance_to_segment(V3d a, V3d b, V3d p) {
  const auto f = [&](double t) { return distance_squared(a + (b - a) * t, p); };
  double lo = 0, hi = 1;
  for (int i = 0; i < 100; ++i) {
    const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (f(m1) < f(m2)) {
      hi = m2;
    } else {
      lo = m1;
    }
  }
  return std::sqrt(std::min({f(lo), f(0), f(1)}));
}

/// The nearest of the three edges and, when it falls inside, the projection of p on the plane,
/// found in 2D: an orthonormal frame e1, e2 of the plane by Gram–Schmidt puts a at the origin,
/// b on the x axis and c above it, where the barycentric of c is simply y / c.y. The second
/// Gram–Schmidt pass keeps e2 orthogonal to e1 when c is (nearly) on the line ab.
double reference_distance_to_triangle(V3d a, V3d b, V3d c, V3d p) {
  double best = std::min({reference_distance_to_segment(a, b, p), reference_distance_to_segment(b, c, p),
                          reference_distance_to_segment(c, a, p)});
  const V3d ab = b - a, ac = c - a, ap = p - a;
  const V3d e1 = normalize(ab), once = ac - e1 * dot(e1, ac), e2 = normalize(once - e1 * dot(e1, once));
  const double bx = dot(ab, e1), cx = dot(ac, e1), cy = dot(ac, e2), x = dot(ap, e1), y = dot(ap, e2);
  if (bx > 0 && cy > 0) {
    const double wc = y / cy, wb = (x - wc * cx) / bx;
    if (wb >= 0 && wc >= 0 && wb + wc <= 1) best = std::min(best, distance(a + e1 * x + e2 * y, p));
  }
  return best;
}

/// The nearest of the four endpoint-to-segment distances and the lines' interior critical point.
double reference_distance_between_segments(V3d p1, V3d q1, V3d p2, V3d q2) {
  double best = std::min({reference_distance_to_segment(p2, q2, p1), reference_distance_to_segment(p2, q2, q1),
                          reference_distance_to_segment(p1, q1, p2), reference_distance_to_segment(p1, q1, q2)});
  const V3d d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  // Gradient of |p1 + s d1 - p2 - t d2|² = 0: [d1·d1, -d1·d2; d1·d2, -d2·d2] [s t] = [-d1·r, -d2·r].
  const double a11 = dot(d1, d1), a12 = -dot(d1, d2), a21 = dot(d1, d2), a22 = -dot(d2, d2);
  const double b1 = -dot(d1, r), b2 = -dot(d2, r), det = a11 * a22 - a12 * a21;
  if (std::abs(det) > 1e-14 * a11 * -a22) {
    const double s = (b1 * a22 - a12 * b2) / det, t = (a11 * b2 - a21 * b1) / det;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) best = std::min(best, distance(p1 + d1 * s, p2 + d2 * t));
  }
  return best;
}

/// Nearest point of the rectangle corner + x e1 + y e2, x, y in [0, 1], with e1 ⊥ e2.
V3d reference_closest_on_rectangle(V3d corner, V3d e1, V3d e2, V3d p) {
  const auto coordinate = [&](V3d e) {
    const double ee = dot(e, e);
    return ee > 0 ? std::clamp(dot(p - corner, e) / ee, 0.0, 1.0) : 0.0;
  };
  return corner + e1 * coordinate(e1) + e2 * coordinate(e2);
}

/// Distance to a solid box given by its centre, unit axes and half extents, taken face by face in
/// world space; 0 inside.
double reference_distance_to_box(V3d center, const std::array<V3d, 3>& axes, V3d half, V3d p) {
  bool inside = true;
  for (int axis = 0; axis < 3; ++axis) inside = inside && std::abs(dot(p - center, axes[axis])) <= half[axis];
  if (inside) return 0;
  double best = kInfinity<double>;
  for (int axis = 0; axis < 3; ++axis) {
    const V3d n = axes[axis] * half[axis], e1 = axes[(axis + 1) % 3] * half[(axis + 1) % 3],
              e2 = axes[(axis + 2) % 3] * half[(axis + 2) % 3];
    for (const double side : {-1.0, 1.0}) {
      const V3d corner = center + n * side - e1 - e2;
      best = std::min(best, distance(reference_closest_on_rectangle(corner, e1 * 2.0, e2 * 2.0, p), p));
    }
  }
  return best;
}

// Mostly general shapes, with a share of degenerate ones (coincident or collinear points).
template <class T>
Triangle<T> random_triangle(std::mt19937& rng) {
  Triangle<T> tri{random_point<T>(rng, 1), random_point<T>(rng, 1), random_point<T>(rng, 1)};
  const std::uint32_t kind = rng() % 100;
  if (kind < 4) {  // collinear
    tri.v2 = lerp(tri.v0, tri.v1, T(uniform(rng, -1, 2)));
  } else if (kind < 6) {  // two coincident
    tri.v1 = tri.v0;
  } else if (kind < 7) {  // all coincident
    tri.v1 = tri.v2 = tri.v0;
  } else if (kind < 10) {  // slivers
    const T along = T(uniform(rng, -1, 2));
    tri.v2 = lerp(tri.v0, tri.v1, along) + random_point<T>(rng, 1e-3);
  }
  return tri;
}

template <class T>
Segment<T> random_segment(std::mt19937& rng) {
  Segment<T> s{random_point<T>(rng, 1), random_point<T>(rng, 1)};
  if (rng() % 50 == 0) s.b = s.a;
  return s;
}

// Queries near a shape's plane stress the region boundaries more than uniform ones do.
template <class T>
Vec3<T> random_query_near(std::mt19937& rng, const Triangle<T>& tri) {
  if (rng() % 4 != 0) return random_point<T>(rng, 2);
  const Vec3<T> n = normalize(cross(tri.v1 - tri.v0, tri.v2 - tri.v0));
  const T u = T(uniform(rng, -0.5, 1.5)), v = T(uniform(rng, -0.5, 1.5)), height = T(uniform(rng, -1e-2, 1e-2));
  return tri.v0 + (tri.v1 - tri.v0) * u + (tri.v2 - tri.v0) * v + n * height;
}

TYPED_TEST(ClosestPoint, RandomSegmentsMatchTernarySearch) {
  using T = TypeParam;
  std::mt19937 rng(101);
  const double tol = random_tolerance<T>();
  for (int i = 0; i < kRandomCases; ++i) {
    const Segment<T> s = random_segment<T>(rng);
    const Vec3<T> p = random_point<T>(rng, 2);
    const SegmentClosestPoint<T> c = closest_point_on_segment_with_parameter(s, p);
    const V3d a = to_double(s.a), b = to_double(s.b), q = to_double(c.point);
    ASSERT_NEAR(distance(q, to_double(p)), reference_distance_to_segment(a, b, to_double(p)), tol) << i;
    ASSERT_LE(reference_distance_to_segment(a, b, q), tol) << i;
    ASSERT_LE(distance(q, a + (b - a) * double(c.t)), tol) << i;
    ASSERT_TRUE(c.t >= 0 && c.t <= 1) << i;
  }
}

TYPED_TEST(ClosestPoint, RandomTrianglesMatchProjectionAndEdges) {
  using T = TypeParam;
  std::mt19937 rng(202);
  int features[3] = {};
  for (int i = 0; i < kRandomCases; ++i) {
    const Triangle<T> tri = random_triangle<T>(rng);
    const Vec3<T> p = random_query_near(rng, tri);
    const TriangleClosestPoint<T> r = closest_point_on_triangle(tri, p);
    const V3d a = to_double(tri.v0), b = to_double(tri.v1), c = to_double(tri.v2), q = to_double(r.point);
    const double tol = random_tolerance<T>() + thin_triangle_allowance<T>(a, b, c);
    ASSERT_NEAR(distance(q, to_double(p)), reference_distance_to_triangle(a, b, c, to_double(p)), tol) << i;
    ASSERT_LE(reference_distance_to_triangle(a, b, c, q), tol) << i;
    const double u = r.u, v = r.v;
    ASSERT_TRUE(u >= 0 && v >= 0 && u + v <= 1 + 1e-6) << i << ": " << u << " " << v;
    ASSERT_LE(distance(q, a * (1 - u - v) + b * u + c * v), tol) << i;
    ++features[static_cast<int>(r.feature)];
    if (r.feature == Feature::vertex) {
      const Vec3<T> vertices[3] = {tri.v0, tri.v1, tri.v2};
      ASSERT_EQ(r.point, vertices[r.index]) << i;
    } else if (r.feature == Feature::edge && r.index != 1) {
      ASSERT_EQ(r.index == 0 ? v : u, 0.0) << i;  // the barycentric of the opposite vertex
    } else if (r.feature == Feature::edge) {
      ASSERT_NEAR(u + v, 1.0, kEpsilon<T>) << i;
    }
  }
  for (const int count : features) EXPECT_GT(count, kRandomCases / 50);
}

TYPED_TEST(ClosestPoint, RandomAabbsMatchFaceByFace) {
  using T = TypeParam;
  std::mt19937 rng(303);
  const double tol = random_tolerance<T>();
  int inside_count = 0;
  for (int i = 0; i < kRandomCases; ++i) {
    Aabb<T> box = Aabb<T>::from_point(random_point<T>(rng, 1));
    box.grow(random_point<T>(rng, 1));
    if (rng() % 20 == 0) box.max.y = box.min.y;  // flat box
    Vec3<T> p = random_point<T>(rng, 2);
    if (rng() % 4 == 0) p = box.min + mul(box.extent(), abs(random_point<T>(rng, 1)));
    const SolidClosestPoint<T> r = closest_point_on_aabb(box, p);
    const V3d c = to_double(box.center()), h = to_double(box.half_extents());
    const double expected = reference_distance_to_box(c, {V3d{1, 0, 0}, V3d{0, 1, 0}, V3d{0, 0, 1}}, h, to_double(p));
    ASSERT_NEAR(distance(to_double(r.point), to_double(p)), expected, tol) << i;
    ASSERT_TRUE(box.contains(r.point)) << i;
    ASSERT_EQ(r.inside, box.contains(p)) << i;
    if (r.inside) {
      ASSERT_EQ(r.point, p) << i;
    }
    inside_count += r.inside;
  }
  EXPECT_GT(inside_count, kRandomCases / 100);
}

TYPED_TEST(ClosestPoint, RandomObbsMatchWorldSpaceFaces) {
  using T = TypeParam;
  std::mt19937 rng(404);
  const double tol = random_tolerance<T>();
  int inside_count = 0;
  for (int i = 0; i < kRandomCases; ++i) {
    const Vec3<T> qv = random_point<T>(rng, 1);
    const Quat<T> rotation = Quat<T>::from_components(T(uniform(rng, -1, 1)), qv.x, qv.y, qv.z);
    Vec3<T> half = abs(random_point<T>(rng, 1));
    if (rng() % 20 == 0) half.z = 0;
    const Obb<T> box = Obb<T>::from_quat(random_point<T>(rng, 0.5), half, rotation);
    const Vec3<T> p = random_point<T>(rng, 2);
    const SolidClosestPoint<T> r = closest_point_on_obb(box, p);
    const Mat3d rd = Mat3d::from_quat(Quatd{double(rotation.w), double(rotation.x), double(rotation.y), double(rotation.z)});
    const V3d c = to_double(box.center);
    const std::array<V3d, 3> axes{rd.col[0], rd.col[1], rd.col[2]};
    const V3d hd = to_double(half);
    ASSERT_NEAR(distance(to_double(r.point), to_double(p)), reference_distance_to_box(c, axes, hd, to_double(p)), tol) << i;
    ASSERT_LE(reference_distance_to_box(c, axes, hd, to_double(r.point)), tol) << i;
    if (r.inside) {
      ASSERT_EQ(r.point, p) << i;
    }
    inside_count += r.inside;
  }
  EXPECT_GT(inside_count, kRandomCases / 100);
}

TYPED_TEST(ClosestPoint, RandomSpheresAndCapsulesMatchDistanceMinusRadius) {
  using T = TypeParam;
  std::mt19937 rng(505);
  const double tol = random_tolerance<T>();
  int inside_count = 0;
  for (int i = 0; i < kRandomCases; ++i) {
    Capsule<T> capsule{random_point<T>(rng, 1), random_point<T>(rng, 1), T(uniform(rng, 0, 1))};
    if (rng() % 20 == 0) capsule.b = capsule.a;
    const Sphere<T> sphere{capsule.a, capsule.radius};
    const Vec3<T> p = random_point<T>(rng, 2);
    const V3d a = to_double(capsule.a), b = to_double(capsule.b), pd = to_double(p);
    const double radius = capsule.radius;

    const SolidClosestPoint<T> s = closest_point_on_sphere(sphere, p);
    ASSERT_NEAR(distance(to_double(s.point), pd), std::max(0.0, distance(pd, a) - radius), tol) << i;
    ASSERT_LE(distance(to_double(s.point), a), radius + tol) << i;
    if (s.inside) {
      ASSERT_EQ(s.point, p) << i;
    } else {
      ASSERT_NEAR(distance(to_double(s.point), a), radius, tol) << i;
    }

    const SolidClosestPoint<T> c = closest_point_on_capsule(capsule, p);
    const double axis_distance = reference_distance_to_segment(a, b, pd);
    ASSERT_NEAR(distance(to_double(c.point), pd), std::max(0.0, axis_distance - radius), tol) << i;
    if (std::abs(axis_distance - radius) > tol) {
      ASSERT_EQ(c.inside, axis_distance < radius) << i;
    }
    if (c.inside) {
      ASSERT_EQ(c.point, p) << i;
    } else {
      ASSERT_NEAR(reference_distance_to_segment(a, b, to_double(c.point)), radius, tol) << i;
    }
    inside_count += c.inside;
  }
  EXPECT_GT(inside_count, kRandomCases / 100);
}

TYPED_TEST(ClosestPoint, RandomSegmentPairsMatchCandidateSet) {
  using T = TypeParam;
  std::mt19937 rng(606);
  const double tol = random_tolerance<T>();
  for (int i = 0; i < kRandomCases; ++i) {
    const Segment<T> first = random_segment<T>(rng);
    Segment<T> second = random_segment<T>(rng);
    const std::uint32_t kind = rng() % 10;
    if (kind == 0) {  // parallel, shifted
      const Vec3<T> shift = random_point<T>(rng, 1);
      second = {first.a + shift, lerp(first.a, first.b, T(uniform(rng, -1, 2))) + shift};
    } else if (kind == 1) {  // crossing: the second passes through a point of the first
      const Vec3<T> x = lerp(first.a, first.b, T(uniform(rng, 0, 1)));
      second.b = x + (x - second.a) * T(uniform(rng, 0.1, 1));
    }
    const SegmentPairClosestPoints<T> r = closest_points_between_segments(first, second);
    const V3d p1 = to_double(first.a), q1 = to_double(first.b), p2 = to_double(second.a), q2 = to_double(second.b);
    ASSERT_NEAR(std::sqrt(double(r.distance_squared)), reference_distance_between_segments(p1, q1, p2, q2), tol) << i;
    ASSERT_TRUE(r.s >= 0 && r.s <= 1 && r.t >= 0 && r.t <= 1) << i;
    ASSERT_LE(distance(to_double(r.on_first), p1 + (q1 - p1) * double(r.s)), tol) << i;
    ASSERT_LE(distance(to_double(r.on_second), p2 + (q2 - p2) * double(r.t)), tol) << i;
    ASSERT_EQ(r.distance_squared, distance_squared(r.on_first, r.on_second)) << i;
  }
}

// Nearly parallel pairs, where a e - b² cancels: the distance must stay right at every angle.
// The reference is a ternary search over s of the (convex) distance to the second segment.
TYPED_TEST(ClosestPoint, NearlyParallelSegmentsKeepTheirDistance) {
  using T = TypeParam;
  std::mt19937 rng(707);
  const double tol = random_tolerance<T>();
  for (int i = 0; i < 2000; ++i) {
    const V3d a = random_point<double>(rng, 1), b = random_point<double>(rng, 1);
    const double angle = std::pow(10.0, uniform(rng, -9, -2)), along = uniform(rng, -0.5, 1.5);
    V3d axis, unused;
    orthonormal_basis(normalize(b - a), axis, unused);
    const Quatd turn = Quatd::from_axis_angle(axis, angle);
    const V3d pivot = lerp(a, b, uniform(rng, 0, 1)) + random_point<double>(rng, 0.5);
    const V3d c = pivot + turn.rotate(a - pivot) * along, d = pivot + turn.rotate(b - pivot) * along;
    const Segment<T> first{vec3_cast<T>(a), vec3_cast<T>(b)}, second{vec3_cast<T>(c), vec3_cast<T>(d)};

    const V3d p1 = to_double(first.a), q1 = to_double(first.b), p2 = to_double(second.a), q2 = to_double(second.b);
    const auto f = [&](double s) { return reference_distance_to_segment(p2, q2, p1 + (q1 - p1) * s); };
    double lo = 0, hi = 1;
    for (int k = 0; k < 100; ++k) {
      const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
      if (f(m1) < f(m2)) {
        hi = m2;
      } else {
        lo = m1;
      }
    }
    const double expected = std::min({f(lo), f(0), f(1)});
    const SegmentPairClosestPoints<T> r = closest_points_between_segments(first, second);
    ASSERT_NEAR(std::sqrt(double(r.distance_squared)), expected, tol) << i << " angle " << angle;
  }
}

}  // namespace
}  // namespace hitscan
