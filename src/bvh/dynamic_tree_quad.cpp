// DynamicTree: the upkeep of its 4-wide mirror (dynamic_tree_quad.hpp), which the queries walk.

#include "hitscan/bvh/dynamic_tree.hpp"

namespace hitscan::bvh {

std::uint32_t DynamicTree::allocate_quad() {
  if (!free_quads_.empty()) {
    const std::uint32_t index = free_quads_.back();
    free_quads_.pop_back();
    return index;
  }
  quads_.emplace_back();
  return static_cast<std::uint32_t>(quads_.size() - 1);
}

// Rewrites the quads the touched nodes name, each once (the epoch marks those done), and the root
// quad. Touched nodes freed since are skipped: the nodes that saw them were touched when they
// were unlinked.
void DynamicTree::sync_quads() {
  if (++quad_epoch_ == 0) {  // wrapped: no stale mark may equal the new epoch
    for (Node& node : nodes_) node.quad_epoch = 0;
    quad_epoch_ = 1;
  }
  // New children first: their quads are rewritten whole, each once.
  for (const Touched& touched : touched_) {
    std::uint32_t index = touched.node;
    for (unsigned levels = touched.levels & kChildrenChanged; levels != 0 && index != kNullProxy; levels >>= 1) {
      Node& node = nodes_[index];
      if (node.height < 0) break;
      if ((levels & 1u) != 0 && node.height > 0 && node.quad_epoch != quad_epoch_) {
        node.quad_epoch = quad_epoch_;
        make_quad(index, quads_[node.quad]);
      }
      index = node.parent;
    }
  }
  // Then new boxes: a box shows in one lane of its grandparent's quad, which is found there and
  // rewritten alone (the quad's other entries, whose nodes are likely out of cache, stay). A
  // grandparent whose quad was rewritten whole above already has it.
  for (const Touched& touched : touched_) {
    if ((touched.levels & kBoxChanged) == 0) continue;
    const Node& node = nodes_[touched.node];
    if (node.height <= 0 || node.parent == kNullProxy) continue;  // freed since, or the root
    const std::uint32_t grandparent = nodes_[node.parent].parent;
    if (grandparent == kNullProxy) continue;  // a child of the root: in no quad's lanes
    Node& g = nodes_[grandparent];
    if (g.quad_epoch == quad_epoch_) continue;
    detail::QuadNode& quad = quads_[g.quad];
    int lane = 0;
    while (lane < int(quad.count) && quad.child[lane] != node.quad) ++lane;
    if (lane < int(quad.count)) {
      quad.set_lane(lane, node.box, node.quad);
    } else {  // not in the quad as it stands: cannot happen after the pass above, but be whole
      g.quad_epoch = quad_epoch_;
      make_quad(grandparent, quad);
    }
  }
  touched_.clear();
  make_quad(kNullProxy, quads_[kRootQuad]);
}

// An inner node's grandchildren, or a child that is a leaf in their place; for kNullProxy, the
// root quad.
void DynamicTree::make_quad(std::uint32_t index, detail::QuadNode& quad) const {
  int lane = 0;
  const auto put = [&](std::uint32_t i) {
    const Node& node = nodes_[i];
    quad.set_lane(lane++, node.box, node.is_leaf() ? i | detail::kQuadLeaf : node.quad);
  };
  if (index == kNullProxy) {
    if (root_ != kNullProxy) put(root_);
  } else {
    for (const std::uint32_t c : nodes_[index].child) {
      const Node& child = nodes_[c];
      if (child.is_leaf()) {
        put(c);
      } else {
        put(child.child[0]);
        put(child.child[1]);
      }
    }
  }
  quad.count = static_cast<std::uint32_t>(lane);
  for (; lane < 4; ++lane) quad.set_lane(lane, Aabbf::empty(), kNullProxy);
}

}  // namespace hitscan::bvh
