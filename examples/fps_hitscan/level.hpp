#pragma once
// The level: a 44 m square floor mesh, walls from boxes, and cover made of triangles in code (crates
// that all share one cube mesh, and a ramp). Everything static sits on the world layer.
//
// Axes: y is up; the firing lane of the script runs along +x at z = 0. Lengths in metres.

#include <cstdint>
#include <vector>

#include "hitscan/query/scene.hpp"
#include "user_ids.hpp"

namespace fps {

inline constexpr std::uint32_t kLayerWorld = 0;

// The floor spans [-kFloorHalf, kFloorHalf] in x and z at y = 0, in square cells of kFloorCell
// (11 cells a side, so that no cell edge runs along the lane at z = 0).
inline constexpr float kFloorHalf = 22.0f;
inline constexpr float kFloorCell = 4.0f;

// A wall: an axis-aligned box.
struct WallLayout {
  hitscan::Vec3f center;
  hitscan::Vec3f half_extents;
};

inline constexpr WallLayout kWalls[] = {
    {{0, 2, 20.25f}, {20.5f, 2, 0.25f}},   // 0: perimeter, +z
    {{0, 2, -20.25f}, {20.5f, 2, 0.25f}},  // 1: perimeter, -z
    {{20.25f, 2, 0}, {0.25f, 2, 20.5f}},   // 2: perimeter, +x: the end of the lane
    {{-20.25f, 2, 0}, {0.25f, 2, 20.5f}},  // 3: perimeter, -x
    {{0, 1.5f, 10}, {0.2f, 1.5f, 2}},      // 4: a partition off the lane
    {{9, 1.5f, -1}, {0.15f, 1.5f, 3}},     // 5: across the lane, 0.3 m thick
};

// A crate: the shared unit cube mesh scaled to `size` and centred on `center`.
struct CrateLayout {
  hitscan::Vec3f center;
  hitscan::Vec3f size;
};

inline constexpr CrateLayout kCrates[] = {
    {{10.5f, 0.6f, 6}, {1.2f, 1.2f, 1.2f}},  // 0: waist-high cover in front of character 2
    {{15, 1.5f, 0}, {1, 3, 1}},              // 1: a pillar of crates on the lane
    {{-10, 0.5f, 6}, {1, 1, 1}},             // 2: off the lane
};

// The ramp: a wedge from `low_corner`, rising by `height` over `length` along +x, `width` deep in +z.
struct RampLayout {
  hitscan::Vec3f low_corner;
  float length;
  float width;
  float height;
};

inline constexpr RampLayout kRamp = {{-10, 0, -10}, 4, 2, 1};

struct Level {
  hitscan::MeshShape floor_mesh;
  hitscan::MeshShape crate_mesh;  // shared by every crate
  hitscan::MeshShape ramp_mesh;
  std::vector<hitscan::ColliderId> colliders;
};

// Adds the level's colliders to the scene (visible after the caller's next commit).
Level build_level(hitscan::Scene& scene);

}  // namespace fps
