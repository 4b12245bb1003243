// The pinhole camera: ARKit's conventions (looking along -z, v down), pixel rays and projection
// as inverses of each other on seeded random poses, look_rotation, and validated construction.

#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "ar/ar_test_scenes.hpp"
#include "hitscan/ar/camera.hpp"

namespace hitscan {
namespace {

PinholeCamera identity_camera(const PinholeIntrinsics& k = {}) {
  return PinholeCamera::make(k, Quatf::identity(), {}).value();
}

TEST(Camera, IdentityPoseLooksAlongMinusZWithVDown) {
  const PinholeCamera camera = identity_camera();
  EXPECT_EQ(camera.forward(), (Vec3f{0, 0, -1}));
  const QueryRay centre = camera.ray_through_pixel(640, 360);
  EXPECT_NEAR(distance(centre.direction, Vec3f{0, 0, -1}), 0.0f, 1e-7f);
  // 1000 px right of the principal point at fx = 1000 is 45 degrees to the right.
  const QueryRay right = camera.ray_through_pixel(1640, 360);
  EXPECT_NEAR(distance(right.direction, normalize(Vec3f{1, 0, -1})), 0.0f, 1e-6f);
  // Rows grow downwards.
  const QueryRay below = camera.ray_through_pixel(640, 860);
  EXPECT_NEAR(distance(below.direction, normalize(Vec3f{0, -0.5f, -1})), 0.0f, 1e-6f);
  EXPECT_EQ(centre.origin, (Vec3f{}));
}

TEST(Camera, ProjectInvertsRayThroughPixelOnRandomPoses) {
  std::mt19937 gen(11);
  std::uniform_real_distribution<float> unit(-1, 1), pixel_u(-100, 1380), pixel_v(-100, 820), t(0.5f, 50);
  std::normal_distribution<float> n(0, 1);
  PinholeIntrinsics k{900, 950, 631.5f, 355.25f, 1280, 720};
  for (int i = 0; i < 2000; ++i) {
    const Quatf rotation = Quatf::from_components(n(gen), n(gen), n(gen), n(gen));
    const Vec3f position{unit(gen) * 10, unit(gen) * 10, unit(gen) * 10};
    const PinholeCamera camera = PinholeCamera::make(k, rotation, position).value();
    const float u = pixel_u(gen), v = pixel_v(gen);
    const QueryRay ray = camera.ray_through_pixel(u, v);
    EXPECT_NEAR(length(ray.direction), 1.0f, 1e-6f);
    const float distance_along = t(gen);
    const Vec3f p = ray.origin + ray.direction * distance_along;
    const PixelProjection projected = camera.project(p);
    ASSERT_TRUE(projected.in_front) << i;
    EXPECT_NEAR(projected.u, u, 2e-3f * (1 + distance_along)) << i;
    EXPECT_NEAR(projected.v, v, 2e-3f * (1 + distance_along)) << i;
    EXPECT_NEAR(projected.depth, distance_along * dot(ray.direction, camera.forward()), 1e-4f * (1 + distance_along));
    EXPECT_EQ(projected.in_image, u >= 0 && v >= 0 && u < 1280 && v < 720) << u << " " << v;
  }
}

TEST(Camera, PointsBehindOrNonFiniteAreNotInFront) {
  const PinholeCamera camera = identity_camera();
  EXPECT_FALSE(camera.project({0, 0, 1}).in_front);
  EXPECT_FALSE(camera.project({3, 1, 0}).in_front);
  EXPECT_FALSE(camera.project({0, 0, std::numeric_limits<float>::quiet_NaN()}).in_front);
  const PixelProjection p = camera.project({0, 0, -2});
  EXPECT_TRUE(p.in_front && p.in_image);
  EXPECT_FLOAT_EQ(p.depth, 2.0f);
  EXPECT_FLOAT_EQ(p.u, 640);
  EXPECT_FLOAT_EQ(p.v, 360);
}

TEST(Camera, NonFinitePixelGivesARayEveryQueryMisses) {
  const PinholeCamera camera = identity_camera();
  Scene scene;
  test::add_collider(scene, Planef{{0, 0, 1}, -5});
  scene.commit();
  EXPECT_TRUE(scene.raycast(camera.ray_through_pixel(640, 360)).hit);
  const QueryRay bad = camera.ray_through_pixel(std::numeric_limits<float>::quiet_NaN(), 10);
  EXPECT_EQ(bad.direction, Vec3f{});
  EXPECT_FALSE(scene.raycast(bad).hit);
}

TEST(Camera, LookRotationPointsTheCameraAndKeepsItsImageUpright) {
  std::mt19937 gen(5);
  std::normal_distribution<float> n(0, 1);
  for (int i = 0; i < 1000; ++i) {
    const Vec3f view{n(gen), n(gen), n(gen)}, up{n(gen), n(gen), n(gen)};
    const Result<Quatf> q = look_rotation(view, up);
    if (length(cross(normalize(view), normalize(up))) < 1e-2f) continue;
    ASSERT_TRUE(q.ok()) << i;
    const PinholeCamera camera = PinholeCamera::make({}, q.value(), {}).value();
    EXPECT_NEAR(distance(camera.forward(), normalize(view)), 0.0f, 1e-5f) << i;
    EXPECT_NEAR(dot(camera.up(), camera.forward()), 0.0f, 1e-5f) << i;
    EXPECT_NEAR(dot(camera.right(), normalize(up)), 0.0f, 1e-5f) << i;
    EXPECT_GT(dot(camera.up(), up), 0.0f) << i;
  }
  EXPECT_FALSE(look_rotation({0, 0, -1}, {0, 0, 2}).ok());
  EXPECT_FALSE(look_rotation({}, {0, 1, 0}).ok());
  EXPECT_FALSE(look_rotation({0, 0, -1}, {std::numeric_limits<float>::infinity(), 1, 0}).ok());
}

TEST(Camera, InvalidConstructionIsRejected) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto code = [](PinholeIntrinsics k, Quatf q = Quatf::identity(), Vec3f p = {}) {
    return PinholeCamera::make(k, q, p).status().code();
  };
  EXPECT_EQ(code({}), StatusCode::ok);
  EXPECT_EQ(code({0, 1000, 640, 360, 1280, 720}), StatusCode::invalid_argument);
  EXPECT_EQ(code({1000, -1, 640, 360, 1280, 720}), StatusCode::invalid_argument);
  EXPECT_EQ(code({nan, 1000, 640, 360, 1280, 720}), StatusCode::invalid_argument);
  EXPECT_EQ(code({1000, 1000, nan, 360, 1280, 720}), StatusCode::invalid_argument);
  EXPECT_EQ(code({1000, 1000, 640, 360, 0, 720}), StatusCode::invalid_argument);
  EXPECT_EQ(code({1000, 1000, 640, 360, 1280, -3}), StatusCode::invalid_argument);
  EXPECT_EQ(code({}, Quatf{0, 0, 0, 0}), StatusCode::invalid_argument);
  EXPECT_EQ(code({}, Quatf{nan, 0, 0, 0}), StatusCode::invalid_argument);
  EXPECT_EQ(code({}, Quatf::identity(), {0, nan, 0}), StatusCode::invalid_argument);
  // An unnormalised rotation is normalised.
  const PinholeCamera scaled = PinholeCamera::make({}, Quatf{2, 0, 0, 0}, {}).value();
  EXPECT_EQ(scaled.forward(), (Vec3f{0, 0, -1}));
}

}  // namespace
}  // namespace hitscan
