// Scene raycasts against brute force over every collider on seeded random scenes, and the options
// (layers, filters, distance, faces, solid), the edit/commit rules, batches and bad input.

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "query/scene_test_scenes.hpp"

namespace hitscan {
namespace {

constexpr float kExtent = 40.0f;

struct RandomScene {
  Scene scene;
  std::vector<test::SceneEntry> entries;
};

RandomScene make_scene(int colliders, unsigned seed, bool with_planes = false) {
  RandomScene r;
  std::mt19937 gen(seed);
  const MeshShape mesh = std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(2, 1.5f)).value());
  for (int i = 0; i < colliders; ++i) {
    test::SceneEntry e;
    e.desc = test::random_collider(gen, kExtent, mesh, with_planes && i % 50 == 0);
    e.id = r.scene.add(e.desc).value();
    r.entries.push_back(e);
  }
  r.scene.commit();
  return r;
}

Rayf kernel_ray(const QueryRay& q) { return {q.origin, normalize(q.direction), 0.0f, q.max_distance}; }

// The nearest collider distance by brute force, and the ids at that distance (within tolerance).
struct Expected {
  float distance = kInfinity<float>;
  std::vector<ColliderId> ids;
};

Expected brute_force(const RandomScene& r, const QueryRay& q, std::uint32_t layer_mask = kAllLayers) {
  Expected e;
  const Rayf ray = kernel_ray(q);
  std::vector<std::pair<float, ColliderId>> all;
  for (const test::SceneEntry& entry : r.entries) {
    if (((layer_mask >> entry.desc.layer) & 1u) == 0) continue;
    const float t = test::reference_distance(entry.desc, ray);
    if (t < kInfinity<float>) all.emplace_back(t, entry.id);
  }
  for (const auto& [t, id] : all) e.distance = std::min(e.distance, t);
  for (const auto& [t, id] : all) {
    if (t <= e.distance + 1e-4f * (1.0f + e.distance)) e.ids.push_back(id);
  }
  return e;
}

void expect_matches(const QueryHit& hit, const Expected& expected, int ray_index) {
  ASSERT_EQ(hit.hit, expected.distance < kInfinity<float>) << "ray " << ray_index;
  if (!hit.hit) return;
  EXPECT_NEAR(hit.distance, expected.distance, 1e-4f * (1.0f + expected.distance)) << "ray " << ray_index;
  EXPECT_NE(std::find(expected.ids.begin(), expected.ids.end(), hit.collider), expected.ids.end()) << "ray " << ray_index;
  EXPECT_NEAR(length(hit.normal), 1.0f, 1e-4f);
}

TEST(SceneRaycast, NearestHitMatchesBruteForceOverEveryCollider) {
  RandomScene r = make_scene(400, 7, true);
  std::mt19937 gen(8);
  int hits = 0;
  for (int i = 0; i < 3000; ++i) {
    const QueryRay q = test::random_query_ray(gen, kExtent);
    const QueryHit hit = r.scene.raycast(q);
    expect_matches(hit, brute_force(r, q), i);
    if (hit.hit) {
      ++hits;
      EXPECT_LE(dot(hit.normal, normalize(q.direction)), 1e-6f) << "ray " << i << ": the contact normal faces the ray";
      EXPECT_EQ(r.scene.raycast_any(q), true);
    }
  }
  EXPECT_GT(hits, 1500);
}

TEST(SceneRaycast, LayerMaskAndFilterHideColliders) {
  RandomScene r = make_scene(300, 11);
  std::mt19937 gen(12);
  QueryOptions even_layers;
  even_layers.layer_mask = 0x55555555u;
  // A filter that refuses colliders whose user id is odd.
  QueryOptions even_users;
  even_users.filter.accept = [](ColliderId, std::uint64_t user, std::uint32_t, void*) { return user % 2 == 0; };
  RandomScene filtered;
  for (const test::SceneEntry& e : r.entries) {
    if (e.desc.user_id % 2 == 0) filtered.entries.push_back(e);
  }
  for (int i = 0; i < 1500; ++i) {
    const QueryRay q = test::random_query_ray(gen, kExtent);
    expect_matches(r.scene.raycast(q, even_layers), brute_force(r, q, even_layers.layer_mask), i);
    expect_matches(r.scene.raycast(q, even_users), brute_force(filtered, q), i);
  }
}

