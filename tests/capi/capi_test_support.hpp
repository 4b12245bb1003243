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

inline hs_ray ray_from(float x, float y, float z, float dx, float dy, float dz) {
  hs_ray r = hs_ray_default();
  r.origin = {x, y, z};
  r.direction = {dx, dy, dz};
  return r;
}

}  // namespace hitscan::test
