// Route draping over analytic surfaces — a plane, a tilted plane, stairs of boxes, a ramp mesh —
// against exact heights and normals, steps kept sharp by refinement, the batch against single
// casts, layer masks and gravity in any direction.

#include <gtest/gtest.h>

#include "ar/ar_test_scenes.hpp"
#include "hitscan/ar/drape.hpp"

namespace hitscan {
namespace {

using test::to_double;

constexpr double kHeightTolerance = 1e-5;
constexpr double kNormalTolerance = 1e-5;

// What every draped route promises: distances from 0 to the route's length, strictly
// increasing, and counts that match the statuses.
void expect_well_formed(const DrapedRoute& r) {
  ASSERT_FALSE(r.points.empty());
  EXPECT_EQ(r.points.front().distance_along_route, 0.0f);
  EXPECT_EQ(r.points.back().distance_along_route, r.route_length);
  std::size_t counts[3] = {0, 0, 0};
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    if (i > 0) {
      EXPECT_GT(r.points[i].distance_along_route, r.points[i - 1].distance_along_route) << i;
    }
    ++counts[static_cast<int>(r.points[i].status)];
    EXPECT_NEAR(length(r.points[i].normal), 1.0f, 1e-5f) << i;
  }
  EXPECT_EQ(counts[0], r.on_surface);
  EXPECT_EQ(counts[1], r.gap_bridged);
  EXPECT_EQ(counts[2], r.no_surface);
}

DrapedRoute drape(const Scene& scene, std::span<const Vec3f> route, const DrapeSettings& settings = {},
                  Vec3f camera = {0, 0, 1.5f}, Vec3f gravity = test::kGravity) {
  Result<DrapedRoute> r = drape_route(scene, route, gravity, camera, settings);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : DrapedRoute{};
}

TEST(Drape, FlatPlaneGivesExactHeightsAndKeepsEveryRouteVertex) {
  Scene scene;
  test::add_collider(scene, Planef{{0, 0, 1}, 0.3f});
  scene.commit();
  const std::vector<Vec3f> route = {{0, 0, 0}, {4, 1, 0.2f}, {4, 6, -0.1f}, {-3, 6, 0}};
  const DrapedRoute r = drape(scene, route);
  expect_well_formed(r);
  EXPECT_EQ(r.on_surface, r.points.size());
  EXPECT_TRUE(r.gaps.empty());
  EXPECT_EQ(r.refine_rounds, 0);
  for (const DrapedPoint& p : r.points) {
    EXPECT_NEAR(p.position.z, 0.3, kHeightTolerance);
    EXPECT_EQ(p.position.x, p.route_point.x);
    EXPECT_EQ(p.position.y, p.route_point.y);
    EXPECT_NEAR(p.normal.z, 1.0, kNormalTolerance);
    EXPECT_NE(p.collider, kNoCollider);
  }
  // Every corner of the route is a sample, at its arc length.
  double s = 0;
  for (std::size_t v = 0; v < route.size(); ++v) {
    if (v > 0) s += length(to_double(route[v] - route[v - 1]));
    bool found = false;
    for (const DrapedPoint& p : r.points) found |= p.route_point == route[v] && std::abs(p.distance_along_route - s) < 1e-4;
    EXPECT_TRUE(found) << "route vertex " << v;
  }
}

TEST(Drape, TiltedPlaneGivesExactHeightsAndNormalsWithoutRefining) {
  const test::TiltedPlane plane = test::TiltedPlane::make({0.2, -0.3, 1.0}, {1, 1, 0.1});
  Scene scene;
  test::add_collider(scene, plane.collider());
  scene.commit();
  const std::vector<Vec3f> route = {{-2, -1, 0}, {3, 0, 0}, {5, 4, 0}, {9, 4, 0.5f}};
  DrapeSettings settings;
  settings.cast_height = 3;
  settings.max_cast_depth = 3;
  const DrapedRoute r = drape(scene, route, settings);
  expect_well_formed(r);
  EXPECT_EQ(r.on_surface, r.points.size());
  EXPECT_EQ(r.refine_rounds, 0);
  for (const DrapedPoint& p : r.points) {
    const Vec3d q = to_double(p.position);
    EXPECT_NEAR(q.z, plane.height(q.x, q.y), kHeightTolerance);
    EXPECT_NEAR(q.x, p.route_point.x, 1e-6);
    EXPECT_NEAR(q.y, p.route_point.y, 1e-6);
    EXPECT_LT(test::angle_between(to_double(p.normal), plane.normal), kNormalTolerance);
  }
}

// Draped up and down the stairs: heights exact, normals up, and each riser bracketed by two
// samples no further apart than min_refine_spacing, one on each tread.
TEST(Drape, StairsKeepEveryRiserSharp) {
  const test::Stairs stairs;
  Scene scene;
  stairs.add_to(scene);
  scene.commit();
  DrapeSettings settings;
  for (bool up : {true, false}) {
    std::vector<Vec3f> route = {{0, 0.4f, 0}, {4, 0.4f, 0}};
    if (!up) std::swap(route[0], route[1]);
    const DrapedRoute r = drape(scene, route, settings, route[0]);
    expect_well_formed(r);
    EXPECT_EQ(r.on_surface, r.points.size());
    EXPECT_GT(r.refine_rounds, 0);
    for (const DrapedPoint& p : r.points) {
      const double x = p.position.x;
      bool near_edge = false;
      for (int k = 0; k < stairs.steps; ++k) near_edge |= std::abs(x - stairs.edge(k)) < 1e-5;
      if (near_edge) continue;  // either tread is right on an edge
      EXPECT_NEAR(p.position.z, stairs.height(x), kHeightTolerance) << "x " << x;
      EXPECT_NEAR(p.normal.z, 1.0, kNormalTolerance) << "x " << x;
    }
    for (int k = 0; k < stairs.steps; ++k) {
      const double edge = stairs.edge(k);
      bool bracketed = false;
      for (std::size_t i = 0; i + 1 < r.points.size(); ++i) {
        const double xa = std::min(r.points[i].position.x, r.points[i + 1].position.x);
        const double xb = std::max(r.points[i].position.x, r.points[i + 1].position.x);
        if (xa <= edge && edge <= xb && xb - xa <= settings.min_refine_spacing + 1e-6) {
          bracketed = std::abs(std::abs(r.points[i + 1].position.z - r.points[i].position.z) - stairs.rise) < 1e-5;
        }
      }
      EXPECT_TRUE(bracketed) << (up ? "up" : "down") << ", riser " << k;
    }
  }
}

TEST(Drape, RampMeshGivesExactHeightsAndNormalsAndRefinesAtBothKinks) {
  const test::Ramp ramp;
  Scene scene;
  test::add_collider(scene, ramp.mesh());
  scene.commit();
  DrapeSettings settings;
  settings.cast_height = 2;
  const std::vector<Vec3f> route = {{-3, 0.3f, 0}, {9, 0.3f, 0}};
  const DrapedRoute r = drape(scene, route, settings, route[0]);
  expect_well_formed(r);
  EXPECT_EQ(r.on_surface, r.points.size());
  for (const DrapedPoint& p : r.points) {
    const double x = p.position.x;
    EXPECT_NEAR(p.position.z, ramp.height(x), kHeightTolerance) << "x " << x;
    const bool on_slope = x > ramp.start && x < ramp.start + ramp.run;
    const bool on_kink = std::abs(x - ramp.start) < 1e-5 || std::abs(x - ramp.start - ramp.run) < 1e-5;
    if (on_kink) continue;
    const Vec3d expected = on_slope ? ramp.slope_normal() : Vec3d{0, 0, 1};
    EXPECT_LT(test::angle_between(to_double(p.normal), expected), kNormalTolerance) << "x " << x;
  }
  for (double kink : {ramp.start, ramp.start + ramp.run}) {
    bool close = false;
    for (const DrapedPoint& p : r.points) close |= std::abs(p.position.x - kink) <= settings.min_refine_spacing;
    EXPECT_TRUE(close) << "kink at x = " << kink;
  }
}

// Each on_surface point is what a single Scene::raycast of its cast finds, and the result does not
// depend on the executor.
TEST(Drape, BatchedCastsMatchSingleCastsOnANoisyMesh) {
  const MeshShape mesh = test::height_field([](double x, double y) { return 0.1 * std::sin(x) + 0.05 * y; }, -5, 25,
                                            -5, 5, 150, 50, 0.004f, 7);
  Scene scene;
  test::add_collider(scene, mesh);
  scene.commit();
  const std::vector<Vec3f> route = {{-4, -3, 0}, {10, 2, 0}, {20, -1, 0.3f}, {24, 4, 0}};
  DrapeSettings settings;
  SerialExecutor serial;
  ThreadPool pool(2);
  const DrapedRoute a = drape_route(scene, route, test::kGravity, {0, 0, 1.5f}, settings, &serial).value();
  const DrapedRoute b = drape_route(scene, route, test::kGravity, {0, 0, 1.5f}, settings, &pool).value();
  expect_well_formed(a);
  ASSERT_EQ(a.points.size(), b.points.size());
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    EXPECT_EQ(a.points[i].position, b.points[i].position) << i;
    EXPECT_EQ(a.points[i].normal, b.points[i].normal) << i;
    const DrapedPoint& p = a.points[i];
    ASSERT_EQ(p.status, DrapeStatus::on_surface) << i;
    const QueryHit hit = scene.raycast(
        {p.route_point + Vec3f{0, 0, settings.cast_height}, {0, 0, -1}, settings.cast_height + settings.max_cast_depth});
    ASSERT_TRUE(hit.hit) << i;
    EXPECT_EQ(hit.point, p.position) << i;
    EXPECT_EQ(hit.normal, p.normal) << i;
  }
  EXPECT_EQ(a.casts, a.points.size());
}

