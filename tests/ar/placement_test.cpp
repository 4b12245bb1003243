// Surface placement on a tilted plane, clean and reconstructed with noise: the normal within 1
// degree, the position under the tapped pixel, outlier rays (a thin pole) dropped; and the
// object's pose: up the normal, front towards the camera, also with the camera straight above.

#include <gtest/gtest.h>

#include <limits>

#include "ar/ar_test_scenes.hpp"
#include "hitscan/ar/placement.hpp"

namespace hitscan {
namespace {

constexpr double kOneDegree = 3.14159265358979323846 / 180.0;

const test::TiltedPlane kPlane = test::TiltedPlane::make({0.3, -0.2, 1.0}, {0, 0, 0.1});

PinholeCamera camera_looking_at(Vec3f position, Vec3f target, Vec3f up = {0, 0, 1}) {
  return PinholeCamera::make({}, look_rotation(target - position, up).value(), position).value();
}

// Where the ray meets the plane, in double.
Vec3d plane_hit(const test::TiltedPlane& plane, const QueryRay& ray) {
  const Vec3d o = test::to_double(ray.origin), d = normalize(test::to_double(ray.direction));
  const double t = dot(plane.point - o, plane.normal) / dot(d, plane.normal);
  return o + d * t;
}

TEST(Placement, TiltedPlaneGivesItsNormalAndThePointUnderThePixel) {
  Scene scene;
  test::add_collider(scene, kPlane.collider());
  scene.commit();
  const PinholeCamera camera = camera_looking_at({0.5f, -2.5f, 1.6f}, {0.2f, 0.1f, 0.1f});
  for (const auto& [u, v] : {std::pair{640.0f, 360.0f}, {100.0f, 650.0f}, {1200.0f, 500.0f}}) {
    for (PlacementPattern pattern : {PlacementPattern::grid, PlacementPattern::ring}) {
      PlacementSettings settings;
      settings.pattern = pattern;
      const Placement p = place(scene, camera, u, v, settings);
      ASSERT_TRUE(p.found);
      EXPECT_EQ(p.rays, 9);
      EXPECT_EQ(p.inliers, 9);
      EXPECT_NEAR(p.confidence, 1.0f, 1e-5f);
      EXPECT_LT(test::angle_between(test::to_double(p.normal), kPlane.normal), 1e-5);
      const Vec3d expected = plane_hit(kPlane, camera.ray_through_pixel(u, v));
      EXPECT_LT(length(test::to_double(p.position) - expected), 1e-5);
    }
  }
}

// A pole 1 cm thick, 1 m in front of the camera, covers the tapped pixel and its column of the
// 3x3 neighbourhood: those rays are dropped and the floor behind is still found under the pixel.
TEST(Placement, ThinPoleInTheNeighbourhoodIsDropped) {
  Scene scene;
  test::add_collider(scene, kPlane.collider());
  const PinholeCamera camera = camera_looking_at({0.5f, -2.5f, 1.6f}, {0.2f, 0.1f, 0.1f});
  const QueryRay centre = camera.ray_through_pixel(640, 360);
  const Vec3f q = centre.origin + centre.direction * 1.0f;
  test::add_collider(scene, Cylinderf{{q.x, q.y, -1}, {q.x, q.y, 3}, 0.01f});
  scene.commit();
  PlacementSettings settings;
  settings.pixel_radius = 15;
  const Placement p = place(scene, camera, 640, 360, settings);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.rays, 9);
  EXPECT_EQ(p.inliers, 6);
  EXPECT_NEAR(p.confidence, 6.0f / 9.0f, 1e-5f);
  EXPECT_LT(test::angle_between(test::to_double(p.normal), kPlane.normal), kOneDegree);
  EXPECT_LT(length(test::to_double(p.position) - plane_hit(kPlane, centre)), 1e-4);
  // Without a neighbourhood the single ray finds the pole.
  settings.pixel_radius = 0;
  const Placement single = place(scene, camera, 640, 360, settings);
  EXPECT_EQ(single.rays, 1);
  EXPECT_FALSE(single.found);  // min_inliers = 3
  settings.min_inliers = 1;
  EXPECT_NEAR(place(scene, camera, 640, 360, settings).position.z, q.z, 0.05f);
}

// A box standing on the floor whose side lies at the floor's distance: its normal is the outlier.
TEST(Placement, SideOfABoxAtTheFloorsDistanceIsANormalOutlier) {
  Scene scene;
  test::add_collider(scene, Planef{{0, 0, 1}, 0});
  test::add_collider(scene, test::box({-1, 0.02, 0}, {1, 1, 1}));
  scene.commit();
  // Looking down at 45 degrees at the floor just in front of the box.
  const PinholeCamera camera = camera_looking_at({0, -2, 2}, {0, 0, 0});
  PlacementSettings settings;
  settings.pixel_radius = 12;
  settings.outlier_mads = 100;  // the distances alone do not tell the box from the floor
  settings.distance_tolerance = 0.5f;
  const Placement p = place(scene, camera, 640, 360, settings);
  ASSERT_TRUE(p.found);
  EXPECT_LT(p.inliers, 9);
  EXPECT_LT(test::angle_between(test::to_double(p.normal), {0, 0, 1}), 1e-5);
}

// A reconstructed floor: the tilted plane as a mesh with 1 mm of vertex noise on 5 cm cells.
TEST(Placement, NoisyReconstructedPlaneGivesItsNormalWithinOneDegree) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const MeshShape mesh =
        test::height_field([](double x, double y) { return kPlane.height(x, y); }, -2, 2, -2, 2, 80, 80, 0.001f, seed);
    Scene scene;
    test::add_collider(scene, mesh);
    scene.commit();
    const PinholeCamera camera = camera_looking_at({0.3f, -1.4f, 1.2f}, {0.1f, 0.1f, 0.1f});
    PlacementSettings settings;
    settings.grid_size = 5;
    settings.pixel_radius = 40;
    const Placement p = place(scene, camera, 640, 360, settings);
    ASSERT_TRUE(p.found);
    EXPECT_EQ(p.inliers, 25);
    EXPECT_LT(test::angle_between(test::to_double(p.normal), kPlane.normal), kOneDegree) << "seed " << seed;
    EXPECT_LT(length(test::to_double(p.position) - plane_hit(kPlane, camera.ray_through_pixel(640, 360))), 0.002);
    EXPECT_GT(p.confidence, 0.99f);
  }
}

