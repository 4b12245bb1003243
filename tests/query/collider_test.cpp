// to_world: the world box it hands back alongside the world shape (the scene keeps it for the next
// commit instead of computing it again) is world_bounds of that shape, for every kind; a hand-worked
// sphere; a failed conversion leaves the box alone.

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "hitscan/geometry/convex_hull.hpp"
#include "hitscan/query/collider.hpp"

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