TEST(SceneRaycast, MaxDistanceCutsHitsBeyondIt) {
  RandomScene r = make_scene(200, 13);
  std::mt19937 gen(14);
  for (int i = 0; i < 1000; ++i) {
    QueryRay q = test::random_query_ray(gen, kExtent);
    const QueryHit unlimited = r.scene.raycast(q);
    if (!unlimited.hit || unlimited.distance < 1e-3f) continue;
    QueryOptions shorter;
    shorter.max_distance = unlimited.distance * 0.999f;
    EXPECT_FALSE(r.scene.raycast(q, shorter).hit && r.scene.raycast(q, shorter).distance >= unlimited.distance);
    q.max_distance = unlimited.distance * 1.001f;
    EXPECT_EQ(r.scene.raycast(q).collider, unlimited.collider);
  }
}

TEST(SceneRaycast, AllHitsAreSortedAndContainTheNearest) {
  RandomScene r = make_scene(300, 15);
  std::mt19937 gen(16);
  std::vector<QueryHit> all;
  for (int i = 0; i < 1000; ++i) {
    const QueryRay q = test::random_query_ray(gen, kExtent);
    const QueryHit nearest = r.scene.raycast(q);
    const std::size_t n = r.scene.raycast_all(q, all);
    ASSERT_EQ(n, all.size());
    ASSERT_EQ(n > 0, nearest.hit) << "ray " << i;
    if (n == 0) continue;
    EXPECT_EQ(all.front().distance, nearest.distance);
    for (std::size_t k = 1; k < n; ++k) EXPECT_LE(all[k - 1].distance, all[k].distance);
    // Into a short buffer: the nearest that fit, and the count of all.
    QueryHit buffer[2];
    const RaycastAllCount count = r.scene.raycast_all(q, buffer);
    EXPECT_EQ(count.total, n);
    EXPECT_EQ(count.written, std::min<std::size_t>(2, n));
    EXPECT_EQ(buffer[0].distance, all[0].distance);
  }
}

TEST(SceneRaycast, ThroughASolidSphereGivesEntryThenExit) {
  Scene scene;
  const ColliderId id = scene.add({Spheref{{0, 0, 0}, 2}, Transformf{}, 3, 99}).value();
  scene.commit();
  std::vector<QueryHit> all;
  ASSERT_EQ(scene.raycast_all({{-10, 0, 0}, {2, 0, 0}}, all), 2u);
  EXPECT_FLOAT_EQ(all[0].distance, 8.0f);
  EXPECT_FLOAT_EQ(all[1].distance, 12.0f);
  EXPECT_EQ(all[1].flags & kHitExit, kHitExit);
  EXPECT_EQ(all[0].collider, id);
  EXPECT_EQ(all[0].user_id, 99u);
  EXPECT_EQ(all[0].normal, (Vec3f{-1, 0, 0}));
  EXPECT_EQ(all[1].face_normal, (Vec3f{1, 0, 0}));
  EXPECT_EQ(all[1].normal, (Vec3f{-1, 0, 0}));
}

TEST(SceneRaycast, StartingInsideASolidHitsAtZeroOrAtTheExit) {
  Scene scene;
  scene.add({Obbf{{0, 0, 0}, {1, 2, 3}, Mat3f::identity()}}).value();
  scene.commit();
  const QueryRay from_inside{{0.5f, 0, 0}, {1, 0, 0}};
  const QueryHit solid = scene.raycast(from_inside);
  ASSERT_TRUE(solid.hit);
  EXPECT_EQ(solid.distance, 0.0f);
  EXPECT_TRUE(solid.started_inside());
  QueryOptions shell;
  shell.solid = false;
  const QueryHit exit = scene.raycast(from_inside, shell);
  ASSERT_TRUE(exit.hit);
  EXPECT_FLOAT_EQ(exit.distance, 0.5f);
  EXPECT_EQ(exit.face_normal, (Vec3f{1, 0, 0}));
  EXPECT_EQ(exit.flags & kHitExit, kHitExit);
}

