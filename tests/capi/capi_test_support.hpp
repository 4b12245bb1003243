#pragma once
// What the C API error tests share: a tiny mesh, a small committed scene, and a check that a call
// failed with a given code and a message naming its function.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "hitscan/hitscan.h"

namespace hitscan::test {

inline const float kNan = std::numeric_limits<float>::quiet_NaN();
inline const float kInf = std::numeric_limits<float>::infinity();

// A unit square in the z = 0 plane, two triangles facing +z.
inline const float kSquarePositions[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
inline const std::uint32_t kSquareIndices[] = {0, 1, 2, 0, 2, 3};

inline std::string last_error() { return hs_last_error(); }

// Expects `status` to be `code` with a message that starts with the function's name and contains
// `detail`.
inline void expect_failure(hs_status status, hs_status code, const char* function, const char* detail) {
  EXPECT_EQ(status, code) << hs_status_name(status) << " instead of " << hs_status_name(code) << ": " << last_error();
  const std::string message = last_error();
  EXPECT_EQ(message.rfind(std::string(function) + ": ", 0), 0u) << message;
  EXPECT_NE(message.find(detail), std::string::npos) << message << " (expected it to mention '" << detail << "')";
}

// A committed scene holding one unit sphere at the origin (id `sphere`) and the square mesh at z = 5.
struct SmallScene {
  hs_scene* scene = nullptr;
  std::uint32_t sphere = HS_NO_COLLIDER;
  std::uint32_t square = HS_NO_COLLIDER;

  SmallScene() {
    EXPECT_EQ(hs_scene_create(&scene), HS_OK);
    const hs_shape shape = hs_shape_default(HS_SHAPE_SPHERE);
    EXPECT_EQ(hs_scene_add_shape(scene, &shape, nullptr, 0, 1, &sphere), HS_OK);
    hs_transform t = hs_transform_default();
    t.translation.z = 5;
    EXPECT_EQ(hs_scene_add_mesh(scene, kSquarePositions, 4, kSquareIndices, 2, &t, 0, 2, &square), HS_OK);
    EXPECT_EQ(hs_scene_commit(scene), HS_OK);
  }
  ~SmallScene() { hs_scene_destroy(scene); }
  SmallScene(const SmallScene&) = delete;
  SmallScene& operator=(const SmallScene&) = delete;
};

// A committed scene of shapes whose answers are worked out by hand: the box |x|, |y|, |z| <= 1 at
// the origin (user 10), a unit sphere centred at (5, 0, 0) (user 20) and the square mesh moved to
// x in [10, 11], y in [0, 1], z = 0 (user 30).
struct HandScene {
  hs_scene* scene = nullptr;
  std::uint32_t box = HS_NO_COLLIDER;
  std::uint32_t sphere = HS_NO_COLLIDER;
  std::uint32_t square = HS_NO_COLLIDER;

  HandScene() {
    EXPECT_EQ(hs_scene_create(&scene), HS_OK);
    const hs_shape box_shape = hs_shape_default(HS_SHAPE_BOX);
    EXPECT_EQ(hs_scene_add_shape(scene, &box_shape, nullptr, 0, 10, &box), HS_OK);
    hs_transform t = hs_transform_default();
    t.translation.x = 5;
    const hs_shape sphere_shape = hs_shape_default(HS_SHAPE_SPHERE);
    EXPECT_EQ(hs_scene_add_shape(scene, &sphere_shape, &t, 0, 20, &sphere), HS_OK);
    t.translation.x = 10;
    EXPECT_EQ(hs_scene_add_mesh(scene, kSquarePositions, 4, kSquareIndices, 2, &t, 0, 30, &square), HS_OK);
    EXPECT_EQ(hs_scene_commit(scene), HS_OK);
  }
  ~HandScene() { hs_scene_destroy(scene); }
  HandScene(const HandScene&) = delete;
  HandScene& operator=(const HandScene&) = delete;
};

inline hs_vec3 vec3(float x, float y, float z) { return {x, y, z}; }

// Expects `v` within `tolerance` of (x, y, z) on every axis.
inline void expect_vec3_near(const hs_vec3& v, float x, float y, float z, float tolerance, const char* what) {
  EXPECT_NEAR(v.x, x, tolerance) << what;
  EXPECT_NEAR(v.y, y, tolerance) << what;
  EXPECT_NEAR(v.z, z, tolerance) << what;
}

inline hs_ray ray_from(float x, float y, float z, float dx, float dy, float dz) {
  hs_ray r = hs_ray_default();
  r.origin = {x, y, z};
  r.direction = {dx, dy, dz};
  return r;
}

}  // namespace hitscan::test
