// ConvexHull::make against the definition of the hull (every input point behind every face plane,
// every face plane touching the cloud, a closed consistently wound surface) and known polyhedra;
// ray_vs_hull against ray_vs_obb on box hulls.

#include "hitscan/geometry/convex_hull.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "geometry/reference_shapes.hpp"
#include "hitscan/geometry/ray_obb.hpp"

namespace hitscan {
namespace {

using namespace reference;

template <class T>
class ConvexHullTyped : public ::testing::Test {};
TYPED_TEST_SUITE(ConvexHullTyped, Reals, RealNames);

/// The build tolerance of convex_hull.cpp, with a margin: 64 ulps of T at the coordinates' size.
template <Real T>
double hull_tolerance(double magnitude) {
  return 256.0 * static_cast<double>(kEpsilon<T>) * magnitude;
}

/// Checks the hull against the definition for the cloud it was built from: a closed, consistently
/// wound triangle surface (every directed edge once, with its reverse owned by another face),
/// V - E + F = 2, planes that match their triangles, every point behind every plane within tol,
/// every vertex an input point, and the interior point strictly inside.
template <Real T>
void expect_hull_of(const ConvexHull<T>& hull, const std::vector<Vec3<T>>& points, double tol) {
  const auto faces = hull.faces();
  const auto vertices = hull.vertices();
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
  for (const auto& f : faces) {
    for (int k = 0; k < 3; ++k) ++edges[{f[k], f[(k + 1) % 3]}];
  }
  for (const auto& [edge, count] : edges) {
    ASSERT_EQ(count, 1) << "directed edge used twice";
    ASSERT_EQ(edges.count({edge.second, edge.first}), 1u) << "open edge " << edge.first << "-" << edge.second;
  }
  const std::size_t e = edges.size() / 2;
  EXPECT_EQ(vertices.size() + faces.size(), e + 2) << "Euler characteristic of a sphere";
  for (std::size_t i = 0; i < faces.size(); ++i) {
    const Vec3d a = to_double(vertices[faces[i][0]]), b = to_double(vertices[faces[i][1]]),
                c = to_double(vertices[faces[i][2]]);
    const Vec3d n = normalize(cross(b - a, c - a));
    const Plane<T>& plane = hull.planes()[i];
    EXPECT_GT(dot(n, to_double(plane.normal)), 1 - 1e-3) << "face " << i << " plane disagrees with its winding";
    for (const Vec3d v : {a, b, c}) EXPECT_NEAR(dot(to_double(plane.normal), v), double(plane.offset), tol);
    double top = -kInf;
    for (const Vec3<T>& p : points) top = std::max(top, dot(to_double(plane.normal), to_double(p)) - double(plane.offset));
    EXPECT_LE(top, tol) << "a point lies in front of face " << i;
    EXPECT_LT(dot(to_double(plane.normal), to_double(hull.interior_point())) - double(plane.offset), 0.0);
  }
  for (const Vec3<T>& v : vertices) {
    bool found = false;
    for (const Vec3<T>& p : points) found = found || p == v;
    EXPECT_TRUE(found) << "vertex " << hex(v) << " is not an input point";
  }
  for (const Vec3<T>& p : points) EXPECT_TRUE(hull.contains(p, T(tol))) << hex(p);
}

TYPED_TEST(ConvexHullTyped, CubeCornersAndInteriorPointsGiveEightVerticesTwelveTriangles) {
  using T = TypeParam;
  std::vector<Vec3<T>> points;
  Rng rng(11);
  for (int i = 0; i < 50; ++i) points.push_back(from_double<T>(rng.in_cube(0.99)));
  for (int i = 0; i < 8; ++i) points.push_back({T(i & 1 ? 1 : -1), T(i & 2 ? 1 : -1), T(i & 4 ? 1 : -1)});
  for (int i = 0; i < 20; ++i) {  // points on the faces, not at corners: coplanar with them
    Vec3<T> p = from_double<T>(rng.in_cube(1));
    p[i % 3] = T(i % 2 ? 1 : -1);
    points.push_back(p);
  }
  const Result<ConvexHull<T>> hull = ConvexHull<T>::make(points);
  ASSERT_TRUE(hull.ok()) << hull.status().message();
  EXPECT_EQ(hull.value().vertices().size(), 8u);
  EXPECT_EQ(hull.value().faces().size(), 12u);
  for (const Plane<T>& plane : hull.value().planes()) {
    EXPECT_NEAR(double(max_component(abs(plane.normal))), 1.0, 1e-6);
    EXPECT_NEAR(double(plane.offset), 1.0, 1e-6);
  }
  EXPECT_EQ(hull.value().bounds().min, (Vec3<T>{-1, -1, -1}));
  EXPECT_EQ(hull.value().bounds().max, (Vec3<T>{1, 1, 1}));
  EXPECT_DOUBLE_EQ(double(size_of(hull.value())), 1.0);
  expect_hull_of(hull.value(), points, hull_tolerance<T>(3));
}

TYPED_TEST(ConvexHullTyped, RandomPointsInBallMatchTheDefinition) {
  using T = TypeParam;
  Rng rng(12);
  for (int trial = 0; trial < 40; ++trial) {
    const Vec3d centre = rng.in_cube(trial < 20 ? 0.0 : 100.0);
    const double radius = rng.log_uniform(0.01, 10);
    std::vector<Vec3<T>> points;
    const int n = 4 + static_cast<int>(rng.uniform(0, 200));
    for (int i = 0; i < n; ++i) points.push_back(from_double<T>(centre + rng.in_ball(radius)));
    const Result<ConvexHull<T>> hull = ConvexHull<T>::make(points);
    ASSERT_TRUE(hull.ok()) << hull.status().message();
    const double magnitude = 3 * (max_component(abs(centre)) + radius);
    expect_hull_of(hull.value(), points, hull_tolerance<T>(magnitude));
  }
}

TYPED_TEST(ConvexHullTyped, TransformedHullIsTheHullOfTheTransformedCloud) {
  using T = TypeParam;
  Rng rng(17);
  for (int trial = 0; trial < 30; ++trial) {
    std::vector<Vec3<T>> points;
    for (int i = 0; i < 60; ++i) points.push_back(from_double<T>(rng.in_ball(2.0)));
    const ConvexHull<T> hull = ConvexHull<T>::make(points).value();
    // Non-uniform scale, a mirror every other trial, any rotation and a translation.
    const Vec3d axis = rng.unit_vector();
    Transform<T> t{Quat<T>::from_axis_angle(from_double<T>(axis), T(rng.uniform(0, 6))), from_double<T>(rng.in_cube(50.0)),
                   from_double<T>(Vec3d{rng.log_uniform(0.2, 5), rng.log_uniform(0.2, 5), rng.log_uniform(0.2, 5)})};
    if (trial % 2 == 1) t.scale.y = -t.scale.y;
    std::vector<Vec3<T>> moved;
    for (const Vec3<T>& p : points) moved.push_back(t.apply_point(p));
    const ConvexHull<T> carried = hull.transformed(t);
    EXPECT_EQ(carried.vertices().size(), hull.vertices().size());
    expect_hull_of(carried, moved, hull_tolerance<T>(200));
  }
}

TYPED_TEST(ConvexHullTyped, PointsOnASphereAreAllVertices) {
  using T = TypeParam;
  Rng rng(13);
  std::vector<Vec3<T>> points;
  for (int i = 0; i < 300; ++i) points.push_back(from_double<T>(rng.unit_vector() * 2.0));
  const Result<ConvexHull<T>> hull = ConvexHull<T>::make(points);
  ASSERT_TRUE(hull.ok()) << hull.status().message();
  EXPECT_EQ(hull.value().vertices().size(), 300u);
  EXPECT_EQ(hull.value().faces().size(), 2u * 300u - 4u);  // a simplicial polyhedron: F = 2V - 4
  expect_hull_of(hull.value(), points, hull_tolerance<T>(6));
}

TYPED_TEST(ConvexHullTyped, DuplicatePointsAreKeptOnce) {
  using T = TypeParam;
  std::vector<Vec3<T>> points;
  for (int copy = 0; copy < 3; ++copy) {
    for (int i = 0; i < 8; ++i) points.push_back({T(i & 1 ? 2 : 0), T(i & 2 ? 3 : 0), T(i & 4 ? 5 : 0)});
  }
  const Result<ConvexHull<T>> hull = ConvexHull<T>::make(points);
  ASSERT_TRUE(hull.ok()) << hull.status().message();
  EXPECT_EQ(hull.value().vertices().size(), 8u);
  EXPECT_EQ(hull.value().faces().size(), 12u);
  expect_hull_of(hull.value(), points, hull_tolerance<T>(10));
}

TYPED_TEST(ConvexHullTyped, InputWithoutVolumeIsRejectedNamingTheProblem) {
  using T = TypeParam;
  const auto message_of = [](const std::vector<Vec3<T>>& points) {
    const Result<ConvexHull<T>> hull = ConvexHull<T>::make(points);
    EXPECT_FALSE(hull.ok());
    EXPECT_EQ(hull.status().code(), StatusCode::invalid_argument);
    return hull.status().message();
  };
  EXPECT_NE(message_of({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}).find("at least 4 points"), std::string::npos);
  EXPECT_NE(message_of({{1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}}).find("coincide"), std::string::npos);
  EXPECT_NE(message_of({{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {-3, -3, -3}, {0.5, 0.5, 0.5}}).find("collinear"),
            std::string::npos);
  // A tilted grid of coplanar points (rounded to T, so off the plane by rounding only).
  std::vector<Vec3<T>> plane;
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) plane.push_back(from_double<T>(Vec3d{0.3 * i + 0.1 * j, 0.2 * j, 0.7 * i - 0.4 * j}));
  }
  EXPECT_NE(message_of(plane).find("coplanar"), std::string::npos);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  EXPECT_NE(message_of({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {nan, 0, 0}}).find("point 4 is not finite"),
            std::string::npos);
  EXPECT_NE(message_of({{0, 0, 0}, {1, 0, 0}, {kInfinity<T>, 1, 0}, {0, 0, 1}}).find("point 2 is not finite"),
            std::string::npos);
}

// A lattice is all coplanar sets: every point off the corners lies on a face, edge or inside.
TYPED_TEST(ConvexHullTyped, LatticeGivesTheBoxOfItsCorners) {
  using T = TypeParam;
  std::vector<Vec3<T>> points;
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 5; ++j) {
      for (int k = 0; k < 4; ++k) points.push_back({T(i), T(j), T(k)});
    }
  }
  const Result<ConvexHull<T>> hull = ConvexHull<T>::make(points);
  ASSERT_TRUE(hull.ok()) << hull.status().message();
  EXPECT_EQ(hull.value().vertices().size(), 8u);
  EXPECT_EQ(hull.value().faces().size(), 12u);
  expect_hull_of(hull.value(), points, hull_tolerance<T>(12));
}