TEST(SceneRaycast, FaceModeSelectsThePlanesSide) {
  Scene scene;
  scene.add({Planef{{0, 0, 1}, 0}}).value();
  scene.commit();
  QueryOptions front, back;
  front.faces = FaceMode::front_only;
  back.faces = FaceMode::back_only;
  const QueryRay down{{0, 0, 5}, {0, 0, -1}}, up{{0, 0, -5}, {0, 0, 1}};
  EXPECT_TRUE(scene.raycast(down, front).hit);
  EXPECT_FALSE(scene.raycast(down, back).hit);
  EXPECT_FALSE(scene.raycast(up, front).hit);
  const QueryHit from_below = scene.raycast(up, back);
  ASSERT_TRUE(from_below.hit);
  EXPECT_TRUE(from_below.back_face());
  EXPECT_EQ(from_below.normal, (Vec3f{0, 0, -1}));
  EXPECT_EQ(from_below.face_normal, (Vec3f{0, 0, 1}));
}

TEST(SceneRaycast, MeshHitsCarryTriangleAndBarycentrics) {
  Scene scene;
  const auto mesh = test::icosphere(2, 1.0f);
  const MeshShape shape = std::make_shared<const MeshBvh>(MeshBvh::build(mesh).value());
  Transformf t;
  t.translation = {5, 0, 0};
  t.scale = {2, 1, 1};  // non-uniform: fine for meshes
  scene.add({shape, t}).value();
  scene.commit();
  const QueryHit hit = scene.raycast({{0, 0.1f, 0.1f}, {1, 0, 0}});
  ASSERT_TRUE(hit.hit);
  ASSERT_LT(hit.primitive, mesh->triangle_count());
  const Trianglef tri = mesh->triangle(hit.primitive);
  const Vec3f local = tri.v0 * (1 - hit.u - hit.v) + tri.v1 * hit.u + tri.v2 * hit.v;
  const Vec3f world = t.apply_point(local);
  EXPECT_NEAR(length(world - hit.point), 0.0f, 1e-4f);
  EXPECT_NEAR(hit.distance, 3.0f, 0.1f);
  // From inside the closed mesh every crossing is counted once: an odd number of them.
  std::vector<QueryHit> all;
  EXPECT_EQ(scene.raycast_all({{5, 0.01f, 0.02f}, {1, 0.3f, 0.2f}}, all) % 2, 1u);
}

TEST(SceneEdit, ChangesBecomeVisibleOnlyAtCommit) {
  Scene scene;
  const QueryRay ray{{0, 0, -10}, {0, 0, 1}};
  const ColliderId id = scene.add({Spheref{{0, 0, 0}, 1}}).value();
  EXPECT_FALSE(scene.raycast(ray).hit);
  EXPECT_EQ(scene.commit(), 1u);
  EXPECT_EQ(scene.raycast(ray).collider, id);
  Transformf moved;
  moved.translation = {0, 0, 5};
  ASSERT_TRUE(scene.set_transform(id, moved).ok());
  EXPECT_FLOAT_EQ(scene.raycast(ray).distance, 9.0f);
  scene.commit();
  EXPECT_FLOAT_EQ(scene.raycast(ray).distance, 14.0f);
  ASSERT_TRUE(scene.set_layer(id, 5).ok());
  scene.commit();
  QueryOptions not_five;
  not_five.layer_mask = ~(1u << 5);
  EXPECT_FALSE(scene.raycast(ray, not_five).hit);
  ASSERT_TRUE(scene.remove(id).ok());
  EXPECT_TRUE(scene.raycast(ray).hit);
  scene.commit();
  EXPECT_FALSE(scene.raycast(ray).hit);
  EXPECT_EQ(scene.committed_count(), 0u);
  // The id is stale now, even once its slot is reused.
  EXPECT_EQ(scene.remove(id).code(), StatusCode::not_found);
  const ColliderId reused = scene.add({Spheref{{0, 0, 0}, 1}}).value();
  EXPECT_NE(reused, id);
  EXPECT_EQ(scene.set_transform(id, moved).code(), StatusCode::not_found);
}

TEST(SceneEdit, MovingManyCollidersMatchesBruteForceAfterCommit) {
  RandomScene r = make_scene(500, 17);
  std::mt19937 gen(18);
  std::uniform_real_distribution<float> step(-3, 3);
  for (int frame = 0; frame < 5; ++frame) {
    for (std::size_t k = frame; k < r.entries.size(); k += 7) {
      test::SceneEntry& e = r.entries[k];
      e.desc.transform.translation += Vec3f{step(gen), step(gen), step(gen)};
      ASSERT_TRUE(r.scene.set_transform(e.id, e.desc.transform).ok());
    }
    r.scene.commit();
    for (int i = 0; i < 300; ++i) {
      const QueryRay q = test::random_query_ray(gen, kExtent);
      expect_matches(r.scene.raycast(q), brute_force(r, q), i);
    }
  }
}

