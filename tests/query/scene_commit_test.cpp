// Scene::commit as one batch of tree edits: many colliders teleported in one commit, the first
// commit of a full scene (built at once) against colliders committed one by one, colliders
// removed, re-added and moved within one commit, all against brute force over every collider;
// and Scene::reserve, which changes no answer.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "query/scene_test_scenes.hpp"

namespace hitscan {
namespace {

constexpr float kExtent = 40.0f;

// The nearest hit by brute force over the live entries (the kernels on each collider's own
// world shape), or infinity.
float brute_force_distance(const std::vector<test::SceneEntry>& entries, const QueryRay& q) {
  const Rayf ray{q.origin, normalize(q.direction), 0.0f, q.max_distance};
  float nearest = kInfinity<float>;
  for (const test::SceneEntry& e : entries) {
    if (e.id != kNoCollider) nearest = std::min(nearest, test::reference_distance(e.desc, ray));
  }
  return nearest;
}

void expect_raycasts_match_brute_force(const Scene& scene, const std::vector<test::SceneEntry>& entries,
                                       unsigned seed, const std::string& when) {
  std::mt19937 gen(seed);
  for (int i = 0; i < 300; ++i) {
    const QueryRay q = test::random_query_ray(gen, kExtent);
    const float expected = brute_force_distance(entries, q);
    const QueryHit hit = scene.raycast(q);
    ASSERT_EQ(hit.hit, expected < kInfinity<float>) << when << ", ray " << i;
    if (hit.hit) {
      ASSERT_NEAR(hit.distance, expected, 1e-4f * (1.0f + expected)) << when << ", ray " << i;
    }
  }
}

// Every entry's collider at a new random place and rotation.
void teleport(std::mt19937& gen, test::SceneEntry& e) {
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2);
  e.desc.transform.translation = {pos(gen), pos(gen), pos(gen)};
  e.desc.transform.rotation = test::random_rotation(gen);
}

TEST(SceneCommit, ManyTeleportsInOneCommitMatchBruteForce) {
  test::RandomScene r = test::make_random_scene(1500, 71, kExtent);
  std::mt19937 gen(72);
  // A fifth, then half (which rebuilds the tree), then a hundredth of the colliders per commit.
  for (const std::size_t every : {5u, 2u, 100u, 5u}) {
    for (std::size_t k = gen() % every; k < r.entries.size(); k += every) {
      teleport(gen, r.entries[k]);
      ASSERT_TRUE(r.scene.set_transform(r.entries[k].id, r.entries[k].desc.transform).ok());
    }
    EXPECT_EQ(r.scene.committed_count(), r.entries.size());
    r.scene.commit();
    expect_raycasts_match_brute_force(r.scene, r.entries, 73 + unsigned(every), "every " + std::to_string(every));
  }
}

TEST(SceneCommit, FirstCommitOfAFullSceneAnswersLikeCollidersCommittedOneByOne) {
  std::mt19937 gen(74);
  const MeshShape mesh = std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(1, 1.5f)).value());
  Scene at_once, one_by_one;
  std::vector<test::SceneEntry> entries;
  for (int i = 0; i < 1200; ++i) {
    test::SceneEntry e;
    e.desc = test::random_collider(gen, kExtent, mesh, i % 100 == 0);
    e.id = at_once.add(e.desc).value();
    ASSERT_EQ(one_by_one.add(e.desc).value(), e.id);
    one_by_one.commit();
    entries.push_back(e);
  }
  at_once.commit();
  ASSERT_EQ(at_once.committed_count(), entries.size());
  expect_raycasts_match_brute_force(at_once, entries, 75, "at once");
  std::mt19937 rays(76);
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2), radius(0.5f, 4.0f);
  std::vector<OverlapHit> a, b;
  for (int i = 0; i < 300; ++i) {
    const QueryRay q = test::random_query_ray(rays, kExtent);
    const QueryHit x = at_once.raycast(q), y = one_by_one.raycast(q);
    ASSERT_TRUE(test::same_bits(x, y)) << "ray " << i;
    const Spheref sphere{{pos(rays), pos(rays), pos(rays)}, radius(rays)};
    at_once.overlap_sphere(sphere, a);
    one_by_one.overlap_sphere(sphere, b);
    std::vector<ColliderId> ids_a, ids_b;
    for (const OverlapHit& h : a) ids_a.push_back(h.collider);
    for (const OverlapHit& h : b) ids_b.push_back(h.collider);
    std::sort(ids_a.begin(), ids_a.end());
    std::sort(ids_b.begin(), ids_b.end());
    ASSERT_EQ(ids_a, ids_b) << "sphere " << i;
  }
}

