// The C API against the C++ Scene it wraps: the same seeded random scenes built through both give
// the same hits, field by field and bit for bit, for raycast, raycast_any, raycast_all, the
// batches and after edits.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include "capi/capi_twin_scene.hpp"

namespace hitscan::test {
namespace {

void expect_scenes_agree(TwinScene& twin, const std::vector<QueryRay>& rays, float tolerance) {
  FilterCheck check;
  for (const test::SceneEntry& e : twin.entries) check.colliders[e.id] = {e.desc.user_id, e.desc.layer};
  for (const auto& [c_options, cpp_options] : option_pairs(check)) {
    std::size_t hits = 0;
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const hs_ray ray = to_c(rays[i]);
      const int index = static_cast<int>(i);
      hs_hit c_hit;
      ASSERT_EQ(hs_raycast(twin.c, &ray, &c_options, &c_hit), HS_OK);
      expect_same_hit(c_hit, twin.cpp.raycast(rays[i], cpp_options), tolerance, index);
      hits += static_cast<std::size_t>(c_hit.hit);
      int any = -1;
      ASSERT_EQ(hs_raycast_any(twin.c, &ray, &c_options, &any), HS_OK);
      EXPECT_EQ(any, twin.cpp.raycast_any(rays[i], cpp_options) ? 1 : 0) << "ray " << i;
    }
    // Neither all misses nor all hits: the comparison means something under every option set.
    EXPECT_GT(hits, rays.size() / 10);
    EXPECT_LT(hits, rays.size());
  }
  EXPECT_EQ(check.wrong_arguments, 0);
}

TEST(CApiRaycast, MatchesTheCppSceneExactlyOnARandomAxisAlignedScene) {
  TwinScene twin(400, 31, false);
  expect_scenes_agree(twin, random_rays(2000, 32), 0.0f);
}

TEST(CApiRaycast, MatchesTheCppSceneExactlyUnderRandomRotations) {
  TwinScene twin(400, 33, true);
  expect_scenes_agree(twin, random_rays(2000, 34), 0.0f);
}

TEST(CApiRaycast, AllHitsMatchTheCppSceneAndTruncateToTheBuffer) {
  TwinScene twin(300, 35, false);
  const std::vector<QueryRay> rays = random_rays(500, 36);
  std::vector<QueryHit> expected;
  std::vector<hs_hit> buffer(64);
  std::size_t crossings = 0;
  for (std::size_t i = 0; i < rays.size(); ++i) {
    const hs_ray ray = to_c(rays[i]);
    twin.cpp.raycast_all(rays[i], expected);
    crossings += expected.size();
    std::size_t written = 0, total = 0;
    ASSERT_EQ(hs_raycast_all(twin.c, &ray, nullptr, buffer.data(), buffer.size(), &written, &total), HS_OK);
    ASSERT_EQ(total, expected.size());
    ASSERT_EQ(written, std::min(total, buffer.size()));
    for (std::size_t k = 0; k < written; ++k) expect_same_hit(buffer[k], expected[k], 0.0f, static_cast<int>(i));
    // A buffer of 2 keeps the nearest two and still counts them all.
    ASSERT_EQ(hs_raycast_all(twin.c, &ray, nullptr, buffer.data(), 2, &written, &total), HS_OK);
    EXPECT_EQ(written, std::min<std::size_t>(2, expected.size()));
    EXPECT_EQ(total, expected.size());
    for (std::size_t k = 0; k < written; ++k) expect_same_hit(buffer[k], expected[k], 0.0f, static_cast<int>(i));
  }
  EXPECT_GT(crossings, rays.size());  // the rays do cross things, several each on average
}

TEST(CApiBatch, BatchesEqualOneAtATimeAndTheCppBatch) {
  TwinScene twin(300, 37, true);
  std::vector<QueryRay> rays = random_rays(5000, 38);
  rays[7].origin.x = std::nanf("");  // bad rays miss without failing the batch
  rays[8].direction = {};
  std::vector<hs_ray> c_rays;
  for (const QueryRay& r : rays) c_rays.push_back(to_c(r));
  std::vector<hs_hit> c_hits(rays.size());
  std::vector<std::uint8_t> c_any(rays.size());
  std::vector<QueryHit> cpp_hits(rays.size());
  ASSERT_EQ(hs_raycast_batch(twin.c, c_rays.data(), c_rays.size(), nullptr, c_hits.data()), HS_OK);
  ASSERT_EQ(hs_raycast_any_batch(twin.c, c_rays.data(), c_rays.size(), nullptr, c_any.data()), HS_OK);
  ASSERT_TRUE(twin.cpp.raycast_batch(rays, cpp_hits).ok());
  std::size_t hits = 0;
  for (std::size_t i = 0; i < rays.size(); ++i) {
    hs_hit one;
    ASSERT_EQ(hs_raycast(twin.c, &c_rays[i], nullptr, &one), HS_OK);
    const QueryHit cpp_one = twin.cpp.raycast(rays[i]);
    expect_same_hit(c_hits[i], cpp_hits[i], 0.0f, static_cast<int>(i));
    expect_same_hit(one, cpp_one, 0.0f, static_cast<int>(i));
    // One at a time and batched through the C API: the same bits.
    EXPECT_EQ(c_hits[i].collider, one.collider);
    EXPECT_EQ(c_hits[i].distance, one.distance);
    EXPECT_EQ(c_hits[i].primitive, one.primitive);
    EXPECT_EQ(c_any[i], one.hit);
    hits += static_cast<std::size_t>(one.hit);
  }
  EXPECT_EQ(c_hits[7].hit, 0);
  EXPECT_EQ(c_hits[8].hit, 0);
  EXPECT_GT(hits, rays.size() / 4);
  EXPECT_LT(hits, rays.size());
  // An empty batch is fine, null arrays included.
  EXPECT_EQ(hs_raycast_batch(twin.c, nullptr, 0, nullptr, nullptr), HS_OK);
  EXPECT_EQ(hs_raycast_any_batch(twin.c, nullptr, 0, nullptr, nullptr), HS_OK);
}

TEST(CApiEdit, EditsThroughTheCApiMirrorTheCppScene) {
  TwinScene twin(300, 39, false);
  std::mt19937 gen(40);
  std::uniform_int_distribution<std::size_t> pick(0, twin.entries.size() - 1);
  std::uniform_real_distribution<float> offset(-2, 2);
  std::uniform_int_distribution<std::uint32_t> layer(0, 31);
  std::vector<ColliderId> removed;
  for (int k = 0; k < 200; ++k) {
    test::SceneEntry& e = twin.entries[pick(gen)];
    if (std::find(removed.begin(), removed.end(), e.id) != removed.end()) continue;
    switch (k % 5) {
      case 0: {
        e.desc.transform.translation = e.desc.transform.translation + Vec3f{offset(gen), offset(gen), offset(gen)};
        const hs_transform t = to_c(e.desc.transform);
        ASSERT_EQ(hs_scene_set_transform(twin.c, e.id, &t), HS_OK) << hs_last_error();
        ASSERT_TRUE(twin.cpp.set_transform(e.id, e.desc.transform).ok());
        break;
      }
      case 1:
        e.desc.layer = layer(gen);
        ASSERT_EQ(hs_scene_set_layer(twin.c, e.id, e.desc.layer), HS_OK);
        ASSERT_TRUE(twin.cpp.set_layer(e.id, e.desc.layer).ok());
        break;
      case 2:
        e.desc.user_id = gen();
        ASSERT_EQ(hs_scene_set_user_id(twin.c, e.id, e.desc.user_id), HS_OK);
        ASSERT_TRUE(twin.cpp.set_user_id(e.id, e.desc.user_id).ok());
        break;
      case 3: {
        // An unrotated box: it takes any scale the collider has.
        e.desc.shape = Obbf{{}, {1.0f + offset(gen) * 0.2f, 0.5f, 0.8f}, Mat3f::identity()};
        std::vector<hs_vec3> storage;
        const hs_shape shape = to_c(e.desc.shape, storage);
        ASSERT_EQ(hs_scene_set_shape(twin.c, e.id, &shape), HS_OK) << hs_last_error();
        ASSERT_TRUE(twin.cpp.set_shape(e.id, e.desc.shape).ok());
        break;
      }
      default:
        ASSERT_EQ(hs_scene_remove(twin.c, e.id), HS_OK);
        ASSERT_TRUE(twin.cpp.remove(e.id).ok());
        removed.push_back(e.id);
        break;
    }
  }
  // New colliders take the freed slots in the same order on both sides.
  std::mt19937 more(41);
  for (int k = 0; k < 20; ++k) {
    ColliderDesc desc = test::random_collider(more, kExtent, twin.mesh, false);
    desc.transform.rotation = Quatf::identity();
    twin.add(desc);
  }
  twin.commit();
  std::erase_if(twin.entries, [&](const test::SceneEntry& e) {
    return std::find(removed.begin(), removed.end(), e.id) != removed.end();
  });
  expect_scenes_agree(twin, random_rays(1000, 42), 0.0f);
}

TEST(CApiMesh, ASharedMeshServesManyCollidersAndOutlivesItsHandle) {
  const std::shared_ptr<const TriangleMesh> sphere = test::icosphere(3, 2.0f);
  const MeshShape reference = std::make_shared<const MeshBvh>(MeshBvh::build(sphere).value());
  hs_mesh* mesh = nullptr;
  ASSERT_EQ(FlatMesh(*sphere).create(&mesh), HS_OK);
  hs_scene* scenes[2] = {nullptr, nullptr};
  // Placements: plain, moved with a non-uniform scale, and mirrored.
  Transformf placements[3];
  placements[1].translation = {10, 0, 0};
  placements[1].scale = {1, 2, 0.5f};
  placements[2].translation = {-10, 0, 0};
  placements[2].scale = {-1, 1, 1};
  for (hs_scene*& scene : scenes) {
    ASSERT_EQ(hs_scene_create(&scene), HS_OK);
    for (int k = 0; k < 3; ++k) {
      const hs_transform t = to_c(placements[k]);
      std::uint32_t id;
      ASSERT_EQ(hs_scene_add_mesh_instance(scene, mesh, &t, 0, static_cast<std::uint64_t>(k), &id), HS_OK);
    }
  }
  hs_mesh_destroy(mesh);  // the colliders hold the mesh now
  for (hs_scene* scene : scenes) ASSERT_EQ(hs_scene_commit(scene), HS_OK);
  for (int k = 0; k < 3; ++k) {
    for (const Vec3f& from : {Vec3f{0, 0, -20}, Vec3f{0.3f, 0.2f, 20}, Vec3f{0.1f, -20, 0.4f}}) {
      const Vec3f target = placements[k].translation;
      const QueryRay q{from + target, -from};
      const MeshHit expected = MeshInstance{reference, placements[k]}.intersect(
          Rayf{q.origin, normalize(q.direction), 0.0f, kInfinity<float>});
      ASSERT_TRUE(expected.hit);
      for (hs_scene* scene : scenes) {
        const hs_ray ray = to_c(q);
        hs_hit hit;
        ASSERT_EQ(hs_raycast(scene, &ray, nullptr, &hit), HS_OK);
        ASSERT_EQ(hit.hit, 1);
        EXPECT_EQ(hit.user_id, static_cast<std::uint64_t>(k));
        EXPECT_EQ(hit.primitive, expected.triangle);
        EXPECT_EQ(hit.distance, expected.t);
        EXPECT_EQ(hit.u, expected.u);
        EXPECT_EQ(hit.v, expected.v);
      }
    }
  }
  for (hs_scene* scene : scenes) hs_scene_destroy(scene);
}

TEST(CApiThreads, QueriesFromManyThreadsAgreeWithOneThread) {
  TwinScene twin(300, 43, true);
  const std::vector<QueryRay> rays = random_rays(2000, 44);
  std::vector<hs_hit> serial(rays.size());
  for (std::size_t i = 0; i < rays.size(); ++i) {
    const hs_ray ray = to_c(rays[i]);
    ASSERT_EQ(hs_raycast(twin.c, &ray, nullptr, &serial[i]), HS_OK);
  }
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t k = 0; k < rays.size(); ++k) {
        const std::size_t i = (k * 7 + static_cast<std::size_t>(t) * 131) % rays.size();
        const hs_ray ray = to_c(rays[i]);
        hs_hit hit;
        if (hs_raycast(twin.c, &ray, nullptr, &hit) != HS_OK || hit.hit != serial[i].hit ||
            hit.collider != serial[i].collider || hit.distance != serial[i].distance) {
          ++mismatches;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(mismatches, 0);
}

}  // namespace
}  // namespace hitscan::test
