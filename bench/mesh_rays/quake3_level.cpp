#include "quake3_level.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace hitscan::bench {
namespace {

// The file layout, from id Software's Quake III Arena source (code/qcommon/qfiles.h): a header
// of magic, version and 17 lumps (offset, length); the lumps read here hold shaders (dshader_t),
// draw vertices (drawVert_t), mesh vertex indices and surfaces (dsurface_t), all little-endian.
constexpr int kVersion = 46;
constexpr int kLumpShaders = 1, kLumpDrawVertices = 10, kLumpDrawIndices = 11, kLumpSurfaces = 13;
constexpr std::size_t kLumps = 17;
constexpr std::size_t kShaderSize = 72, kDrawVertexSize = 44, kSurfaceSize = 104;
constexpr std::int32_t kSurfaceSky = 0x4;  // SURF_SKY (surfaceflags.h)
enum SurfaceType : std::int32_t { kPlanar = 1, kPatch = 2, kTriangleSoup = 3 };

class BspFile {
 public:
  explicit BspFile(const std::string& path) : path_(path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path);
    bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (bytes_.size() < 8 + 8 * kLumps || std::memcmp(bytes_.data(), "IBSP", 4) != 0 || read_int(4) != kVersion) {
      throw std::runtime_error(path + " is not an IBSP version 46 file");
    }
  }

  // The offset and element count of a lump of `element_size`-byte records.
  std::pair<std::size_t, std::size_t> lump(int index, std::size_t element_size) const {
    const std::int32_t offset = read_int(8 + 8 * std::size_t(index)), length = read_int(12 + 8 * std::size_t(index));
    if (offset < 0 || length < 0 || std::size_t(offset) + std::size_t(length) > bytes_.size() ||
        std::size_t(length) % element_size != 0) {
      throw std::runtime_error(path_ + ": lump " + std::to_string(index) + " lies outside the file");
    }
    return {std::size_t(offset), std::size_t(length) / element_size};
  }

  std::int32_t read_int(std::size_t at) const {
    std::int32_t v;
    std::memcpy(&v, bytes_.data() + at, sizeof v);
    return v;
  }
  Vec3f read_vec3(std::size_t at) const {
    float v[3];
    std::memcpy(v, bytes_.data() + at, sizeof v);
    return {v[0], v[1], v[2]};
  }
  const char* data(std::size_t at) const { return bytes_.data() + at; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::vector<char> bytes_;
};

static_assert(sizeof(float) == 4 && sizeof(std::int32_t) == 4);

bool is_sky(const BspFile& file, std::size_t shader_at) {
  std::string name(file.data(shader_at), strnlen(file.data(shader_at), 64));
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return name.find("sky") != std::string::npos || (file.read_int(shader_at + 64) & kSurfaceSky) != 0;
}

struct Vertex {
  Vec3f position;
  Vec3f normal;
};

// The triangles being gathered, each wound so that its geometric normal agrees with the summed
// vertex normals (the side the level shows).
struct LevelBuilder {
  std::vector<Vec3f> positions;
  std::vector<TriangleMesh::Indices> triangles;

  void add(const std::array<std::uint32_t, 3>& corners, const std::array<Vec3f, 3>& normals) {
    const Vec3f a = positions[corners[0]], b = positions[corners[1]], c = positions[corners[2]];
    const bool flip = dot(cross(b - a, c - a), normals[0] + normals[1] + normals[2]) < 0;
    triangles.push_back(flip ? TriangleMesh::Indices{corners[0], corners[2], corners[1]} : corners);
  }
};

// Biquadratic Bezier: the point at (u, v) of a 3x3 block of control vertices, rows along v.
Vertex bezier(const std::array<Vertex, 9>& control, float u, float v) {
  const float bu[3] = {(1 - u) * (1 - u), 2 * u * (1 - u), u * u};
  const float bv[3] = {(1 - v) * (1 - v), 2 * v * (1 - v), v * v};
  Vertex out{{0, 0, 0}, {0, 0, 0}};
  for (int row = 0; row < 3; ++row) {
    for (int column = 0; column < 3; ++column) {
      const float w = bv[row] * bu[column];
      out.position = out.position + control[3 * row + column].position * w;
      out.normal = out.normal + control[3 * row + column].normal * w;
    }
  }
  return out;
}

}  // namespace

