#include "hitscan/geometry/ray_polygon.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "geometry/reference_shapes.hpp"

namespace hitscan {
namespace {

using namespace reference;

template <Real T>
std::vector<Vec3<T>> xy_at_z(std::initializer_list<std::pair<double, double>> xy, double z) {
  std::vector<Vec3<T>> out;
  for (const auto& [x, y] : xy) out.push_back({T(x), T(y), T(z)});
  return out;
}

template <Real T>
ConvexPolygon<T> make_or_die(const std::vector<Vec3<T>>& vs) {
  Result<ConvexPolygon<T>> r = ConvexPolygon<T>::make(vs);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return std::move(r).value();
}

template <Real T>
std::vector<Vec3d> vertices_d(const ConvexPolygon<T>& p) {
  std::vector<Vec3d> out;
  for (const Vec3<T>& v : p.vertices()) out.push_back(to_double(v));
  return out;
}

/// A random polygon with its vertices in double, centre and bounding radius computed once.
template <Real T>
struct PolygonCase {
  ConvexPolygon<T> polygon;
  std::vector<Vec3d> vertices;
  Vec3d centre{};
  double size = 0;
};

template <Real T>
std::string describe(const PolygonCase<T>& c) {
  return reference::describe(c.polygon);
}

struct PolygonTraits {
  static constexpr const char* name = "ray_vs_polygon";
  /// 3 to 8 vertices on an ellipse in a random plane, in angular order, gaps of at least 0.2 rad.
  template <Real T>
  static PolygonCase<T> random_shape(Rng& rng) {
    const int n = 3 + int(rng.uniform(0, 6)) % 6;
    std::vector<double> angles;
    for (;;) {
      angles.clear();
      for (int i = 0; i < n; ++i) angles.push_back(rng.uniform(0, 2 * kPi<double>));
      std::sort(angles.begin(), angles.end());
      bool spread = angles.front() + 2 * kPi<double> - angles.back() >= 0.2;
      for (int i = 1; i < n; ++i) spread = spread && angles[i] - angles[i - 1] >= 0.2;
      if (spread) break;
    }
    const Vec3d c = rng.in_cube(5), normal = rng.unit_vector();
    Vec3d e1, e2;
    orthonormal_basis(normal, e1, e2);
    const double ra = rng.log_uniform(0.3, 3), rb = rng.log_uniform(0.3, 3);
    std::vector<Vec3<T>> vs;
    for (double a : angles) vs.push_back(from_double<T>(c + e1 * (ra * std::cos(a)) + e2 * (rb * std::sin(a))));
    PolygonCase<T> out{make_or_die(vs), {}};
    out.vertices = vertices_d(out.polygon);
    for (const Vec3d& v : out.vertices) out.centre += v / double(n);
    for (const Vec3d& v : out.vertices) out.size = std::max(out.size, distance(v, out.centre));
    return out;
  }
  template <Real T>
  static RayHit<T> kernel(const PolygonCase<T>& p, const Ray<T>& r) { return ray_vs_polygon(p.polygon, r); }
  template <Real T>
  static PlaneCrossing crossing(const PolygonCase<T>& p, const Rayd& r) { return cross_polygon_fan(p.vertices, r); }
  template <Real T>
  static PlaneCrossing crossing(const ConvexPolygon<T>& p, const Rayd& r) { return cross_polygon_fan(vertices_d(p), r); }
  template <Real T>
  static Vec3d center(const PolygonCase<T>& p) { return p.centre; }
  template <Real T>
  static double size(const PolygonCase<T>& p) { return p.size; }
  template <Real T>
  static Vec3d barycentric_point(const PolygonCase<T>&, double, double) { return {std::nan(""), 0, 0}; }
  /// Most rays re-aimed (same length) at a point of a fan triangle grown by 20% about the centre.
  template <Real T>
  static void adjust_ray(const PolygonCase<T>& p, Ray<T>& ray, Rng& rng) {
    if (rng.chance(0.4)) return;
    const std::vector<Vec3d>& vs = p.vertices;
    const std::size_t i = 1 + std::size_t(rng.uniform(0, double(vs.size() - 2))) % (vs.size() - 2);
    double u = rng.uniform(), v = rng.uniform();
    if (u + v > 1) u = 1 - u, v = 1 - v;
    const Vec3d target = p.centre + (vs[0] * (1 - u - v) + vs[i] * u + vs[i + 1] * v - p.centre) * 1.2;
    const Vec3d to = target - to_double(ray.origin);
    if (length_squared(to) > 1e-12) ray.dir = from_double<T>(normalize(to) * length(to_double(ray.dir)));
  }
};

template <Real T>
::testing::AssertionResult Hits(const ConvexPolygon<T>& p, const Ray<T>& r, const Expected& e) {
  if (auto k = IsHit(ray_vs_polygon(p, r), r, e, Tolerance<T>::hand); !k) return k << " [kernel]";
  const RayHitd ref = surface_hit(PolygonTraits::crossing(p, to_double(r)), to_double(r));
  if (auto k = IsHit(ref, to_double(r), e, Tolerance<T>::hand); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <Real T>
::testing::AssertionResult Misses(const ConvexPolygon<T>& p, const Ray<T>& r) {
  if (auto k = IsMiss(ray_vs_polygon(p, r)); !k) return k << " [kernel]";
  if (auto k = IsMiss(surface_hit(PolygonTraits::crossing(p, to_double(r)), to_double(r))); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <Real T>
::testing::AssertionResult FailsWith(const std::vector<Vec3<T>>& vs, StatusCode code) {
  const Result<ConvexPolygon<T>> r = ConvexPolygon<T>::make(vs);
  if (r.ok()) return ::testing::AssertionFailure() << "accepted, expected " << status_code_name(code);
  if (r.status().code() != code)
    return ::testing::AssertionFailure() << status_code_name(r.status().code()) << " (" << r.status().message()
                                         << "), expected " << status_code_name(code);
  if (r.status().message().empty()) return ::testing::AssertionFailure() << "no message";
  return ::testing::AssertionSuccess();
}

template <class T>
class ConvexPolygonMake : public ::testing::Test {};
TYPED_TEST_SUITE(ConvexPolygonMake, Reals, RealNames);

TYPED_TEST(ConvexPolygonMake, AcceptsConvexPolygonsAndDerivesTheFrontFromTheWinding) {
  using T = TypeParam;
  const std::vector<Vec3<T>> square = xy_at_z<T>({{0, 0}, {2, 0}, {2, 2}, {0, 2}}, 1);
  const ConvexPolygon<T> ccw = make_or_die(square);
  ASSERT_EQ(ccw.vertices().size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(ccw.vertices()[i], square[i]);
  EXPECT_EQ(ccw.normal(), (Vec3<T>{0, 0, 1}));
  EXPECT_NEAR(ccw.offset(), 1, Tolerance<T>::hand);
  const ConvexPolygon<T> cw = make_or_die(xy_at_z<T>({{0, 0}, {0, 2}, {2, 2}, {2, 0}}, 1));
  EXPECT_EQ(cw.normal(), (Vec3<T>{0, 0, -1}));
  EXPECT_NEAR(cw.offset(), -1, Tolerance<T>::hand);
  const ConvexPolygon<T> tri = make_or_die(std::vector<Vec3<T>>{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  const double s = 1 / std::sqrt(3.0);
  EXPECT_LT(distance(to_double(tri.normal()), Vec3d{s, s, s}), 4 * Tolerance<T>::hand);
  EXPECT_NEAR(tri.offset(), s, Tolerance<T>::hand);
  // A regular pentagon in the plane x = 3.
  std::vector<Vec3<T>> pentagon;
  for (int k = 0; k < 5; ++k) pentagon.push_back({3, T(std::cos(k * 0.4 * kPi<double>)), T(std::sin(k * 0.4 * kPi<double>))});
  EXPECT_LT(distance(to_double(make_or_die(pentagon).normal()), Vec3d{1, 0, 0}), 4 * Tolerance<T>::hand);
}

TYPED_TEST(ConvexPolygonMake, TooFewOrNonFiniteVerticesAreInvalidArguments) {
  using T = TypeParam;
  EXPECT_TRUE(FailsWith<T>({}, StatusCode::invalid_argument));
  EXPECT_TRUE(FailsWith<T>({{0, 0, 0}}, StatusCode::invalid_argument));
  EXPECT_TRUE(FailsWith<T>({{0, 0, 0}, {1, 0, 0}}, StatusCode::invalid_argument));
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = kInfinity<T>;
  EXPECT_TRUE(FailsWith<T>({{0, 0, 0}, {1, 0, 0}, {0, nan, 0}}, StatusCode::invalid_argument));
  EXPECT_TRUE(FailsWith<T>({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, inf}}, StatusCode::invalid_argument));
  EXPECT_TRUE(FailsWith<T>({{-inf, 0, 0}, {1, 0, 0}, {1, 1, 0}}, StatusCode::invalid_argument));
}

TYPED_TEST(ConvexPolygonMake, ZeroAreaRepeatedOrCollinearVerticesAreDegenerate) {
  using T = TypeParam;
  EXPECT_TRUE(FailsWith<T>({{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, StatusCode::degenerate));
  EXPECT_TRUE(FailsWith<T>({{0, 0, 0}, {1, 1, 1}, {2, 2, 2}}, StatusCode::degenerate));
  EXPECT_TRUE(FailsWith<T>({{0, 0, 0}, {1, 1, 1}, {3, 3, 3}, {2, 2, 2}}, StatusCode::degenerate));
  EXPECT_TRUE(FailsWith<T>(xy_at_z<T>({{0, 0}, {2, 0}, {2, 0}, {2, 2}, {0, 2}}, 0), StatusCode::degenerate));
  EXPECT_TRUE(FailsWith<T>(xy_at_z<T>({{0, 0}, {2, 0}, {2, 2}, {0, 2}, {0, 2}}, 0), StatusCode::degenerate));
  // The last vertex repeating the first is a repeated consecutive pair too (the polygon is closed).
  EXPECT_TRUE(FailsWith<T>(xy_at_z<T>({{0, 0}, {2, 0}, {2, 2}, {0, 0}}, 0), StatusCode::degenerate));
}

TYPED_TEST(ConvexPolygonMake, VerticesOffThePlaneAreInvalidButRoundingIsTolerated) {
  using T = TypeParam;
  EXPECT_TRUE(FailsWith<T>({{0, 0, 0}, {2, 0, 0}, {2, 2, T(0.02)}, {0, 2, 0}}, StatusCode::invalid_argument));
  EXPECT_TRUE(FailsWith<T>({{0, 0, 100}, {200, 0, 100}, {200, 200, 102}, {0, 200, 100}}, StatusCode::invalid_argument));
  // The same shape 1000 times smaller, off the plane by the same 1% of its size: still rejected.
  EXPECT_TRUE(FailsWith<T>({{0, 0, 0}, {T(2e-3), 0, 0}, {T(2e-3), T(2e-3), T(2e-5)}, {0, T(2e-3), 0}}, StatusCode::invalid_argument));
  // A square rotated into a general plane has every vertex off that plane by rounding only.
  const Quat<T> q = Quat<T>::from_axis_angle({1, 2, 3}, T(0.7));
  std::vector<Vec3<T>> turned;
  for (const Vec3<T>& v : xy_at_z<T>({{0, 0}, {2, 0}, {2, 2}, {0, 2}}, 0)) turned.push_back(q.rotate(v) + Vec3<T>{3, -4, 5});
  EXPECT_TRUE(ConvexPolygon<T>::make(turned).ok());
}

TYPED_TEST(ConvexPolygonMake, ConcaveOrInconsistentlyWoundPolygonsAreInvalid) {
  using T = TypeParam;
  // A dart: the turn at (1.5, 0.5) goes the other way.
  EXPECT_TRUE(FailsWith<T>(xy_at_z<T>({{0, 0}, {2, 0}, {2, 2}, {1.5, 0.5}}, 0), StatusCode::invalid_argument));
  // A bow tie: its edges cross. (With equal lobes its signed area is zero, so "degenerate" is
  // defensible there; with unequal lobes it can only be the winding.)
  EXPECT_TRUE(FailsWith<T>(xy_at_z<T>({{0, 0}, {2, 2}, {2, 0}, {0, 3}}, 0), StatusCode::invalid_argument));
  EXPECT_FALSE(ConvexPolygon<T>::make(xy_at_z<T>({{0, 0}, {2, 2}, {2, 0}, {0, 2}}, 0)).ok());
  // A pentagram: every turn goes the same way, but it winds twice around its centre.
  std::vector<Vec3<T>> star;
  for (int k = 0; k < 5; ++k) star.push_back({T(std::cos(k * 0.8 * kPi<double>)), T(std::sin(k * 0.8 * kPi<double>)), 0});
  EXPECT_TRUE(FailsWith<T>(star, StatusCode::invalid_argument));
}

TYPED_TEST(ConvexPolygonMake, NormalOfASmallPolygonFarFromTheOriginIsAccurate) {
  using T = TypeParam;
  // A unit square facing (0.6, 0, 0.8), 100 and 1000 units out along (1, 1, 1). The normal of
  // the (rounded) vertices is, for a quad, the cross product of its diagonals; the polygon's must
  // match it to a few ulps. A sum of cross products of the absolute positions (Newell's method
  // without first moving the polygon to the origin) cancels terms of size D^2 down to the area, 1.
  for (const double d : {100.0, 1000.0}) {
    const Vec3<T> c{T(d), T(d), T(d)}, a{T(0.8), 0, T(-0.6)}, b{0, 1, 0};
    const std::vector<Vec3<T>> vs{c, c + a, c + a + b, c + b};
    const ConvexPolygon<T> p = make_or_die(vs);
    const Vec3d exact = cross(to_double(vs[2]) - to_double(vs[0]), to_double(vs[3]) - to_double(vs[1]));
    EXPECT_LE(angle_between(to_double(p.normal()), exact), 16 * kEpsilon<T>) << "at distance " << d;
    EXPECT_LE(angle_between(exact, Vec3d{0.6, 0, 0.8}), d * 1e-7) << "test setup";
    const RayHit<T> h = ray_vs_polygon(p, Ray<T>{c + (a + b) * T(0.5) + Vec3<T>{T(0.6), 0, T(0.8)} * T(2), {T(-0.6), 0, T(-0.8)}});
    ASSERT_TRUE(h.hit) << "at distance " << d;
    EXPECT_NEAR(h.t, 2, d * 2e-7 + 1e-12) << "at distance " << d;
  }
}

template <class T>
class RayPolygon : public ::testing::Test {};
TYPED_TEST_SUITE(RayPolygon, Reals, RealNames);

// [0, 2] x [0, 2] at z = 1, counter-clockwise from +z.
template <Real T>
ConvexPolygon<T> square() {
  return make_or_die(xy_at_z<T>({{0, 0}, {2, 0}, {2, 2}, {0, 2}}, 1));
}

TYPED_TEST(RayPolygon, FrontAndBackHitsWithThePolygonNormal) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(square<T>(), Ray<T>{{1, 1, 5}, {0, 0, -1}}, {.t = 4, .normal = {0, 0, 1}}));
  EXPECT_TRUE(Hits(square<T>(), Ray<T>{{T(0.5), T(1.5), -1}, {0, 0, 4}}, {.t = 0.5, .normal = {0, 0, 1}, .flags = kHitBackFace}));
  EXPECT_TRUE(Hits(square<T>(), Ray<T>{{0, 0, 3}, {1, T(0.5), -2}}, {.t = 1, .normal = {0, 0, 1}}));
  const ConvexPolygon<T> clockwise = make_or_die(xy_at_z<T>({{0, 0}, {0, 2}, {2, 2}, {2, 0}}, 1));
  EXPECT_TRUE(Hits(clockwise, Ray<T>{{1, 1, 5}, {0, 0, -1}}, {.t = 4, .normal = {0, 0, -1}, .flags = kHitBackFace}));
}

TYPED_TEST(RayPolygon, EdgesAndVerticesAreIncluded) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(square<T>(), Ray<T>{{2, 1, 5}, {0, 0, -1}}, {.t = 4, .normal = {0, 0, 1}}));
  EXPECT_TRUE(Hits(square<T>(), Ray<T>{{1, 0, 5}, {0, 0, -1}}, {.t = 4, .normal = {0, 0, 1}}));
  EXPECT_TRUE(Hits(square<T>(), Ray<T>{{2, 2, 5}, {0, 0, -1}}, {.t = 4, .normal = {0, 0, 1}}));
  EXPECT_TRUE(Hits(square<T>(), Ray<T>{{0, 0, -5}, {0, 0, 1}}, {.t = 6, .normal = {0, 0, 1}, .flags = kHitBackFace}));
  EXPECT_TRUE(Misses(square<T>(), Ray<T>{{T(2.001), 1, 5}, {0, 0, -1}}));
  EXPECT_TRUE(Misses(square<T>(), Ray<T>{{1, T(-0.001), 5}, {0, 0, -1}}));
  EXPECT_TRUE(Misses(square<T>(), Ray<T>{{T(2.001), T(2.001), 5}, {0, 0, -1}}));
}

TYPED_TEST(RayPolygon, TriangleShapedPolygonMatchesTheTriangle) {
  using T = TypeParam;
  const ConvexPolygon<T> tri = make_or_die(std::vector<Vec3<T>>{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}});
  EXPECT_TRUE(Hits(tri, Ray<T>{{1, 1, 2}, {0, 0, -1}}, {.t = 2, .normal = {0, 0, 1}}));
  EXPECT_TRUE(Hits(tri, Ray<T>{{2, 2, 2}, {0, 0, -1}}, {.t = 2, .normal = {0, 0, 1}}));
  EXPECT_TRUE(Misses(tri, Ray<T>{{T(2.01), 2, 2}, {0, 0, -1}}));
}

TYPED_TEST(RayPolygon, ParallelBehindAndOutOfRangeMiss) {
  using T = TypeParam;
  EXPECT_TRUE(Misses(square<T>(), Ray<T>{{-1, 1, 1}, {1, 0, 0}}));
  EXPECT_TRUE(Misses(square<T>(), Ray<T>{{-1, 1, 3}, {1, 0, 0}}));
  EXPECT_TRUE(Misses(square<T>(), Ray<T>{{1, 1, 5}, {0, 0, 1}}));
  EXPECT_TRUE(Misses(square<T>(), Ray<T>{{1, 1, 5}, {0, 0, -1}, 0, T(3.9)}));
  EXPECT_TRUE(Misses(square<T>(), Ray<T>{{1, 1, 5}, {0, 0, -1}, T(4.1)}));
  EXPECT_TRUE(Hits(square<T>(), Ray<T>{{1, 1, 5}, {0, 0, -1}, 4, 4}, {.t = 4, .normal = {0, 0, 1}}));
  EXPECT_TRUE(Hits(square<T>(), Ray<T>{{1, 1, 5}, {0, 0, 1}, -10}, {.t = -4, .normal = {0, 0, 1}, .flags = kHitBackFace}));
}

TYPED_TEST(RayPolygon, InvalidRaysMiss) {
  using T = TypeParam;
  const ConvexPolygon<T> p = square<T>();
  expect_invalid_rays_miss<T>([&](const Ray<T>& r) { return ray_vs_polygon(p, r); }, Ray<T>{{1, 1, 5}, {0, 0, -1}});
  expect_invalid_rays_miss<T>([&](const Ray<T>& r) { return ray_vs_polygon(p, r); }, Ray<T>{{0, 0, 0}, {1, 2, 3}});
}

TYPED_TEST(RayPolygon, ExtremeFiniteRaysNeverYieldNaN) {
  using T = TypeParam;
  const ConvexPolygon<T> p = square<T>();
  expect_extreme_rays_nan_free<T>([&](const Ray<T>& r) { return ray_vs_polygon(p, r); }, Ray<T>{{1, 1, 5}, {0, 0, -1}});
  expect_extreme_rays_nan_free<T>([&](const Ray<T>& r) { return ray_vs_polygon(p, r); }, Ray<T>{{0, 0, 0}, {1, 2, 3}});
}

TYPED_TEST(RayPolygon, RandomRaysMatchTheTriangleFan) {
  run_surface_differential<TypeParam, PolygonTraits>(0x9017u, 100000).finish();
}

}  // namespace
}  // namespace hitscan
