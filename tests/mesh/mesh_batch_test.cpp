// Batches over threads give exactly the results of one query at a time.

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "mesh/mesh_test_meshes.hpp"

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
