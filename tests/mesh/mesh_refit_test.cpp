// Refit after moving the vertices equals a fresh build, and both equal brute force.

#include <gtest/gtest.h>

#include <random>

#include "mesh/mesh_test_meshes.hpp"

namespace hitscan {
namespace {

using test::brute_force;
using test::random_ray;

TEST(MeshRefit, DeformedSoupMatchesAFreshBuildAndBruteForce) {
  auto mesh = std::make_shared<TriangleMesh>(*test::random_soup(2000, 11));
  MeshBvh refitted = MeshBvh::build(mesh).value();
  std::mt19937 gen(12);
  std::uniform_real_distribution<float> wobble(-3, 3);
  for (int frame = 0; frame < 3; ++frame) {
    std::vector<Vec3f> moved(mesh->positions().begin(), mesh->positions().end());
    for (Vec3f& p : moved) p += Vec3f{wobble(gen), wobble(gen), wobble(gen)} + Vec3f{0, 0, 5.0f * float(frame)};
    ASSERT_TRUE(mesh->set_positions(std::move(moved)).ok());
    ASSERT_TRUE(refitted.refit().ok());
    const MeshBvh fresh = MeshBvh::build(mesh).value();
    for (int i = 0; i < 1500; ++i) {
      Rayf ray = random_ray(gen, 60);
      ray.origin.z += 5.0f * float(frame);
      const test::BruteHit expected = brute_force(*mesh, ray, FaceMode::both);
      const MeshHit a = refitted.intersect(ray), b = fresh.intersect(ray);
      ASSERT_EQ(a.hit, expected.hit) << "frame " << frame << " ray " << i;
      ASSERT_EQ(b.hit, expected.hit);
      EXPECT_EQ(refitted.occluded(ray), expected.hit);
      if (!expected.hit) continue;
      EXPECT_EQ(a.t, expected.t);
      EXPECT_EQ(b.t, expected.t);
    }
  }
}

TEST(MeshRefit, ATriangleLeftOutAtBuildThatGainsAreaAsksForARebuild) {
  auto mesh = std::make_shared<TriangleMesh>(
      TriangleMesh::make({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}}, {{0, 1, 2}, {0, 1, 3}}).value());
  MeshBvh bvh = MeshBvh::build(mesh).value();
  ASSERT_TRUE(mesh->set_positions({{0, 0, 0}, {1, 0, 0}, {2, 0.5f, 0}, {0, 1, 0}}).ok());
  const Status status = bvh.refit();
  EXPECT_EQ(status.code(), StatusCode::degenerate);
  EXPECT_NE(status.message().find("rebuild"), std::string::npos);
  EXPECT_FALSE(bvh.intersect({{0.2f, 0.2f, -1}, {0, 0, 1}}).hit);  // unusable until rebuilt
  const MeshBvh rebuilt = MeshBvh::build(mesh).value();
  EXPECT_TRUE(rebuilt.intersect({{1.5f, 0.3f, -1}, {0, 0, 1}}).hit);
}

}  // namespace
}  // namespace hitscan
