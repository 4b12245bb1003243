#pragma once
// The private state of a Scene, shared by the files that implement its editing and its queries.

#include <cstdint>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <vector>

#include "hitscan/bvh/dynamic_tree.hpp"
#include "hitscan/query/scene.hpp"

namespace hitscan {

/// A collider as queries see it: its world shape and bounds, from the last commit.
struct CommittedCollider {
  WorldShape shape;
  /// Its world box, grown by a few ulps of its coordinates so that every point the kernels
  /// compute on it lies inside: rays test it before the shape (infinite for planes).
  Aabbf bounds;
  ColliderId id = kNoCollider;
  std::uint32_t layer = 0;
  std::uint64_t user_id = 0;
  /// Its leaf in the top-level tree, or kNullProxy for an unbounded collider (a plane).
  std::uint32_t proxy = bvh::kNullProxy;
};

/// A collider as edits describe it, with its world shape computed when it was described.
struct PendingSlot {
  ColliderDesc desc;
  std::optional<WorldShape> world;  // empty: the slot holds no collider
  Aabbf bounds;                      // world_bounds(*world), computed when world was
  std::uint32_t generation = 0;
  bool dirty = false;
};

struct Scene::State {
  // Edits: guarded by edit_mutex.
  mutable std::mutex edit_mutex;
  std::vector<PendingSlot> slots;
  std::vector<std::uint32_t> free_slots;
  std::vector<std::uint32_t> dirty_slots;

  // What queries read: guarded by query_mutex (shared by queries, exclusive in commit).
  mutable std::shared_mutex query_mutex;
  std::vector<std::optional<CommittedCollider>> committed;  // by slot
  bvh::DynamicTree tree;
  std::vector<std::uint32_t> unbounded;  // slots of committed planes
  std::size_t committed_count = 0;

  /// The slot of a live pending collider, or nullopt (edit_mutex held).
  std::optional<std::uint32_t> live_slot(ColliderId id) const;
};

/// The slot index and generation packed into an id.
inline constexpr std::uint32_t kSlotBits = 24;
inline std::uint32_t slot_of(ColliderId id) { return id & (kMaxColliders - 1); }
inline std::uint32_t generation_of(ColliderId id) { return id >> kSlotBits; }
/// Whether a query with these options sees the collider: its layer in the mask, and the filter's
/// consent.
// Query shapes (of the overlaps and sweeps) that can touch something: within the working range
// (kMaxCoordinate), with sizes >= 0 and a finite rotation. Any other is a miss.
inline bool valid(const Spheref& s) {
  return in_working_range(s.center) && s.radius >= 0.0f && in_working_range(s.radius);
}
inline bool valid(const Capsulef& c) {
  return in_working_range(c.a) && in_working_range(c.b) && c.radius >= 0.0f && in_working_range(c.radius);
}
inline bool valid(const Obbf& b) {
  return in_working_range(b.center) && in_working_range(b.half_extents) && min_component(b.half_extents) >= 0.0f &&
         is_finite(b.rotation.col[0]) && is_finite(b.rotation.col[1]) && is_finite(b.rotation.col[2]);
}

inline bool visible(const CommittedCollider& c, const QueryOptions& options) {
  if (((options.layer_mask >> c.layer) & 1u) == 0) return false;
  return !options.filter.accept || options.filter.accept(c.id, c.user_id, c.layer, options.filter.context);
}

inline ColliderId make_collider_id(std::uint32_t slot, std::uint32_t generation) {
  return (generation << kSlotBits) | slot;
}

}  // namespace hitscan
