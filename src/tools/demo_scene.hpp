#pragma once
/// The built-in scene of `hitscan render`: every analytic shape kind standing on a ground plane.

#include <vector>

#include "hitscan/status.hpp"
#include "tools/any_shape.hpp"
#include "tools/camera.hpp"

namespace hitscan::tools {

struct DemoScene {
  /// One of each kind first, in AnyShape's order (the showcase shapes, none hidden behind another
  /// from the camera), then a few extra spheres and cylinders. y is up; the ground is y = 0.
  std::vector<AnyShape> shapes;
  /// A view of the whole scene at 960 x 540; callers set their own width and height.
  CameraDef camera;
};

/// Builds the scene. Fails only if the polygon is rejected by ConvexPolygon::make, which would
/// be a bug in the scene or in make.
Result<DemoScene> make_demo_scene();

}  // namespace hitscan::tools
