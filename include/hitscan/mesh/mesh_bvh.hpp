#pragma once
/// MeshBvh: ray queries against a triangle mesh through an 8-wide BVH whose leaves hold the
/// triangles structure-of-arrays, tested 8 at a time with the watertight kernel.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "hitscan/bvh/build.hpp"
#include "hitscan/executor.hpp"
#include "hitscan/geometry/closest_point.hpp"
#include "hitscan/geometry/ray.hpp"
#include "hitscan/math/transform.hpp"
#include "hitscan/mesh/triangle_mesh.hpp"

namespace hitscan {

namespace mesh_packet {
struct Packet;  // a prepared run of coherent rays (hitscan/mesh/detail/ray_packet.hpp)
struct Trace;
}  // namespace mesh_packet

/// Which faces a query hits. The front is the side (v1 - v0) x (v2 - v0) points to.
enum class FaceMode : std::uint8_t { both, front_only, back_only };

/// The primitive (triangle) index of no primitive: MeshHit::triangle and QueryHit::primitive on a
/// miss, and QueryHit::primitive for analytic shapes.
inline constexpr std::uint32_t kNoPrimitive = 0xFFFFFFFFu;

/// A ray's hit on a mesh. On a miss `hit` is false, t = +inf and triangle = kNoPrimitive.
struct MeshHit {
  bool hit = false;
  bool back_face = false;
  float t = kInfinity<float>;
  /// Barycentrics: point = (1 - u - v) v0 + u v1 + v v2.
  float u = 0, v = 0;
  std::uint32_t triangle = kNoPrimitive;
  Vec3f point{};
  /// Unit geometric normal (v1 - v0) x (v2 - v0) of the hit triangle, as wound, not flipped.
  Vec3f normal{};
  /// The mesh's vertex normals interpolated with u, v and normalised; the geometric normal when
  /// the mesh has none.
  Vec3f shading_normal{};

  explicit operator bool() const { return hit; }
};

/// The fields of a MeshHit a query computes beyond hit, t, u, v, triangle and back_face, which it
/// always fills: a caller that needs only the distance or the triangle skips the point and the
/// normals (a square root and a division each). Fields left out keep their defaults (zero).
enum class HitFields : std::uint8_t {
  basic = 0,
  point = 1,
  normal = 2,
  shading_normal = 4,
  all = point | normal | shading_normal,
};
constexpr HitFields operator|(HitFields a, HitFields b) {
  return static_cast<HitFields>(static_cast<std::uint8_t>(a) | static_cast<std::uint8_t>(b));
}
constexpr bool has(HitFields set, HitFields field) {
  return (static_cast<std::uint8_t>(set) & static_cast<std::uint8_t>(field)) != 0;
}
/// `set` without the fields of `removed`.
constexpr HitFields without(HitFields set, HitFields removed) {
  return static_cast<HitFields>(static_cast<std::uint8_t>(set) & ~static_cast<std::uint8_t>(removed));
}

/// The point of a mesh nearest to a query point. On a miss `found` is false, distance is +inf and
/// triangle = kNoPrimitive.
struct MeshClosestPoint {
  bool found = false;
  /// Where on the triangle the point lies (face, edge or vertex; see TriangleClosestPoint).
  Feature feature = Feature::face;
  float distance = kInfinity<float>;
  std::uint32_t triangle = kNoPrimitive;
  /// Barycentrics: point = (1 - u - v) v0 + u v1 + v v2.
  float u = 0, v = 0;
  Vec3f point{};
  /// Unit geometric normal (v1 - v0) x (v2 - v0) of the triangle, as wound.
  Vec3f normal{};

  explicit operator bool() const { return found; }
};

class MeshBvh {
 public:
  /// Builds the tree over the mesh's usable triangles (degenerate ones are left out), splitting
  /// subtrees over `executor` (the default pool when null); the tree does not depend on it. An
  /// empty mesh gives a tree that every ray misses. Fails with invalid_argument for a
  /// max_leaf_size above 1020.
  static Result<MeshBvh> build(std::shared_ptr<const TriangleMesh> mesh, const bvh::BuildSettings& settings = {},
                               Executor* executor = nullptr);

