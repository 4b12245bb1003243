// Reconstruction chunks added, replaced and removed frame after frame: raycasts equal those on a
// freshly built scene and brute force, and each update's work is its chunk's, not the world's.

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "hitscan/ar/chunks.hpp"
#include "mesh/mesh_test_meshes.hpp"

namespace hitscan {
namespace {

struct Patch {
  std::vector<Vec3f> positions;
  std::vector<TriangleMesh::Indices> triangles;
};

/// A 1 m square of ground at (x0, z0), y up, n x n quads, with heights jittered by `noise`.
Patch ground_patch(float x0, float z0, int n, std::mt19937& gen, float noise = 0.02f, float lift = 0.0f) {
  std::normal_distribution<float> jitter(0.0f, noise);
  Patch p;
  for (int a = 0; a <= n; ++a) {
    for (int b = 0; b <= n; ++b) {
      const float x = x0 + float(a) / float(n), z = z0 + float(b) / float(n);
      p.positions.push_back({x, lift + 0.1f * std::sin(x + 2 * z) + jitter(gen), z});
    }
  }
  const auto at = [n](int a, int b) { return static_cast<std::uint32_t>(a * (n + 1) + b); };
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      p.triangles.push_back({at(a, b), at(a, b + 1), at(a + 1, b)});
      p.triangles.push_back({at(a + 1, b), at(a, b + 1), at(a + 1, b + 1)});
    }
  }
  return p;
}

Patch moved(const Patch& p, std::mt19937& gen, float noise) {
  std::normal_distribution<float> jitter(0.0f, noise);
  Patch q = p;
  for (Vec3f& v : q.positions) v.y += jitter(gen);
  return q;
}

/// The nearest hit over every patch, each triangle through the scalar watertight kernel.
float brute_distance(const std::map<ChunkId, Patch>& world, const Rayf& ray) {
  float best = kInfinity<float>;
  for (const auto& [id, p] : world) {
    const TriangleMesh mesh = TriangleMesh::make(p.positions, p.triangles).value();
    const test::BruteHit hit = test::brute_force(mesh, ray, FaceMode::both);
    if (hit.hit) best = std::min(best, hit.t);
  }
  return best;
}

/// Rays from above the ground, downward and slanted, over the world's area.
std::vector<Rayf> probe_rays(std::mt19937& gen, int count, float extent) {
  std::uniform_real_distribution<float> where(-0.5f, extent + 0.5f), slant(-0.6f, 0.6f);
  std::vector<Rayf> rays;
  for (int i = 0; i < count; ++i) {
    rays.push_back({{where(gen), 2.0f, where(gen)}, normalize(Vec3f{slant(gen), -1.0f, slant(gen)}), 0.0f, kInfinity<float>});
  }
  return rays;
}

TEST(ReconstructionChunks, RaycastsAfterEveryFrameOfUpdatesEqualAFreshSceneAndBruteForce) {
  std::mt19937 gen(21);
  Scene scene;
  ReconstructionChunks chunks(scene);
  std::map<ChunkId, Patch> world;
  ChunkId next_id = 1000;
  for (int c = 0; c < 16; ++c) {
    Patch p = ground_patch(float(c % 4), float(c / 4), 4, gen);
    ASSERT_TRUE(chunks.update_chunk(next_id, p.positions, p.triangles).ok());
    world[next_id++] = std::move(p);
  }
  scene.commit();
  std::uniform_real_distribution<float> chance(0.0f, 1.0f);
  std::size_t refits = 0, builds = 0;
  for (int frame = 0; frame < 8; ++frame) {
    std::vector<ChunkId> ids;
    for (const auto& [id, p] : world) ids.push_back(id);
    for (const ChunkId id : ids) {
      const float roll = chance(gen);
      if (roll < 0.5f) {  // fresh noise, same triangles
        world[id] = moved(world[id], gen, 0.01f);
      } else if (roll < 0.6f) {  // re-meshed at another resolution
        const Vec3f corner = world[id].positions.front();
        world[id] = ground_patch(corner.x, corner.z, 2 + frame % 4, gen);
      } else if (roll < 0.65f) {
        ASSERT_EQ(chunks.remove_chunk(id).value().work, ChunkWork::removed);
        world.erase(id);
        continue;
      } else {
        continue;
      }
      const Result<ChunkUpdate> update = chunks.update_chunk(id, world[id].positions, world[id].triangles);
      ASSERT_TRUE(update.ok()) << update.status().message();
      (update.value().work == ChunkWork::refit ? refits : builds) += 1;
    }
    if (frame % 3 == 0) {  // a chunk appears where one was removed, or beside the world
      Patch p = ground_patch(float(frame % 4), 4.0f, 3, gen);
      ASSERT_TRUE(chunks.update_chunk(next_id, p.positions, p.triangles).ok());
      world[next_id++] = std::move(p);
    }
    scene.commit();
    ASSERT_EQ(scene.committed_count(), world.size());
    ASSERT_EQ(chunks.chunk_count(), world.size());

    Scene fresh;
    for (const auto& [id, p] : world) {
      auto mesh = std::make_shared<const TriangleMesh>(TriangleMesh::make(p.positions, p.triangles).value());
      ColliderDesc desc{MeshShape(std::make_shared<const MeshBvh>(MeshBvh::build(mesh).value()))};
      desc.user_id = id;
      ASSERT_TRUE(fresh.add(desc).ok());
    }
    fresh.commit();
    for (const Rayf& ray : probe_rays(gen, 150, 4.0f)) {
      const QueryHit a = scene.raycast({ray.origin, ray.dir}), b = fresh.raycast({ray.origin, ray.dir});
      ASSERT_EQ(a.hit, b.hit) << "frame " << frame;
      if (!a.hit) continue;
      ASSERT_EQ(a.distance, b.distance);
      EXPECT_EQ(a.user_id, b.user_id);
      EXPECT_NEAR(a.distance, brute_distance(world, ray), 1e-6f * a.distance);
    }
  }
  EXPECT_GT(refits, 20u);  // the refit path was exercised, not only rebuilds
  EXPECT_GT(builds, 5u);
}

