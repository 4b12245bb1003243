// DynamicTree: the edits a user makes (insert, remove, move) and batches of them.

#include <algorithm>

#include "hitscan/bvh/dynamic_tree.hpp"

namespace hitscan::bvh {
namespace {

bool box_contains(const Aabbf& outer, const Aabbf& inner) {
  return outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && outer.min.z <= inner.min.z &&
         outer.max.x >= inner.max.x && outer.max.y >= inner.max.y && outer.max.z >= inner.max.z;
}

// Valid and finite: the boxes the tree stores as given (others become the empty box).
bool usable(const Aabbf& b) { return b.is_valid() && is_finite(b.min) && is_finite(b.max); }

}  // namespace

// The stretch of a fat box ahead of a motion: the displacement scaled, clamped to the reach, or
// zero for a teleport (beyond the reach along some axis) or a non-finite motion.
Vec3f DynamicTree::ahead_of(Vec3f box_extent, Vec3f displacement) const {
  const Vec3f e = box_extent;
  const float reach = settings_.prediction_limit * ((e.x + e.y + e.z) / 3.0f) + settings_.margin_absolute;
  const Vec3f ahead = displacement * settings_.prediction_scale;
  if (!is_finite(ahead) || max_component(abs(displacement)) > reach) return {};
  return clamp(ahead, Vec3f{-reach, -reach, -reach}, Vec3f{reach, reach, reach});
}

Aabbf DynamicTree::fatten(const Aabbf& box, Vec3f displacement, float margins) const {
  if (!usable(box)) return Aabbf::empty();
  const Vec3f e = box.extent();
  const float margin = margins * (settings_.margin_fraction * ((e.x + e.y + e.z) / 3.0f) + settings_.margin_absolute);
  Aabbf fat{box.min - Vec3f{margin, margin, margin}, box.max + Vec3f{margin, margin, margin}};
  if (displacement == Vec3f{}) return fat;  // nothing to predict (an insertion, a move in place)
  const Vec3f ahead = ahead_of(e, displacement);
  for (int i = 0; i < 3; ++i) {
    if (ahead[i] < 0.0f) {
      fat.min[i] += ahead[i];
    } else {
      fat.max[i] += ahead[i];
    }
  }
  return fat;
}

Aabbf DynamicTree::fatten_both_ways(const Aabbf& box, Vec3f displacement, float margins) const {
  Aabbf fat = fatten(box, {}, margins);
  if (!usable(box) || displacement == Vec3f{}) return fat;
  // -displacement stretches by exactly -ahead (the scaling and the clamp are symmetric): both
  // sides by |ahead|, as the merge of the two fat boxes has it.
  const Vec3f stretch = abs(ahead_of(box.extent(), displacement));
  fat.min -= stretch;
  fat.max += stretch;
  return fat;
}

bool DynamicTree::is_live_leaf(std::uint32_t proxy) const {
  return proxy < nodes_.size() && nodes_[proxy].height == 0;
}

std::uint32_t DynamicTree::insert(const Aabbf& box, std::uint64_t user) {
  const std::uint32_t leaf = allocate_node();
  nodes_[leaf].set_box(fatten(box, {}, 1.0f));
  nodes_[leaf].user = user;
  ++proxy_count_;
  if (batching_) {
    waiting_.push_back(leaf);
  } else {
    insert_leaf(leaf);
    sync_quads();
  }
  return leaf;
}

void DynamicTree::remove(std::uint32_t proxy) {
  HITSCAN_ASSERT(is_live_leaf(proxy));
  if (is_waiting(proxy)) {
    waiting_.erase(std::find(waiting_.begin(), waiting_.end(), proxy));
  } else {
    remove_leaf(proxy);
  }
  free_node(proxy);
  if (!batching_) sync_quads();
  --proxy_count_;
}

bool DynamicTree::move(std::uint32_t proxy, const Aabbf& box, Vec3f displacement) {
  HITSCAN_ASSERT(is_live_leaf(proxy));
  const Aabbf& fat = nodes_[proxy].box;
  if (box_contains(fat, usable(box) ? box : Aabbf::empty())) {
    // The fat box may trail the motion: a steadily moving object's box reaches back to where it
    // was when it was last inserted, so the "too large" bound stretches both ways.
    const Aabbf loose = fatten_both_ways(box, displacement, 5.0f);
    if (box_contains(loose, fat)) return false;
  }
  if (is_waiting(proxy)) {
    nodes_[proxy].set_box(fatten(box, displacement, 1.0f));
    return true;
  }
  remove_leaf(proxy);
  nodes_[proxy].set_box(fatten(box, displacement, 1.0f));
  if (batching_) {
    nodes_[proxy].parent = kNullProxy;
    waiting_.push_back(proxy);
  } else {
    insert_leaf(proxy);
    sync_quads();
  }
  return true;
}

void DynamicTree::begin_batch() {
  HITSCAN_ASSERT(!batching_);
  batching_ = true;
}

void DynamicTree::end_batch() {
  HITSCAN_ASSERT(batching_);
  batching_ = false;
  if (2 * waiting_.size() >= proxy_count_ && !waiting_.empty()) {
    rebuild_with(waiting_);
  } else {
    for (const std::uint32_t leaf : waiting_) insert_leaf(leaf);
    sync_quads();
  }
  waiting_.clear();
}

void DynamicTree::reserve(std::size_t proxies) {
  // A leaf per proxy and an inner node, with its quad, per proxy but one; and the root quad.
  nodes_.reserve(2 * proxies);
  quads_.reserve(proxies + 1);
}

const Aabbf& DynamicTree::fat_box(std::uint32_t proxy) const {
  HITSCAN_ASSERT(is_live_leaf(proxy));
  return nodes_[proxy].box;
}

std::uint64_t DynamicTree::user(std::uint32_t proxy) const {
  HITSCAN_ASSERT(is_live_leaf(proxy));
  return nodes_[proxy].user;
}

}  // namespace hitscan::bvh
