#include "bench_meshes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "hitscan/io/mesh_loader.hpp"
#include "quake3_level.hpp"

namespace hitscan::bench {
namespace {

struct MeshSource {
  const char* name;
  const char* path;
};

const MeshSource kSources[] = {
    {"armadillo", HITSCAN_BENCH_CGAL_MESH_DIR "/armadillo.off"},
    {"bunny", HITSCAN_BENCH_CGAL_MESH_DIR "/bunny00.off"},
    {"wuson", HITSCAN_BENCH_ASSIMP_MODEL_DIR "/STL/Wuson.stl"},
    {"spider", HITSCAN_BENCH_ASSIMP_MODEL_DIR "/STL/Spider_binary.stl"},
};

// Quake 3 levels from 3.3k to 41k triangles (aggressor, wrackdm17, ctf_inyard, oasago2 ascending).
const char* const kLevels[] = {"oasago2", "ctf_inyard", "wrackdm17", "aggressor"};

constexpr int kNoisySphereLevels = 8;  // 20 * 4^8 = 1,310,720 triangles
constexpr int kTerrainQuads = 1450;    // 2 * 1450^2 = 4,205,000 triangles

// A lattice point hashed to [-1, 1]: its coordinates combined with Teschner et al.'s primes
// (2003, "Optimized spatial hashing"), then mixed by Thomas Wang's 32-bit integer hash.
float lattice_value(int x, int y, int octave) {
  std::uint32_t h = std::uint32_t(x) * 73856093u ^ std::uint32_t(y) * 19349663u ^ std::uint32_t(octave) * 83492791u;
  h = (h ^ 61u) ^ (h >> 16);
  h *= 9u;
  h ^= h >> 4;
  h *= 0x27d4eb2du;
  h ^= h >> 15;
  return float(h) / float(0xffffffffu) * 2.0f - 1.0f;
}

// Value noise: lattice values blended with Perlin's quintic fade (Perlin 2002, "Improving noise").
float value_noise(float x, float y, int octave) {
  const float fx = std::floor(x), fy = std::floor(y);
  const int ix = int(fx), iy = int(fy);
  const auto fade = [](float t) { return t * t * t * (t * (t * 6 - 15) + 10); };
  const float u = fade(x - fx), v = fade(y - fy);
  const float bottom = lattice_value(ix, iy, octave) * (1 - u) + lattice_value(ix + 1, iy, octave) * u;
  const float top = lattice_value(ix, iy + 1, octave) * (1 - u) + lattice_value(ix + 1, iy + 1, octave) * u;
  return bottom * (1 - v) + top * v;
}

// Bumps at three scales, from a fifth of the radius down to about 15 triangles across.
float bumpy_radius(Vec3f d) {
  return 1.0f + 0.06f * std::sin(5.0f * d.x + 1.0f) * std::sin(6.0f * d.y + 2.0f) * std::sin(7.0f * d.z + 3.0f) +
         0.02f * std::sin(23.0f * d.x) * std::sin(29.0f * d.y + 1.0f) * std::sin(31.0f * d.z + 2.0f) +
         0.004f * std::sin(97.0f * d.x + 2.0f) * std::sin(101.0f * d.y) * std::sin(103.0f * d.z + 1.0f);
}

}  // namespace

std::vector<std::string> bench_mesh_names() {
  std::vector<std::string> names;
  for (const MeshSource& source : kSources) names.emplace_back(source.name);
  for (const char* level : kLevels) names.emplace_back(level);
  names.emplace_back("noisy_sphere");
  names.emplace_back("terrain");
  return names;
}

bool is_game_level(const std::string& name) {
  return std::find(std::begin(kLevels), std::end(kLevels), name) != std::end(kLevels);
}

TriangleMesh noisy_sphere(int levels) {
  const float g = (1.0f + std::sqrt(5.0f)) / 2.0f;
  std::vector<Vec3f> vertices = {{-1, g, 0},  {1, g, 0},  {-1, -g, 0}, {1, -g, 0}, {0, -1, g},  {0, 1, g},
                                 {0, -1, -g}, {0, 1, -g}, {g, 0, -1},  {g, 0, 1},  {-g, 0, -1}, {-g, 0, 1}};
  for (Vec3f& v : vertices) v = normalize(v);
  std::vector<TriangleMesh::Indices> triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                                  {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                                  {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                                  {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (int level = 0; level < levels; ++level) {
    // Each edge's midpoint is made once and shared by the two triangles on it.
    std::unordered_map<std::uint64_t, std::uint32_t> midpoints;
    midpoints.reserve(triangles.size() * 3 / 2);
    auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
      const std::uint64_t key = (std::uint64_t(std::min(a, b)) << 32) | std::max(a, b);
      const auto [it, inserted] = midpoints.try_emplace(key, std::uint32_t(vertices.size()));
      if (inserted) vertices.push_back(normalize(vertices[a] + vertices[b]));
      return it->second;
    };
    std::vector<TriangleMesh::Indices> finer;
    finer.reserve(triangles.size() * 4);
    for (const auto& [a, b, c] : triangles) {
      const std::uint32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      finer.push_back({a, ab, ca});
      finer.push_back({b, bc, ab});
      finer.push_back({c, ca, bc});
      finer.push_back({ab, bc, ca});
    }
    triangles = std::move(finer);
  }
  for (Vec3f& v : vertices) v = v * bumpy_radius(v);
  return TriangleMesh::make(std::move(vertices), std::move(triangles)).value();
}

TriangleMesh terrain(int quads) {
  // Seven octaves of value noise (fractional Brownian motion: each octave twice the frequency and
  // half the amplitude), from 4 hills across the square down to features about 6 quads wide.
  constexpr int kOctaves = 7;
  const int side = quads + 1;
  std::vector<Vec3f> vertices;
  vertices.reserve(std::size_t(side) * std::size_t(side));
  for (int j = 0; j < side; ++j) {
    for (int i = 0; i < side; ++i) {
      const float x = 2.0f * float(i) / float(quads) - 1.0f, y = 2.0f * float(j) / float(quads) - 1.0f;
      float height = 0, amplitude = 0.15f, frequency = 2.0f;
      for (int octave = 0; octave < kOctaves; ++octave) {
        height += amplitude * value_noise(x * frequency, y * frequency, octave);
        amplitude *= 0.5f;
        frequency *= 2.0f;
      }
      vertices.push_back({x, y, height});
    }
  }
  std::vector<TriangleMesh::Indices> triangles;
  triangles.reserve(2 * std::size_t(quads) * std::size_t(quads));
  for (int j = 0; j < quads; ++j) {
    for (int i = 0; i < quads; ++i) {
      const std::uint32_t a = std::uint32_t(j * side + i), b = a + 1, c = a + std::uint32_t(side), d = c + 1;
      triangles.push_back({a, b, d});
      triangles.push_back({a, d, c});
    }
  }
  return TriangleMesh::make(std::move(vertices), std::move(triangles)).value();
}

std::shared_ptr<const TriangleMesh> make_bench_mesh(const std::string& name) {
  if (name == "noisy_sphere") return std::make_shared<const TriangleMesh>(noisy_sphere(kNoisySphereLevels));
  if (name == "terrain") return std::make_shared<const TriangleMesh>(terrain(kTerrainQuads));
  if (is_game_level(name)) {
    return std::make_shared<const TriangleMesh>(load_quake3_level(HITSCAN_BENCH_LEVEL_DIR "/" + name + ".bsp"));
  }
  for (const MeshSource& source : kSources) {
    if (name != source.name) continue;
    Result<TriangleMesh> mesh = io::load_mesh(source.path);
    if (!mesh) throw std::runtime_error("cannot load " + std::string(source.path) + ": " + mesh.status().message());
    return std::make_shared<const TriangleMesh>(std::move(mesh).value());
  }
  throw std::runtime_error("unknown mesh '" + name + "'");
}

}  // namespace hitscan::bench
