// Scene::raycast_coherent_batch gives raycast's hits bit for bit: seeded random scenes of shapes
// and mesh instances (rigid, scaled, mirrored) seen through camera tiles from inside and outside,
// under layer masks, distance limits, face modes and hollow solids, on incoherent rays too, and
// its distances agree with a brute-force pass over every collider; raycast_coherent_distances
// gives raycast's distances.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

#include "query/scene_test_scenes.hpp"

namespace hitscan {
namespace {

constexpr float kExtent = 40.0f;

// The camera's tile-ordered rays as query rays, their directions of varying length (the scene
// normalises them).
std::vector<QueryRay> camera_tiles(Vec3f eye, Vec3f target, float field, int width, int height) {
  std::vector<QueryRay> rays;
  for (const Rayf& r : test::camera_tile_rays(eye, target, field, width, height)) {
    rays.push_back({r.origin, r.dir * (1.0f + 0.25f * float(rays.size() % 3))});
  }
  return rays;
}

// Adds an icosphere of 1280 triangles whose vertices are placed around `center` (the collider's
// transform is the identity).
void add_placed_ball(test::RandomScene& r, Vec3f center, float radius, std::uint32_t layer) {
  const std::shared_ptr<const TriangleMesh> ball = test::icosphere(3, radius);
  std::vector<Vec3f> positions(ball->positions().begin(), ball->positions().end());
  for (Vec3f& p : positions) p = p + center;
  std::vector<TriangleMesh::Indices> triangles(ball->triangles().begin(), ball->triangles().end());
  const auto placed =
      std::make_shared<const TriangleMesh>(TriangleMesh::make(std::move(positions), std::move(triangles)).value());
  test::SceneEntry e;
  e.desc.shape = std::make_shared<const MeshBvh>(MeshBvh::build(placed).value());
  e.desc.layer = layer;
  e.id = r.scene.add(e.desc).value();
  r.entries.push_back(e);
}

// A random scene with large mesh instances added (an icosphere of 5120 triangles, some scaled
// unevenly or mirrored), so that packets walk deep trees.
test::RandomScene scene_with_large_meshes(unsigned seed) {
  test::RandomScene r = test::make_random_scene(250, seed, kExtent);
  const MeshShape sphere = std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(4, 3.0f)).value());
  std::mt19937 gen(seed + 1);
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2);
  const Vec3f scales[] = {{1, 1, 1}, {2, 2, 2}, {0.7f, 2.5f, 1.2f}, {-1.5f, 1.5f, 1.5f}};
  for (int i = 0; i < 12; ++i) {
    test::SceneEntry e;
    e.desc.shape = sphere;
    e.desc.transform = {test::random_rotation(gen), {pos(gen), pos(gen), pos(gen)}, scales[i % 4]};
    e.desc.layer = std::uint32_t(i % 4);
    e.id = r.scene.add(e.desc).value();
    r.entries.push_back(e);
  }
  // Meshes placed as they are (identity transform, their vertices in the world, as a
  // reconstruction's chunks come), which share one packet per run of rays.
  for (int i = 0; i < 6; ++i) add_placed_ball(r, {pos(gen), pos(gen), pos(gen)}, 2.0f + float(i % 3), std::uint32_t(i % 4));
  r.scene.commit();
  return r;
}

// Only meshes placed as they are: a 4 x 4 x 2 block of overlapping balls, so that most rays
// cross several of them (as rays cross a reconstruction's chunks), a few shapes among them.
test::RandomScene placed_chunks() {
  test::RandomScene r;
  for (int i = 0; i < 32; ++i) {
    const Vec3f center{5.0f * float(i % 4) - 7.5f, 5.0f * float(i / 4 % 4) - 7.5f, 5.0f * float(i / 16) - 2.5f};
    add_placed_ball(r, center, 3.0f + 0.25f * float(i % 3), std::uint32_t(i % 3));
  }
  for (int i = 0; i < 4; ++i) {
    test::SceneEntry e;
    e.desc.shape = Obbf{{6.0f * float(i) - 9.0f, 0.0f, 6.0f}, {1.0f, 0.5f, 2.0f}, {}};
    e.id = r.scene.add(e.desc).value();
    r.entries.push_back(e);
  }
  r.scene.commit();
  return r;
}

// raycast_coherent_batch against raycast one ray at a time; returns how many hit.
int expect_matches_raycast(const Scene& scene, const std::vector<QueryRay>& rays, const QueryOptions& options,
                           Executor* executor, const std::string& what) {
  std::vector<QueryHit> hits(rays.size());
  EXPECT_TRUE(scene.raycast_coherent_batch(rays, hits, options, executor).ok());
  int hit = 0, differ = 0;
  for (std::size_t i = 0; i < rays.size(); ++i) {
    const QueryHit one = scene.raycast(rays[i], options);
    hit += one.hit;
    if (test::same_bits(hits[i], one)) continue;
    if (++differ <= 5) {
      ADD_FAILURE() << what << " ray " << i << ": batch " << hits[i].hit << " " << hits[i].distance << " collider "
                    << hits[i].collider << " primitive " << hits[i].primitive << ", raycast " << one.hit << " "
                    << one.distance << " collider " << one.collider << " primitive " << one.primitive;
    }
  }
  EXPECT_EQ(differ, 0) << what << ": of " << rays.size() << " rays";
  return hit;
}

