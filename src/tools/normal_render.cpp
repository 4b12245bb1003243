#include "tools/normal_render.hpp"

#include <chrono>
#include <cmath>
#include <optional>
#include <vector>

namespace hitscan::tools {
namespace {

std::uint8_t to_byte(float unit) {
  return static_cast<std::uint8_t>(std::lround(clamp(unit, 0.0f, 1.0f) * 255.0f));
}

// Traces a row, then shades it. facing_normal(ray) gives the normal of the side of the surface
// the ray meets, or nothing on a miss.
template <class FacingNormal>
NormalRender render_by_rows(const PinholeCamera& camera, FacingNormal facing_normal, Progress* progress) {
  using Clock = std::chrono::steady_clock;
  NormalRender render;
  render.image = io::Image(camera.width(), camera.height());
  std::vector<std::optional<Vec3f>> row(static_cast<std::size_t>(camera.width()));
  Clock::duration tracing{};

  for (int y = 0; y < camera.height(); ++y) {
    const Clock::time_point start = Clock::now();
    for (int x = 0; x < camera.width(); ++x) {
      row[static_cast<std::size_t>(x)] = facing_normal(camera.ray_through_pixel(x, y));
    }
    tracing += Clock::now() - start;

    for (int x = 0; x < camera.width(); ++x) {
      const std::optional<Vec3f>& normal = row[static_cast<std::size_t>(x)];
      if (!normal) {
        render.image.at(x, y) = background_colour(y, camera.height());
        continue;
      }
      ++render.hits;
      render.image.at(x, y) = normal_colour(*normal);
    }
    if (progress) progress->update(static_cast<std::uint64_t>(y) + 1);
  }
  render.rays = static_cast<std::size_t>(camera.width()) * static_cast<std::size_t>(camera.height());
  render.trace_seconds = std::chrono::duration<double>(tracing).count();
  return render;
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

NormalRender render_normals(std::span<const AnyShape> shapes, const PinholeCamera& camera, Progress* progress) {
  return render_by_rows(camera, [shapes](const Rayf& ray) -> std::optional<Vec3f> {
    const RayHitf hit = closest_hit(shapes, ray).hit;
    if (!hit) return std::nullopt;
    return hit.back_face() ? -hit.normal : hit.normal;
  }, progress);
}

NormalRender render_normals(const MeshBvh& mesh, const PinholeCamera& camera, Progress* progress) {
  return render_by_rows(camera, [&mesh](const Rayf& ray) -> std::optional<Vec3f> {
    const MeshHit hit = mesh.intersect(ray);
    if (!hit) return std::nullopt;
    return hit.back_face ? -hit.shading_normal : hit.shading_normal;
  }, progress);
}

}  // namespace hitscan::tools
