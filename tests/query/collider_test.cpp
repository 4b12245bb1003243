// to_world: the world box it hands back alongside the world shape (the scene keeps it for the next
// commit instead of computing it again) is world_bounds of that shape, for every kind; a hand-worked
// sphere; a mesh instance's box against its local box's corners carried over in double, under
// rotations, mirrors, uneven, tiny and large scales and far translations; a failed conversion
// leaves the box alone.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "hitscan/geometry/convex_hull.hpp"
#include "hitscan/query/collider.hpp"
#include "mesh/mesh_test_meshes.hpp"

namespace hitscan {
namespace {

bool same_box(const Aabbf& a, const Aabbf& b) { return a.min == b.min && a.max == b.max; }

TEST(ToWorld, TheBoundsItGivesAreWorldBoundsForEveryKind) {
  const std::vector<Vec3f> square = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  const std::vector<Vec3f> points = {{0, 0, 0}, {2, 0, 0}, {0, 3, 0}, {0, 0, 4}, {1, 1, 1}};
  const std::vector<ColliderShape> shapes = {
      Spheref{{1, 2, 3}, 0.5f},
      Obbf::from_quat({0, 1, 0}, {1, 2, 3}, Quatf::from_axis_angle({1, 1, 0}, 0.7f)),
      Capsulef{{0, -1, 0}, {0, 1, 0}, 0.25f},
      Cylinderf{{0, -1, 0}, {0, 1, 0}, 0.75f},
      Planef{{0, 1, 0}, 2},
      ConvexPolygonf::make(square).value(),
      std::make_shared<const ConvexHullf>(ConvexHullf::make(points).value()),
  };
  const Transformf transform{Quatf::from_axis_angle({0, 0, 1}, 0.3f), {5, -2, 7}, {2, 2, 2}};
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    WorldShape world;
    Aabbf bounds{{9, 9, 9}, {-9, -9, -9}};
    ASSERT_TRUE(to_world(shapes[k], transform, world, &bounds).ok()) << k;
    EXPECT_TRUE(same_box(bounds, world_bounds(world))) << k;
  }
}

TEST(ToWorld, SphereBoundsByHand) {
  // Radius 0.5 at (1, 2, 3), scaled by 2 and moved by (10, 0, 0): radius 1 at (12, 4, 6).
  WorldShape world;
  Aabbf bounds;
  ASSERT_TRUE(to_world(Spheref{{1, 2, 3}, 0.5f}, Transformf{{}, {10, 0, 0}, {2, 2, 2}}, world, &bounds).ok());
  EXPECT_EQ(bounds.min, (Vec3f{11, 3, 5}));
  EXPECT_EQ(bounds.max, (Vec3f{13, 5, 7}));
}

TEST(ToWorld, MeshBoundsAreItsBoxCornersCarriedOverInDouble) {
  const MeshShape mesh =
      std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(1, 1.5f, {0.5f, -2, 3})).value());
  const Aabbf local = mesh->mesh().bounds();
  std::mt19937 gen(91);
  std::uniform_real_distribution<float> unit(-1, 1), exponent(-3, 3), reach(-2, 5);
  for (int k = 0; k < 2000; ++k) {
    Transformf transform;
    transform.rotation = Quatf::from_components(unit(gen), unit(gen), unit(gen), unit(gen));
    // Each axis scaled by ±10^[-3, 3], mirrors included; translations up to 10^5.
    for (int i = 0; i < 3; ++i) {
      transform.scale[i] = std::copysign(std::pow(10.0f, exponent(gen)), unit(gen));
      transform.translation[i] = unit(gen) * std::pow(10.0f, reach(gen));
    }
    WorldShape world;
    Aabbf bounds;
    ASSERT_TRUE(to_world(mesh, transform, world, &bounds).ok()) << k;
    // The reference: the local box's eight corners through the same transform in double.
    const Quatd q{transform.rotation.w, transform.rotation.x, transform.rotation.y, transform.rotation.z};
    const Transformd exact{q, {transform.translation.x, transform.translation.y, transform.translation.z},
                           {transform.scale.x, transform.scale.y, transform.scale.z}};
    Vec3d lo{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
             std::numeric_limits<double>::infinity()};
    Vec3d hi = -lo;
    double scaled = 0;  // the largest scaled corner: float rounds the rotation relative to it
    for (int c = 0; c < 8; ++c) {
      const Vec3d corner{c & 1 ? local.max.x : local.min.x, c & 2 ? local.max.y : local.min.y,
                         c & 4 ? local.max.z : local.min.z};
      const Vec3d p = exact.apply_point(corner);
      scaled = std::max(scaled, length(exact.apply_vector(corner)));
      for (int i = 0; i < 3; ++i) lo[i] = std::min(lo[i], p[i]), hi[i] = std::max(hi[i], p[i]);
    }
    // Within a few float ulps of the terms summed: the translation and the scaled, rotated box.
    for (int i = 0; i < 3; ++i) {
      const double tol = 16 * double(kEpsilon<float>) * (std::abs(exact.translation[i]) + scaled);
      EXPECT_NEAR(bounds.min[i], lo[i], tol) << k << " axis " << i;
      EXPECT_NEAR(bounds.max[i], hi[i], tol) << k << " axis " << i;
    }
  }
}

TEST(ToWorld, AFailedConversionLeavesTheBoundsAlone) {
  WorldShape world;
  const Aabbf before{{1, 2, 3}, {4, 5, 6}};
  Aabbf bounds = before;
  EXPECT_FALSE(to_world(Spheref{{0, 0, 0}, 1}, Transformf{{}, {0, 0, 0}, {0, 1, 1}}, world, &bounds).ok());
  EXPECT_FALSE(to_world(Spheref{{2e15f, 0, 0}, 1}, Transformf{}, world, &bounds).ok());
  EXPECT_TRUE(same_box(bounds, before));
}

}  // namespace
}  // namespace hitscan
