#include "hitscan/ar/chunks.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <utility>
#include <vector>

namespace hitscan {
namespace {

bool same_triangles(const TriangleMesh& mesh, std::span<const Vec3f> positions,
                    std::span<const TriangleMesh::Indices> triangles) {
  const std::span<const TriangleMesh::Indices> old = mesh.triangles();
  return positions.size() == mesh.vertex_count() && std::equal(old.begin(), old.end(), triangles.begin(), triangles.end());
}

/// Whether this object is the tree's only owner, so that writing to it cannot race with a reader.
/// use_count is a relaxed load; the acquire fence after it orders every access the other owners
/// made before releasing theirs (a release decrement) before the writes that follow.
bool sole_owner(const std::shared_ptr<MeshBvh>& tree) {
  if (!tree || tree.use_count() != 1) return false;
  std::atomic_thread_fence(std::memory_order_acquire);
  return true;
}

}  // namespace

ReconstructionChunks::ReconstructionChunks(Scene& scene, ChunkSettings settings, Executor* executor)
    : scene_(&scene), settings_(settings), executor_(executor) {}

ReconstructionChunks::~ReconstructionChunks() {
  for (const auto& [id, chunk] : chunks_) static_cast<void>(scene_->remove(chunk.collider));
}

std::optional<ColliderId> ReconstructionChunks::collider(ChunkId id) const {
  const auto it = chunks_.find(id);
  if (it == chunks_.end()) return std::nullopt;
  return it->second.collider;
}

Result<ChunkUpdate> ReconstructionChunks::refit_spare(Chunk& chunk, std::span<const Vec3f> positions) {
  if (Status s = chunk.spare_mesh->set_positions({positions.begin(), positions.end()}); !s.ok()) return s;
  if (!chunk.spare->refit().ok()) {
    // A triangle left out as degenerate has gained area: the spare cannot be refit, only rebuilt.
    chunk.spare.reset(), chunk.spare_mesh.reset();
    return Status{StatusCode::degenerate, "refit refused"};
  }
  if (Status s = scene_->set_shape(chunk.collider, MeshShape(chunk.spare)); !s.ok()) return s;
  std::swap(chunk.live, chunk.spare);
  std::swap(chunk.live_mesh, chunk.spare_mesh);
  return ChunkUpdate{ChunkWork::refit, chunk.live_mesh->triangle_count(), chunk.collider};
}

Result<ChunkUpdate> ReconstructionChunks::update_chunk(ChunkId id, std::span<const Vec3f> positions,
                                                       std::span<const TriangleMesh::Indices> triangles) {
  const auto it = chunks_.find(id);
  const bool topology_kept = it != chunks_.end() && same_triangles(*it->second.live_mesh, positions, triangles);
  if (topology_kept && sole_owner(it->second.spare)) {
    Result<ChunkUpdate> refit = refit_spare(it->second, positions);
    if (refit.ok() || refit.status().code() != StatusCode::degenerate) return refit;
  }

  Result<TriangleMesh> made = TriangleMesh::make({positions.begin(), positions.end()}, {triangles.begin(), triangles.end()});
  if (!made.ok()) return made.status();
  auto mesh = std::make_shared<TriangleMesh>(std::move(made).value());
  Result<MeshBvh> built = MeshBvh::build(mesh, settings_.build, executor_);
  if (!built.ok()) return built.status();
  auto tree = std::make_shared<MeshBvh>(std::move(built).value());
  const std::size_t triangle_count = mesh->triangle_count();

  if (it == chunks_.end()) {
    ColliderDesc desc{MeshShape(tree)};
    desc.layer = settings_.layer;
    desc.user_id = id;
    Result<ColliderId> added = scene_->add(std::move(desc));
    if (!added.ok()) return added.status();
    chunks_.emplace(id, Chunk{added.value(), std::move(tree), std::move(mesh), nullptr, nullptr});
    return ChunkUpdate{ChunkWork::built, triangle_count, added.value()};
  }
  Chunk& chunk = it->second;
  if (Status s = scene_->set_shape(chunk.collider, MeshShape(tree)); !s.ok()) return s;
  // With the same triangles the replaced tree can be refit next time, once the scene lets go of it.
  if (topology_kept) {
    chunk.spare = std::move(chunk.live), chunk.spare_mesh = std::move(chunk.live_mesh);
  } else {
    chunk.spare.reset(), chunk.spare_mesh.reset();
  }
  chunk.live = std::move(tree), chunk.live_mesh = std::move(mesh);
  return ChunkUpdate{ChunkWork::built, triangle_count, chunk.collider};
}

Result<ChunkUpdate> ReconstructionChunks::remove_chunk(ChunkId id) {
  const auto it = chunks_.find(id);
  if (it == chunks_.end()) return Status{StatusCode::not_found, "remove_chunk: no chunk " + std::to_string(id)};
  const ColliderId collider = it->second.collider;
  if (Status s = scene_->remove(collider); !s.ok()) return s;
  chunks_.erase(it);
  return ChunkUpdate{ChunkWork::removed, 0, collider};
}

}  // namespace hitscan
