// intersect_all: every crossing exactly once, sorted, equal to brute force; odd crossing counts
// from inside a closed mesh, including rays aimed exactly at vertices and edges.

#include <gtest/gtest.h>

#include <random>

#include "mesh/mesh_test_meshes.hpp"

namespace hitscan {
namespace {

TEST(MeshAllHits, RandomSoupMatchesBruteForceSorted) {
  const auto mesh = test::random_soup(1500, 21);
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  std::mt19937 gen(22);
  std::vector<MeshHit> hits;
  std::size_t total_hits = 0;
  for (int i = 0; i < 1500; ++i) {
    const Rayf ray = test::random_ray(gen, 60);
    std::vector<std::pair<float, std::uint32_t>> expected;
    for (std::size_t k = 0; k < mesh->triangle_count(); ++k) {
      const RayHitf h = ray_vs_triangle(mesh->triangle(k), ray);
      if (h.hit) expected.emplace_back(h.t, static_cast<std::uint32_t>(k));
    }
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(bvh.intersect_all(ray, hits), expected.size()) << "ray " << i;
    for (std::size_t k = 0; k < expected.size(); ++k) {
      EXPECT_EQ(hits[k].t, expected[k].first);
      EXPECT_EQ(hits[k].triangle, expected[k].second);
    }
    total_hits += expected.size();
  }
  EXPECT_GT(total_hits, 200u);
}

TEST(MeshAllHits, CallerBufferKeepsTheNearestAndCountsTheRest) {
  const MeshBvh bvh = MeshBvh::build(test::icosphere(3)).value();
  const Rayf ray{{0.1f, 0.2f, -5}, {0, 0, 1}};
  std::vector<MeshHit> all;
  ASSERT_EQ(bvh.intersect_all(ray, all), 2u);
  MeshHit buffer[1];
  std::size_t total = 0;
  EXPECT_EQ(bvh.intersect_all(ray, buffer, FaceMode::both, &total), 1u);
  EXPECT_EQ(total, 2u);
  EXPECT_EQ(buffer[0].t, all[0].t);
  EXPECT_EQ(bvh.intersect_all(ray, all, FaceMode::back_only), 1u);
  EXPECT_TRUE(all[0].back_face);
}

TEST(MeshAllHits, FromInsideAClosedSphereTheCrossingCountIsOdd) {
  const auto mesh = test::icosphere(4, 2.0f);
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  std::mt19937 gen(23);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<MeshHit> hits;
  int rays = 0, even = 0;
  const auto pos = mesh->positions();
  const auto& tris = mesh->triangles();
  for (std::size_t i = 0; i < tris.size(); i += 3) {
    const Vec3f a = pos[tris[i][0]], b = pos[tris[i][1]];
    for (const Vec3f& target : {a, (a + b) * 0.5f, (a + b + pos[tris[i][2]]) * (1.0f / 3)}) {
      const Vec3f origin = Vec3f{u(gen), u(gen), u(gen)} * 1.0f;
      // Through the target and on out of the sphere: exactly one crossing, never 0 or 2.
      bvh.intersect_all({origin, target - origin}, hits);
      ++rays;
      even += hits.size() % 2 == 0;
      EXPECT_EQ(hits.size(), 1u) << "ray " << rays;
    }
  }
  EXPECT_EQ(even, 0);
  EXPECT_GT(rays, 5000);
}

}  // namespace
}  // namespace hitscan
