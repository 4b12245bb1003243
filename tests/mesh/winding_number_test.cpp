// Generalised winding numbers: the exact sum against closed forms (the octant, a square seen
// from its axis, l'Huilier's spherical excess) and against the analytic inside test of a box and
// a sphere; on an open box, against the closed form of its missing face; the fast hierarchical
// evaluation against the exact sum on CGAL's elephant, and its batch against one at a time.

#include "hitscan/mesh/winding_number.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numbers>
#include <random>

#include "hitscan/io/mesh_loader.hpp"
#include "mesh/mesh_test_meshes.hpp"

namespace hitscan {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::shared_ptr<const TriangleMesh> make_mesh(std::vector<Vec3f> positions,
                                              std::vector<TriangleMesh::Indices> triangles) {
  return std::make_shared<const TriangleMesh>(TriangleMesh::make(std::move(positions), std::move(triangles)).value());
}

// The box [0, 1] x [0, 1] x [0, height], counter-clockwise seen from outside; without its top
// face (z = height) when `open_top`.
std::shared_ptr<const TriangleMesh> unit_box(bool open_top = false, float height = 1.0f) {
  std::vector<Vec3f> p;
  for (int i = 0; i < 8; ++i) p.push_back({float(i & 1), float((i >> 1) & 1), float((i >> 2) & 1) * height});
  std::vector<TriangleMesh::Indices> f = {{0, 2, 3}, {0, 3, 1},   // z = 0
                                          {0, 1, 5}, {0, 5, 4},   // y = 0
                                          {2, 6, 7}, {2, 7, 3},   // y = 1
                                          {0, 4, 6}, {0, 6, 2},   // x = 0
                                          {1, 3, 7}, {1, 7, 5}};  // x = 1
  if (!open_top) f.insert(f.end(), {{4, 5, 7}, {4, 7, 6}});       // z = 1
  return make_mesh(std::move(p), std::move(f));
}

std::shared_ptr<const TriangleMesh> flipped(const TriangleMesh& mesh) {
  std::vector<TriangleMesh::Indices> f(mesh.triangles().begin(), mesh.triangles().end());
  for (auto& t : f) std::swap(t[1], t[2]);
  return make_mesh({mesh.positions().begin(), mesh.positions().end()}, std::move(f));
}

WindingNumber fast(std::shared_ptr<const TriangleMesh> mesh, double accuracy = 2.0) {
  return WindingNumber::make(std::make_shared<const MeshBvh>(MeshBvh::build(std::move(mesh)).value()), accuracy)
      .value();
}

// Solid angle of a square of half side a seen from height h above its centre.
double square_solid_angle(double a, double h) { return 4.0 * std::asin(a * a / (a * a + h * h)); }

// |solid angle| of triangle (a, b, c) seen from the origin by l'Huilier's theorem on the spherical
// triangle of the directions: tan(E / 4)^2 = tan(s/2) tan((s-x)/2) tan((s-y)/2) tan((s-z)/2).
double lhuilier_solid_angle(Vec3d a, Vec3d b, Vec3d c) {
  auto angle = [](Vec3d u, Vec3d v) { return std::atan2(length(cross(u, v)), dot(u, v)); };
  const double x = angle(b, c), y = angle(c, a), z = angle(a, b), s = (x + y + z) / 2;
  const double product = std::tan(s / 2) * std::tan((s - x) / 2) * std::tan((s - y) / 2) * std::tan((s - z) / 2);
  return 4.0 * std::atan(std::sqrt(std::max(product, 0.0)));
}

TEST(WindingNumberExact, OctantTriangleFromTheOriginIsOneEighth) {
  // The triangle on the three unit axis points covers exactly the positive octant seen from the
  // origin, which lies on its normal axis behind it.
  const auto mesh = make_mesh({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{0, 1, 2}});
  EXPECT_NEAR(winding_number_exact(*mesh, {0, 0, 0}), 0.125, 1e-15);
  EXPECT_NEAR(winding_number_exact(*flipped(*mesh), {0, 0, 0}), -0.125, 1e-15);
  // Beyond the triangle the origin's octant is seen from the front: negative.
  EXPECT_LT(winding_number_exact(*mesh, {1, 1, 1}), 0.0);
}

TEST(WindingNumberExact, SquareSeenFromItsAxisMatchesClosedForm) {
  const auto mesh = make_mesh({{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}}, {{0, 1, 2}, {0, 2, 3}});
  for (double h : {0.01, 0.3, 1.0, 2.5, 40.0}) {
    const double expected = square_solid_angle(1.0, h) / (4 * kPi);
    // Below the square its normal (+z) points away: positive.
    EXPECT_NEAR(winding_number_exact(*mesh, {0, 0, -h}), expected, 1e-14) << h;
    EXPECT_NEAR(winding_number_exact(*mesh, {0, 0, h}), -expected, 1e-14) << h;
  }
}

TEST(WindingNumberExact, SingleTrianglesMatchLhuilierAtRandomPoints) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> u(-2, 2);
  for (int i = 0; i < 500; ++i) {
    const Vec3f v0{u(gen), u(gen), u(gen)}, v1{u(gen), u(gen), u(gen)}, v2{u(gen), u(gen), u(gen)};
    const Vec3f p{u(gen), u(gen), u(gen)};
    const auto mesh = make_mesh({v0, v1, v2}, {{0, 1, 2}});
    const Vec3d a = vec3_cast<double>(v0) - vec3_cast<double>(p), b = vec3_cast<double>(v1) - vec3_cast<double>(p),
                c = vec3_cast<double>(v2) - vec3_cast<double>(p);
    const double sign = dot(a, cross(b, c)) > 0 ? 1.0 : -1.0;
    EXPECT_NEAR(winding_number_exact(*mesh, vec3_cast<double>(p)), sign * lhuilier_solid_angle(a, b, c) / (4 * kPi),
                1e-9)
        << i;
  }
}

