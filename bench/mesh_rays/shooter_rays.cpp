#include "shooter_rays.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "hitscan/mesh/mesh_bvh.hpp"

namespace hitscan::bench {
namespace {

// Quake 3's player (code/game/bg_public.h, bg_local.h): a box 30 wide from 24 below its origin to
// 32 above, eyes 26 above the origin, and floors steeper than MIN_WALK_NORMAL not walkable.
constexpr float kOriginHeight = 24, kPlayerHeight = 56, kEyeHeight = 50, kClearance = 16;
constexpr float kMinWalkNormal = 0.7f;
constexpr std::size_t kPlayers = 256, kViews = 16;

std::vector<Vec3f> player_eyes(std::shared_ptr<const TriangleMesh> level, std::mt19937& generator) {
  const TriangleMesh& mesh = *level;
  // Walkable triangles and their running area, to draw from by area.
  std::vector<std::uint32_t> floors;
  std::vector<double> area_sum;
  double area = 0;
  for (std::uint32_t i = 0; i < mesh.triangle_count(); ++i) {
    const Trianglef t = mesh.triangle(i);
    const Vec3f n = cross(t.v1 - t.v0, t.v2 - t.v0);
    const float twice_area = length(n);
    if (twice_area <= 0 || n.z < kMinWalkNormal * twice_area) continue;
    area += 0.5 * twice_area;
    floors.push_back(i);
    area_sum.push_back(area);
  }
  if (floors.empty()) throw std::runtime_error("the level has no walkable triangle");
  Result<MeshBvh> bvh = MeshBvh::build(std::move(level));
  if (!bvh) throw std::runtime_error("MeshBvh::build failed: " + bvh.status().message());
  const auto blocked = [&](Vec3f from, Vec3f dir, float distance) {
    return bvh.value().occluded(Rayf{from, dir, 0.0f, distance});
  };

  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<Vec3f> eyes;
  for (std::size_t attempt = 0; eyes.size() < kPlayers && attempt < 100 * kPlayers; ++attempt) {
    const std::size_t k = std::size_t(std::upper_bound(area_sum.begin(), area_sum.end(), unit(generator) * area) -
                                      area_sum.begin());
    const Trianglef t = mesh.triangle(floors[std::min(k, floors.size() - 1)]);
    // Uniform on the triangle (Osada et al. 2002, "Shape distributions", section 4.2).
    const float r1 = std::sqrt(float(unit(generator))), r2 = float(unit(generator));
    const Vec3f feet = t.v0 * (1 - r1) + t.v1 * (r1 * (1 - r2)) + t.v2 * (r1 * r2);
    const Vec3f origin = feet + Vec3f{0, 0, kOriginHeight};
    if (blocked(feet + Vec3f{0, 0, 0.25f}, {0, 0, 1}, kPlayerHeight)) continue;
    bool hemmed = false;
    for (const Vec3f side : {Vec3f{1, 0, 0}, Vec3f{-1, 0, 0}, Vec3f{0, 1, 0}, Vec3f{0, -1, 0}}) {
      hemmed = hemmed || blocked(origin, side, kClearance);
    }
    if (!hemmed) eyes.push_back(feet + Vec3f{0, 0, kEyeHeight});
  }
  if (eyes.size() < 2) throw std::runtime_error("no room for players on the level's floors");
  return eyes;
}

// A heading in the horizontal plane at a uniform random angle.
Vec3f random_heading(std::mt19937& generator) {
  const float angle = std::uniform_real_distribution<float>(0.0f, 2.0f * kPi<float>)(generator);
  return {std::cos(angle), std::sin(angle), 0.0f};
}

}  // namespace

std::vector<RaySet> shooter_rays(std::shared_ptr<const TriangleMesh> level, std::size_t count) {
  std::mt19937 generator(20250301);
  const float tmax = length(level->bounds().extent()) * 1.001f;  // no point of the level is farther
  const std::vector<Vec3f> eyes = player_eyes(std::move(level), generator);
  std::uniform_int_distribution<std::size_t> player(0, eyes.size() - 1);

  // The view: 4:3 images, 90 degrees across (Quake 3's default field of view).
  RaySet view{"view", {}, true};
  const std::size_t views = std::min(kViews, eyes.size());
  const double pixels = double(count) / double(views);
  const int width = std::max(8, int(std::sqrt(pixels * 4.0 / 3.0)) / 8 * 8);
  const int height = std::max(8, width * 3 / 4 / 8 * 8);
  for (std::size_t v = 0; v < views; ++v) {
    const Vec3f forward = random_heading(generator);
    const Vec3f right = cross(forward, Vec3f{0, 0, 1});
    const Camera camera{eyes[v], forward, right, cross(right, forward), 1.0f, float(height) / float(width), tmax};
    append_camera_rays(camera, width, height, view.rays);
  }

  RaySet shots{"shots", {}};
  std::uniform_real_distribution<float> elevation(-0.5f, 0.5f);  // sine of the aim above level
  for (std::size_t i = 0; i < count; ++i) {
    const Vec3f eye = eyes[player(generator)];
    const float z = elevation(generator);
    shots.rays.push_back({eye, random_heading(generator) * std::sqrt(1 - z * z) + Vec3f{0, 0, z}, 0.0f, tmax});
  }

  RaySet sight{"sight", {}, false, false, true};
  while (sight.rays.size() < count) {
    const Vec3f from = eyes[player(generator)], to = eyes[player(generator)];
    const float distance = length(to - from);
    if (distance > 0) sight.rays.push_back({from, (to - from) / distance, 0.0f, distance});
  }
  return {std::move(view), std::move(shots), std::move(sight)};
}

}  // namespace hitscan::bench