  /// The closest hit within [tmin, tmax]; of triangles hit at exactly the same t, the lowest
  /// triangle index, whatever the order of the walk. Invalid rays miss. `fields` picks which of
  /// the point and the normals are computed (see HitFields).
  MeshHit intersect(const Rayf& ray, FaceMode faces = FaceMode::both, HitFields fields = HitFields::all) const;
  /// The same hit, also counting the work it took: wide nodes whose 8 boxes were tested and
  /// triangles tested (4 per leaf pack, padding included). For seeing where a tree is slow.
  struct TraversalCost {
    std::uint32_t nodes = 0;
    std::uint32_t triangles = 0;
  };
  MeshHit intersect(const Rayf& ray, FaceMode faces, TraversalCost& cost) const;
  /// The boxes of the wide tree's children `depth` levels below the root (0: the root's
  /// children), a leaf reached above that depth giving its own box, so that the boxes cover every
  /// triangle in the tree. Empty for an empty tree; depth below 0 is taken as 0.
  std::vector<Aabbf> node_boxes(int depth) const;
  /// Whether anything is hit within [tmin, tmax]; stops at the first hit found.
  bool occluded(const Rayf& ray, FaceMode faces = FaceMode::both) const;

  /// Every hit within [tmin, tmax], sorted by t (then by triangle index), into `out` (cleared
  /// first). Each surface crossing is reported once: a ray through an edge or vertex shared by
  /// consistently wound triangles hits exactly one of them. Returns the count.
  std::size_t intersect_all(const Rayf& ray, std::vector<MeshHit>& out, FaceMode faces = FaceMode::both,
                            HitFields fields = HitFields::all) const;
  /// The same into a caller's buffer: writes the nearest min(total, buffer.size()) hits and returns
  /// how many it wrote; `total`, when given, receives how many there were (the rest were dropped).
  std::size_t intersect_all(const Rayf& ray, std::span<MeshHit> buffer, FaceMode faces = FaceMode::both,
                            std::size_t* total = nullptr) const;

  /// Many rays at once: hits[i] = intersect(rays[i], faces, fields), split over `executor` (the
  /// default pool when null); identical to tracing one at a time. Over a tree larger than 32 MiB
  /// a batch of 2048 rays or more is traced in an order that keeps rays from nearby origins
  /// together (so that they find the tree's nodes in cache), each answer written to its ray's
  /// place. Fails with invalid_argument when the spans differ in size. No allocation per ray.
  Status intersect_batch(std::span<const Rayf> rays, std::span<MeshHit> hits, FaceMode faces = FaceMode::both,
                         Executor* executor = nullptr, HitFields fields = HitFields::all) const;
  /// Many coherent rays at once, on the calling thread: hits[i] = intersect(rays[i], faces), the
  /// same triangle and t (of triangles hit at exactly the same t, the lowest index, as intersect
  /// gives). Consecutive rays are traced in packets of up to 64 that walk the tree together, so
  /// it pays when they are coherent (the rays of an image tile: same origin, nearby directions);
  /// incoherent rays are still answered right, only no faster. Fails with invalid_argument when
  /// the spans differ in size. No allocation.
  Status intersect_coherent(std::span<const Rayf> rays, std::span<MeshHit> hits,
                            FaceMode faces = FaceMode::both) const;
  /// occluded[i] = occluded(rays[i], faces) as 0 or 1, in the same way.
  Status occluded_batch(std::span<const Rayf> rays, std::span<std::uint8_t> occluded, FaceMode faces = FaceMode::both,
                        Executor* executor = nullptr) const;

  /// The nearest point of the mesh's usable triangles to p within max_distance (inclusive), by a
  /// nearest-first walk pruned with box distances. Ties go to the lower triangle index. A
  /// non-finite p or a negative or NaN max_distance finds nothing.
  MeshClosestPoint closest_point(Vec3f p, float max_distance = kInfinity<float>) const;

