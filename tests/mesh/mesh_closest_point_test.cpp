// MeshBvh::closest_point and MeshInstance::closest_point against brute force over every triangle
// (the nearest point of each, compared in double), on a random soup, a closed sphere and a real
// mesh, with distance limits and under a non-uniform scale.

#include <gtest/gtest.h>

#include <filesystem>

#include "hitscan/io/mesh_loader.hpp"
#include "mesh/mesh_test_meshes.hpp"

namespace hitscan {
namespace {

// Smallest distance from p to any usable triangle (taken through `world` first), in double.
double brute_force_distance(const TriangleMesh& mesh, Vec3f p, const Transformf* world = nullptr) {
  double best = kInfinity<double>;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    if (!mesh.is_usable(i)) continue;
    Trianglef t = mesh.triangle(i);
    if (world) t = {world->apply_point(t.v0), world->apply_point(t.v1), world->apply_point(t.v2)};
    const Triangle<double> td{vec3_cast<double>(t.v0), vec3_cast<double>(t.v1), vec3_cast<double>(t.v2)};
    const Vec3d c = closest_point_on_triangle(td, vec3_cast<double>(p)).point;
    best = std::min(best, length(c - vec3_cast<double>(p)));
  }
  return best;
}

void expect_nearest(const TriangleMesh& mesh, const MeshClosestPoint& found, Vec3f p, double expected, double scale,
                    const Transformf* world = nullptr) {
  ASSERT_TRUE(found.found);
  const double tolerance = 1e-5 * scale;
  EXPECT_NEAR(found.distance, expected, tolerance);
  EXPECT_NEAR(length(found.point - p), found.distance, tolerance);
  // The point lies on the reported triangle, at the reported barycentrics.
  Trianglef t = mesh.triangle(found.triangle);
  if (world) t = {world->apply_point(t.v0), world->apply_point(t.v1), world->apply_point(t.v2)};
  const Vec3f at = t.v0 * (1 - found.u - found.v) + t.v1 * found.u + t.v2 * found.v;
  EXPECT_NEAR(length(at - found.point), 0.0, tolerance);
  EXPECT_NEAR(length(found.normal), 1.0f, 1e-5f);
}

TEST(MeshClosestPoint, MatchesBruteForceOnASoup) {
  const auto mesh = test::random_soup(3000, 5, 30.0f);
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  std::mt19937 gen(6);
  std::uniform_real_distribution<float> u(-45.0f, 45.0f);
  for (int i = 0; i < 400; ++i) {
    const Vec3f p{u(gen), u(gen), u(gen)};
    expect_nearest(*mesh, bvh.closest_point(p), p, brute_force_distance(*mesh, p), 45.0);
  }
}

TEST(MeshClosestPoint, RespectsTheDistanceLimit) {
  const auto mesh = test::icosphere(3, 2.0f);
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  const Vec3f p{0, 0, 5};
  const MeshClosestPoint unlimited = bvh.closest_point(p);
  ASSERT_TRUE(unlimited.found);
  EXPECT_NEAR(unlimited.distance, 3.0f, 1e-5f);
  EXPECT_FALSE(bvh.closest_point(p, unlimited.distance * 0.999f).found);
  EXPECT_TRUE(bvh.closest_point(p, unlimited.distance).found);  // the limit is inclusive
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(bvh.closest_point({nan, 0, 0}).found);
  EXPECT_FALSE(bvh.closest_point(p, -1.0f).found);
  EXPECT_FALSE(bvh.closest_point(p, nan).found);
  // Inside the closed sphere the nearest point is on the surface too.
  const MeshClosestPoint inside = bvh.closest_point({0.1f, 0, 0});
  EXPECT_NEAR(inside.distance, brute_force_distance(*mesh, {0.1f, 0, 0}), 1e-5);
}

TEST(MeshClosestPoint, InstanceUnderNonUniformScaleMeasuresWorldDistance) {
  const auto mesh = test::icosphere(2, 1.0f);
  auto bvh = std::make_shared<const MeshBvh>(MeshBvh::build(mesh).value());
  Transformf t;
  t.translation = {3, -1, 2};
  t.rotation = Quatf::from_axis_angle({1, 2, 3}, 0.7f);
  t.scale = {4.0f, 0.5f, 1.5f};
  const MeshInstance instance{bvh, t};
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> u(-8.0f, 8.0f);
  for (int i = 0; i < 300; ++i) {
    const Vec3f p = t.translation + Vec3f{u(gen), u(gen), u(gen)};
    expect_nearest(*mesh, instance.closest_point(p), p, brute_force_distance(*mesh, p, &t), 10.0, &t);
  }
}

TEST(MeshClosestPoint, MatchesBruteForceOnTheArmadillo) {
  const std::string path = std::string(HITSCAN_CGAL_MESH_DIR) + "/armadillo.off";
  ASSERT_TRUE(std::filesystem::exists(path)) << path << " is missing: scripts/deps.sh test installs it";
  const auto mesh = std::make_shared<const TriangleMesh>(io::load_mesh(path).value());
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  const Aabbf box = mesh->bounds();
  std::mt19937 gen(8);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const float size = length(box.extent());
  for (int i = 0; i < 60; ++i) {
    const Vec3f p = box.min - box.extent() * 0.25f + mul(box.extent() * 1.5f, Vec3f{u(gen), u(gen), u(gen)});
    expect_nearest(*mesh, bvh.closest_point(p), p, brute_force_distance(*mesh, p), size);
  }
}

}  // namespace
}  // namespace hitscan
