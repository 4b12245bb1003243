#pragma once
/// ReconstructionChunks: a reconstructed world that arrives as chunks (ARKit's mesh anchors,
/// ARCore's and Magic Leap's mesh blocks), added, replaced and removed every frame, kept as one
/// mesh collider per chunk in a Scene. Updating a chunk costs in proportion to the chunk, never
/// the world: only that chunk's tree is refit or rebuilt, and the scene's top-level tree moves one
/// box.
///
/// Copy on write. Meshes in a Scene are shared and immutable (queries may be reading them on other
/// threads), so an update never touches the tree the scene holds. Each chunk keeps two trees: the
/// one in the scene and a spare. A chunk whose triangles are unchanged is updated by moving the
/// spare's vertices and refitting it (linear in the chunk, no new tree), then handing it to the
/// scene (Scene::set_shape); the tree it replaces becomes the spare once the scene has let go of it
/// (after the caller's commit). When the spare is still in use (no commit since the last update of
/// the chunk, or someone else still holds it), or the triangles changed, or a refit is refused
/// (a triangle left out of the tree as degenerate has gained area), the chunk's tree is built anew.
///
/// The changes become visible to queries at the caller's next Scene::commit, like any edit.
/// Chunks are given in world coordinates (their colliders have the identity transform), and every
/// hit on one carries its chunk id as the collider's user id.
///
/// Threads. The scene may be queried from any thread meanwhile; calls on one ReconstructionChunks
/// must not overlap.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>

#include "hitscan/bvh/build.hpp"
#include "hitscan/executor.hpp"
#include "hitscan/mesh/triangle_mesh.hpp"
#include "hitscan/query/scene.hpp"
#include "hitscan/status.hpp"

namespace hitscan {

using ChunkId = std::uint64_t;

struct ChunkSettings {
  /// The layer of every chunk's collider (0..31).
  std::uint32_t layer = 0;
  /// How chunk trees are built.
  bvh::BuildSettings build{};
};

/// What an update did to the chunk's tree.
enum class ChunkWork : std::uint8_t {
  /// A tree was built for the chunk (new chunk, new triangles, or no spare to refit).
  built,
  /// The spare tree was refit to the new positions.
  refit,
  /// The chunk's collider was removed.
  removed,
};

/// The work one update cost, to check that it follows the chunk and not the world.
struct ChunkUpdate {
  ChunkWork work = ChunkWork::built;
  /// Triangles of the chunk whose tree was built or refit (0 for removed).
  std::size_t triangles = 0;
  /// The chunk's collider in the scene.
  ColliderId collider = kNoCollider;
};

class ReconstructionChunks {
 public:
  /// Manages chunks as colliders of `scene`, which must outlive this object. Builds run over
  /// `executor` (the default pool when null).
  explicit ReconstructionChunks(Scene& scene, ChunkSettings settings = {}, Executor* executor = nullptr);
  /// Removes every chunk's collider from the scene (visible at its next commit).
  ~ReconstructionChunks();
  ReconstructionChunks(const ReconstructionChunks&) = delete;
  ReconstructionChunks& operator=(const ReconstructionChunks&) = delete;

  /// Adds chunk `id`, or replaces its geometry: world positions and triangles (indices into
  /// positions). Same triangles as before (and so the same vertex count): the positions move and
  /// the spare tree is refit where the file comment allows; otherwise the chunk's tree is built
  /// anew. Fails like TriangleMesh::make (invalid_argument for an index out of range or a
  /// non-finite referenced vertex) or like Scene::add (out_of_range when the scene is full),
  /// leaving the chunk as it was. A chunk with no triangles is valid and hit by nothing.
  Result<ChunkUpdate> update_chunk(ChunkId id, std::span<const Vec3f> positions,
                                   std::span<const TriangleMesh::Indices> triangles);
  /// Removes chunk `id`'s collider (at the next commit); not_found for an unknown id.
  Result<ChunkUpdate> remove_chunk(ChunkId id);

  std::size_t chunk_count() const { return chunks_.size(); }
  /// The collider of chunk `id`, if it exists.
  std::optional<ColliderId> collider(ChunkId id) const;

 private:
  struct Chunk {
    ColliderId collider = kNoCollider;
    /// The tree the scene was last given and its mesh (writable here: the tree holds it as const).
    std::shared_ptr<MeshBvh> live;
    std::shared_ptr<TriangleMesh> live_mesh;
    /// The spare tree and its mesh: null, or the same triangles as the live one.
    std::shared_ptr<MeshBvh> spare;
    std::shared_ptr<TriangleMesh> spare_mesh;
  };

  Result<ChunkUpdate> refit_spare(Chunk& chunk, std::span<const Vec3f> positions);

  Scene* scene_;
  ChunkSettings settings_;
  Executor* executor_;
  std::unordered_map<ChunkId, Chunk> chunks_;
};

}  // namespace hitscan