  /// Recomputes the tree for the mesh's current vertex positions (after TriangleMesh::set_positions),
  /// keeping its topology: linear in the mesh size, no new allocation. Fails, leaving the tree
  /// unusable until rebuilt, when a triangle that was degenerate at build time (and so is not in
  /// the tree) has become usable: rebuild then. The tree's quality degrades as the mesh moves away
  /// from its build-time shape; rebuild when rays slow down.
  Status refit();

  const TriangleMesh& mesh() const { return *mesh_; }
  /// Bytes of the tree and its triangle packs (not counting the mesh itself).
  std::size_t memory_bytes() const;
  std::size_t node_count() const;

  struct Data;  // private layout, defined in src/mesh
  /// The tree itself, for the mesh layer's own queries (its type is complete only there); null
  /// for a tree that was never built.
  const Data* data() const { return data_.get(); }

 private:
  // The library's own packet tracing (mesh_packet::Trace: Scene::raycast_coherent_batch prepares a
  // packet once and traces it through every mesh chunk it meets): the rays of `rays` (a mask of
  // lanes) against the tree, each up to its lane's tmax; the hits found replace the lanes' bests.
  friend struct mesh_packet::Trace;
  void trace_packet(mesh_packet::Packet& packet, std::uint64_t rays, FaceMode faces) const;
  // The full record of the hit that trace_packet found for lane `lane`.
  MeshHit packet_hit(const mesh_packet::Packet& packet, int lane) const;
  std::shared_ptr<const TriangleMesh> mesh_;
  std::shared_ptr<Data> data_;

  template <class OnNode>
  MeshHit intersect_counted(const Rayf& ray, FaceMode faces, HitFields fields, OnNode on_node,
                            std::uint32_t* triangles) const;
  /// The full record of a hit on lane `lane` of leaf pack `pack`.
  MeshHit complete_hit(const Rayf& ray, float t, std::uint32_t pack, int lane, float u, float v, bool back,
                       HitFields fields = HitFields::all) const;
};

/// One placement of a shared mesh: the BVH stays in the mesh's frame and each ray goes into it
/// (x_local = S⁻¹ Rᵀ (x - translation)); t is unchanged by that affine map, so tmin, tmax and the
/// reported t are world values. Rotation, translation and any scale, non-uniform and mirroring
/// included. The hit's point is in the world; its normals are the mesh's, carried to the world by
/// the inverse transpose and normalised, so the mesh's front stays the instance's front even
/// under a mirroring scale (whose world winding is reversed), and back_face and the face mode mean
/// what they mean for the mesh. A transform that is not invertible makes every ray miss.
struct MeshInstance {
  std::shared_ptr<const MeshBvh> bvh;
  Transformf transform{};

  /// The nearest hit of a world ray: t along it, and of `fields` the point, normal and shading
  /// normal in the world (normals unit length).
  MeshHit intersect(const Rayf& ray, FaceMode faces = FaceMode::both, HitFields fields = HitFields::all) const;
  /// intersect without its checks, for a caller that made them once for many calls: the tree is
  /// set, the transform is invertible and the ray is valid (is_valid), asserted in debug builds.
  /// A scene checks its colliders when they are committed and a query's ray at its entry.
  MeshHit intersect_valid(const Rayf& ray, FaceMode faces, HitFields fields) const;
  /// Every hit of a world ray, sorted by t (then by triangle), in the world as intersect gives
  /// them (MeshBvh::intersect_all's contract), into `out` (cleared first). Returns the count.
  std::size_t intersect_all(const Rayf& ray, std::vector<MeshHit>& out, FaceMode faces = FaceMode::both,
                            HitFields fields = HitFields::all) const;
  bool occluded(const Rayf& ray, FaceMode faces = FaceMode::both) const;
  /// hits[i] = intersect(rays[i], faces) through MeshBvh::intersect_coherent (the same contract).
  Status intersect_coherent(std::span<const Rayf> rays, std::span<MeshHit> hits,
                            FaceMode faces = FaceMode::both) const;
  /// The nearest point in world distance (exact under non-uniform scale: the triangles are taken
  /// to the world before the point test); point and normal in the world.
  MeshClosestPoint closest_point(Vec3f p, float max_distance = kInfinity<float>) const;
};

}  // namespace hitscan
