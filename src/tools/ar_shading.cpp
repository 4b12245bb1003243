#include "tools/ar_shading.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace hitscan::tools {
namespace {

io::Rgb8 to_rgb(Vec3f c) {
  const auto byte = [](float unit) { return static_cast<std::uint8_t>(std::lround(std::clamp(unit, 0.0f, 1.0f) * 255)); };
  return {byte(c.x), byte(c.y), byte(c.z)};
}

constexpr Vec3f kHorizon{0.86f, 0.90f, 0.95f};
constexpr Vec3f kZenith{0.42f, 0.60f, 0.86f};
constexpr Vec3f kUnscanned{0.16f, 0.16f, 0.19f};
constexpr Vec3f kFloor{0.66f, 0.65f, 0.62f};
constexpr Vec3f kWall{0.80f, 0.70f, 0.56f};
// Distance over which the fog takes away 1 - 1/e of a surface's colour.
constexpr float kFogDistance = 80.0f;

}  // namespace

io::Rgb8 shade_hit(const QueryHit& hit, const hitscan::PinholeCamera& camera, Vec3f up) {
  // The light comes from above, a little from the camera's right, so that the two sides of a
  // street and the treads and risers of stairs differ.
  Vec3f right = camera.right() - up * dot(camera.right(), up);
  if (length_squared(right) > 0.0f) right = normalize(right);
  const Vec3f light = normalize(up * 2.0f + right * 0.8f - camera.forward() * 0.3f);
  const Vec3f base = dot(hit.normal, up) >= 0.7f ? kFloor : kWall;
  const float lit = 0.35f + 0.65f * std::max(0.0f, dot(hit.normal, light));
  const float fog = 1.0f - std::exp(-hit.distance / kFogDistance);
  return to_rgb(lerp(base * lit, kHorizon, fog));
}

io::Rgb8 shade_miss(Vec3f direction, Vec3f up) {
  const float elevation = dot(normalize(direction), up);
  if (!(elevation > 0.0f)) return to_rgb(kUnscanned);
  return to_rgb(lerp(kHorizon, kZenith, std::sqrt(elevation)));
}

Status shade_scene(const Scene& scene, const hitscan::PinholeCamera& camera, Vec3f up, io::Image& image,
                   Executor* executor) {
  const int width = camera.intrinsics().width, height = camera.intrinsics().height;
  std::vector<QueryRay> rays;
  rays.reserve(static_cast<std::size_t>(width) * static_cast<std::size_t>(height));
  for (int j = 0; j < height; ++j) {
    for (int i = 0; i < width; ++i) {
      rays.push_back(camera.ray_through_pixel(static_cast<float>(i) + 0.5f, static_cast<float>(j) + 0.5f));
    }
  }
  std::vector<QueryHit> hits(rays.size());
  if (Status status = scene.raycast_batch(rays, hits, {}, executor); !status.ok()) return status;
  if (image.width() != width || image.height() != height) image = io::Image(width, height);
  std::span<io::Rgb8> pixels = image.pixels();
  for (std::size_t k = 0; k < hits.size(); ++k) {
    pixels[k] = hits[k] ? shade_hit(hits[k], camera, up) : shade_miss(rays[k].direction, up);
  }
  return {};
}

}  // namespace hitscan::tools
