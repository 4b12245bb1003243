// intersect_all: every crossing exactly once, sorted, equal to brute force; odd crossing counts
// from inside a closed mesh, including rays aimed exactly at vertices and edges.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
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
// Slivers 900 long and 0.006 wide, fanned around one line and crossed by rays from far away: the
// float kernel puts such crossings many ulps off, some before their leaf's box (as in
// fuzz/regressions/fuzz_mesh_loader/obj_overlapping_slivers_crossed_at_one_point_come_in_either_order).
// intersect must still report the nearest of intersect_all's hits, and packets intersect's t.
TEST(MeshAllHits, OverlappingSliversGiveIntersectTheNearestOfAllHits) {
  std::mt19937 gen(97);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<Vec3f> positions;
  std::vector<std::array<std::uint32_t, 3>> triangles;
  const Vec3f a{-450, 1.7f, 2.3f}, b{450, 1.7f, 2.3f};
  for (std::uint32_t i = 0; i < 400; ++i) {
    const float angle = 6.2831853f * float(i) / 400.0f;
    const Vec3f along = (b - a) * (0.5f + 0.45f * u(gen));
    const Vec3f tip = a + along + Vec3f{0, std::cos(angle), std::sin(angle)} * 0.006f;
    const Vec3f shift = Vec3f{u(gen), u(gen), u(gen)} * 0.002f;
    positions.insert(positions.end(), {a + shift, b + shift, tip});
    triangles.push_back({3 * i, 3 * i + 1, 3 * i + 2});
  }
  const auto mesh = std::make_shared<const TriangleMesh>(TriangleMesh::make(positions, triangles).value());
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  std::vector<Rayf> rays;
  for (int i = 0; i < 4000; ++i) {
    const Vec3f target = a + (b - a) * (0.5f + 0.5f * u(gen)) + Vec3f{0, u(gen), u(gen)} * 0.004f;
    const Vec3f origin = target + normalize(Vec3f{u(gen), u(gen), u(gen)}) * 900.0f;
    rays.push_back({origin, target - origin});
  }
  std::vector<MeshHit> all, packets(rays.size());
  ASSERT_TRUE(bvh.intersect_coherent(rays, packets).ok());
  int hits = 0;
  for (std::size_t i = 0; i < rays.size(); ++i) {
    const MeshHit hit = bvh.intersect(rays[i]);
    bvh.intersect_all(rays[i], all);
    ASSERT_EQ(hit.hit, !all.empty()) << "ray " << i;
    ASSERT_EQ(bvh.occluded(rays[i]), hit.hit) << "ray " << i;
    EXPECT_EQ(packets[i].t, hit.t) << "ray " << i;
    if (!hit.hit) continue;
    ++hits;
    ASSERT_EQ(hit.t, all.front().t) << "ray " << i << ": triangle " << hit.triangle << " against "
                                    << all.front().triangle;
    // Hits raised to the same leaf floor tie; either walk may meet either first.
    EXPECT_TRUE(std::any_of(all.begin(), all.end(), [&](const MeshHit& h) {
      return h.triangle == packets[i].triangle && h.t == packets[i].t;
    })) << "ray " << i;
  }
  EXPECT_GT(hits, 3000);
}

}  // namespace hitscan
