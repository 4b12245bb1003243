#include "hitscan/bvh/dynamic_tree.hpp"

#include <cstdlib>
#include <utility>

#include "hitscan/bvh/detail/prefetch.hpp"

namespace hitscan::bvh {
namespace {

// The sibling search gives up after this many visits per level of the tree.
constexpr int kSearchVisitsPerLevel = 16;

bool same_box(const Aabbf& a, const Aabbf& b) { return a.min == b.min && a.max == b.max; }

bool same_quad(const detail::QuadNode& a, const detail::QuadNode& b) {
  if (a.count != b.count) return false;
  for (std::uint32_t lane = 0; lane < a.count; ++lane) {
    if (a.child[lane] != b.child[lane]) return false;
    for (int row = 0; row < 6; ++row) {
      if (a.bounds[row][lane] != b.bounds[row][lane]) return false;
    }
  }
  return true;
}

}  // namespace

std::uint32_t DynamicTree::allocate_node() {
  if (free_list_ != kNullProxy) {
    const std::uint32_t index = free_list_;
    free_list_ = nodes_[index].parent;
    nodes_[index] = Node{};
    return index;
  }
  HITSCAN_ASSERT(nodes_.size() < detail::kQuadLeaf);  // a node index leaves the quads' leaf bit clear
  nodes_.emplace_back();
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

void DynamicTree::free_node(std::uint32_t index) {
  Node& node = nodes_[index];
  if (node.quad != kNullProxy) free_quads_.push_back(node.quad);
  node.quad = kNullProxy;
  node.height = -1;
  node.child[0] = node.child[1] = kNullProxy;
  node.parent = free_list_;
  free_list_ = index;
}

// Branch and bound over the candidate siblings (Bittner, Hapala and Havran, "Fast
// Insertion-Based Optimization of Bounding Volume Hierarchies", 2013; Catto, GDC 2019). Placing
// the leaf beside node X costs the area of the new parent, |X + box|, plus the growth of every
// ancestor of X; below X nothing can cost less than |box| plus the growth of X and its
// ancestors, which prunes the search. A greedy descent along the least growth supplies the first
// bound. Only a node of height at most kMaxHeightDifference may become the sibling, so that the
// new parent is balanced. The search stops after a number of visits proportional to the height,
// keeping an insertion O(log n) in the worst case; on random scenes the limit costs little.
std::uint32_t DynamicTree::choose_sibling(const Aabbf& box) {
  const float box_area = box.surface_area();
  std::uint32_t best = kNullProxy;
  float best_cost = kInfinity<float>;
  auto consider = [&](std::uint32_t index, float cost) {
    // The first allowed node is always taken, so a NaN cost (areas overflowing) still gives one.
    if (nodes_[index].height <= kMaxHeightDifference && (best == kNullProxy || cost < best_cost)) {
      best = index;
      best_cost = cost;
    }
  };
  // The greedy path, with the children's areas grown by the box, which the search below takes
  // again rather than computing them twice (it begins by walking the same path).
  struct PathStep {
    std::uint32_t node;
    float combined[2];
  };
  PathStep path[kMaxDynamicTreeHeight + 1];
  int path_length = 0;
  float inherited = 0.0f;  // the growth of the ancestors of `index`, were the leaf placed below it
  float combined = merge(nodes_[root_].box, box).surface_area();  // |index + box|
  for (std::uint32_t index = root_;;) {
    ++update_visits_;
    const Node& node = nodes_[index];
    consider(index, combined + inherited);
    if (node.is_leaf()) break;
    inherited += combined - node.area;
    PathStep& step = path[path_length++];
    step.node = index;
    for (int i = 0; i < 2; ++i) {
      const Node& child = nodes_[node.child[i]];
      if (!child.is_leaf()) {  // the next level, on either side: the search below may go down both
        // Their nodes' cache lines, asked for ahead of their use: the descent waits on one node
        // per level, and in a large tree most levels are out of cache.
        prefetch_line(&nodes_[child.child[0]]);
        prefetch_line(&nodes_[child.child[1]]);
      }
      step.combined[i] = merge(child.box, box).surface_area();
    }
    const float growth0 = step.combined[0] - nodes_[node.child[0]].area;
    const float growth1 = step.combined[1] - nodes_[node.child[1]].area;
    const int next = growth1 < growth0 ? 1 : 0;
    index = node.child[next];
    combined = step.combined[next];
  }

  if (nodes_[root_].is_leaf()) return best;
  // Entries are inner nodes already considered, with the growth of themselves and their
  // ancestors (what their children inherit) and their depth.
  struct Entry {
    std::uint32_t node;
    float below;
    int depth;
  };
  Entry stack[kMaxDynamicTreeHeight + 2];  // depth first, two pushes per pop: at most height + 1
  int top = 0;
  stack[top++] = {root_, merge(nodes_[root_].box, box).surface_area() - nodes_[root_].area, 0};
  for (int budget = kSearchVisitsPerLevel * (nodes_[root_].height + 1); top > 0 && budget > 0; --budget) {
    const Entry entry = stack[--top];
    if (!(box_area + entry.below < best_cost)) continue;  // the bound tightened since the push
    const Node& node = nodes_[entry.node];
    const bool on_path = entry.depth < path_length && path[entry.depth].node == entry.node;
    Entry next[2];
    int pushes = 0;
    for (int i = 0; i < 2; ++i) {
      ++update_visits_;
      const std::uint32_t c = node.child[i];
      const Node& child = nodes_[c];
      const float combined_child = on_path ? path[entry.depth].combined[i] : merge(child.box, box).surface_area();
      consider(c, combined_child + entry.below);
      const float below = entry.below + (combined_child - child.area);
      if (!child.is_leaf() && box_area + below < best_cost) {
        next[pushes++] = {c, below, entry.depth + 1};
        // Its children are read when it is popped: their lines asked for now, as on the greedy path.
        prefetch_line(&nodes_[child.child[0]]);
        prefetch_line(&nodes_[child.child[1]]);
      }
    }
    // The child that grows less is searched first, so it goes on top.
    if (pushes == 2 && next[1].below > next[0].below) std::swap(next[0], next[1]);
    for (int i = 0; i < pushes; ++i) stack[top++] = next[i];
  }
  return best;
}

void DynamicTree::insert_leaf(std::uint32_t leaf) {
  if (root_ == kNullProxy) {
    root_ = leaf;
    nodes_[leaf].parent = kNullProxy;
    return;
  }
  const std::uint32_t sibling = choose_sibling(nodes_[leaf].box);
  const std::uint32_t old_parent = nodes_[sibling].parent;
  const std::uint32_t new_parent = allocate_node();  // may move nodes_: no references held across
  nodes_[new_parent].quad = allocate_quad();
  touch(new_parent, kChildrenChanged | kBoxChanged);
  Node& parent = nodes_[new_parent];
  parent.parent = old_parent;
  parent.child[0] = sibling;
  parent.child[1] = leaf;
  parent.set_box(merge(nodes_[sibling].box, nodes_[leaf].box));
  parent.height = nodes_[sibling].height + 1;
  if (old_parent == kNullProxy) {
    root_ = new_parent;
  } else {
    replace_child(old_parent, sibling, new_parent);
  }
  nodes_[sibling].parent = new_parent;
  nodes_[leaf].parent = new_parent;
  refit_and_balance(old_parent, true);
}

void DynamicTree::remove_leaf(std::uint32_t leaf) {
  if (leaf == root_) {
    root_ = kNullProxy;
    return;
  }
  const std::uint32_t parent = nodes_[leaf].parent;
  const std::uint32_t grandparent = nodes_[parent].parent;
  const std::uint32_t sibling = nodes_[parent].child[0] == leaf ? nodes_[parent].child[1] : nodes_[parent].child[0];
  free_node(parent);
  nodes_[sibling].parent = grandparent;
  if (grandparent == kNullProxy) {
    root_ = sibling;
    return;
  }
  replace_child(grandparent, parent, sibling);
  refit_and_balance(grandparent, false);
}

void DynamicTree::replace_child(std::uint32_t parent, std::uint32_t old_child, std::uint32_t new_child) {
  Node& node = nodes_[parent];
  node.child[node.child[0] == old_child ? 0 : 1] = new_child;
  touch(parent, kChildrenChanged);
}

void DynamicTree::recompute(std::uint32_t index) {
  Node& node = nodes_[index];
  const Node& a = nodes_[node.child[0]];
  const Node& b = nodes_[node.child[1]];
  const Aabbf box = merge(a.box, b.box);
  if (!same_box(box, node.box)) {
    node.set_box(box);
    touch(index, kBoxChanged);  // a change of children is touched where it is made
  }
  node.height = 1 + std::max(a.height, b.height);
  ++update_visits_;
}

// Walks from `index` to the root, rebalancing, refitting and then (when `rotate`) improving each
// node. Insertions improve the nodes above the new leaf; a removal only rebalances and refits, as
// Box2D's does: measured on scenes of 10^4 and 10^5 boxes teleported at random, improving there
// as well made later queries no cheaper (within 1%) and removals more than twice as costly. An
// insertion or removal changes the height of one child of the first node by one, and neither
// rotation leaves a subtree more than one away from its height before the operation (the node's
// stored height, not yet recomputed), so every node on the way has children whose heights differ
// by at most kMaxHeightDifference + 1, which one balancing rotation repairs. The walk ends at the
// first subtree whose box and height come out as they were: nothing above it changes (rotations
// change which nodes hold a subtree's leaves, not its box), and the quads above the changed
// nodes are rewritten through touch.
void DynamicTree::refit_and_balance(std::uint32_t index, bool rotate) {
  while (index != kNullProxy) {
    const int old_height = nodes_[index].height;
    const Aabbf old_box = nodes_[index].box;
    index = balance(index);
    recompute(index);
    if (rotate) rotate_for_area(index, old_height);
    const Node& node = nodes_[index];
    if (node.height == old_height && same_box(node.box, old_box)) return;
    index = node.parent;
  }
}

// When the children of A differ in height by k + 1 (k = kMaxHeightDifference), the taller child
// T takes A's place: A keeps the shorter child S and receives the shorter of T's children, T
// keeps the taller one. With heights S = h, T = h + k + 1, T's children h + k and some m in
// [h, h + k], A's children (h and m) differ by at most k, and so do T's (A, of height h + 1 to
// h + k + 1, and h + k). The order of children carries no meaning here, so this single rotation
// covers the cases for which an ordered AVL tree needs a double one. When T's children are
// equally tall, the one moved is the one that gives A the smaller box.
std::uint32_t DynamicTree::balance(std::uint32_t a_index) {
  Node& a = nodes_[a_index];
  const int h0 = nodes_[a.child[0]].height, h1 = nodes_[a.child[1]].height;
  if (std::abs(h0 - h1) <= kMaxHeightDifference) return a_index;
  const int tall_slot = h1 > h0 ? 1 : 0;
  const std::uint32_t t_index = a.child[tall_slot];
  const std::uint32_t s_index = a.child[1 - tall_slot];
  Node& t = nodes_[t_index];
  const Node& f = nodes_[t.child[0]];
  const Node& g = nodes_[t.child[1]];
  int moved_slot;
  if (f.height != g.height) {
    moved_slot = f.height < g.height ? 0 : 1;
  } else {
    const Aabbf& s_box = nodes_[s_index].box;
    moved_slot = merge(s_box, g.box).surface_area() < merge(s_box, f.box).surface_area() ? 1 : 0;
  }
  const std::uint32_t moved = t.child[moved_slot];

  t.parent = a.parent;
  if (a.parent == kNullProxy) {
    root_ = t_index;
  } else {
    replace_child(a.parent, a_index, t_index);
  }
  a.child[tall_slot] = moved;
  nodes_[moved].parent = a_index;
  t.child[moved_slot] = a_index;
  a.parent = t_index;
  touch(a_index, kChildrenChanged);
  touch(t_index, kChildrenChanged);
  recompute(a_index);
  return t_index;
}

// The tree rotations of Kopta et al. ("Fast, Effective BVH Updates for Animated Scenes", I3D
// 2012) as Box2D v3 applies them on insertion: swap a child B of A with a grandchild under A's
// other child C when that shrinks C, the only box that changes. A swap is taken only if both
// changed nodes stay balanced and A's height stays within one of `old_height`, its height before
// the operation, which keeps the walk of refit_and_balance sound.
void DynamicTree::rotate_for_area(std::uint32_t a_index, int old_height) {
  const Node& a = nodes_[a_index];
  float best_gain = 0.0f;
  int best_side = -1, best_grandchild = -1;
  for (int side = 0; side < 2; ++side) {
    const Node& b = nodes_[a.child[side]];
    const Node& c = nodes_[a.child[1 - side]];
    if (c.is_leaf()) continue;
    for (int g = 0; g < 2; ++g) {
      const Node& up = nodes_[c.child[g]];  // rises to A
      const Node& stays = nodes_[c.child[1 - g]];
      // The new C holds B and `stays`, so it is no smaller than either (rounding is monotone):
      // their stored areas bound the gain without merging.
      if (!(c.area - std::max(b.area, stays.area) > best_gain)) continue;
      const int new_c_height = 1 + std::max(b.height, stays.height);
      const int new_a_height = 1 + std::max(up.height, new_c_height);
      if (std::abs(b.height - stays.height) > kMaxHeightDifference ||
          std::abs(up.height - new_c_height) > kMaxHeightDifference || std::abs(new_a_height - old_height) > 1) {
        continue;
      }
      const float gain = c.area - merge(b.box, stays.box).surface_area();
      if (gain > best_gain) {
        best_gain = gain;
        best_side = side;
        best_grandchild = g;
      }
    }
  }
  update_visits_ += 2;
  if (best_side < 0) return;
  const std::uint32_t b_index = a.child[best_side], c_index = a.child[1 - best_side];
  const std::uint32_t up_index = nodes_[c_index].child[best_grandchild];
  nodes_[a_index].child[best_side] = up_index;
  nodes_[up_index].parent = a_index;
  nodes_[c_index].child[best_grandchild] = b_index;
  nodes_[b_index].parent = c_index;
  touch(a_index, kChildrenChanged);
  touch(c_index, kChildrenChanged);
  recompute(c_index);
  recompute(a_index);
}

TreeQueryStats DynamicTree::find_pairs(std::vector<ProxyPair>& pairs) const {
  pairs.clear();
  return find_pairs([&pairs](std::uint32_t a, std::uint32_t b) { pairs.emplace_back(a, b); });
}

int DynamicTree::height() const { return root_ == kNullProxy ? 0 : nodes_[root_].height; }

bool DynamicTree::validate() const {
  std::size_t free_count = 0;
  for (std::uint32_t i = free_list_; i != kNullProxy; i = nodes_[i].parent) {
    if (i >= nodes_.size() || nodes_[i].height != -1 || ++free_count > nodes_.size()) return false;
  }
  detail::QuadNode expected;
  make_quad(kNullProxy, expected);
  if (!same_quad(quads_[kRootQuad], expected)) return false;
  if (root_ == kNullProxy) return proxy_count_ == 0 && free_count == nodes_.size();
  if (root_ >= nodes_.size() || nodes_[root_].parent != kNullProxy) return false;

  std::size_t reached = 0, leaves = 0;
  std::vector<std::uint32_t> stack{root_};
  while (!stack.empty()) {
    const std::uint32_t index = stack.back();
    stack.pop_back();
    if (++reached > nodes_.size()) return false;  // a cycle
    const Node& node = nodes_[index];
    if (node.is_leaf()) {
      if (node.height != 0 || node.child[1] != kNullProxy) return false;
      ++leaves;
      continue;
    }
    const std::uint32_t c0 = node.child[0], c1 = node.child[1];
    if (c0 >= nodes_.size() || c1 >= nodes_.size() || c0 == c1) return false;
    const Node& a = nodes_[c0];
    const Node& b = nodes_[c1];
    if (a.parent != index || b.parent != index || a.height < 0 || b.height < 0) return false;
    if (node.height != 1 + std::max(a.height, b.height) || std::abs(a.height - b.height) > kMaxHeightDifference) {
      return false;
    }
    if (!same_box(node.box, merge(a.box, b.box)) || node.area != node.box.surface_area()) return false;
    make_quad(index, expected);
    if (node.quad == kNullProxy || node.quad >= quads_.size() || !same_quad(quads_[node.quad], expected)) return false;
    stack.push_back(c0);
    stack.push_back(c1);
  }
  // One quad per inner node (leaves - 1 of them), the root quad, and the free ones.
  return leaves == proxy_count_ && reached + free_count == nodes_.size() &&
         nodes_[root_].height <= kMaxDynamicTreeHeight && quads_.size() == leaves + free_quads_.size();
}

}  // namespace hitscan::bvh