TEST(WindingNumberExact, ClosedBoxIsOneInsideZeroOutside) {
  const auto box = unit_box();
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> u(-0.5, 1.5);
  int inside = 0;
  for (int i = 0; i < 2000; ++i) {
    const Vec3d p{u(gen), u(gen), u(gen)};
    const bool in = p.x > 0 && p.x < 1 && p.y > 0 && p.y < 1 && p.z > 0 && p.z < 1;
    inside += in;
    ASSERT_NEAR(winding_number_exact(*box, p), in ? 1.0 : 0.0, 1e-12) << p.x << " " << p.y << " " << p.z;
  }
  EXPECT_GT(inside, 100);
}

TEST(WindingNumberExact, OnTheSurfaceOfABoxIsTheInteriorAngleFraction) {
  // Triangles whose plane holds the point contribute 0, so a face point gets 1/2, an edge point
  // 1/4 and a corner 1/8: the fraction of the sphere around the point that the box fills.
  const auto box = unit_box();
  EXPECT_NEAR(winding_number_exact(*box, {0.3, 0.6, 0.0}), 0.5, 1e-14);
  EXPECT_NEAR(winding_number_exact(*box, {0.5, 0.5, 1.0}), 0.5, 1e-14);  // on the face's diagonal
  EXPECT_NEAR(winding_number_exact(*box, {1.0, 0.25, 0.7}), 0.5, 1e-14);
  EXPECT_NEAR(winding_number_exact(*box, {0.4, 0.0, 0.0}), 0.25, 1e-14);
  EXPECT_NEAR(winding_number_exact(*box, {1.0, 1.0, 0.5}), 0.25, 1e-14);
  EXPECT_NEAR(winding_number_exact(*box, {0.0, 0.0, 0.0}), 0.125, 1e-14);
  EXPECT_NEAR(winding_number_exact(*box, {1.0, 1.0, 1.0}), 0.125, 1e-14);
  // The fast evaluation opens every triangle this close, so it agrees.
  const WindingNumber w = fast(box);
  EXPECT_NEAR(w({0.3f, 0.6f, 0.0f}), 0.5, 1e-14);
  EXPECT_NEAR(w({0.0f, 0.0f, 0.0f}), 0.125, 1e-14);
}

