// Arrow frames along a draped route: orthonormal and right-handed, up the surface normal, forward
// along the draped route within the surface; none over unbridged gaps.

#include <gtest/gtest.h>

#include <limits>

#include "ar/ar_test_scenes.hpp"
#include "hitscan/ar/drape.hpp"

namespace hitscan {
namespace {

void expect_orthonormal(const ArrowPose& a) {
  EXPECT_NEAR(length(a.up), 1.0f, 1e-5f);
  EXPECT_NEAR(length(a.forward), 1.0f, 1e-5f);
  EXPECT_NEAR(length(a.right), 1.0f, 1e-5f);
  EXPECT_NEAR(dot(a.up, a.forward), 0.0f, 1e-5f);
  EXPECT_NEAR(dot(a.up, a.right), 0.0f, 1e-5f);
  EXPECT_NEAR(dot(a.forward, a.right), 0.0f, 1e-5f);
  const Vec3f handed = cross(a.forward, a.up);
  EXPECT_NEAR(distance(handed, a.right), 0.0f, 1e-5f);
}

// On a tilted plane the draped route is the route dropped vertically onto the plane: forward is
// that direction exactly, up the plane's normal.
TEST(DrapeArrows, TiltedPlaneFramesFollowTheDrapedRoute) {
  const test::TiltedPlane plane = test::TiltedPlane::make({0.3, 0.1, 1.0}, {0, 0, 0.2});
  Scene scene;
  test::add_collider(scene, plane.collider());
  scene.commit();
  const std::vector<Vec3f> route = {{0, 0, 0}, {6, 0, 0}, {6, 5, 0}};
  DrapeSettings settings;
  settings.cast_height = 3;
  settings.max_cast_depth = 3;
  const DrapedRoute draped = drape_route(scene, route, test::kGravity, {0, 0, 1.5f}, settings).value();
  const float spacing = 0.7f;
  const std::vector<ArrowPose> arrows = arrow_poses(draped, spacing);
  ASSERT_EQ(arrows.size(), static_cast<std::size_t>(std::floor(11.0 / spacing)) + 1);
  for (std::size_t k = 0; k < arrows.size(); ++k) {
    const ArrowPose& a = arrows[k];
    expect_orthonormal(a);
    EXPECT_NEAR(a.distance_along_route, k * double(spacing), 1e-5);
    const Vec3d p = test::to_double(a.position);
    EXPECT_NEAR(p.z, plane.height(p.x, p.y), 1e-5);
    EXPECT_LT(test::angle_between(test::to_double(a.up), plane.normal), 1e-5);
    // The route's leg under the arrow, dropped onto the plane.
    const bool first_leg = a.distance_along_route < 6.0f;
    const Vec3d leg = first_leg ? Vec3d{1, 0, 0} : Vec3d{0, 1, 0};
    const Vec3d draped_leg = leg + Vec3d{0, 0, -dot(leg, plane.normal) / plane.normal.z};
    if (std::abs(a.distance_along_route - 6.0f) > 1e-4f) {
      EXPECT_LT(test::angle_between(test::to_double(a.forward), draped_leg), 1e-5) << k;
    }
  }
}

// Over stairs forward stays level and along the route, even on the nearly vertical segments
// that bracket each riser.
TEST(DrapeArrows, StairsFramesStayLevelAcrossRisers) {
  Scene scene;
  test::Stairs{}.add_to(scene);
  scene.commit();
  const std::vector<Vec3f> route = {{0, 0, 0}, {4, 0, 0}};
  const DrapedRoute draped = drape_route(scene, route, test::kGravity, {}, {}).value();
  const std::vector<ArrowPose> arrows = arrow_poses(draped, 0.01f);
  ASSERT_EQ(arrows.size(), 401u);
  for (const ArrowPose& a : arrows) {
    expect_orthonormal(a);
    EXPECT_NEAR(a.forward.x, 1.0f, 1e-5f);
    EXPECT_NEAR(a.up.z, 1.0f, 1e-5f);
  }
}

TEST(DrapeArrows, NoArrowsOverUnbridgedGapsOrForBadSpacing) {
  Scene scene;
  test::add_collider(scene, test::box({-5, -2, -1}, {2, 2, 0}));
  test::add_collider(scene, test::box({5, -2, -1}, {12, 2, 0}));
  scene.commit();
  const std::vector<Vec3f> route = {{0, 0, 0}, {8, 0, 0}};
  const DrapedRoute draped = drape_route(scene, route, test::kGravity, {}, {}).value();
  const std::vector<ArrowPose> arrows = arrow_poses(draped, 0.25f);
  EXPECT_FALSE(arrows.empty());
  for (const ArrowPose& a : arrows) {
    EXPECT_TRUE(a.distance_along_route <= 2.0f || a.distance_along_route >= 5.0f) << a.distance_along_route;
  }
  EXPECT_TRUE(arrow_poses(draped, 0.0f).empty());
  EXPECT_TRUE(arrow_poses(draped, -1.0f).empty());
  EXPECT_TRUE(arrow_poses(draped, std::numeric_limits<float>::quiet_NaN()).empty());
  EXPECT_TRUE(arrow_poses(draped, 1e-30f).empty());
  EXPECT_TRUE(arrow_poses(DrapedRoute{}, 1.0f).empty());
}

}  // namespace
}  // namespace hitscan