TEST(ConvexHull, HundredThousandPointCloudBuildsAndHoldsEveryPoint) {
  Rng rng(14);
  std::vector<Vec3f> points;
  for (int i = 0; i < 100000; ++i) points.push_back(from_double<float>(rng.in_ball(5)));
  const Result<ConvexHullf> hull = ConvexHullf::make(points);
  ASSERT_TRUE(hull.ok()) << hull.status().message();
  // The definition on a sample of the points and the vertices (all pairs would be 10^8 products).
  std::vector<Vec3f> sample;
  for (std::size_t i = 0; i < points.size(); i += 50) sample.push_back(points[i]);
  for (const Vec3f& v : hull.value().vertices()) sample.push_back(v);
  expect_hull_of(hull.value(), sample, hull_tolerance<float>(15));
}

TYPED_TEST(ConvexHullTyped, SupportIsTheFurthestInputPoint) {
  using T = TypeParam;
  Rng rng(15);
  std::vector<Vec3<T>> points;
  for (int i = 0; i < 200; ++i) points.push_back(from_double<T>(rng.in_ball(3)));
  const ConvexHull<T> hull = ConvexHull<T>::make(points).value();
  for (int i = 0; i < 500; ++i) {
    const Vec3<T> d = from_double<T>(rng.unit_vector());
    double best = -kInf;
    for (const Vec3<T>& p : points) best = std::max(best, dot(to_double(p), to_double(d)));
    EXPECT_NEAR(dot(to_double(hull.support(d)), to_double(d)), best, hull_tolerance<T>(10));
  }
}