TEST(ReconstructionChunks, AnUpdateCostsItsChunksTrianglesWhateverTheWorldsSize) {
  for (const int world_chunks : {4, 120}) {
    std::mt19937 gen(22);
    Scene scene;
    ReconstructionChunks chunks(scene);
    std::vector<Patch> patches;
    for (int c = 0; c < world_chunks; ++c) {
      patches.push_back(ground_patch(float(c % 12), float(c / 12), 2 + c % 5, gen));
      const ChunkUpdate added = chunks.update_chunk(c, patches[c].positions, patches[c].triangles).value();
      EXPECT_EQ(added.work, ChunkWork::built);
      EXPECT_EQ(added.triangles, patches[c].triangles.size());
    }
    scene.commit();
    // Chunk 3 (5 x 5 quads, 50 triangles) changes every frame.
    std::vector<ChunkWork> works;
    std::size_t triangles = 0;
    for (int frame = 0; frame < 4; ++frame) {
      const Patch p = moved(patches[3], gen, 0.01f);
      const ChunkUpdate u = chunks.update_chunk(3, p.positions, p.triangles).value();
      works.push_back(u.work);
      triangles += u.triangles;
      scene.commit();
    }
    // No spare at first; from then on the tree the scene just let go of is refit.
    EXPECT_EQ(works, (std::vector<ChunkWork>{ChunkWork::built, ChunkWork::refit, ChunkWork::refit, ChunkWork::refit}));
    EXPECT_EQ(triangles, 4u * 50u) << world_chunks << " chunks";
    // Two updates without a commit between: the spare is still the scene's, so a tree is built.
    const Patch p = moved(patches[3], gen, 0.01f);
    EXPECT_EQ(chunks.update_chunk(3, p.positions, p.triangles).value().work, ChunkWork::refit);
    EXPECT_EQ(chunks.update_chunk(3, p.positions, p.triangles).value().work, ChunkWork::built);
    // New triangles: only this chunk is rebuilt.
    const Patch remeshed = ground_patch(3.0f, 0.0f, 7, gen);
    const ChunkUpdate u = chunks.update_chunk(3, remeshed.positions, remeshed.triangles).value();
    EXPECT_EQ(u.work, ChunkWork::built);
    EXPECT_EQ(u.triangles, 98u);
    const ChunkUpdate removed = chunks.remove_chunk(3).value();
    EXPECT_EQ(removed.work, ChunkWork::removed);
    EXPECT_EQ(removed.triangles, 0u);
    scene.commit();
    EXPECT_EQ(scene.committed_count(), std::size_t(world_chunks - 1));
  }
}

float height_at_origin(const Scene& scene) {
  const QueryHit hit = scene.raycast({{0.5f, 5.0f, 0.5f}, {0, -1, 0}});
  return hit.hit ? hit.point.y : kInfinity<float>;
}

