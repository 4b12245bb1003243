// DynamicTree::rebuild: a balanced top-down build over the live proxies.

#include <algorithm>
#include <vector>

#include "hitscan/bvh/dynamic_tree.hpp"

namespace hitscan::bvh {

// A leaf for rebuild: its box, copied so that the build reads one array, and the box's centre
// (0 for the empty box, whose centre is NaN).
struct DynamicTree::BuildItem {
  Aabbf box;
  float centre[3];
  std::uint32_t leaf;
};

void DynamicTree::rebuild() {
  HITSCAN_ASSERT(!batching_);
  rebuild_with({});
}

void DynamicTree::rebuild_with(const std::vector<std::uint32_t>& outside) {
  std::vector<BuildItem> items;
  items.reserve(proxy_count_);
  const auto add = [&](std::uint32_t leaf) {
    const Aabbf& box = nodes_[leaf].box;
    const Vec3f c = box.is_valid() ? box.center() : Vec3f{};
    items.push_back({box, {c.x, c.y, c.z}, leaf});
  };
  for (const std::uint32_t leaf : outside) add(leaf);
  std::vector<std::uint32_t> stack;
  if (root_ != kNullProxy) stack.push_back(root_);
  while (!stack.empty()) {
    const std::uint32_t index = stack.back();
    stack.pop_back();
    const Node& node = nodes_[index];
    if (node.is_leaf()) {
      add(index);
      continue;
    }
    stack.push_back(node.child[0]);
    stack.push_back(node.child[1]);
    free_node(index);
  }
  if (items.empty()) return;
  root_ = build_range(items.data(), items.size(), kNullProxy);
  touched_.clear();
  // Quads last: a quad names the quads of its grandchildren, allocated with their nodes.
  stack.assign(1, root_);
  while (!stack.empty()) {
    const std::uint32_t index = stack.back();
    stack.pop_back();
    const Node& node = nodes_[index];
    if (node.is_leaf()) continue;
    make_quad(index, quads_[node.quad]);
    stack.push_back(node.child[0]);
    stack.push_back(node.child[1]);
  }
  make_quad(kNullProxy, quads_[kRootQuad]);
}

// The subtree over `count` >= 1 leaves: split at the median along the axis whose halves have
// the least total area (Wald, "On fast construction of SAH-based bounding volume hierarchies",
// 2007, restricted to the median so that the tree stays balanced).
std::uint32_t DynamicTree::build_range(BuildItem* first, std::size_t count, std::uint32_t parent) {
  if (count == 1) {
    nodes_[first->leaf].parent = parent;
    return first->leaf;
  }
  const std::size_t half = count / 2;
  const auto split = [&](int axis) {
    std::nth_element(first, first + half, first + count,
                     [axis](const BuildItem& a, const BuildItem& b) { return a.centre[axis] < b.centre[axis]; });
  };
  const auto bounds = [&](const BuildItem* begin, const BuildItem* end) {
    Aabbf box;
    for (const BuildItem* item = begin; item != end; ++item) box = merge(box, item->box);
    return box;
  };
  int best_axis = 0;
  float best_cost = kInfinity<float>;
  for (int axis = 0; axis < 3; ++axis) {
    split(axis);
    const float cost = bounds(first, first + half).surface_area() + bounds(first + half, first + count).surface_area();
    if (axis == 0 || cost < best_cost) best_axis = axis, best_cost = cost;
  }
  if (best_axis != 2) split(best_axis);
  const std::uint32_t index = allocate_node();
  nodes_[index].quad = allocate_quad();
  const std::uint32_t a = build_range(first, half, index);
  const std::uint32_t b = build_range(first + half, count - half, index);
  Node& node = nodes_[index];
  node.parent = parent;
  node.child[0] = a;
  node.child[1] = b;
  node.set_box(merge(nodes_[a].box, nodes_[b].box));
  node.height = 1 + std::max(nodes_[a].height, nodes_[b].height);
  return index;
}

}  // namespace hitscan::bvh