TEST(WindingNumberExact, IcosphereIsOneInsideZeroOutside) {
  const auto sphere = test::icosphere(3, 2.0f, {1, -1, 0.5f});
  const WindingNumber w = fast(sphere);
  std::mt19937 gen(12);
  std::uniform_real_distribution<float> u(-3, 3);
  // The flat faces lie inside the unit sphere by at most r (1 - cos(edge angle / 2)); points in
  // that shell are left out, since the analytic test answers for the round sphere.
  const float shell = 2.0f * 0.01f;
  int inside = 0, tested = 0;
  while (tested < 400) {
    const Vec3f p = Vec3f{1, -1, 0.5f} + Vec3f{u(gen), u(gen), u(gen)};
    const float r = distance(p, Vec3f{1, -1, 0.5f});
    if (r > 2.0f - shell && r < 2.0f + 1e-3f) continue;
    ++tested;
    inside += r < 2.0f;
    const double expected = r < 2.0f ? 1.0 : 0.0;
    ASSERT_NEAR(winding_number_exact(*sphere, vec3_cast<double>(p)), expected, 1e-10) << tested;
    ASSERT_NEAR(w(p), expected, 3e-3) << tested;
  }
  EXPECT_GT(inside, 50);
}

TEST(WindingNumberExact, OnTheSurfaceOfAnIcosphereIsHalfOrTheDihedralFraction) {
  // Face centroids and edge midpoints, in double, lie within rounding of the planes that hold
  // them: the triangles there contribute 0 and the rest of this convex solid fills the half
  // space on a face, and the wedge of its interior dihedral angle on an edge.
  const auto sphere = test::icosphere(2, 1.5f, {0.3f, -0.2f, 0.1f});
  const auto positions = sphere->positions();
  const auto triangles = sphere->triangles();
  auto corner = [&](std::size_t t, int k) { return vec3_cast<double>(positions[triangles[t][k]]); };
  auto unit_normal = [&](std::size_t t) {
    return normalize(cross(corner(t, 1) - corner(t, 0), corner(t, 2) - corner(t, 0)));
  };
  for (std::size_t t = 0; t < triangles.size(); t += 7) {
    const Vec3d centroid = (corner(t, 0) + corner(t, 1) + corner(t, 2)) / 3.0;
    ASSERT_NEAR(winding_number_exact(*sphere, centroid), 0.5, 1e-12) << t;
    // The neighbour across edge (0, 1) holds that edge reversed.
    const std::uint32_t a = triangles[t][0], b = triangles[t][1];
    std::size_t neighbour = 0;
    for (std::size_t u = 0; u < triangles.size(); ++u) {
      for (int k = 0; k < 3; ++k) {
        if (triangles[u][k] == b && triangles[u][(k + 1) % 3] == a) neighbour = u;
      }
    }
    const double exterior = std::acos(std::clamp(dot(unit_normal(t), unit_normal(neighbour)), -1.0, 1.0));
    const Vec3d midpoint = (corner(t, 0) + corner(t, 1)) * 0.5;
    ASSERT_NEAR(winding_number_exact(*sphere, midpoint), (kPi - exterior) / (2 * kPi), 1e-12) << t;
  }
}

TEST(WindingNumberExact, OpenBoxLosesItsMissingFacesSolidAngle) {
  // Without the top, the winding number is that of the closed box less the top's contribution,
  // which from the vertical axis through the centre is the closed form of a square.
  const auto open = unit_box(true, 10.0f);
  for (double z : {0.01, 0.5, 3.0, 9.0, 9.9, 9.999}) {
    const double expected = 1.0 - square_solid_angle(0.5, 10.0 - z) / (4 * kPi);
    EXPECT_NEAR(winding_number_exact(*open, {0.5, 0.5, z}), expected, 1e-13) << z;
  }
  EXPECT_GT(winding_number_exact(*open, {0.5, 0.5, 0.5}), 0.999);          // deep inside: nearly 1
  EXPECT_NEAR(winding_number_exact(*open, {0.5, 0.5, 10.0}), 0.5, 1e-14);  // in the hole
  const double above = winding_number_exact(*open, {0.5, 0.5, 10.1});
  EXPECT_GT(above, 0.0);
  EXPECT_LT(above, 0.5);
  // Near the hole everything lies strictly between 0 and 1, and the fast evaluation agrees.
  const WindingNumber w = fast(open);
  std::mt19937 gen(13);
  std::uniform_real_distribution<float> u(0.05f, 0.95f), dz(-0.3f, 0.3f);
  for (int i = 0; i < 200; ++i) {
    const Vec3f p{u(gen), u(gen), 10.0f + dz(gen)};
    const double exact = winding_number_exact(*open, vec3_cast<double>(p));
    ASSERT_GT(exact, 0.0) << i;
    ASSERT_LT(exact, 1.0) << i;
    ASSERT_NEAR(w(p), exact, 3e-3) << i;
  }
}