TEST(ReconstructionChunks, TheCommittedTreeIsNeverWrittenUntilTheSceneLetsGoOfIt) {
  std::mt19937 gen(23);
  Scene scene;
  ReconstructionChunks chunks(scene);
  const Patch flat = ground_patch(0, 0, 2, gen, 0.0f);
  const auto lifted = [&](float y) {
    Patch p = flat;
    for (Vec3f& v : p.positions) v.y = y;
    return p;
  };
  ASSERT_TRUE(chunks.update_chunk(7, flat.positions, flat.triangles).ok());
  scene.commit();
  for (int k = 1; k <= 4; ++k) {
    const Patch p = lifted(float(k));
    const ChunkUpdate u = chunks.update_chunk(7, p.positions, p.triangles).value();
    EXPECT_EQ(u.work, k == 1 ? ChunkWork::built : ChunkWork::refit);
    EXPECT_NEAR(height_at_origin(scene), float(k - 1) + (k == 1 ? 0.1f * std::sin(1.5f) : 0.0f), 1e-6f);  // old one
    scene.commit();
    EXPECT_EQ(height_at_origin(scene), float(k));
  }
  // Someone holds the spare (a copy of the collider's shape, taken before the last update): it is
  // built around, never refit under them.
  const ColliderId id = chunks.collider(7).value();
  const Patch p5 = lifted(5.0f);
  ASSERT_EQ(chunks.update_chunk(7, p5.positions, p5.triangles).value().work, ChunkWork::refit);
  const MeshShape held = std::get<MeshShape>(scene.collider(id).value().shape);
  scene.commit();
  const Patch p6 = lifted(6.0f);
  ASSERT_EQ(chunks.update_chunk(7, p6.positions, p6.triangles).value().work, ChunkWork::refit);  // the y=4 tree
  scene.commit();
  const Patch p7 = lifted(7.0f);
  EXPECT_EQ(chunks.update_chunk(7, p7.positions, p7.triangles).value().work, ChunkWork::built);
  EXPECT_EQ(held->intersect({{0.5f, 9.0f, 0.5f}, {0, -1, 0}}).point.y, 5.0f);
}

TEST(ReconstructionChunks, BadInputLeavesTheChunkAsItWas) {
  std::mt19937 gen(24);
  Scene scene;
  ReconstructionChunks chunks(scene);
  const Patch p = ground_patch(0, 0, 2, gen, 0.0f);
  ASSERT_TRUE(chunks.update_chunk(1, p.positions, p.triangles).ok());
  scene.commit();
  const float before = height_at_origin(scene);
  Patch bad_index = p;
  bad_index.triangles[0][1] = 99;
  EXPECT_EQ(chunks.update_chunk(1, bad_index.positions, bad_index.triangles).status().code(),
            StatusCode::invalid_argument);
  Patch nan = p;
  nan.positions[4].y = std::numeric_limits<float>::quiet_NaN();
  for (int k = 0; k < 2; ++k) {  // through the build path, then (after a commit) the refit path
    EXPECT_EQ(chunks.update_chunk(1, nan.positions, nan.triangles).status().code(), StatusCode::invalid_argument);
    ASSERT_TRUE(chunks.update_chunk(1, p.positions, p.triangles).ok());
    scene.commit();
  }
  EXPECT_EQ(height_at_origin(scene), before);
  EXPECT_EQ(chunks.remove_chunk(42).status().code(), StatusCode::not_found);
  ReconstructionChunks bad_layer(scene, {.layer = 40});
  EXPECT_EQ(bad_layer.update_chunk(2, p.positions, p.triangles).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(bad_layer.chunk_count(), 0u);
}

TEST(ReconstructionChunks, ATriangleThatGainsAreaIsRebuiltNotRefit) {
  Scene scene;
  ReconstructionChunks chunks(scene);
  std::vector<Vec3f> positions{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 0, 1}};
  const std::vector<TriangleMesh::Indices> triangles{{0, 1, 2}, {0, 3, 1}};  // the first is degenerate
  ASSERT_TRUE(chunks.update_chunk(5, positions, triangles).ok());
  scene.commit();
  ASSERT_TRUE(chunks.update_chunk(5, positions, triangles).ok());  // builds: no spare yet
  scene.commit();
  positions[2] = {2, 0, 0.5f};
  const ChunkUpdate u = chunks.update_chunk(5, positions, triangles).value();
  EXPECT_EQ(u.work, ChunkWork::built);
  scene.commit();
  EXPECT_EQ(scene.raycast({{1.5f, 1.0f, 0.3f}, {0, -1, 0}}).primitive, 0u);  // the triangle that gained area
}

TEST(ReconstructionChunks, DestroyingTheChunksRemovesTheirColliders) {
  std::mt19937 gen(25);
  Scene scene;
  {
    ReconstructionChunks chunks(scene);
    for (int c = 0; c < 3; ++c) {
      const Patch p = ground_patch(float(c), 0, 2, gen);
      ASSERT_TRUE(chunks.update_chunk(c, p.positions, p.triangles).ok());
    }
    scene.commit();
    EXPECT_EQ(scene.committed_count(), 3u);
  }
  scene.commit();
  EXPECT_EQ(scene.committed_count(), 0u);
}

}  // namespace
}  // namespace hitscan
