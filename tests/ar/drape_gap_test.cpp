// Gaps in the surface under a draped route (a hole between two floor slabs, the floor ending
// before the route does, no floor at all): flagged, bridged by interpolation or by holding the last
// height when at most max_gap long, reported as no_surface when longer.

#include <gtest/gtest.h>

#include "ar/ar_test_scenes.hpp"
#include "hitscan/ar/drape.hpp"

namespace hitscan {
namespace {

constexpr double kLeftTop = 0.0, kRightTop = 0.2, kHoleStart = 2.0;

// Floor slabs left of x = 2 (top at 0) and right of x = 2 + hole (top at 0.2), the right one
// ending at x = 12.
Scene slabs(double hole) {
  Scene scene;
  test::add_collider(scene, test::box({-5, -2, -1}, {kHoleStart, 2, kLeftTop}));
  test::add_collider(scene, test::box({kHoleStart + hole, -2, -1}, {12, 2, kRightTop}));
  scene.commit();
  return scene;
}

DrapedRoute drape(const Scene& scene, Vec3f from, Vec3f to, const DrapeSettings& settings) {
  const std::vector<Vec3f> route = {from, to};
  Result<DrapedRoute> r = drape_route(scene, route, test::kGravity, {0, 0, 1.5f}, settings);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : DrapedRoute{};
}

// The indices of the first and last point of the one gap, and the rims on either side.
struct GapRun {
  std::size_t first = 0, last = 0;
};

GapRun only_gap(const DrapedRoute& r) {
  GapRun run;
  bool seen = false;
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    if (r.points[i].status == DrapeStatus::on_surface) continue;
    if (!seen) run.first = i;
    seen = true;
    run.last = i;
  }
  EXPECT_TRUE(seen);
  return run;
}

TEST(DrapeGap, ShortHoleIsBridgedByInterpolationBetweenItsRims) {
  const double hole = 0.8;
  const Scene scene = slabs(hole);
  DrapeSettings settings;
  const DrapedRoute r = drape(scene, {0, 0, 0}, {6, 0, 0}, settings);
  ASSERT_EQ(r.gaps.size(), 1u);
  EXPECT_TRUE(r.gaps[0].bridged);
  EXPECT_EQ(r.no_surface, 0u);
  EXPECT_GT(r.gap_bridged, 0u);
  const GapRun run = only_gap(r);
  ASSERT_GT(run.first, 0u);
  ASSERT_LT(run.last + 1, r.points.size());
  const DrapedPoint& a = r.points[run.first - 1];
  const DrapedPoint& b = r.points[run.last + 1];
  // The rims are found to within min_refine_spacing.
  EXPECT_LE(a.position.x, kHoleStart);
  EXPECT_GE(a.position.x, kHoleStart - settings.min_refine_spacing);
  EXPECT_GE(b.position.x, kHoleStart + hole);
  EXPECT_LE(b.position.x, kHoleStart + hole + settings.min_refine_spacing);
  EXPECT_EQ(a.position.z, kLeftTop);
  EXPECT_NEAR(b.position.z, kRightTop, 1e-6);
  EXPECT_EQ(r.gaps[0].start_distance, a.distance_along_route);
  EXPECT_EQ(r.gaps[0].end_distance, b.distance_along_route);
  for (std::size_t i = run.first; i <= run.last; ++i) {
    const DrapedPoint& p = r.points[i];
    EXPECT_EQ(p.status, DrapeStatus::gap_bridged);
    const double w = (double(p.distance_along_route) - a.distance_along_route) /
                     (double(b.distance_along_route) - a.distance_along_route);
    EXPECT_NEAR(p.position.z, a.position.z + (double(b.position.z) - a.position.z) * w, 1e-6) << i;
    EXPECT_EQ(p.position.x, p.route_point.x);
    EXPECT_EQ(p.position.y, p.route_point.y);
    EXPECT_NEAR(p.normal.z, 1.0f, 1e-6f);
  }
}

TEST(DrapeGap, ShortHoleIsBridgedByHoldingTheLastHeight) {
  const Scene scene = slabs(0.8);
  DrapeSettings settings;
  settings.gap_mode = DrapeGapMode::hold_last;
  const DrapedRoute r = drape(scene, {0, 0, 0}, {6, 0, 0}, settings);
  ASSERT_EQ(r.gaps.size(), 1u);
  EXPECT_TRUE(r.gaps[0].bridged);
  const GapRun run = only_gap(r);
  for (std::size_t i = run.first; i <= run.last; ++i) {
    EXPECT_EQ(r.points[i].status, DrapeStatus::gap_bridged);
    EXPECT_EQ(r.points[i].position.z, kLeftTop);
    EXPECT_EQ(r.points[i].normal, r.points[run.first - 1].normal);
  }
}

TEST(DrapeGap, LongHoleIsReportedNotInvented) {
  const double hole = 3.0;
  const Scene scene = slabs(hole);
  DrapeSettings settings;
  for (DrapeGapMode mode : {DrapeGapMode::interpolate, DrapeGapMode::hold_last}) {
    settings.gap_mode = mode;
    const DrapedRoute r = drape(scene, {0, 0, 0}, {8, 0, 0.1f}, settings);
    ASSERT_EQ(r.gaps.size(), 1u);
    EXPECT_FALSE(r.gaps[0].bridged);
    EXPECT_NEAR(r.gaps[0].length(), hole, 2 * settings.min_refine_spacing);
    EXPECT_EQ(r.gap_bridged, 0u);
    const GapRun run = only_gap(r);
    EXPECT_EQ(r.no_surface, run.last - run.first + 1);
    for (std::size_t i = run.first; i <= run.last; ++i) {
      const DrapedPoint& p = r.points[i];
      EXPECT_EQ(p.status, DrapeStatus::no_surface);
      EXPECT_EQ(p.position, p.route_point);
      EXPECT_EQ(p.normal, (Vec3f{0, 0, 1}));
      EXPECT_EQ(p.collider, kNoCollider);
    }
  }
}

// The floor ends before the route does: a short overhang holds the floor's height (there is
// nothing to interpolate towards), a long one is left alone.
TEST(DrapeGap, GapAtTheRouteEndIsHeldWhenShort) {
  Scene scene;
  test::add_collider(scene, test::box({-5, -2, -1}, {9.5, 2, 0.05}));
  scene.commit();
  DrapeSettings settings;
  const DrapedRoute shorter = drape(scene, {0, 0, 0}, {10, 0, 0}, settings);
  ASSERT_EQ(shorter.gaps.size(), 1u);
  EXPECT_TRUE(shorter.gaps[0].bridged);
  EXPECT_EQ(shorter.gaps[0].end_distance, shorter.route_length);
  EXPECT_EQ(shorter.points.back().status, DrapeStatus::gap_bridged);
  EXPECT_NEAR(shorter.points.back().position.z, 0.05, 1e-6);
  const DrapedRoute longer = drape(scene, {0, 0, 0}, {12, 0, 0}, settings);
  ASSERT_EQ(longer.gaps.size(), 1u);
  EXPECT_FALSE(longer.gaps[0].bridged);
  EXPECT_EQ(longer.points.back().status, DrapeStatus::no_surface);
}

TEST(DrapeGap, NoSurfaceAnywhereIsOneUnbridgedGap) {
  Scene scene;
  scene.commit();
  DrapeSettings settings;
  settings.max_gap = 100;
  const DrapedRoute r = drape(scene, {0, 0, 0}, {5, 0, 0}, settings);
  EXPECT_EQ(r.no_surface, r.points.size());
  ASSERT_EQ(r.gaps.size(), 1u);
  EXPECT_FALSE(r.gaps[0].bridged);
  EXPECT_EQ(r.gaps[0].start_distance, 0.0f);
  EXPECT_EQ(r.gaps[0].end_distance, r.route_length);
}

// A hole narrower than max_gap in a noisy reconstructed floor (cells left out of the mesh).
TEST(DrapeGap, HoleInANoisyMeshIsBridged) {
  const MeshShape mesh = test::height_field([](double, double) { return 0.0; }, -2, 10, -2, 2, 120, 40, 0.003f, 3,
                                            [](double x, double) { return x > 3.0 && x < 3.6; });
  Scene scene;
  test::add_collider(scene, mesh);
  scene.commit();
  const DrapedRoute r = drape(scene, {0, 0.05f, 0}, {8, 0.05f, 0}, {});
  ASSERT_EQ(r.gaps.size(), 1u);
  EXPECT_TRUE(r.gaps[0].bridged);
  EXPECT_NEAR(r.gaps[0].start_distance, 3.0, 0.05);
  EXPECT_NEAR(r.gaps[0].end_distance, 3.6, 0.05);
  for (const DrapedPoint& p : r.points) EXPECT_NEAR(p.position.z, 0.0, 0.0031);
}

}  // namespace
}  // namespace hitscan
