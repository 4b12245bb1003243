// hs_closest_point: field by field the C++ Scene's answer on seeded random scenes under every option
// set, closest points worked out by hand on a box, a sphere and a mesh, and its argument checks.

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "capi/capi_test_support.hpp"
#include "capi/capi_twin_scene.hpp"

namespace hitscan::test {
namespace {

constexpr float kHand = 1e-5f;

std::vector<Vec3f> random_points(std::size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2);
  std::vector<Vec3f> points(count);
  for (Vec3f& p : points) p = {pos(gen), pos(gen), pos(gen)};
  return points;
}

void expect_closest_points_agree(TwinScene& twin, const std::vector<Vec3f>& points, float tolerance) {
  FilterCheck check;
  for (const SceneEntry& e : twin.entries) check.colliders[e.id] = {e.desc.user_id, e.desc.layer};
  for (const auto& [c_options, cpp_options] : option_pairs(check)) {
    std::size_t hits = 0, inside = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      hs_hit hit;
      ASSERT_EQ(hs_closest_point(twin.c, to_c(points[i]), &c_options, &hit), HS_OK);
      expect_same_hit(hit, twin.cpp.closest_point(points[i], cpp_options), tolerance, static_cast<int>(i));
      hits += static_cast<std::size_t>(hit.hit);
      inside += (hit.flags & HS_HIT_STARTED_INSIDE) != 0 ? 1 : 0;
    }
    EXPECT_GT(hits, points.size() / 10);
    if (c_options.solid != 0 && c_options.filter == nullptr && c_options.layer_mask == HS_ALL_LAYERS) {
      EXPECT_GT(inside, 0u);  // some points lie inside solids
    }
  }
  EXPECT_EQ(check.wrong_arguments, 0);
}

TEST(CApiClosestPoint, MatchesTheCppSceneExactlyOnARandomAxisAlignedScene) {
  TwinScene twin(400, 61, false);
  expect_closest_points_agree(twin, random_points(1000, 62), 0.0f);
}

TEST(CApiClosestPoint, MatchesTheCppSceneExactlyUnderRandomRotations) {
  TwinScene twin(400, 63, true);
  expect_closest_points_agree(twin, random_points(1000, 64), 0.0f);
}

TEST(CApiClosestPoint, PointsBesideTheShapesFindTheHandWorkedNearestPoint) {
  HandScene s;
  hs_hit hit;
  // 3 above the box's centre in y: its top face, 2 away (the sphere at x = 5 is sqrt(34) - 1 away).
  ASSERT_EQ(hs_closest_point(s.scene, vec3(0, 3, 0), nullptr, &hit), HS_OK);
  ASSERT_EQ(hit.hit, 1);
  EXPECT_EQ(hit.collider, s.box);
  EXPECT_EQ(hit.user_id, 10u);
  EXPECT_EQ(hit.flags, 0u);
  EXPECT_NEAR(hit.distance, 2.0f, kHand);
  expect_vec3_near(hit.point, 0, 1, 0, kHand, "point");
  expect_vec3_near(hit.normal, 0, 1, 0, kHand, "normal");
  expect_vec3_near(hit.face_normal, 0, 1, 0, kHand, "face normal");
  EXPECT_EQ(hit.primitive, HS_NO_PRIMITIVE);
  // At x = 3 the sphere's surface at x = 4 is nearer (1) than the box's face at x = 1 (2).
  ASSERT_EQ(hs_closest_point(s.scene, vec3(3, 0, 0), nullptr, &hit), HS_OK);
  EXPECT_EQ(hit.collider, s.sphere);
  EXPECT_NEAR(hit.distance, 1.0f, kHand);
  expect_vec3_near(hit.point, 4, 0, 0, kHand, "sphere point");
  expect_vec3_near(hit.normal, -1, 0, 0, kHand, "sphere normal");
  // The search radius is inclusive: 2 finds the box face 2 away, 1.5 finds nothing.
  hs_query_options options = hs_query_options_default();
  options.max_distance = 2.0f;
  ASSERT_EQ(hs_closest_point(s.scene, vec3(0, 3, 0), &options, &hit), HS_OK);
  EXPECT_EQ(hit.collider, s.box);
  options.max_distance = 1.5f;
  ASSERT_EQ(hs_closest_point(s.scene, vec3(0, 3, 0), &options, &hit), HS_OK);
  EXPECT_EQ(hit.hit, 0);
  EXPECT_EQ(hit.collider, HS_NO_COLLIDER);
  EXPECT_TRUE(std::isinf(hit.distance));
}