TEST(Placement, NothingToHitOrBadInputFindsNothing) {
  Scene scene;
  test::add_collider(scene, Planef{{0, 0, 1}, 0});
  scene.commit();
  const PinholeCamera sky = camera_looking_at({0, 0, 1.5f}, {0, 5, 3});
  const Placement missed = place(scene, sky, 640, 360);
  EXPECT_FALSE(missed.found);
  EXPECT_EQ(missed.rays, 9);
  EXPECT_EQ(missed.inliers, 0);
  EXPECT_EQ(missed.confidence, 0.0f);
  const PinholeCamera down = camera_looking_at({0, 0, 1.5f}, {0, 1, 0});
  EXPECT_TRUE(place(scene, down, 640, 360).found);
  EXPECT_EQ(place(scene, down, std::numeric_limits<float>::quiet_NaN(), 360).rays, 0);
  PlacementSettings bad;
  bad.grid_size = 0;
  EXPECT_EQ(place(scene, down, 640, 360, bad).rays, 0);
  bad.grid_size = kMaxPlacementGridSize + 1;
  EXPECT_EQ(place(scene, down, 640, 360, bad).rays, 0);
  bad = {};
  bad.pixel_radius = -1;
  EXPECT_EQ(place(scene, down, 640, 360, bad).rays, 0);
  bad = {};
  bad.pattern = PlacementPattern::ring;
  bad.ring_rays = 16;
  EXPECT_EQ(place(scene, down, 640, 360, bad).rays, 17);
}

void expect_pose_axes(const Transformf& pose, Vec3f up, Vec3f front) {
  EXPECT_NEAR(distance(pose.rotation.rotate({0, 1, 0}), up), 0.0f, 1e-5f);
  EXPECT_NEAR(distance(pose.rotation.rotate({0, 0, 1}), front), 0.0f, 1e-5f);
  EXPECT_NEAR(distance(pose.rotation.rotate({1, 0, 0}), cross(up, front)), 0.0f, 1e-5f);
  EXPECT_EQ(pose.scale, (Vec3f{1, 1, 1}));
}

TEST(Placement, ObjectPoseStandsOnTheNormalAndFacesTheCamera) {
  Scene scene;
  test::add_collider(scene, kPlane.collider());
  scene.commit();
  const PinholeCamera camera = camera_looking_at({0.5f, -2.5f, 1.6f}, {0.2f, 0.1f, 0.1f});
  const Placement p = place(scene, camera, 700, 400);
  ASSERT_TRUE(p.found);
  const Transformf pose = object_pose(p, camera);
  EXPECT_EQ(pose.translation, p.position);
  const Vec3d n = kPlane.normal;
  const Vec3d to_camera = test::to_double(camera.position() - p.position);
  const Vec3d front = normalize(to_camera - n * dot(to_camera, n));
  expect_pose_axes(pose, vec3_cast<float>(n), vec3_cast<float>(front));
}

// With the camera straight above, the direction to it has no length in the floor: the front
// faces the bottom of the image, where the user stands.
TEST(Placement, ObjectPoseWithTheCameraStraightAboveFacesTheImageBottom) {
  Scene scene;
  test::add_collider(scene, Planef{{0, 0, 1}, 0});
  scene.commit();
  const PinholeCamera camera = camera_looking_at({1, 2, 1.5f}, {1, 2, 0}, {0.6f, 0.8f, 0});
  const Placement p = place(scene, camera, 640, 360);
  ASSERT_TRUE(p.found);
  EXPECT_NEAR(distance(p.position, Vec3f{1, 2, 0}), 0.0f, 1e-5f);
  const Transformf pose = object_pose(p, camera);
  expect_pose_axes(pose, {0, 0, 1}, {-0.6f, -0.8f, 0});
  EXPECT_EQ(object_pose(Placement{}, camera).translation, Vec3f{});
  EXPECT_EQ(object_pose(Placement{}, camera).rotation.w, 1.0f);
}

}  // namespace
}  // namespace hitscan
