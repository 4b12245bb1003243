#pragma once
/// MeshBvh: ray queries against a triangle mesh through an 8-wide BVH whose leaves hold the
/// triangles structure-of-arrays, tested 8 at a time with the watertight kernel.

#include <cstdint>
#include <memory>

#include "hitscan/bvh/build.hpp"
#include "hitscan/geometry/ray.hpp"
#include "hitscan/mesh/triangle_mesh.hpp"

namespace hitscan {

/// Which faces a query hits. The front is the side (v1 - v0) x (v2 - v0) points to.
enum class FaceMode : std::uint8_t { both, front_only, back_only };

inline constexpr std::uint32_t kNoTriangle = 0xFFFFFFFFu;

/// A ray's hit on a mesh. On a miss `hit` is false, t = +inf and triangle = kNoTriangle.
struct MeshHit {
  bool hit = false;
  bool back_face = false;
  float t = kInfinity<float>;
  /// Barycentrics: point = (1 - u - v) v0 + u v1 + v v2.
  float u = 0, v = 0;
  std::uint32_t triangle = kNoTriangle;
  Vec3f point{};
  /// Unit geometric normal (v1 - v0) x (v2 - v0) of the hit triangle, as wound, not flipped.
  Vec3f normal{};
  /// The mesh's vertex normals interpolated with u, v and normalised; the geometric normal when
  /// the mesh has none.
  Vec3f shading_normal{};

  explicit operator bool() const { return hit; }
};

class MeshBvh {
 public:
  /// Builds the tree over the mesh's usable triangles (degenerate ones are left out). An empty
  /// mesh gives a tree that every ray misses.
  static Result<MeshBvh> build(std::shared_ptr<const TriangleMesh> mesh, const bvh::BuildSettings& settings = {});

  /// The closest hit within [tmin, tmax]. Invalid rays miss.
  MeshHit intersect(const Rayf& ray, FaceMode faces = FaceMode::both) const;
  /// Whether anything is hit within [tmin, tmax]; stops at the first hit found.
  bool occluded(const Rayf& ray, FaceMode faces = FaceMode::both) const;

  const TriangleMesh& mesh() const { return *mesh_; }
  /// Bytes of the tree and its triangle packs (not counting the mesh itself).
  std::size_t memory_bytes() const;
  std::size_t node_count() const;

  struct Data;  // private layout, defined in src/mesh

 private:
  std::shared_ptr<const TriangleMesh> mesh_;
  std::shared_ptr<const Data> data_;
};

}  // namespace hitscan