TEST(SceneEdit, RejectsWhatTheKernelsCannotRepresent) {
  Scene scene;
  Transformf stretched;
  stretched.scale = {1, 2, 1};
  EXPECT_EQ(scene.add({Spheref{{0, 0, 0}, 1}, stretched}).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(scene.add({Capsulef{}, stretched}).status().code(), StatusCode::invalid_argument);
  EXPECT_TRUE(scene.add({Obbf{}, stretched}).ok());  // an axis-aligned local box takes any scale
  const Obbf rotated = Obbf::from_quat({}, {1, 1, 1}, Quatf::from_axis_angle({0, 0, 1}, 0.5f));
  EXPECT_EQ(scene.add({rotated, stretched}).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(scene.add({Spheref{{0, 0, 0}, -1}}).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(scene.add({MeshShape{}}).status().code(), StatusCode::invalid_argument);
  Transformf flat;
  flat.scale = {1, 0, 1};
  EXPECT_EQ(scene.add({Obbf{}, flat}).status().code(), StatusCode::invalid_argument);
  ColliderDesc bad_layer{Spheref{}};
  bad_layer.layer = 32;
  EXPECT_EQ(scene.add(bad_layer).status().code(), StatusCode::invalid_argument);
  // Infinite sizes, and sizes a transform makes infinite (which would give NaN distances).
  const float inf = kInfinity<float>;
  EXPECT_EQ(scene.add({Spheref{{0, 0, 0}, inf}}).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(scene.add({Capsulef{{0, 0, 0}, {0, 1, 0}, inf}}).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(scene.add({Cylinderf{{0, 0, 0}, {0, 1, 0}, inf}}).status().code(), StatusCode::invalid_argument);
  Transformf huge;
  huge.scale = {1e30f, 1e30f, 1e30f};
  EXPECT_EQ(scene.add({Spheref{{0, 0, 0}, 1e10f}, huge}).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(scene.add({Capsulef{{0, 0, 0}, {0, 1e10f, 0}, 1}, huge}).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(scene.add({Obbf{{1e10f, 0, 0}, {1, 1, 1}, Mat3f::identity()}, huge}).status().code(),
            StatusCode::invalid_argument);
  EXPECT_EQ(scene.add({Obbf{{0, 0, 0}, {1e10f, 1, 1}, Mat3f::identity()}, huge}).status().code(),
            StatusCode::invalid_argument);
}

TEST(SceneRaycast, BadRaysMissWithoutCrashing) {
  RandomScene r = make_scene(50, 19);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = kInfinity<float>;
  const QueryRay bad[] = {{{0, 0, 0}, {0, 0, 0}}, {{nan, 0, 0}, {1, 0, 0}}, {{0, 0, 0}, {inf, 0, 0}},
                          {{0, 0, 0}, {1, nan, 0}}, {{0, 0, 0}, {1, 0, 0}, -1.0f}, {{0, 0, 0}, {1, 0, 0}, nan}};
  std::vector<QueryHit> all;
  for (const QueryRay& q : bad) {
    EXPECT_FALSE(r.scene.raycast(q).hit);
    EXPECT_FALSE(r.scene.raycast_any(q));
    EXPECT_EQ(r.scene.raycast_all(q, all), 0u);
  }
  QueryOptions nan_limit;
  nan_limit.max_distance = nan;
  EXPECT_FALSE(r.scene.raycast({{0, 0, -30}, {0, 0, 1}}, nan_limit).hit);
  // A tiny direction is a direction.
  EXPECT_EQ(r.scene.raycast({{0, 0, -30}, {0, 0, 1e-30f}}).hit, r.scene.raycast({{0, 0, -30}, {0, 0, 1}}).hit);
}

TEST(SceneBatch, BatchesEqualOneAtATime) {
  RandomScene r = make_scene(300, 21, true);
  std::mt19937 gen(22);
  std::vector<QueryRay> rays(5000);
  for (QueryRay& q : rays) q = test::random_query_ray(gen, kExtent);
  std::vector<QueryHit> hits(rays.size());
  std::vector<std::uint8_t> any(rays.size());
  ThreadPool pool(3);
  ASSERT_TRUE(r.scene.raycast_batch(rays, hits, {}, &pool).ok());
  ASSERT_TRUE(r.scene.raycast_any_batch(rays, any, {}, &pool).ok());
  for (std::size_t i = 0; i < rays.size(); ++i) {
    const QueryHit one = r.scene.raycast(rays[i]);
    ASSERT_EQ(hits[i].hit, one.hit);
    EXPECT_EQ(hits[i].distance, one.distance);
    EXPECT_EQ(hits[i].collider, one.collider);
    EXPECT_EQ(any[i], one.hit ? 1 : 0);
  }
  EXPECT_EQ(r.scene.raycast_batch(rays, std::span(hits).first(3)).code(), StatusCode::invalid_argument);
}

TEST(SceneThreads, QueriesFromManyThreadsWhileAnotherEditsAndCommits) {
  RandomScene r = make_scene(300, 23);
  std::mt19937 gen(24);
  std::vector<QueryRay> rays(2000);
  for (QueryRay& q : rays) q = test::random_query_ray(gen, kExtent);
  std::vector<QueryHit> before(rays.size());
  for (std::size_t i = 0; i < rays.size(); ++i) before[i] = r.scene.raycast(rays[i]);
  // An editor moves a far-away collider back and forth and commits: every query must see the
  // scene either before or after, and the far collider is never in the rays' way.
  const ColliderId far = r.scene.add({Spheref{{1000, 1000, 1000}, 1}}).value();
  r.scene.commit();
  std::atomic<bool> done{false};
  std::thread editor([&] {
    Transformf t;
    for (int k = 0; !done; ++k) {
      t.translation = {float(k % 7), 0, 0};
      ASSERT_TRUE(r.scene.set_transform(far, t).ok());
      r.scene.commit();
    }
  });
  std::vector<std::thread> readers;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([&] {
      for (std::size_t i = 0; i < rays.size(); ++i) {
        const QueryHit h = r.scene.raycast(rays[i]);
        if (h.hit != before[i].hit || h.distance != before[i].distance || h.collider != before[i].collider) ++mismatches;
      }
    });
  }
  for (std::thread& t : readers) t.join();
  done = true;
  editor.join();
  EXPECT_EQ(mismatches, 0);
}

// Found by fuzz_capi: a capsule scaled by -6e-26 sat at the ray's origin with a normal that
// underflowed to zero, and a mesh scaled by 1e-30 gave contacts of infinite depth (its frame needs
// coordinates of 1e30 and more). Scales below kMinColliderScale are now refused; one just above
// it still hits with unit normals, facing the ray.
TEST(SceneRaycast, ScalesBelowTheMinimumAreRefusedAndTinyOnesAboveItHitWithUnitNormals) {
  Scene scene;
  ColliderDesc d{Capsulef{{-15.5f, -11.25f, -7.5f}, {0, 11.25f, 11.25f}, 11.25f}};
  d.transform.translation = {11.25f, 11.25f, 11.25f};
  d.transform.scale = Vec3f{1, 1, 1} * -0x1.2b2b2ap-84f;
  EXPECT_EQ(scene.add(d).status().code(), StatusCode::invalid_argument);
  ColliderDesc mesh{std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(1, 1.0f)).value())};
  mesh.transform.scale = {1, 1e-30f, 1};
  EXPECT_EQ(scene.add(mesh).status().code(), StatusCode::invalid_argument);
  d.transform.scale = Vec3f{1, 1, 1} * (-2 * kMinColliderScale);
  ASSERT_TRUE(scene.add(d).ok());
  scene.commit();
  const QueryHit h = scene.raycast({{11.25f, 11.25f, 11.25f}, {11.25f, 10.25f, 11.25f}, 11.25f});
  ASSERT_TRUE(h);
  EXPECT_EQ(h.distance, 0.0f);
  EXPECT_NEAR(length(h.normal), 1.0f, 1e-6f);
  EXPECT_NEAR(length(h.face_normal), 1.0f, 1e-6f);
  EXPECT_LT(dot(h.normal, Vec3f{11.25f, 10.25f, 11.25f}), 0.0f);
}

}  // namespace
}  // namespace hitscan