TEST(WindingNumberExact, PointInATrianglesPlaneGetsZeroFromIt) {
  // The documented value where the solid angle jumps: 0 on the triangle, its edges and corners.
  const auto mesh = make_mesh({{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}, {{0, 1, 2}});
  for (const Vec3d p :
       {Vec3d{0.5, 0.5, 0}, Vec3d{1, 0, 0}, Vec3d{1, 1, 0}, Vec3d{0, 0, 0}, Vec3d{2, 0, 0}, Vec3d{3, 3, 0}}) {
    EXPECT_EQ(winding_number_exact(*mesh, p), 0.0) << p.x << " " << p.y;
  }
  EXPECT_EQ(fast(mesh)({0.5f, 0.5f, 0.0f}), 0.0);
  // Just off it, the limits from either side: -1/2 above (seeing the front), +1/2 below.
  EXPECT_NEAR(winding_number_exact(*mesh, {0.5, 0.5, 1e-9}), -0.5, 1e-8);
  EXPECT_NEAR(winding_number_exact(*mesh, {0.5, 0.5, -1e-9}), 0.5, 1e-8);
}

TEST(WindingNumberExact, FlippedWindingNegates) {
  const auto sphere = test::icosphere(2, 1.5f);
  const auto open = unit_box(true);
  const auto sphere_flipped = flipped(*sphere), open_flipped = flipped(*open);
  const WindingNumber w = fast(open), w_flipped = fast(open_flipped);
  std::mt19937 gen(14);
  std::uniform_real_distribution<float> u(-2, 2);
  for (int i = 0; i < 200; ++i) {
    const Vec3f p{u(gen), u(gen), u(gen)};
    const Vec3d pd = vec3_cast<double>(p);
    EXPECT_NEAR(winding_number_exact(*sphere_flipped, pd), -winding_number_exact(*sphere, pd), 1e-13) << i;
    EXPECT_NEAR(winding_number_exact(*open_flipped, pd), -winding_number_exact(*open, pd), 1e-13) << i;
    EXPECT_NEAR(w_flipped(p), -w(p), 1e-13) << i;
  }
}

TEST(WindingNumberExact, NonFiniteAndEmpty) {
  const auto box = unit_box();
  EXPECT_TRUE(std::isnan(winding_number_exact(*box, {std::numeric_limits<double>::quiet_NaN(), 0, 0})));
  EXPECT_TRUE(std::isnan(winding_number_exact(*box, {0, std::numeric_limits<double>::infinity(), 0})));
  const auto empty = make_mesh({}, {});
  EXPECT_EQ(winding_number_exact(*empty, {0.5, 0.5, 0.5}), 0.0);
  // Degenerate triangles contribute nothing.
  const auto sliver = make_mesh({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, {{0, 1, 2}, {0, 0, 1}});
  EXPECT_EQ(winding_number_exact(*sliver, {0.5, 1, 0.3}), 0.0);
}

TEST(WindingNumberFast, NonFiniteEmptyAndInvalidAccuracy) {
  const WindingNumber w = fast(unit_box());
  EXPECT_TRUE(std::isnan(w({kNaN, 0.5f, 0.5f})));
  EXPECT_TRUE(std::isnan(w({0.5f, -kInfinity<float>, 0.5f})));
  EXPECT_EQ(fast(make_mesh({}, {}))({0.5f, 0.5f, 0.5f}), 0.0);
  const auto bvh = std::make_shared<const MeshBvh>(MeshBvh::build(unit_box()).value());
  for (double bad :
       {0.999, 0.0, -2.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    const Result<WindingNumber> r = WindingNumber::make(bvh, bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::invalid_argument) << bad;
  }
  EXPECT_EQ(WindingNumber::make(nullptr).status().code(), StatusCode::invalid_argument);
  ASSERT_TRUE(WindingNumber::make(bvh, 1.0).ok());
  EXPECT_EQ(&WindingNumber::make(bvh).value().bvh(), bvh.get());
}

std::shared_ptr<const TriangleMesh> elephant() {
  const std::string path = std::string(HITSCAN_CGAL_MESH_DIR) + "/elephant.off";
  if (!std::filesystem::exists(path)) return nullptr;
  return std::make_shared<const TriangleMesh>(io::load_mesh(path).value());
}

// Points around a mesh: half near its surface (a random vertex nudged by 2% of the diagonal),
// half anywhere in its box grown by half.
std::vector<Vec3f> points_around(const TriangleMesh& mesh, int count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  std::uniform_int_distribution<std::size_t> vertex(0, mesh.vertex_count() - 1);
  const Aabbf box = mesh.bounds();
  const float diagonal = length(box.extent());
  std::vector<Vec3f> points;
  for (int i = 0; i < count; ++i) {
    if (i % 2 == 0) {
      points.push_back(mesh.positions()[vertex(gen)] + Vec3f{u(gen), u(gen), u(gen)} * (0.02f * diagonal));
    } else {
      points.push_back(box.center() + mul(box.extent(), Vec3f{u(gen), u(gen), u(gen)}) * 0.75f);
    }
  }
  return points;
}

TEST(WindingNumberFast, MatchesExactOnTheElephant) {
  const auto mesh = elephant();
  ASSERT_NE(mesh, nullptr) << "elephant.off is missing: scripts/deps.sh test installs it";
  const auto bvh = std::make_shared<const MeshBvh>(MeshBvh::build(mesh).value());
  // Worst and mean error for each accuracy. With second-order expansions the error falls by
  // about 2^-4 per doubling; 2 (the default) errs by up to a few 1e-3 at points near the surface.
  struct Case {
    double accuracy, worst, mean;
  };
  const Case cases[] = {{2.0, 3e-3, 5e-4}, {3.0, 1e-3, 1e-4}, {16.0, 1e-6, 1e-7}, {1e6, 1e-12, 1e-12}};
  const std::vector<Vec3f> points = points_around(*mesh, 200, 21);
  std::vector<double> exact;
  for (const Vec3f p : points) exact.push_back(winding_number_exact(*mesh, vec3_cast<double>(p)));
  EXPECT_GT(std::count_if(exact.begin(), exact.end(), [](double w) { return w > 0.5; }), 20);
  for (const Case& c : cases) {
    const WindingNumber w = WindingNumber::make(bvh, c.accuracy).value();
    double worst = 0, sum = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const double error = std::abs(w(points[i]) - exact[i]);
      worst = std::max(worst, error);
      sum += error;
    }
    EXPECT_LT(worst, c.worst) << c.accuracy;
    EXPECT_LT(sum / points.size(), c.mean) << c.accuracy;
  }
  // Exactly on vertices (where the triangles around contribute 0): finite, and the same value.
  const WindingNumber w = WindingNumber::make(bvh).value();
  for (std::size_t v = 0; v < mesh->vertex_count(); v += mesh->vertex_count() / 16) {
    const Vec3f p = mesh->positions()[v];
    const double exact_there = winding_number_exact(*mesh, vec3_cast<double>(p));
    ASSERT_TRUE(std::isfinite(exact_there)) << v;
    EXPECT_NEAR(w(p), exact_there, 3e-3) << v;
  }
}

TEST(WindingNumberFast, BatchIsBitwiseOneAtATime) {
  const auto sphere = test::icosphere(3, 1.0f);
  const auto mesh = elephant();
  for (const auto& m : {sphere, mesh}) {
    if (!m) continue;
    const WindingNumber w = fast(m);
    const std::vector<Vec3f> points = points_around(*m, 1500, 22);
    std::vector<double> serial(points.size()), pooled(points.size()), defaulted(points.size());
    SerialExecutor one;
    ThreadPool pool(3);
    ASSERT_TRUE(w.evaluate_batch(points, serial, &one).ok());
    ASSERT_TRUE(w.evaluate_batch(points, pooled, &pool).ok());
    ASSERT_TRUE(w.evaluate_batch(points, defaulted).ok());
    for (std::size_t i = 0; i < points.size(); ++i) {
      const double single = w(points[i]);
      ASSERT_EQ(std::bit_cast<std::uint64_t>(serial[i]), std::bit_cast<std::uint64_t>(single)) << i;
      ASSERT_EQ(std::bit_cast<std::uint64_t>(pooled[i]), std::bit_cast<std::uint64_t>(single)) << i;
      ASSERT_EQ(std::bit_cast<std::uint64_t>(defaulted[i]), std::bit_cast<std::uint64_t>(single)) << i;
    }
  }
  const WindingNumber w = fast(sphere);
  std::vector<Vec3f> points(3);
  std::vector<double> out(2);
  EXPECT_EQ(w.evaluate_batch(points, out).code(), StatusCode::invalid_argument);
  EXPECT_TRUE(w.evaluate_batch({}, {}).ok());
}

}  // namespace
}  // namespace hitscan