TriangleMesh load_quake3_level(const std::string& path) {
  const BspFile file(path);
  const auto [shaders_at, shader_count] = file.lump(kLumpShaders, kShaderSize);
  const auto [vertices_at, vertex_count] = file.lump(kLumpDrawVertices, kDrawVertexSize);
  const auto [indices_at, index_count] = file.lump(kLumpDrawIndices, 4);
  const auto [surfaces_at, surface_count] = file.lump(kLumpSurfaces, kSurfaceSize);
  const auto vertex = [&](std::size_t i) {
    const std::size_t at = vertices_at + i * kDrawVertexSize;
    return Vertex{file.read_vec3(at), file.read_vec3(at + 28)};
  };
  const auto bad = [&](std::size_t surface, const char* what) {
    return std::runtime_error(file.path() + ": surface " + std::to_string(surface) + " " + what);
  };

  LevelBuilder level;
  // Draw vertices are copied once, when a kept triangle first uses them.
  std::vector<std::uint32_t> copied(vertex_count, ~0u);
  const auto copy_vertex = [&](std::size_t i) {
    if (copied[i] == ~0u) {
      copied[i] = std::uint32_t(level.positions.size());
      level.positions.push_back(vertex(i).position);
    }
    return copied[i];
  };

  for (std::size_t s = 0; s < surface_count; ++s) {
    const std::size_t at = surfaces_at + s * kSurfaceSize;
    const std::int32_t shader = file.read_int(at), type = file.read_int(at + 8);
    const std::int32_t first_vertex = file.read_int(at + 12), vertices = file.read_int(at + 16);
    const std::int32_t first_index = file.read_int(at + 20), indices = file.read_int(at + 24);
    if (type != kPlanar && type != kPatch && type != kTriangleSoup) continue;
    if (shader < 0 || std::size_t(shader) >= shader_count) throw bad(s, "names no shader");
    if (is_sky(file, shaders_at + std::size_t(shader) * kShaderSize)) continue;
    if (first_vertex < 0 || vertices < 0 || std::size_t(first_vertex) + std::size_t(vertices) > vertex_count) {
      throw bad(s, "has vertices outside the file's");
    }
    if (type != kPatch) {
      if (first_index < 0 || indices < 0 || indices % 3 != 0 ||
          std::size_t(first_index) + std::size_t(indices) > index_count) {
        throw bad(s, "has mesh vertices outside the file's");
      }
      for (std::int32_t k = 0; k < indices; k += 3) {
        std::array<std::uint32_t, 3> corners;
        std::array<Vec3f, 3> normals;
        for (int c = 0; c < 3; ++c) {
          const std::int32_t offset = file.read_int(indices_at + 4 * std::size_t(first_index + k + c));
          if (offset < 0 || offset >= vertices) throw bad(s, "has a mesh vertex outside its vertices");
          corners[c] = copy_vertex(std::size_t(first_vertex + offset));
          normals[c] = vertex(std::size_t(first_vertex + offset)).normal;
        }
        level.add(corners, normals);
      }
      continue;
    }
    // A patch: width x height control vertices (both odd), 3x3 blocks overlapping by one row
    // and one column.
    const std::int32_t width = file.read_int(at + 96), height = file.read_int(at + 100);
    if (width < 3 || height < 3 || width % 2 == 0 || height % 2 == 0 || width * height != vertices) {
      throw bad(s, "is a patch of a size other than odd width x odd height control vertices");
    }
    constexpr int n = kPatchTessellation;
    for (std::int32_t block_y = 0; block_y + 2 < height; block_y += 2) {
      for (std::int32_t block_x = 0; block_x + 2 < width; block_x += 2) {
        std::array<Vertex, 9> control;
        for (int row = 0; row < 3; ++row) {
          for (int column = 0; column < 3; ++column) {
            control[3 * row + column] = vertex(std::size_t(first_vertex + (block_y + row) * width + block_x + column));
          }
        }
        const std::uint32_t base = std::uint32_t(level.positions.size());
        std::vector<Vec3f> normals;
        for (int j = 0; j <= n; ++j) {
          for (int i = 0; i <= n; ++i) {
            const Vertex p = bezier(control, float(i) / n, float(j) / n);
            level.positions.push_back(p.position);
            normals.push_back(p.normal);
          }
        }
        const auto corner = [&](int i, int j) { return std::uint32_t(j * (n + 1) + i); };
        for (int j = 0; j < n; ++j) {
          for (int i = 0; i < n; ++i) {
            for (const auto& [c0, c1, c2] : {std::array{corner(i, j), corner(i + 1, j), corner(i + 1, j + 1)},
                                             std::array{corner(i, j), corner(i + 1, j + 1), corner(i, j + 1)}}) {
              level.add({base + c0, base + c1, base + c2}, {normals[c0], normals[c1], normals[c2]});
            }
          }
        }
      }
    }
  }
  Result<TriangleMesh> mesh = TriangleMesh::make(std::move(level.positions), std::move(level.triangles));
  if (!mesh) throw std::runtime_error(path + ": " + mesh.status().message());
  return std::move(mesh).value();
}

}  // namespace hitscan::bench
