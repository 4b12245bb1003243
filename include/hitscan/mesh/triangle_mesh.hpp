#pragma once
/// TriangleMesh: positions, triangle indices and optional per-vertex normals, validated once.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "hitscan/geometry/shapes.hpp"
#include "hitscan/status.hpp"

namespace hitscan {

/// What validation found that does not prevent using the mesh.
struct MeshReport {
  /// Triangles of zero area (coincident or collinear corners, including repeated indices): kept in
  /// the mesh so that triangle indices stay those of the input, but left out of any BVH.
  /// "Zero" is exact: the cross product of two edges, computed exactly in double from the float
  /// corners, is the zero vector. A sliver with any area at all is kept, because the watertight
  /// kernel hits it consistently with its neighbours, and leaving it out would open a crack.
  std::size_t degenerate_triangles = 0;
  /// Vertices no triangle refers to.
  std::size_t unreferenced_vertices = 0;
};

class TriangleMesh {
 public:
  using Indices = std::array<std::uint32_t, 3>;

  /// Validates and builds. Fails with invalid_argument, naming the first offender, when a
  /// triangle refers to a vertex index out of range, when a vertex that a triangle refers to has
  /// a NaN or infinite coordinate or one beyond the working range (±kMaxCoordinate), or when normals are given but their count differs from the
  /// vertex count, and with out_of_memory when its own bookkeeping cannot be allocated. An empty
  /// mesh (no triangles) is valid. Degenerate triangles are counted in report(), not rejected;
  /// vertices no triangle refers to may hold anything, NaN included.
  static Result<TriangleMesh> make(std::vector<Vec3f> positions, std::vector<Indices> triangles,
                                   std::vector<Vec3f> normals = {});

  std::span<const Vec3f> positions() const { return positions_; }
  std::span<const Indices> triangles() const { return triangles_; }
  /// Per-vertex normals, or empty. make() normalises them: each is unit length, except that a zero
  /// or non-finite normal becomes the zero vector.
  std::span<const Vec3f> normals() const { return normals_; }
  std::size_t triangle_count() const { return triangles_.size(); }
  std::size_t vertex_count() const { return positions_.size(); }
  const MeshReport& report() const { return report_; }

  /// Corners of triangle i, in the input's winding.
  Trianglef triangle(std::size_t i) const {
    const Indices& t = triangles_[i];
    return {positions_[t[0]], positions_[t[1]], positions_[t[2]]};
  }
  /// False for a degenerate (zero-area) triangle; i must be below triangle_count().
  bool is_usable(std::size_t i) const;
  /// Bounds of every vertex a triangle refers to (the empty box for an empty mesh).
  const Aabbf& bounds() const { return bounds_; }

  /// Moves the vertices, keeping the topology (for deforming meshes: refit the BVH afterwards).
  /// Fails like make() for a wrong count or a non-finite referenced vertex, leaving the mesh as it was.
  /// On success bounds(), is_usable() and report().degenerate_triangles describe the new positions;
  /// the normals are kept as they were.
  Status set_positions(std::vector<Vec3f> positions);

 private:
  std::vector<Vec3f> positions_;
  std::vector<Indices> triangles_;
  std::vector<Vec3f> normals_;
  std::vector<std::uint8_t> usable_;
  MeshReport report_;
  Aabbf bounds_;
};

}  // namespace hitscan