TEST(CApiClosestPoint, APointInsideTheBoxIsItsOwnClosestPointOnlyWhenSolid) {
  HandScene s;
  hs_hit hit;
  ASSERT_EQ(hs_closest_point(s.scene, vec3(0.5f, 0, 0.2f), nullptr, &hit), HS_OK);
  ASSERT_EQ(hit.hit, 1);
  EXPECT_EQ(hit.collider, s.box);
  EXPECT_EQ(hit.distance, 0.0f);
  EXPECT_NE(hit.flags & HS_HIT_STARTED_INSIDE, 0u);
  expect_vec3_near(hit.point, 0.5f, 0, 0.2f, kHand, "point");
  // Hollow: the nearest face, x = 1, half a unit away; the normal points from it to the point.
  hs_query_options options = hs_query_options_default();
  options.solid = 0;
  ASSERT_EQ(hs_closest_point(s.scene, vec3(0.5f, 0, 0.2f), &options, &hit), HS_OK);
  ASSERT_EQ(hit.hit, 1);
  EXPECT_EQ(hit.collider, s.box);
  EXPECT_EQ(hit.flags & HS_HIT_STARTED_INSIDE, 0u);
  EXPECT_NEAR(hit.distance, 0.5f, kHand);
  expect_vec3_near(hit.point, 1, 0, 0.2f, kHand, "hollow point");
  expect_vec3_near(hit.normal, -1, 0, 0, kHand, "hollow normal");
  expect_vec3_near(hit.face_normal, 1, 0, 0, kHand, "hollow face normal");
}

TEST(CApiClosestPoint, APointOverTheMeshReportsTriangleAndBarycentrics) {
  HandScene s;
  hs_hit hit;
  // Over (0.25, 0.5) of the square: triangle 1 = (v0, v2, v3) = ((0,0), (1,1), (0,1)), where
  // (0.25, 0.5) = u (1, 1) + v (0, 1) gives u = v = 0.25.
  for (const float z : {2.0f, -2.0f}) {
    ASSERT_EQ(hs_closest_point(s.scene, vec3(10.25f, 0.5f, z), nullptr, &hit), HS_OK);
    ASSERT_EQ(hit.hit, 1);
    EXPECT_EQ(hit.collider, s.square);
    EXPECT_EQ(hit.user_id, 30u);
    EXPECT_EQ(hit.primitive, 1u);
    EXPECT_EQ(hit.feature, HS_FEATURE_FACE);
    EXPECT_NEAR(hit.distance, 2.0f, kHand);
    expect_vec3_near(hit.point, 10.25f, 0.5f, 0, kHand, "point");
    expect_vec3_near(hit.normal, 0, 0, z > 0 ? 1.0f : -1.0f, kHand, "normal");
    expect_vec3_near(hit.face_normal, 0, 0, 1, kHand, "face normal");
    EXPECT_NEAR(hit.u, 0.25f, kHand);
    EXPECT_NEAR(hit.v, 0.25f, kHand);
  }
}

TEST(CApiClosestPointErrors, NullArgumentsFailAndNonFinitePointsMiss) {
  HandScene s;
  hs_hit hit;
  std::memset(&hit, 0x5A, sizeof hit);
  expect_failure(hs_closest_point(nullptr, vec3(0, 3, 0), nullptr, &hit), HS_INVALID_ARGUMENT, "hs_closest_point",
                 "scene is null");
  EXPECT_EQ(hit.hit, 0);
  EXPECT_EQ(hit.collider, HS_NO_COLLIDER);
  EXPECT_TRUE(std::isinf(hit.distance));
  expect_failure(hs_closest_point(s.scene, vec3(0, 3, 0), nullptr, nullptr), HS_INVALID_ARGUMENT, "hs_closest_point",
                 "out_hit is null");
  hs_query_options options = hs_query_options_default();
  for (const float bad : {kNan, -1.0f}) {
    options.max_distance = bad;
    std::memset(&hit, 0x5A, sizeof hit);
    expect_failure(hs_closest_point(s.scene, vec3(0, 3, 0), &options, &hit), HS_INVALID_ARGUMENT, "hs_closest_point",
                   "max_distance");
    EXPECT_EQ(hit.hit, 0);
  }
  for (const hs_vec3 p : {vec3(kNan, 0, 0), vec3(0, kInf, 0), vec3(0, 0, -kInf)}) {
    std::memset(&hit, 0x5A, sizeof hit);
    ASSERT_EQ(hs_closest_point(s.scene, p, nullptr, &hit), HS_OK);
    EXPECT_EQ(hit.hit, 0);
    EXPECT_EQ(hit.collider, HS_NO_COLLIDER);
  }
}

}  // namespace
}  // namespace hitscan::test
