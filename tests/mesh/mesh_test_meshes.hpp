#pragma once
// Meshes generated for the mesh tests: a random triangle soup and a closed, consistently wound
// icosphere.

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <vector>

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

}  // namespace hitscan::test