TEST(SceneCoherent, CameraTilesMatchRaycastUnderEveryOption) {
  SerialExecutor serial;
  for (unsigned seed : {81u, 82u, 83u}) {
    const test::RandomScene r = scene_with_large_meshes(seed);
    std::mt19937 gen(seed + 10);
    std::uniform_real_distribution<float> unit(-1, 1);
    for (int view = 0; view < 6; ++view) {
      // Inside the cloud of colliders, then from outside it.
      const float distance = view < 3 ? 0.3f * kExtent : 1.5f * kExtent;
      const Vec3f eye = normalize(Vec3f{unit(gen), unit(gen), unit(gen)}) * distance;
      const std::vector<QueryRay> rays = camera_tiles(eye, Vec3f{unit(gen), unit(gen), unit(gen)} * 5.0f, 1.2f, 61, 43);
      QueryOptions options;
      switch (view) {
        case 1: options.layer_mask = std::uint32_t(gen()) | 0xFu; break;
        case 2: options.max_distance = 0.5f * kExtent, options.faces = FaceMode::front_only; break;
        case 3: options.solid = false, options.faces = FaceMode::back_only; break;
        case 4: options.layer_mask = 0x5u; break;
        default: break;
      }
      const std::string what = "seed " + std::to_string(seed) + " view " + std::to_string(view);
      const int hits = expect_matches_raycast(r.scene, rays, options, view % 2 == 0 ? &serial : nullptr, what);
      EXPECT_GT(hits, 100) << what;
    }
  }
}

TEST(SceneCoherent, IncoherentAndInvalidRaysMatchRaycast) {
  const test::RandomScene r = scene_with_large_meshes(84);
  std::mt19937 gen(85);
  std::uniform_real_distribution<float> limit(0.0f, kExtent);
  std::vector<QueryRay> rays;
  for (int i = 0; i < 3000; ++i) {
    QueryRay ray = test::random_query_ray(gen, kExtent);
    if (i % 5 == 0) ray.max_distance = limit(gen);
    rays.push_back(ray);
  }
  rays[3].direction = {0, 0, 0};
  rays[64].origin.y = std::nanf("");
  rays[65].max_distance = -1.0f;
  rays[130].direction = {0, kInfinity<float>, 0};
  rays[200].direction = {0, 0, 1e-30f};  // tiny but valid
  // Each case of the rays' preparation, 8 at a time: |d|^2 overflowing (rescaled first), below
  // the normal range (rescaled first), an origin past the working range, a NaN or -0 limit.
  rays[250].direction = {3e19f, -4e19f, 1e19f};
  rays[251].direction = {1e-20f, -2e-20f, 1e-20f};
  rays[252].origin.x = 2.0f * kMaxCoordinate;
  rays[253].max_distance = std::nanf("");
  rays[254].max_distance = -0.0f;
  EXPECT_GT(expect_matches_raycast(r.scene, rays, {}, nullptr, "incoherent"), 1000);
}

TEST(SceneCoherent, DistancesAgreeWithBruteForceOverEveryCollider) {
  const test::RandomScene r = scene_with_large_meshes(86);
  const std::vector<QueryRay> rays = camera_tiles({0, 0, 1.5f * kExtent}, {0, 0, 0}, 1.0f, 32, 32);
  std::vector<QueryHit> hits(rays.size());
  ASSERT_TRUE(r.scene.raycast_coherent_batch(rays, hits).ok());
  int hit = 0;
  for (std::size_t i = 0; i < rays.size(); ++i) {
    const Rayf ray{rays[i].origin, normalize(rays[i].direction)};
    float nearest = kInfinity<float>;
    for (const test::SceneEntry& e : r.entries) nearest = std::min(nearest, test::reference_distance(e.desc, ray));
    ASSERT_EQ(hits[i].hit, nearest < kInfinity<float>) << "ray " << i;
    if (!hits[i].hit) continue;
    ++hit;
    EXPECT_NEAR(hits[i].distance, nearest, 1e-4f * nearest) << "ray " << i;
  }
  EXPECT_GT(hit, 100);
}

// Accepts colliders with an even id.
bool even_ids(ColliderId id, std::uint64_t, std::uint32_t, void*) { return id % 2 == 0; }

