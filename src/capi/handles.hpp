#pragma once
// What the C API's opaque handles are.

#include "hitscan/hitscan.h"
#include "hitscan/query/scene.hpp"

struct hs_scene {
  hitscan::Scene scene;
};

struct hs_mesh {
  hitscan::MeshShape bvh;  // shared with every collider made from the handle
};
