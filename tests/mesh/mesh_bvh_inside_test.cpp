// Seeing inside the tree: the node boxes at a depth, and the cost of a ray.

#include <gtest/gtest.h>

#include <random>

#include "hitscan/geometry/ray_aabb.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "mesh/mesh_test_meshes.hpp"

namespace hitscan {
namespace {

using test::random_soup;

bool contains(const Aabbf& outer, const Aabbf& inner) {
  return outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && outer.min.z <= inner.min.z &&
         outer.max.x >= inner.max.x && outer.max.y >= inner.max.y && outer.max.z >= inner.max.z;
}

TEST(MeshBvhInside, NodeBoxesAtEveryDepthCoverEveryTriangle) {
  const auto mesh = random_soup(2000, 5);
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  std::size_t previous = 0;
  for (int depth : {0, 1, 2, 3, 40}) {
    const std::vector<Aabbf> boxes = bvh.node_boxes(depth);
    if (depth == 0) {
      EXPECT_LE(boxes.size(), 8u);
      Aabbf all;
      for (const Aabbf& b : boxes) all.grow(b);
      EXPECT_EQ(all.min, mesh->bounds().min);
      EXPECT_EQ(all.max, mesh->bounds().max);
    }
    EXPECT_GE(boxes.size(), previous) << depth;  // opening nodes never loses boxes
    previous = boxes.size();
    for (std::size_t i = 0; i < mesh->triangle_count(); ++i) {
      const Trianglef t = mesh->triangle(i);
      Aabbf tb = Aabbf::from_point(t.v0);
      tb.grow(t.v1), tb.grow(t.v2);
      bool inside = false;
      for (const Aabbf& b : boxes) inside = inside || contains(b, tb);
      ASSERT_TRUE(inside) << "triangle " << i << " at depth " << depth;
    }
  }
  // Deep enough, every box is a leaf's: together they hold each triangle's 4-wide pack once.
  EXPECT_GE(bvh.node_boxes(40).size() * 4, mesh->triangle_count() / 4);
  EXPECT_EQ(bvh.node_boxes(-3).size(), bvh.node_boxes(0).size());
}

TEST(MeshBvhInside, CountedRaysGiveTheSameHitAndTheirCost) {
  const auto mesh = random_soup(500, 9, 10.0f);
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> u(-15.0f, 15.0f);
  for (int i = 0; i < 500; ++i) {
    const Rayf ray{{u(gen), u(gen), u(gen)}, {u(gen), u(gen), u(gen)}, 0.0f, 100.0f};
    MeshBvh::TraversalCost cost;
    const MeshHit counted = bvh.intersect(ray, FaceMode::both, cost);
    const MeshHit plain = bvh.intersect(ray);
    ASSERT_EQ(counted.hit, plain.hit);
    EXPECT_EQ(counted.t, plain.t);
    EXPECT_EQ(counted.triangle, plain.triangle);
    EXPECT_GE(cost.nodes, 1u);  // the root is always tested
    EXPECT_EQ(cost.triangles % 4, 0u);
    if (plain.hit) {
      EXPECT_GE(cost.triangles, 4u);  // a hit was found in some leaf
    }
  }
}

TEST(MeshBvhInside, ASingleLeafCostsOneNodeAndItsPackOrOnlyTheRoot) {
  // Two triangles: one leaf of one pack under the root. A ray that misses the leaf's box (the
  // quad's bounds, exactly) costs the root's test only; one that enters it costs a pack of 4.
  auto mesh = std::make_shared<const TriangleMesh>(
      TriangleMesh::make({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0, 1, 2}, {0, 2, 3}}).value());
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  for (float x : {-0.5f, 0.25f, 0.75f, 1.5f}) {
    MeshBvh::TraversalCost cost;
    bvh.intersect(Rayf{{x, 0.5f, 1.0f}, {0, 0, -1}, 0.0f, 10.0f}, FaceMode::both, cost);
    const bool enters = x > 0.0f && x < 1.0f;
    EXPECT_EQ(cost.nodes, 1u) << x;
    EXPECT_EQ(cost.triangles, enters ? 4u : 0u) << x;
  }
  auto empty = std::make_shared<const TriangleMesh>(TriangleMesh::make({}, {}).value());
  EXPECT_TRUE(MeshBvh::build(empty).value().node_boxes(2).empty());
}

}  // namespace
}  // namespace hitscan
