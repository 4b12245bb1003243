#include "tools/street_scene.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <tuple>

#include "hitscan/mesh/mesh_bvh.hpp"

namespace hitscan::tools {
namespace {

struct Built {
  StreetScene street;
  std::shared_ptr<const MeshBvh> bvh;
};

Built build(const StreetOptions& options) {
  Result<StreetScene> street = make_street_scene(options);
  EXPECT_TRUE(street.ok()) << street.status().message();
  Result<TriangleMesh> mesh = street.value().merged_mesh();
  EXPECT_TRUE(mesh.ok()) << mesh.status().message();
  EXPECT_EQ(mesh.value().report().degenerate_triangles, 0u);
  Result<MeshBvh> bvh = MeshBvh::build(std::make_shared<const TriangleMesh>(std::move(mesh).value()));
  EXPECT_TRUE(bvh.ok()) << bvh.status().message();
  return {std::move(street).value(), std::make_shared<const MeshBvh>(std::move(bvh).value())};
}

/// Distance from x to the nearest place where the floor's profile bends or steps.
double distance_to_break(double x) {
  const double breaks[] = {0, 6, 12, 16, 20, 22.2, 22.8, 26, 26.3, 26.6, 26.9, 27.2, 27.5, 32, 40};
  double best = 1e9;
  for (double b : breaks) best = std::min(best, std::abs(std::fmod(x, 40.0) - b));
  return best;
}

TEST(StreetScene, FloorProfileIsTheHandWorkedOne) {
  const StreetOptions o;
  EXPECT_DOUBLE_EQ(street_floor_height(o, 3.0, 0.0), 0.15);   // pavement
  EXPECT_DOUBLE_EQ(street_floor_height(o, 9.0, 2.0), 0.0);    // road
  EXPECT_DOUBLE_EQ(street_floor_height(o, 18.0, 0.0), 0.40);  // halfway up the first ramp
  EXPECT_TRUE(std::isnan(street_floor_height(o, 22.5, 0.0)));  // the hole
  EXPECT_DOUBLE_EQ(street_floor_height(o, 22.5, 2.0), 0.65);  // beside the hole
  EXPECT_NEAR(street_floor_height(o, 26.45, 0.0), 0.65 + 2 * 0.17, 1e-12);  // second stair
  EXPECT_DOUBLE_EQ(street_floor_height(o, 6.0, 0.0), 0.15);   // the higher side of the curb
  EXPECT_NEAR(street_floor_height(o, 36.0, 0.0), 1.5 - 1.35 * 0.5, 1e-12);  // the ramp down
  EXPECT_TRUE(std::isnan(street_floor_height(o, -0.1, 0.0)));
  EXPECT_TRUE(std::isnan(street_floor_height(o, 3.0, 4.5)));
  EXPECT_DOUBLE_EQ(street_floor_height(o, 10.7, -1.8), 2.5);  // the pillar's top
}

TEST(StreetScene, ThePillarHidesTheSignBehindItFromTheCamera) {
  StreetOptions o;
  o.noise = 0.0f;
  const Built b = build(o);
  ASSERT_EQ(b.street.sign_points.size(), 3u);
  const Vec3f eye = b.street.camera.position(), sign = b.street.sign_points[1];  // x = 24, y < 0
  ASSERT_NEAR(sign.x, 24.0f, 1e-6f);
  const MeshHit hit = b.bvh->intersect(Rayf{eye, sign - eye, 0.0f, 1.0f});
  ASSERT_TRUE(hit.hit);
  EXPECT_LT(hit.t, 0.6f);  // stopped about halfway, at the pillar
  EXPECT_GT(hit.point.x, 10.39f);
  EXPECT_LT(hit.point.x, 11.01f);
}

TEST(StreetScene, DownwardRaysMeetTheFloorWithinTheNoise) {
  StreetOptions o;
  o.cell = 0.2f;
  o.noise = 0.01f;
  const Built b = build(o);
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> ux(0.0, o.length), uy(-3.9, 3.9);
  int hits = 0, holes = 0;
  for (int n = 0; n < 2000; ++n) {
    const double x = ux(gen), y = uy(gen);
    const double h = street_floor_height(o, x, y);
    const MeshHit hit = b.bvh->intersect(Rayf{{float(x), float(y), 5.0f}, {0, 0, -1}, 0.0f, 10.0f});
    if (std::isnan(h)) {
      ++holes;
      EXPECT_FALSE(hit.hit) << x << ", " << y;  // nothing below the hole
      continue;
    }
    if (distance_to_break(x) < o.cell) continue;  // the grid cell holding a bend is a chord
    const double lx = std::fmod(x, 40.0);
    if (lx > 10.4 - o.cell && lx < 11.0 + o.cell && y > -2.1 - o.cell && y < -1.5 + o.cell &&
        !(lx > 10.4 && lx < 11.0 && y > -2.1 && y < -1.5)) {
      continue;  // near the pillar's sides, where the floor's cell is under the pillar's edge
    }
    ASSERT_TRUE(hit.hit) << x << ", " << y;
    ++hits;
    EXPECT_NEAR(5.0 - hit.t, h, o.noise + 1e-4) << x << ", " << y;
    EXPECT_FALSE(hit.back_face) << "the floor faces up";
  }
  EXPECT_GT(hits, 1500);
  EXPECT_GT(holes, 0);
}

TEST(StreetScene, WallsFaceIntoTheStreetAndStepsHaveVerticalRisers) {
  StreetOptions o;
  o.noise = 0.0f;
  const Built b = build(o);
  for (float dir : {-1.0f, 1.0f}) {
    const MeshHit hit = b.bvh->intersect(Rayf{{10.0f, 0.0f, 1.0f}, {0, dir, 0}, 0.0f, 100.0f});
    ASSERT_TRUE(hit.hit);
    EXPECT_NEAR(hit.t, o.width * 0.5, 1e-5);
    EXPECT_FALSE(hit.back_face);
  }
  // A horizontal ray along the street at knee height meets the first stair's riser at x = 26.
  const MeshHit riser = b.bvh->intersect(Rayf{{24.0f, 2.0f, 0.7f}, {1, 0, 0}, 0.0f, 100.0f});
  ASSERT_TRUE(riser.hit);
  EXPECT_NEAR(24.0 + riser.t, 26.0, 1e-5);
  EXPECT_FALSE(riser.back_face);
  EXPECT_NEAR(riser.normal.x, -1.0f, 1e-5f);
}

TEST(StreetScene, EveryPeriodKeepsItsStepsVertical) {
  // Breaks in later periods (x = 66.6 = 40 + 26.6, ...) are where fmod rounds off a step.
  StreetOptions o;
  o.length = 110.0f;
  o.cell = 0.25f;
  o.noise = 0.0f;
  const Built b = build(o);
  for (double base : {0.0, 40.0, 80.0}) {
    for (int k = 0; k < 5; ++k) {
      const double edge = base + 26.0 + 0.3 * k, knee = 0.65 + 0.17 * k + 0.085;  // mid-riser
      const MeshHit hit = b.bvh->intersect(Rayf{{float(edge - 0.2), 2.0f, float(knee)}, {1, 0, 0}, 0.0f, 1.0f});
      ASSERT_TRUE(hit.hit) << edge;
      EXPECT_NEAR(edge - 0.2 + hit.t, edge, 1e-4) << edge;
      EXPECT_NEAR(hit.normal.x, -1.0f, 1e-5f) << edge;
    }
    // The curbs: down at 6 (a riser facing +x), up at 12 (facing -x).
    const MeshHit down = b.bvh->intersect(Rayf{{float(base + 6.2), 2.0f, 0.07f}, {-1, 0, 0}, 0.0f, 1.0f});
    ASSERT_TRUE(down.hit) << base;
    EXPECT_NEAR(down.normal.x, 1.0f, 1e-5f);
    const MeshHit up = b.bvh->intersect(Rayf{{float(base + 11.8), 2.0f, 0.07f}, {1, 0, 0}, 0.0f, 1.0f});
    ASSERT_TRUE(up.hit) << base;
    EXPECT_NEAR(up.normal.x, -1.0f, 1e-5f);
  }
}

TEST(StreetScene, ChunksShareTheirBorderVertices) {
  StreetOptions o;
  o.cell = 0.25f;
  const Result<StreetScene> street = make_street_scene(o);
  ASSERT_TRUE(street.ok());
  ASSERT_EQ(street.value().chunks.size(), 8u);  // 40 m in 5 m chunks
  // Every position on a chunk border (x a multiple of chunk_length) appears in both chunks.
  std::map<std::tuple<float, float, float>, int> border;
  for (const StreetChunk& c : street.value().chunks) {
    for (const Vec3f& p : c.positions) {
      const double k = p.x / o.chunk_length;
      if (p.x > 0 && p.x < o.length && std::abs(k - std::round(k)) < 1e-6) ++border[{p.x, p.y, p.z}];
    }
  }
  ASSERT_FALSE(border.empty());
  for (const auto& [p, count] : border) EXPECT_EQ(count, 2) << std::get<0>(p) << " " << std::get<1>(p);
}

TEST(StreetScene, TriangleCountFollowsTheCell) {
  const StreetOptions o = street_options_for_triangles(200'000);
  const Result<StreetScene> street = make_street_scene(o);
  ASSERT_TRUE(street.ok());
  EXPECT_NEAR(double(street.value().triangle_count()), 200'000.0, 200'000.0 * 0.02);
}

TEST(StreetScene, RouteSignsAndCameraSitWhereDocumented) {
  StreetOptions o;
  o.length = 100.0f;
  const Result<StreetScene> street = make_street_scene(o);
  ASSERT_TRUE(street.ok());
  const StreetScene& s = street.value();
  ASSERT_GE(s.route.size(), 40u);
  for (const Vec3f& p : s.route) {
    EXPECT_EQ(p.y, 0.0f);
    const double floor = std::max(street_floor_height(o, p.x, 2.0), street_floor_height(o, p.x - 1e-9, 2.0));
    EXPECT_NEAR(p.z, floor + 0.3, 1e-5) << p.x;
  }
  ASSERT_EQ(s.sign_points.size(), 7u);  // three per 40 m, the last period cut at 100 m
  for (std::size_t i = 0; i < s.sign_points.size(); ++i) {
    EXPECT_NEAR(std::abs(s.sign_points[i].y), o.width * 0.5, 1e-6);
    EXPECT_EQ(s.sign_normals[i].y, s.sign_points[i].y > 0 ? -1.0f : 1.0f);
  }
  EXPECT_NEAR(s.camera.position().z, 0.15 + 1.6, 1e-6);
  EXPECT_GT(s.camera.forward().x, 0.9f);
  EXPECT_LT(s.camera.forward().z, 0.0f);
  EXPECT_EQ(s.camera.intrinsics().width, 640);
}

TEST(StreetScene, RejectsOptionsOutOfTheirDomain) {
  for (auto edit : {+[](StreetOptions& o) { o.length = 0; }, +[](StreetOptions& o) { o.cell = -1; },
                    +[](StreetOptions& o) { o.width = NAN; }, +[](StreetOptions& o) { o.noise = -0.1f; },
                    +[](StreetOptions& o) { o.chunk_length = INFINITY; }, +[](StreetOptions& o) { o.cell = 1e-6f; }}) {
    StreetOptions o;
    edit(o);
    const Result<StreetScene> street = make_street_scene(o);
    ASSERT_FALSE(street.ok());
    EXPECT_EQ(street.status().code(), StatusCode::invalid_argument);
  }
}

}  // namespace
}  // namespace hitscan::tools