template <Real T>
Obb<T> random_box(Rng& rng) {
  const Vec3<T> c = from_double<T>(rng.in_cube(5));
  const Vec3<T> h = from_double<T>({rng.uniform(0.1, 3), rng.uniform(0.1, 3), rng.uniform(0.1, 3)});
  const Vec3d q = rng.in_cube(1);
  Obb<T> box = Obb<T>::from_quat(c, h, Quat<T>::from_components(T(rng.uniform(-1, 1)), T(q.x), T(q.y), T(q.z)));
  if (rng.chance(0.2)) box.rotation = Mat3<T>{};  // axis-aligned: rays with zero components meet parallel faces
  return box;
}

template <Real T>
std::vector<Vec3<T>> corners(const Obb<T>& box) {
  std::vector<Vec3<T>> out;
  for (int i = 0; i < 8; ++i) {
    Vec3<T> p = box.center;
    for (int k = 0; k < 3; ++k) p += box.rotation.col[k] * (((i >> k) & 1) ? box.half_extents[k] : -box.half_extents[k]);
    out.push_back(p);
  }
  return out;
}

// The hull of a box's corners is the box: same hit or miss (away from grazing the boundary),
// same t, t_exit, flags, and the normal of the face entered (away from edges, where the two
// pick either face).
TYPED_TEST(ConvexHullTyped, RayVsBoxHullMatchesRayVsObb) {
  using T = TypeParam;
  const double tol = std::is_same_v<T, float> ? 2e-5 : 1e-10;
  Rng rng(16);
  int compared = 0;
  for (int shape = 0; shape < 60; ++shape) {
    const Obb<T> box = random_box<T>(rng);
    const ConvexHull<T> hull = ConvexHull<T>::make(corners(box)).value();
    const double size = length(to_double(box.half_extents));
    for (int r = 0; r < 200; ++r) {
      const Ray<T> ray = random_ray<T>(rng, to_double(box.center), size);
      const RayHit<T> want = ray_vs_obb(box, ray), got = ray_vs_hull(hull, ray);
      const double scale = (length(to_double(ray.origin)) + size + length(to_double(box.center))) * tol;
      if (want.hit != got.hit) {
        // Only a graze: the hit the other kernel missed lies on the box's surface.
        const RayHit<T>& h = want.hit ? want : got;
        const Obb<double> bd{to_double(box.center), to_double(box.half_extents),
                             Mat3d::from_columns(to_double(box.rotation.col[0]), to_double(box.rotation.col[1]),
                                                 to_double(box.rotation.col[2]))};
        EXPECT_NEAR(box_sdf(obb_local(bd, to_double(h.point)), bd.half_extents), 0.0, 10 * scale)
            << describe(ray) << " obb " << describe(want) << " hull " << describe(got);
        continue;
      }
      if (!want.hit) continue;
      ++compared;
      const double dir = length(to_double(ray.dir));
      EXPECT_EQ(want.flags, got.flags) << describe(ray);
      EXPECT_NEAR(double(got.t) * dir, double(want.t) * dir, scale) << describe(ray);
      EXPECT_NEAR(double(got.t_exit) * dir, double(want.t_exit) * dir, scale) << describe(ray);
      if (angle_between(to_double(want.normal), to_double(got.normal)) > 1e-4) {
        // An edge or corner entry: the point is on two faces' planes.
        const Vec3d local = to_double(box.rotation.transpose_mul(got.point - box.center));
        int on_faces = 0;
        for (int k = 0; k < 3; ++k) on_faces += std::abs(std::abs(local[k]) - double(box.half_extents[k])) < 10 * scale;
        EXPECT_GE(on_faces, 2) << describe(ray) << " obb " << describe(want) << " hull " << describe(got);
      }
    }
  }
  EXPECT_GT(compared, 3000);
}

}  // namespace
}  // namespace hitscan
