// convex_cast against a placed mesh through its BVH: the same answer as gjk_epa.hpp's convex_cast
// run on every triangle carried to the world (brute force), under rigid, non-uniform and mirroring
// transforms, for moving boxes and hulls.

#include <gtest/gtest.h>

#include <random>

#include "hitscan/mesh/mesh_sweep.hpp"
#include "mesh/mesh_test_meshes.hpp"

namespace hitscan {
namespace {

// The kernel on every usable world triangle: least distance, then deepest start, then lowest index.
MeshSweepHit brute_force(const ConvexShapef& moving, Vec3f direction, float max_distance, const MeshInstance& mesh) {
  MeshSweepHit best;
  const TriangleMesh& triangles = mesh.bvh->mesh();
  for (std::size_t i = 0; i < triangles.triangle_count(); ++i) {
    if (!triangles.is_usable(i)) continue;
    const Trianglef l = triangles.triangle(i);
    const Trianglef w{mesh.transform.apply_point(l.v0), mesh.transform.apply_point(l.v1), mesh.transform.apply_point(l.v2)};
    const SweepHitf h = convex_cast(moving, direction, max_distance, w);
    if (!h.hit) continue;
    const bool better = !best.sweep.hit || h.distance < best.sweep.distance ||
                        (h.distance == best.sweep.distance && h.depth > best.sweep.depth);
    if (better) best = {static_cast<std::uint32_t>(i), h};
  }
  return best;
}

Quatf random_rotation(std::mt19937& gen) {
  std::normal_distribution<float> n(0, 1);
  return Quatf::from_components(n(gen), n(gen), n(gen), n(gen));
}

TEST(MeshConvexSweep, BoxesAndHullsMatchBruteForceUnderAnyTransform) {
  const auto bvh = std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(2, 3.0f)).value());
  std::mt19937 gen(31);
  std::uniform_real_distribution<float> pos(-8, 8), unit(-1, 1), half(0.1f, 1.5f), scale(0.5f, 2.0f), limit(2, 20);
  std::normal_distribution<float> n(0, 1);
  int hits = 0, started = 0;
  for (int q = 0; q < 300; ++q) {
    MeshInstance mesh{bvh, {random_rotation(gen), {unit(gen), unit(gen), unit(gen)}, {1, 1, 1}}};
    if (q % 3 == 1) mesh.transform.scale = {scale(gen), scale(gen), scale(gen)};
    if (q % 3 == 2) mesh.transform.scale = {-scale(gen), scale(gen), scale(gen)};
    const Vec3f center{pos(gen), pos(gen), pos(gen)};
    const Obbf box{center, {half(gen), half(gen), half(gen)}, Mat3f::from_quat(random_rotation(gen))};
    std::vector<Vec3f> cloud;
    for (int k = 0; k < 10; ++k) cloud.push_back(center + Vec3f{n(gen), n(gen), n(gen)} * 0.7f);
    const ConvexHullf hull = ConvexHullf::make(cloud).value();
    // Towards the mesh, give or take.
    const Vec3f direction = normalize(Vec3f{unit(gen), unit(gen), unit(gen)} * 3.0f - center);
    const float max_distance = limit(gen);
    for (const ConvexShapef& moving : {ConvexShapef(box), ConvexShapef(hull)}) {
      const MeshSweepHit got = convex_cast(moving, direction, max_distance, mesh);
      const MeshSweepHit want = brute_force(moving, direction, max_distance, mesh);
      ASSERT_EQ(got.sweep.hit, want.sweep.hit) << "sweep " << q;
      if (!want.sweep.hit) continue;
      ++hits;
      started += want.sweep.started_in_contact;
      EXPECT_EQ(got.sweep.distance, want.sweep.distance) << "sweep " << q;
      EXPECT_EQ(got.sweep.started_in_contact, want.sweep.started_in_contact) << "sweep " << q;
      EXPECT_EQ(got.sweep.depth, want.sweep.depth) << "sweep " << q;
      // Another triangle only where two are met at the same distance.
      if (got.triangle != want.triangle) {
        const Trianglef l = bvh->mesh().triangle(got.triangle);
        const Trianglef w{mesh.transform.apply_point(l.v0), mesh.transform.apply_point(l.v1),
                          mesh.transform.apply_point(l.v2)};
        EXPECT_EQ(convex_cast(moving, direction, max_distance, w).distance, want.sweep.distance) << "sweep " << q;
      }
    }
  }
  EXPECT_GT(hits, 200);
  EXPECT_GT(started, 20);
}

TEST(MeshConvexSweep, NullMeshSingularTransformAndBadInputMiss) {
  const auto bvh = std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(1, 1.0f)).value());
  const Obbf box{{0, 0, 5}, {0.5f, 0.5f, 0.5f}, {}};
  const Vec3f down{0, 0, -1};
  EXPECT_TRUE(convex_cast(box, down, 10.0f, MeshInstance{bvh, {}}).sweep.hit);
  EXPECT_FALSE(convex_cast(box, down, 10.0f, MeshInstance{nullptr, {}}).sweep.hit);
  EXPECT_FALSE(convex_cast(box, down, 10.0f, MeshInstance{bvh, {{}, {}, {1, 0, 1}}}).sweep.hit);
  EXPECT_FALSE(convex_cast(box, down, -1.0f, MeshInstance{bvh, {}}).sweep.hit);
  EXPECT_FALSE(convex_cast(box, {0, 0, kInfinity<float>}, 10.0f, MeshInstance{bvh, {}}).sweep.hit);
  const Obbf nan_box{{kInfinity<float>, 0, 5}, {0.5f, 0.5f, 0.5f}, {}};
  EXPECT_FALSE(convex_cast(nan_box, down, 10.0f, MeshInstance{bvh, {}}).sweep.hit);
}

}  // namespace
}  // namespace hitscan