// A person standing on the route (layer 2) is ignored when the casts see only the
// reconstruction (layer 1).
TEST(Drape, LayerMaskKeepsTheRouteOnTheReconstruction) {
  Scene scene;
  test::add_collider(scene, Planef{{0, 0, 1}, 0}, 1);
  test::add_collider(scene, test::box({2, -0.3, 0}, {2.5, 0.3, 0.6}), 2);
  scene.commit();
  const std::vector<Vec3f> route = {{0, 0, 0}, {5, 0, 0}};
  DrapeSettings settings;
  const DrapedRoute all = drape(scene, route, settings);
  double highest = 0;
  for (const DrapedPoint& p : all.points) highest = std::max<double>(highest, p.position.z);
  EXPECT_NEAR(highest, 0.6, 1e-6);
  settings.options.layer_mask = 1u << 1;
  const DrapedRoute floor = drape(scene, route, settings);
  expect_well_formed(floor);
  for (const DrapedPoint& p : floor.points) EXPECT_EQ(p.position.z, 0.0f);
  EXPECT_EQ(floor.refine_rounds, 0);
}

TEST(Drape, GravityAlongAnyAxis) {
  Scene scene;
  test::add_collider(scene, Planef{{0, 1, 0}, 0.5f});
  scene.commit();
  const std::vector<Vec3f> route = {{0, 0, 0}, {3, 0, 4}};
  const DrapedRoute r = drape(scene, route, {}, {0, 1.5f, 0}, {0, -2, 0});
  expect_well_formed(r);
  EXPECT_EQ(r.on_surface, r.points.size());
  for (const DrapedPoint& p : r.points) {
    EXPECT_NEAR(p.position.y, 0.5, kHeightTolerance);
    EXPECT_NEAR(p.normal.y, 1.0, kNormalTolerance);
  }
  EXPECT_FLOAT_EQ(r.route_length, 5.0f);
}

// A tread higher than cast_height above the route puts the cast's start inside the box: no
// surface there, rather than a point inside the solid — nor its underside, whatever the
// options' solid says.
TEST(Drape, SurfaceAboveTheCastHeightIsNoSurface) {
  Scene scene;
  test::add_collider(scene, test::box({-1, -1, -1}, {10, 1, 2}));
  scene.commit();
  const std::vector<Vec3f> route = {{0, 0, 0}, {3, 0, 0}};
  for (bool solid : {true, false}) {
    DrapeSettings settings;
    settings.options.solid = solid;
    const DrapedRoute r = drape(scene, route, settings);
    expect_well_formed(r);
    EXPECT_EQ(r.no_surface, r.points.size());
    ASSERT_EQ(r.gaps.size(), 1u);
    EXPECT_FALSE(r.gaps[0].bridged);
  }
}

}  // namespace
}  // namespace hitscan
