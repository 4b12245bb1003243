#include "tools/demo_scene.hpp"

#include <array>
#include <cmath>

namespace hitscan::tools {
namespace {

// A regular hexagon around `center` in the plane with normal `normal`, counter-clockwise seen
// from the front: with e1 x e2 = normal, increasing angles turn counter-clockwise.
Result<ConvexPolygon<float>> make_hexagon(Vec3f center, Vec3f normal, float radius) {
  const Vec3f n = normalize(normal);
  const Vec3f e1 = normalize(cross(Vec3f{0, 1, 0}, n));
  const Vec3f e2 = cross(n, e1);
  std::array<Vec3f, 6> vertices;
  for (int i = 0; i < 6; ++i) {
    const float angle = static_cast<float>(i) * kPi<float> / 3;
    vertices[static_cast<std::size_t>(i)] = center + (e1 * std::cos(angle) + e2 * std::sin(angle)) * radius;
  }
  return ConvexPolygon<float>::make(vertices);
}

}  // namespace

Result<DemoScene> make_demo_scene() {
  Result<ConvexPolygon<float>> hexagon = make_hexagon({0.7f, 1.0f, 1.9f}, {0.35f, 0.3f, 1.0f}, 0.85f);
  if (!hexagon) {
    return Status{hexagon.status().code(), "demo scene hexagon: " + hexagon.status().message()};
  }

  DemoScene scene;
  // Back row, left to right: sphere, tumbled cube, cylinder leaning toward the camera, disc.
  // Front row: box, triangle leaning back, hexagon, capsule lying diagonally. The flat shapes
  // tilt in different directions so that each gets its own colour. The shapes are placed so
  // that none hides another at the default view.
  scene.shapes = {
      Sphere<float>{{-4.2f, 1.1f, -2.4f}, 1.1f},
      Plane<float>{{0, 1, 0}, 0},
      Aabb<float>{{-4.5f, 0, 1.5f}, {-3.0f, 0.9f, 2.9f}},
      Obb<float>::from_quat({-1.4f, 1.35f, -1.6f}, {0.75f, 0.75f, 0.75f},
                            Quat<float>::from_euler({0.5f, 0.7f, 0.3f})),
      Capsule<float>{{2.6f, 0.5f, 3.0f}, {4.4f, 0.5f, 1.5f}, 0.5f},
      Cylinder<float>{{1.4f, 0, -1.6f}, {1.4f, 1.85f, -1.0f}, 0.75f},
      Triangle<float>{{-2.6f, 0.05f, 2.0f}, {-0.8f, 0.05f, 2.0f}, {-1.7f, 1.9f, 1.4f}},
      std::move(hexagon).value(),
      Disc<float>{{4.4f, 1.3f, -1.4f}, normalize(Vec3f{-0.45f, 0.3f, 1.0f}), 0.95f},
      // Extras: a ball in front and a small one at the back, and a log lying in front.
      Sphere<float>{{-2.0f, 0.4f, 4.4f}, 0.4f},
      Sphere<float>{{3.0f, 0.45f, -3.4f}, 0.45f},
      Cylinder<float>{{-1.1f, 0.35f, 4.4f}, {1.0f, 0.35f, 3.7f}, 0.35f},
  };
  scene.camera = default_camera_def();
  scene.camera.position = {0, 3.2f, 9.5f};
  scene.camera.look_at = {0, 0.9f, 0};
  scene.camera.up = {0, 1, 0};
  scene.camera.vertical_fov_radians = 42.0f * kPi<float> / 180.0f;
  scene.camera.width = 960;
  scene.camera.height = 540;
  return scene;
}

}  // namespace hitscan::tools
