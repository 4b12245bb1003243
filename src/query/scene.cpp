// Scene: editing and committing. The queries are in scene_raycast.cpp.

#include <string>
#include <utility>

#include "scene_state.hpp"

namespace hitscan {
namespace {

Status bad_id(ColliderId id) {
  return Status{StatusCode::not_found, "collider " + std::to_string(id) + " does not exist (removed, or never added)"};
}

Status check_layer(std::uint32_t layer) {
  if (layer < kLayerCount) return Status::success();
  return Status{StatusCode::invalid_argument, "layer " + std::to_string(layer) + " is not in 0..31"};
}

// Marks a slot for the next commit (edit_mutex held).
void mark_dirty(Scene::State& s, std::uint32_t slot) {
  PendingSlot& p = s.slots[slot];
  if (!p.dirty) s.dirty_slots.push_back(slot);
  p.dirty = true;
}

}  // namespace

std::optional<std::uint32_t> Scene::State::live_slot(ColliderId id) const {
  const std::uint32_t slot = slot_of(id);
  if (id == kNoCollider || slot >= slots.size()) return std::nullopt;
  const PendingSlot& s = slots[slot];
  if (!s.world || s.generation != generation_of(id)) return std::nullopt;
  return slot;
}

Scene::Scene() : state_(std::make_unique<State>()) {}
Scene::~Scene() = default;
Scene::Scene(Scene&&) noexcept = default;
Scene& Scene::operator=(Scene&&) noexcept = default;

Result<ColliderId> Scene::add(ColliderDesc desc) {
  if (Status layer = check_layer(desc.layer); !layer.ok()) return layer;
  WorldShape world;
  Aabbf bounds;
  if (Status converted = to_world(desc.shape, desc.transform, world, &bounds); !converted.ok()) return converted;
  State& s = *state_;
  std::lock_guard lock(s.edit_mutex);
  std::uint32_t slot;
  if (!s.free_slots.empty()) {
    slot = s.free_slots.back();
    s.free_slots.pop_back();
  } else {
    // The last slot index is never used, so that no id equals kNoCollider.
    if (s.slots.size() >= kMaxColliders - 1) {
      return Status{StatusCode::out_of_range, "the scene already holds the most colliders it can (2^24 - 1)"};
    }
    slot = static_cast<std::uint32_t>(s.slots.size());
    s.slots.emplace_back();
  }
  PendingSlot& p = s.slots[slot];
  p.desc = std::move(desc);
  p.world = std::move(world);
  p.bounds = bounds;
  mark_dirty(s, slot);
  return make_collider_id(slot, p.generation);
}

Status Scene::remove(ColliderId id) {
  State& s = *state_;
  std::lock_guard lock(s.edit_mutex);
  const std::optional<std::uint32_t> slot = s.live_slot(id);
  if (!slot) return bad_id(id);
  PendingSlot& p = s.slots[*slot];
  p.world.reset();
  p.desc = {};
  p.generation = (p.generation + 1) & 0xFFu;  // the old id goes stale now
  mark_dirty(s, *slot);
  s.free_slots.push_back(*slot);
  return Status::success();
}

namespace {

// Describes the collider anew with `shape` (moved from) or `transform`, or both; null keeps its
// own. The world shape is computed before anything changes, so that a failed edit leaves the
// collider as it was.
Status edit_geometry(Scene::State& s, ColliderId id, ColliderShape* shape, const Transformf* transform) {
  std::lock_guard lock(s.edit_mutex);
  const std::optional<std::uint32_t> slot = s.live_slot(id);
  if (!slot) return bad_id(id);
  PendingSlot& p = s.slots[*slot];
  WorldShape world;
  Aabbf bounds;
  if (Status converted =
          to_world(shape ? *shape : p.desc.shape, transform ? *transform : p.desc.transform, world, &bounds);
      !converted.ok()) {
    return converted;
  }
  if (shape) p.desc.shape = std::move(*shape);
  if (transform) p.desc.transform = *transform;
  p.world = std::move(world);
  p.bounds = bounds;
  mark_dirty(s, *slot);
  return Status::success();
}

}  // namespace

Status Scene::set_transform(ColliderId id, const Transformf& transform) {
  return edit_geometry(*state_, id, nullptr, &transform);
}
Status Scene::set_shape(ColliderId id, ColliderShape shape) { return edit_geometry(*state_, id, &shape, nullptr); }
Status Scene::set_layer(ColliderId id, std::uint32_t layer) {
  State& s = *state_;
  std::lock_guard lock(s.edit_mutex);
  const std::optional<std::uint32_t> slot = s.live_slot(id);
  if (!slot) return bad_id(id);
  if (Status checked = check_layer(layer); !checked.ok()) return checked;
  s.slots[*slot].desc.layer = layer;
  mark_dirty(s, *slot);
  return Status::success();
}
Status Scene::set_user_id(ColliderId id, std::uint64_t user_id) {
  State& s = *state_;
  std::lock_guard lock(s.edit_mutex);
  const std::optional<std::uint32_t> slot = s.live_slot(id);
  if (!slot) return bad_id(id);
  s.slots[*slot].desc.user_id = user_id;
  mark_dirty(s, *slot);
  return Status::success();
}

Result<ColliderDesc> Scene::collider(ColliderId id) const {
  const State& s = *state_;
  std::lock_guard lock(s.edit_mutex);
  const std::optional<std::uint32_t> slot = s.live_slot(id);
  if (!slot) return bad_id(id);
  return s.slots[*slot].desc;
}

Status Scene::reserve(std::size_t colliders) {
  if (colliders > kMaxColliders) {
    return Status{StatusCode::out_of_range, "reserve: " + std::to_string(colliders) +
                                                " colliders is more than a scene can hold (2^24)"};
  }
  State& s = *state_;
  std::lock_guard edit_lock(s.edit_mutex);
  std::unique_lock query_lock(s.query_mutex);
  s.slots.reserve(colliders);
  s.dirty_slots.reserve(colliders);
  s.committed.reserve(colliders);
  s.tree.reserve(colliders);
  return Status::success();
}

std::size_t Scene::commit() {
  State& s = *state_;
  std::lock_guard edit_lock(s.edit_mutex);
  std::unique_lock query_lock(s.query_mutex);
  if (s.committed.size() < s.slots.size()) s.committed.resize(s.slots.size());
  bool planes_changed = false;
  // One batch: the tree places the leaves that came in or moved, and rewrites its query layout,
  // once at the end (rebuilding itself when they are at least half of it, as when first filled).
  s.tree.begin_batch();
  // Closes the batch however the loop ends, so that the tree never stays half edited (a throw,
  // which only an allocation can cause here, leaves the edits made so far in the tree).
  struct BatchEnd {
    bvh::DynamicTree& tree;
    bool open = true;
    ~BatchEnd() {
      if (open) tree.end_batch();
    }
  } batch{s.tree};
  for (const std::uint32_t slot : s.dirty_slots) {
    PendingSlot& p = s.slots[slot];
    p.dirty = false;
    std::optional<CommittedCollider>& c = s.committed[slot];
    if (!p.world) {  // removed
      if (!c) continue;
      if (c->proxy != bvh::kNullProxy) s.tree.remove(c->proxy);
      planes_changed |= c->proxy == bvh::kNullProxy;
      c.reset();
      --s.committed_count;
      continue;
    }
    const Aabbf bounds = p.bounds;
    const bool unbounded = std::holds_alternative<Planef>(*p.world);
    const ColliderId id = make_collider_id(slot, p.generation);
    if (c && c->id == id && c->proxy != bvh::kNullProxy && !unbounded) {
      // The same collider changed: move its leaf (a no-op while it stays inside its fat box).
      s.tree.move(c->proxy, bounds, bounds.center() - c->bounds.center());
    } else {
      if (c && c->proxy != bvh::kNullProxy) s.tree.remove(c->proxy);
      planes_changed |= (c && c->proxy == bvh::kNullProxy) || unbounded;
      if (!c) ++s.committed_count;
      c.emplace();
      c->proxy = unbounded ? bvh::kNullProxy : s.tree.insert(bounds, slot);
    }
    c->shape = *p.world;
    const float pad = 64 * kEpsilon<float> * (max(max_component(abs(bounds.min)), max_component(abs(bounds.max))) +
                                               max_component(bounds.extent()));
    c->bounds = unbounded ? bounds : Aabbf{bounds.min - Vec3f{pad, pad, pad}, bounds.max + Vec3f{pad, pad, pad}};
    c->id = id;
    c->layer = p.desc.layer;
    c->user_id = p.desc.user_id;
  }
  batch.open = false;
  s.tree.end_batch();
  const std::size_t applied = s.dirty_slots.size();
  s.dirty_slots.clear();
  if (planes_changed) {
    s.unbounded.clear();
    for (std::uint32_t slot = 0; slot < s.committed.size(); ++slot) {
      if (s.committed[slot] && s.committed[slot]->proxy == bvh::kNullProxy) s.unbounded.push_back(slot);
    }
  }
  return applied;
}

std::size_t Scene::committed_count() const {
  std::shared_lock lock(state_->query_mutex);
  return state_->committed_count;
}

}  // namespace hitscan