TEST(SceneCommit, CollidersRemovedReaddedAndMovedInOneCommit) {
  test::RandomScene r = test::make_random_scene(1000, 77, kExtent);
  std::mt19937 gen(78);
  const MeshShape mesh = std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(1, 1.5f)).value());
  for (int round = 0; round < 6; ++round) {
    for (int k = 0; k < 120; ++k) {
      test::SceneEntry& e = r.entries[gen() % r.entries.size()];
      if (e.id == kNoCollider) continue;
      switch (k % 4) {
        case 0:  // moved, then removed: the move is dropped with it
          teleport(gen, e);
          ASSERT_TRUE(r.scene.set_transform(e.id, e.desc.transform).ok());
          ASSERT_TRUE(r.scene.remove(e.id).ok());
          EXPECT_FALSE(r.scene.set_transform(e.id, e.desc.transform).ok());
          e.id = kNoCollider;
          break;
        case 1: {  // removed, and a new collider added in its slot, then moved
          ASSERT_TRUE(r.scene.remove(e.id).ok());
          test::SceneEntry fresh;
          fresh.desc = test::random_collider(gen, kExtent, mesh, false);
          const Result<ColliderId> id = r.scene.add(fresh.desc);
          e.id = kNoCollider;
          if (!id) break;
          fresh.id = id.value();
          teleport(gen, fresh);
          ASSERT_TRUE(r.scene.set_transform(fresh.id, fresh.desc.transform).ok());
          r.entries.push_back(fresh);
          break;
        }
        default:  // moved twice
          teleport(gen, e);
          ASSERT_TRUE(r.scene.set_transform(e.id, e.desc.transform).ok());
          teleport(gen, e);
          ASSERT_TRUE(r.scene.set_transform(e.id, e.desc.transform).ok());
          break;
      }
    }
    r.scene.commit();
    const auto live = std::count_if(r.entries.begin(), r.entries.end(),
                                    [](const test::SceneEntry& e) { return e.id != kNoCollider; });
    ASSERT_EQ(r.scene.committed_count(), std::size_t(live)) << "round " << round;
    expect_raycasts_match_brute_force(r.scene, r.entries, 80 + round, "round " + std::to_string(round));
  }
}

TEST(SceneCommit, ReservingChangesNoAnswer) {
  std::mt19937 gen(81);
  const MeshShape mesh = std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(1, 1.5f)).value());
  Scene reserved, grown;
  ASSERT_TRUE(reserved.reserve(800).ok());
  std::vector<test::SceneEntry> entries;
  for (int i = 0; i < 1000; ++i) {  // past the reservation too
    test::SceneEntry e;
    e.desc = test::random_collider(gen, kExtent, mesh, i % 100 == 0);
    e.id = reserved.add(e.desc).value();
    ASSERT_EQ(grown.add(e.desc).value(), e.id);
    entries.push_back(e);
    if (i == 500) {
      ASSERT_TRUE(reserved.reserve(900).ok());  // with colliders pending
    }
  }
  reserved.commit();
  grown.commit();
  ASSERT_TRUE(reserved.reserve(100).ok());  // below the count: nothing is lost
  EXPECT_EQ(reserved.committed_count(), entries.size());
  expect_raycasts_match_brute_force(reserved, entries, 82, "reserved");
  std::mt19937 rays(83);
  for (int i = 0; i < 300; ++i) {
    const QueryRay q = test::random_query_ray(rays, kExtent);
    ASSERT_TRUE(test::same_bits(reserved.raycast(q), grown.raycast(q))) << "ray " << i;
  }
}

TEST(SceneCommit, ReservingMoreThanASceneHoldsIsAnError) {
  Scene scene;
  const Status status = scene.reserve(std::size_t{kMaxColliders} + 1);
  EXPECT_EQ(status.code(), StatusCode::out_of_range);
  EXPECT_NE(status.message().find("reserve"), std::string::npos);
  EXPECT_TRUE(scene.reserve(10).ok());
  EXPECT_TRUE(scene.add(ColliderDesc{Spheref{{0, 0, 0}, 1.0f}}).ok());
}

}  // namespace
}  // namespace hitscan
