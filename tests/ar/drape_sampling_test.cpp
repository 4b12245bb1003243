// How a route is sampled: spacing growing with distance from the camera along the documented ramp,
// degenerate routes, and the input drape_route rejects.

#include <gtest/gtest.h>

#include <limits>

#include "ar/ar_test_scenes.hpp"
#include "hitscan/ar/drape.hpp"

namespace hitscan {
namespace {

// The documented ramp, in double.
double expected_spacing(double d, const DrapeSettings& s) {
  if (d <= s.near_distance) return s.near_spacing;
  if (d >= s.far_distance) return s.far_spacing;
  return s.near_spacing + (double(s.far_spacing) - s.near_spacing) * (d - s.near_distance) /
                              (double(s.far_distance) - s.near_distance);
}

Scene floor_scene() {
  Scene scene;
  test::add_collider(scene, Planef{{0, 0, 1}, 0});
  scene.commit();
  return scene;
}

TEST(DrapeSampling, SpacingGrowsWithDistanceFromTheCamera) {
  const Scene scene = floor_scene();
  const Vec3d camera{0, 0, 1.5};
  const std::vector<Vec3f> route = {{0, 0, 0}, {40, 0, 0}};
  DrapeSettings settings;
  const DrapedRoute r = drape_route(scene, route, test::kGravity, vec3_cast<float>(camera), settings).value();
  EXPECT_EQ(r.refine_rounds, 0);
  EXPECT_EQ(r.casts, r.points.size());
  ASSERT_GT(r.points.size(), 10u);
  double previous_step = 0;
  for (std::size_t i = 0; i + 2 < r.points.size(); ++i) {  // the last step ends on the route's end
    const Vec3d p = test::to_double(r.points[i].route_point);
    const double step = double(r.points[i + 1].distance_along_route) - r.points[i].distance_along_route;
    EXPECT_NEAR(step, expected_spacing(length(p - camera), settings), 1e-4) << i;
    EXPECT_GE(step, previous_step - 1e-4) << i;  // float route distances near 40 m
    previous_step = step;
  }
  const double first = r.points[1].distance_along_route;
  const double last = double(r.points[r.points.size() - 2].distance_along_route) -
                      r.points[r.points.size() - 3].distance_along_route;
  EXPECT_NEAR(first, settings.near_spacing, 1e-6);
  EXPECT_NEAR(last, settings.far_spacing, 1e-5);
}

TEST(DrapeSampling, CustomSpacingsAreHonoured) {
  const Scene scene = floor_scene();
  const std::vector<Vec3f> route = {{0, 0, 0}, {10, 0, 0}};
  DrapeSettings settings;
  settings.near_spacing = settings.far_spacing = 0.25f;
  const DrapedRoute r = drape_route(scene, route, test::kGravity, {}, settings).value();
  EXPECT_EQ(r.points.size(), 41u);
  for (std::size_t i = 0; i < r.points.size(); ++i) EXPECT_NEAR(r.points[i].distance_along_route, 0.25 * i, 1e-5);
}

TEST(DrapeSampling, RepeatedPointsAreSkippedAndACoincidentRouteIsOnePoint) {
  const Scene scene = floor_scene();
  const std::vector<Vec3f> repeated = {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 1, 0}};
  const DrapedRoute r = drape_route(scene, repeated, test::kGravity, {}, {}).value();
  EXPECT_FLOAT_EQ(r.route_length, 2.0f);
  for (std::size_t i = 1; i < r.points.size(); ++i) {
    EXPECT_GT(r.points[i].distance_along_route, r.points[i - 1].distance_along_route);
  }
  const std::vector<Vec3f> coincident = {{1, 2, 0}, {1, 2, 0}};
  const DrapedRoute single = drape_route(scene, coincident, test::kGravity, {}, {}).value();
  ASSERT_EQ(single.points.size(), 1u);
  EXPECT_EQ(single.points[0].status, DrapeStatus::on_surface);
  EXPECT_EQ(single.route_length, 0.0f);
}

TEST(DrapeSampling, InvalidInputIsAnInvalidArgument) {
  const Scene scene = floor_scene();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<Vec3f> good = {{0, 0, 0}, {1, 0, 0}};
  const auto code = [&](std::span<const Vec3f> route, Vec3f gravity, Vec3f camera, const DrapeSettings& s) {
    return drape_route(scene, route, gravity, camera, s).status().code();
  };
  const DrapeSettings defaults;
  EXPECT_EQ(code(good, test::kGravity, {}, defaults), StatusCode::ok);
  const std::vector<Vec3f> one = {{0, 0, 0}};
  EXPECT_EQ(code(one, test::kGravity, {}, defaults), StatusCode::invalid_argument);
  EXPECT_EQ(code({}, test::kGravity, {}, defaults), StatusCode::invalid_argument);
  const std::vector<Vec3f> with_nan = {{0, 0, 0}, {nan, 0, 0}};
  EXPECT_EQ(code(with_nan, test::kGravity, {}, defaults), StatusCode::invalid_argument);
  const std::vector<Vec3f> with_inf = {{0, 0, inf}, {1, 0, 0}};
  EXPECT_EQ(code(with_inf, test::kGravity, {}, defaults), StatusCode::invalid_argument);
  EXPECT_EQ(code(good, {0, 0, 0}, {}, defaults), StatusCode::invalid_argument);
  EXPECT_EQ(code(good, {0, nan, -1}, {}, defaults), StatusCode::invalid_argument);
  EXPECT_EQ(code(good, test::kGravity, {nan, 0, 0}, defaults), StatusCode::invalid_argument);

  const auto bad = [&](auto edit) {
    DrapeSettings s;
    edit(s);
    return code(good, test::kGravity, {}, s);
  };
  EXPECT_EQ(bad([](DrapeSettings& s) { s.near_spacing = 0; }), StatusCode::invalid_argument);
  EXPECT_EQ(bad([&](DrapeSettings& s) { s.far_spacing = nan; }), StatusCode::invalid_argument);
  EXPECT_EQ(bad([](DrapeSettings& s) { s.near_distance = 30; }), StatusCode::invalid_argument);
  EXPECT_EQ(bad([](DrapeSettings& s) { s.cast_height = -1; }), StatusCode::invalid_argument);
  EXPECT_EQ(bad([](DrapeSettings& s) { s.cast_height = s.max_cast_depth = 0; }), StatusCode::invalid_argument);
  EXPECT_EQ(bad([](DrapeSettings& s) { s.min_refine_spacing = 0; }), StatusCode::invalid_argument);
  EXPECT_EQ(bad([&](DrapeSettings& s) { s.refine_angle = nan; }), StatusCode::invalid_argument);
  EXPECT_EQ(bad([](DrapeSettings& s) { s.max_gap = -0.5f; }), StatusCode::invalid_argument);
}

TEST(DrapeSampling, TooManyPointsIsOutOfRangeAndRefinementStopsAtTheLimit) {
  const Scene scene = floor_scene();
  const std::vector<Vec3f> route = {{0, 0, 0}, {100, 0, 0}};
  DrapeSettings settings;
  settings.max_points = 10;
  EXPECT_EQ(drape_route(scene, route, test::kGravity, {}, settings).status().code(), StatusCode::out_of_range);

  Scene stairs_scene;
  test::Stairs{}.add_to(stairs_scene);
  stairs_scene.commit();
  const std::vector<Vec3f> stairs_route = {{0, 0, 0}, {4, 0, 0}};
  settings.max_points = 20;
  const DrapedRoute r = drape_route(stairs_scene, stairs_route, test::kGravity, {}, settings).value();
  EXPECT_EQ(r.points.size(), 20u);
}

}  // namespace
}  // namespace hitscan
