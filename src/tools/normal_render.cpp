#include "tools/normal_render.hpp"

#include <chrono>
#include <cmath>
#include <vector>

namespace hitscan::tools {
namespace {

std::uint8_t to_byte(float unit) {
  return static_cast<std::uint8_t>(std::lround(clamp(unit, 0.0f, 1.0f) * 255.0f));
}

}  // namespace

io::Rgb8 normal_colour(Vec3f normal) {
  return {to_byte(0.5f * (normal.x + 1.0f)), to_byte(0.5f * (normal.y + 1.0f)), to_byte(0.5f * (normal.z + 1.0f))};
}

io::Rgb8 background_colour(int y, int height) {
  const float s = height > 1 ? static_cast<float>(y) / static_cast<float>(height - 1) : 0.0f;
  const Vec3f c = lerp(Vec3f{0.45f, 0.62f, 0.85f}, Vec3f{0.88f, 0.92f, 0.97f}, s);
  return {to_byte(c.x), to_byte(c.y), to_byte(c.z)};
}

NormalRender render_normals(std::span<const AnyShape> shapes, const PinholeCamera& camera) {
  using Clock = std::chrono::steady_clock;
  NormalRender render;
  render.image = io::Image(camera.width(), camera.height());
  std::vector<ClosestHit> row(static_cast<std::size_t>(camera.width()));
  Clock::duration tracing{};

  for (int y = 0; y < camera.height(); ++y) {
    const Clock::time_point start = Clock::now();
    for (int x = 0; x < camera.width(); ++x) {
      row[static_cast<std::size_t>(x)] = closest_hit(shapes, camera.ray_through_pixel(x, y));
    }
    tracing += Clock::now() - start;

    for (int x = 0; x < camera.width(); ++x) {
      const RayHitf& hit = row[static_cast<std::size_t>(x)].hit;
      if (!hit) {
        render.image.at(x, y) = background_colour(y, camera.height());
        continue;
      }
      ++render.hits;
      render.image.at(x, y) = normal_colour(hit.back_face() ? -hit.normal : hit.normal);
    }
  }
  render.rays = static_cast<std::size_t>(camera.width()) * static_cast<std::size_t>(camera.height());
  render.trace_seconds = std::chrono::duration<double>(tracing).count();
  return render;
}

}  // namespace hitscan::tools