TEST(SceneCoherent, AFilterGivesRaycastsHitsToo) {
  const test::RandomScene r = scene_with_large_meshes(87);
  QueryOptions options;
  options.filter.accept = even_ids;
  const std::vector<QueryRay> rays = camera_tiles({0, 0, 1.5f * kExtent}, {0, 0, 0}, 1.0f, 24, 24);
  EXPECT_GT(expect_matches_raycast(r.scene, rays, options, nullptr, "filter"), 50);
}

// raycast_coherent_distances gives raycast's distance, bit for bit, +inf for a miss.
void expect_distances_match_raycast(const Scene& scene, const std::vector<QueryRay>& rays, const QueryOptions& options,
                                    const std::string& what) {
  std::vector<float> distances(rays.size());
  ASSERT_TRUE(scene.raycast_coherent_distances(rays, distances, options).ok());
  int differ = 0, hit = 0;
  for (std::size_t i = 0; i < rays.size(); ++i) {
    const QueryHit one = scene.raycast(rays[i], options);
    const float expected = one.hit ? one.distance : kInfinity<float>;
    hit += one.hit;
    if (std::bit_cast<std::uint32_t>(distances[i]) == std::bit_cast<std::uint32_t>(expected)) continue;
    if (++differ <= 5) ADD_FAILURE() << what << " ray " << i << ": " << distances[i] << " against " << expected;
  }
  EXPECT_EQ(differ, 0) << what;
  EXPECT_GT(hit, 50) << what;
}

TEST(SceneCoherent, MeshesPlacedAsTheyAreMatchRaycastFromEveryView) {
  const test::RandomScene r = placed_chunks();
  SerialExecutor serial;
  std::mt19937 gen(89);
  std::uniform_real_distribution<float> unit(-1, 1);
  for (int view = 0; view < 8; ++view) {
    // Inside the block (between the balls), then from outside it.
    const Vec3f eye = view < 3 ? Vec3f{2.5f, 2.5f, 0.0f} + Vec3f{unit(gen), unit(gen), unit(gen)} * 0.3f
                               : normalize(Vec3f{unit(gen), unit(gen), unit(gen)}) * 30.0f;
    const std::vector<QueryRay> rays = camera_tiles(eye, Vec3f{unit(gen), unit(gen), unit(gen)} * 3.0f, 1.3f, 48, 40);
    QueryOptions options;
    switch (view % 4) {
      case 1: options.layer_mask = 0x5u; break;
      case 2: options.max_distance = 25.0f, options.faces = FaceMode::front_only; break;
      case 3: options.faces = FaceMode::back_only; break;
      default: break;
    }
    const std::string what = "view " + std::to_string(view);
    EXPECT_GT(expect_matches_raycast(r.scene, rays, options, view % 2 == 0 ? &serial : nullptr, what), 200) << what;
  }
}

TEST(SceneCoherent, DistancesOnlyMatchRaycastsDistances) {
  const test::RandomScene placed = placed_chunks();
  const std::vector<QueryRay> across = camera_tiles({3, 4, 30}, {0, 0, 0}, 1.2f, 40, 40);
  expect_distances_match_raycast(placed.scene, across, {}, "placed meshes");
  QueryOptions back;
  back.faces = FaceMode::back_only;
  expect_distances_match_raycast(placed.scene, across, back, "placed meshes, back faces");
  const test::RandomScene r = scene_with_large_meshes(88);
  const std::vector<QueryRay> rays = camera_tiles({0, 0, 1.5f * kExtent}, {0, 0, 0}, 1.0f, 40, 40);
  expect_distances_match_raycast(r.scene, rays, {}, "default");
  QueryOptions options;
  options.faces = FaceMode::front_only;
  options.max_distance = 1.6f * kExtent;
  expect_distances_match_raycast(r.scene, rays, options, "front faces within a distance");
  options = {};
  options.filter.accept = even_ids;
  expect_distances_match_raycast(r.scene, rays, options, "filter");
  const std::vector<QueryRay> inside = camera_tiles({1, 2, 3}, {5, -4, 2}, 1.4f, 32, 32);
  expect_distances_match_raycast(r.scene, inside, {}, "from inside the cloud");
  std::vector<float> too_few(rays.size() - 1);
  EXPECT_EQ(r.scene.raycast_coherent_distances(rays, too_few).code(), StatusCode::invalid_argument);
}

TEST(SceneCoherent, MismatchedSpansAreAnErrorAndAnEmptySceneMissesEverything) {
  Scene scene;
  std::vector<QueryRay> rays(70);
  std::vector<QueryHit> hits(69);
  EXPECT_EQ(scene.raycast_coherent_batch(rays, hits).code(), StatusCode::invalid_argument);
  hits.resize(70);
  ASSERT_TRUE(scene.raycast_coherent_batch(rays, hits).ok());
  for (const QueryHit& h : hits) EXPECT_FALSE(h.hit);
  EXPECT_TRUE(scene.raycast_coherent_batch({}, {}).ok());
}

}  // namespace
}  // namespace hitscan
