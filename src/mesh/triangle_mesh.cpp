#include "hitscan/mesh/triangle_mesh.hpp"

#include <charconv>
#include <new>
#include <string>

namespace hitscan {
namespace {

Vec3d to_double(Vec3f p) { return vec3_cast<double>(p); }

// Zero area, exactly: repeated or coincident corners, or corners on one line. Differences of
// floats are exact in double, and so are the products of two of them (24-bit significands), so
// the cross product below is exact and zero only for a truly flat triangle. Anything thinner is
// kept: the watertight kernel hits a sliver consistently, and leaving one out of the tree would
// open a crack in a closed mesh.
bool is_degenerate(Vec3f a, Vec3f b, Vec3f c) {
  const Vec3d p0 = to_double(a);
  return cross(to_double(b) - p0, to_double(c) - p0) == Vec3d{};
}

// Shortest round-trip spelling, so a message shows the very value that failed.
std::string number_text(float x) {
  char buffer[32];
  const std::to_chars_result end = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, end.ptr);
}

std::string vertex_text(Vec3f p) {
  std::string text = "(";
  text += number_text(p.x);
  text += ", ";
  text += number_text(p.y);
  text += ", ";
  text += number_text(p.z);
  text += ")";
  return text;
}

// The first triangle corner, in triangle order, that is out of range, not finite or beyond the
// working range (kMaxCoordinate).
Status check_referenced_vertices(std::span<const Vec3f> positions, std::span<const TriangleMesh::Indices> triangles) {
  const std::size_t n = positions.size();
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    for (const std::uint32_t v : triangles[i]) {
      if (v >= n) {
        return Status{StatusCode::invalid_argument, "triangle " + std::to_string(i) + " refers to vertex " +
                                                        std::to_string(v) + " but the mesh has " +
                                                        std::to_string(n) + " vertices"};
      }
      if (!in_working_range(positions[v])) {
        return Status{StatusCode::invalid_argument,
                      "triangle " + std::to_string(i) + " refers to vertex " + std::to_string(v) +
                          (is_finite(positions[v]) ? std::string(", which ") + kBeyondWorkingRange + " "
                                                   : std::string(", which is not finite ")) +
                          vertex_text(positions[v])};
      }
    }
  }
  return Status::success();
}

// Bounds of the referenced vertices, and which triangles are usable.
void classify_triangles(std::span<const Vec3f> positions, std::span<const TriangleMesh::Indices> triangles,
                        std::span<std::uint8_t> usable, Aabbf& bounds, std::size_t& degenerate_count) {
  bounds = Aabbf::empty();
  degenerate_count = 0;
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    const Vec3f a = positions[triangles[i][0]], b = positions[triangles[i][1]], c = positions[triangles[i][2]];
    bounds.grow(a);
    bounds.grow(b);
    bounds.grow(c);
    const bool degenerate = is_degenerate(a, b, c);
    usable[i] = degenerate ? 0 : 1;
    degenerate_count += degenerate ? 1 : 0;
  }
}

}  // namespace

Result<TriangleMesh> TriangleMesh::make(std::vector<Vec3f> positions, std::vector<Indices> triangles,
                                        std::vector<Vec3f> normals) {
  if (!normals.empty() && normals.size() != positions.size()) {
    return Status{StatusCode::invalid_argument, "mesh has " + std::to_string(normals.size()) + " normals but " +
                                                    std::to_string(positions.size()) + " vertices"};
  }
  if (Status status = check_referenced_vertices(positions, triangles); !status.ok()) return status;

  try {
    TriangleMesh mesh;
    std::vector<std::uint8_t> referenced(positions.size(), 0);
    for (const Indices& t : triangles) {
      for (const std::uint32_t v : t) referenced[v] = 1;
    }
    for (const std::uint8_t r : referenced) mesh.report_.unreferenced_vertices += r == 0 ? 1 : 0;
    for (Vec3f& n : normals) n = normalize(n);
    mesh.positions_ = std::move(positions);
    mesh.triangles_ = std::move(triangles);
    mesh.normals_ = std::move(normals);
    mesh.usable_.resize(mesh.triangles_.size());
    classify_triangles(mesh.positions_, mesh.triangles_, mesh.usable_, mesh.bounds_, mesh.report_.degenerate_triangles);
    return mesh;
  } catch (const std::bad_alloc&) {
    return Status{StatusCode::out_of_memory, "out of memory while building a triangle mesh"};
  }
}

bool TriangleMesh::is_usable(std::size_t i) const {
  HITSCAN_ASSERT(i < usable_.size());
  return usable_[i] != 0;
}

Status TriangleMesh::set_positions(std::vector<Vec3f> positions) {
  if (positions.size() != positions_.size()) {
    return Status{StatusCode::invalid_argument, "set_positions got " + std::to_string(positions.size()) +
                                                    " vertices but the mesh has " + std::to_string(positions_.size())};
  }
  if (Status status = check_referenced_vertices(positions, triangles_); !status.ok()) return status;
  // Nothing below allocates, so the mesh cannot be left half updated.
  positions_.swap(positions);
  classify_triangles(positions_, triangles_, usable_, bounds_, report_.degenerate_triangles);
  return Status::success();
}

}  // namespace hitscan
