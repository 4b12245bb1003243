#pragma once
// Meshes generated for the mesh tests (a random triangle soup and a closed, consistently wound
// icosphere), random rays, and the brute-force reference: every triangle through the scalar
// watertight kernel.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "hitscan/geometry/ray_triangle.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "hitscan/mesh/triangle_mesh.hpp"

namespace hitscan::test {

inline std::shared_ptr<const TriangleMesh> random_soup(std::size_t triangles, unsigned seed, float extent = 50.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-extent, extent), s(-2.0f, 2.0f);
  std::vector<Vec3f> positions;
  std::vector<TriangleMesh::Indices> indices;
  for (std::size_t i = 0; i < triangles; ++i) {
    const Vec3f c{u(gen), u(gen), u(gen)};
    const auto base = static_cast<std::uint32_t>(positions.size());
    for (int k = 0; k < 3; ++k) positions.push_back(c + Vec3f{s(gen), s(gen), s(gen)});
    indices.push_back({base, base + 1, base + 2});
  }
  return std::make_shared<const TriangleMesh>(TriangleMesh::make(std::move(positions), std::move(indices)).value());
}

/// A unit icosphere subdivided `levels` times, counter-clockwise seen from outside, scaled and moved.
inline std::shared_ptr<const TriangleMesh> icosphere(int levels, float radius = 1.0f, Vec3f center = {}) {
  const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
  std::vector<Vec3f> p = {{-1, t, 0}, {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                          {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
  std::vector<TriangleMesh::Indices> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                          {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                          {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                          {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (Vec3f& v : p) v = normalize(v);
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> midpoints;
    auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
      const auto key = std::minmax(a, b);
      const auto it = midpoints.find(key);
      if (it != midpoints.end()) return it->second;
      p.push_back(normalize((p[a] + p[b]) * 0.5f));
      return midpoints[key] = static_cast<std::uint32_t>(p.size() - 1);
    };
    std::vector<TriangleMesh::Indices> next;
    for (const auto& tri : f) {
      const std::uint32_t ab = midpoint(tri[0], tri[1]), bc = midpoint(tri[1], tri[2]), ca = midpoint(tri[2], tri[0]);
      next.push_back({tri[0], ab, ca});
      next.push_back({tri[1], bc, ab});
      next.push_back({tri[2], ca, bc});
      next.push_back({ab, bc, ca});
    }
    f = std::move(next);
  }
  for (Vec3f& v : p) v = center + v * radius;
  return std::make_shared<const TriangleMesh>(TriangleMesh::make(std::move(p), std::move(f)).value());
}

struct BruteHit {
  bool hit = false;
  float t = kInfinity<float>;
  std::vector<std::uint32_t> triangles;  // every triangle hit at exactly t
  bool back_face = false;
};

inline BruteHit brute_force(const TriangleMesh& mesh, const Rayf& ray, FaceMode faces) {
  BruteHit best;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    if (!mesh.is_usable(i)) continue;
    const RayHitf h = ray_vs_triangle(mesh.triangle(i), ray);
    if (!h.hit) continue;
    if (faces == FaceMode::front_only && h.back_face()) continue;
    if (faces == FaceMode::back_only && !h.back_face()) continue;
    if (h.t < best.t) best = {true, h.t, {}, h.back_face()};
    if (h.t == best.t) best.triangles.push_back(static_cast<std::uint32_t>(i));
  }
  return best;
}

inline Rayf random_ray(std::mt19937& gen, float extent) {
  std::uniform_real_distribution<float> u(-1, 1);
  const Vec3f origin{u(gen) * extent, u(gen) * extent, u(gen) * extent};
  const Vec3f target{u(gen) * extent * 0.5f, u(gen) * extent * 0.5f, u(gen) * extent * 0.5f};
  Rayf r{origin, (target - origin) * (0.2f + std::abs(u(gen)) * 3), 0, kInfinity<float>};
  if (u(gen) > 0.6f) r.tmax = std::abs(u(gen)) * 1.5f;
  if (u(gen) > 0.8f) r.tmin = std::abs(u(gen)) * 0.3f;
  if (u(gen) > 0.9f) r.dir[static_cast<int>((u(gen) + 1) * 1.49f)] = 0.0f;
  return r;
}

/// The rays of a width x height pinhole image from `eye` towards `target` (`field` wide at unit
/// distance), unit directions, 8 x 8 pixel tile by tile as render_depth orders them: 64
/// consecutive rays per tile, partial tiles at the right and bottom edges.
inline std::vector<Rayf> camera_tile_rays(Vec3f eye, Vec3f target, float field, int width, int height) {
  const Vec3f forward = normalize(target - eye);
  const Vec3f right = normalize(cross(forward, std::abs(forward.z) < 0.9f ? Vec3f{0, 0, 1} : Vec3f{1, 0, 0}));
  const Vec3f up = cross(right, forward);
  std::vector<Rayf> rays;
  for (int ty = 0; ty < height; ty += 8) {
    for (int tx = 0; tx < width; tx += 8) {
      for (int y = ty; y < std::min(height, ty + 8); ++y) {
        for (int x = tx; x < std::min(width, tx + 8); ++x) {
          const float sx = ((float(x) + 0.5f) / float(width) - 0.5f) * field;
          const float sy = ((float(y) + 0.5f) / float(height) - 0.5f) * field;
          rays.push_back({eye, normalize(forward + right * sx - up * sy)});
        }
      }
    }
  }
  return rays;
}

/// Two mesh hits alike in every field, t to the bit.
inline bool same_hit(const MeshHit& a, const MeshHit& b) {
  return a.hit == b.hit && a.back_face == b.back_face && a.triangle == b.triangle &&
         std::memcmp(&a.t, &b.t, sizeof a.t) == 0 && a.u == b.u && a.v == b.v && a.point == b.point &&
         a.normal == b.normal && a.shading_normal == b.shading_normal;
}

}  // namespace hitscan::test
