// Batches over threads give exactly the results of one query at a time.

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>

#include "mesh/mesh_test_meshes.hpp"
#include "mesh/ray_order.hpp"

namespace hitscan {
namespace {

bool same_hit(const MeshHit& a, const MeshHit& b) {
  return a.hit == b.hit && a.back_face == b.back_face && a.triangle == b.triangle &&
         std::memcmp(&a.t, &b.t, sizeof a.t) == 0 && a.u == b.u && a.v == b.v && a.point == b.point &&
         a.normal == b.normal && a.shading_normal == b.shading_normal;
}

TEST(MeshBatch, EveryExecutorMatchesOneAtATimeBitForBit) {
  const MeshBvh bvh = MeshBvh::build(test::random_soup(4000, 31)).value();
  std::mt19937 gen(32);
  std::vector<Rayf> rays;
  for (int i = 0; i < 20000; ++i) rays.push_back(test::random_ray(gen, 60));
  rays[5] = {{0, 0, 0}, {0, 0, 0}};  // an invalid ray is a miss in a batch too
  rays[6].origin.x = std::numeric_limits<float>::quiet_NaN();  // and is put somewhere in the order
  rays[7].origin.y = -std::numeric_limits<float>::infinity();
  std::vector<MeshHit> one(rays.size());
  std::vector<std::uint8_t> one_occluded(rays.size());
  for (std::size_t i = 0; i < rays.size(); ++i) {
    one[i] = bvh.intersect(rays[i]);
    one_occluded[i] = bvh.occluded(rays[i]);
  }
  SerialExecutor serial;
  ThreadPool four(4);
  for (Executor* executor : {static_cast<Executor*>(&serial), static_cast<Executor*>(&four), static_cast<Executor*>(nullptr)}) {
    std::vector<MeshHit> batch(rays.size());
    std::vector<std::uint8_t> occluded(rays.size(), 7);
    ASSERT_TRUE(bvh.intersect_batch(rays, batch, FaceMode::both, executor).ok());
    ASSERT_TRUE(bvh.occluded_batch(rays, occluded, FaceMode::both, executor).ok());
    for (std::size_t i = 0; i < rays.size(); ++i) {
      ASSERT_TRUE(same_hit(batch[i], one[i])) << "ray " << i;
      ASSERT_EQ(occluded[i], one_occluded[i]) << "ray " << i;
    }
  }
  EXPECT_FALSE(one[5].hit);
  EXPECT_FALSE(one[6].hit);
  EXPECT_FALSE(one[7].hit);
}

TEST(MeshBatch, BatchesOverATreeBeyondTheCacheAreReorderedAndMatchOneAtATimeBitForBit) {
  const MeshBvh bvh = MeshBvh::build(test::random_soup(600000, 33, 200.0f)).value();
  ASSERT_TRUE(reorders(5000, bvh.memory_bytes())) << bvh.memory_bytes() << " bytes";
  std::mt19937 gen(34);
  std::vector<Rayf> rays;
  for (int i = 0; i < 5000; ++i) rays.push_back(test::random_ray(gen, 240));
  rays[9].origin.z = std::numeric_limits<float>::quiet_NaN();
  SerialExecutor serial;
  ThreadPool three(3);
  int hits = 0;
  for (Executor* executor : {static_cast<Executor*>(&serial), static_cast<Executor*>(&three)}) {
    std::vector<MeshHit> batch(rays.size());
    std::vector<std::uint8_t> occluded(rays.size(), 7);
    ASSERT_TRUE(bvh.intersect_batch(rays, batch, FaceMode::both, executor).ok());
    ASSERT_TRUE(bvh.occluded_batch(rays, occluded, FaceMode::both, executor).ok());
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const MeshHit one = bvh.intersect(rays[i]);
      ASSERT_TRUE(same_hit(batch[i], one)) << "ray " << i;
      ASSERT_EQ(occluded[i], bvh.occluded(rays[i]) ? 1 : 0) << "ray " << i;
      hits += one.hit;
    }
  }
  EXPECT_GT(hits, 2000);
}

TEST(MeshBatch, MismatchedSpansAreAnError) {
  const MeshBvh bvh = MeshBvh::build(test::icosphere(1)).value();
  std::vector<Rayf> rays(3);
  std::vector<MeshHit> hits(2);
  std::vector<std::uint8_t> occluded(4);
  EXPECT_EQ(bvh.intersect_batch(rays, hits).code(), StatusCode::invalid_argument);
  EXPECT_EQ(bvh.occluded_batch(rays, occluded).code(), StatusCode::invalid_argument);
  EXPECT_TRUE(bvh.intersect_batch({}, {}).ok());
}

}  // namespace
}  // namespace hitscan
