#pragma once
/// Octree: a loose octree over the boxes of a static scene (Ulrich, "Loose Octrees", Game
/// Programming Gems, 2000; Ericson, "Real-Time Collision Detection", 2005, section 7.3.6). The
/// root cell is the cube around every box; each cell splits into eight of half its side. A cell's
/// loose box is the cell enlarged k times about its centre, so an object of half extent h lies
/// inside the loose box of every cell that holds its centre and whose half side s satisfies
/// h <= (k - 1) s: it is stored in the deepest such cell the tree reaches. With k = 2 that is the
/// cell no smaller than the object, found from its size and centre alone, and no object ever
/// straddles a split plane the way it does in a strict octree.
///
/// A cell is split only while it holds at least min_items_to_split objects and is above
/// max_depth, so sparse regions stay shallow; only occupied children are stored, eight at most,
/// next to each other. For queries each node keeps the union of the boxes below it: in exact
/// arithmetic that lies inside the loose box, so it culls at least as well as the loose box,
/// costs nothing in a static build, and no rounding of cell coordinates can lose an object.
///
/// Queries are const and may run from any number of threads at once.

#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "hitscan/bvh/dynamic_tree.hpp"
#include "hitscan/geometry/ray_aabb.hpp"
#include "hitscan/math/aabb.hpp"

namespace hitscan::bvh {

/// The deepest level a build reaches (the root is level 0), whatever the settings ask.
inline constexpr int kMaxOctreeDepth = 20;

struct OctreeSettings {
  /// k: a loose box is the cell enlarged k times about its centre. Values outside [1.25, 8] (or
  /// NaN) are replaced by 2.
  float looseness = 2.0f;
  /// Deepest level a cell may be split to (clamped to [0, kMaxOctreeDepth]).
  int max_depth = 16;
  /// A cell holding fewer objects (its own and its descendants') is not split.
  std::uint32_t min_items_to_split = 8;
};

/// What one query cost, counted rather than timed, so that tests can check how the cost grows.
struct OctreeStats {
  /// Nodes whose box was entered and whose items were examined.
  std::uint64_t node_visits = 0;
  /// Object boxes tested against the ray or the query box.
  std::uint64_t item_tests = 0;
  /// Objects handed to the callback.
  std::uint64_t reported = 0;
};

class Octree {
 public:
  explicit Octree(const OctreeSettings& settings = {});

  /// Replaces the objects by `boxes`: object i is boxes[i], carrying users[i] (or i when `users`
  /// is empty; otherwise its size must equal that of `boxes`, asserted). A box that is not valid
  /// or not finite (NaN, infinite, min > max) is skipped and counted in skipped_count(): no query
  /// reports it. Points (boxes of zero size) and flat boxes are valid. O(n depth) time.
  void build(std::span<const Aabbf> boxes, std::span<const std::uint64_t> users = {});

  /// Objects stored (the valid boxes of the last build).
  std::size_t object_count() const { return items_.size(); }
  /// Boxes of the last build left out as invalid or not finite.
  std::size_t skipped_count() const { return skipped_; }
  std::size_t node_count() const { return nodes_.size(); }
  /// Deepest level holding a node: 0 for a single root, -1 for an empty tree.
  int depth() const { return depth_; }
  /// The settings in use, after clamping.
  const OctreeSettings& settings() const { return settings_; }
  /// The user value of object i of the last build.
  std::uint64_t user(std::uint32_t object) const { return users_.empty() ? object : users_[object]; }

  /// Calls `callback(object) -> bool` for every object whose box overlaps `box` (touching counts),
  /// each once, until it returns false. An invalid `box` visits nothing.
  template <class Callback>
  OctreeStats query(const Aabbf& box, Callback&& callback) const;

  /// Calls `callback(object, tmax) -> float` for the objects whose box the ray meets within
  /// [tmin, tmax], front to back: a node's objects before its children, the children in order of
  /// their box entry t (ties in the near-to-far order of the ray's direction octant), a subtree
  /// entered beyond the current tmax skipped. Within one node the objects come in storage order.
  /// The callback returns the new tmax: the current one to go on, a smaller one to clip the ray
  /// (boxes entered beyond it are skipped; a larger value or NaN leaves it unchanged), a negative
  /// one to stop. So a callback that lowers tmax to each hit it finds ends with the nearest.
  /// The box test is the conservative one of DynamicTree::ray_query (far distances enlarged by
  /// 2 gamma(3)): a ray grazing a box is never culled; one that just misses may be reported.
  /// An invalid ray visits nothing.
  template <class Callback>
  OctreeStats ray_query(const Rayf& ray, Callback&& callback) const;

 private:
  struct Node {
    /// The union of the boxes of the objects in this node and below.
    Aabbf box;
    /// The node's objects: items_[item_first, item_first + item_count).
    std::uint32_t item_first = 0;
    std::uint32_t item_count = 0;
    /// The occupied children, bit c for child c (bit 0: +x half, bit 1: +y, bit 2: +z), stored
    /// from first_child on in increasing c.
    std::uint32_t first_child = 0;
    std::uint32_t child_mask = 0;

    std::uint32_t child(unsigned c) const {
      return first_child + static_cast<std::uint32_t>(std::popcount(child_mask & ((1u << c) - 1u)));
    }
  };

  /// An object on its way down the build: cell geometry in double, so that no rounding of a
  /// cell's centre or side moves an object to a cell whose loose box does not hold it, and so
  /// that a finite box near the float limit has a finite size.
  struct BuildItem {
    double centre[3];
    /// The largest of the three half sides.
    double half;
    std::uint32_t index;
  };
  void build_node(std::uint32_t node, std::uint32_t begin, std::uint32_t end, const double centre[3], double half,
                  int level);

  /// Each level leaves at most 7 siblings waiting, the last one 8.
  static constexpr int kStackSize = 8 * (kMaxOctreeDepth + 1);

  OctreeSettings settings_;
  std::vector<Node> nodes_;
  /// Per stored object, in node order: its index in the build's input and its box.
  std::vector<std::uint32_t> items_;
  std::vector<Aabbf> item_boxes_;
  std::vector<std::uint64_t> users_;
  std::size_t skipped_ = 0;
  int depth_ = -1;
  /// The build's scratch, kept so that rebuilding a scene of steady size allocates nothing.
  std::vector<BuildItem> scratch_, sorted_;
};

template <class Callback>
OctreeStats Octree::query(const Aabbf& box, Callback&& callback) const {
  OctreeStats stats;
  if (nodes_.empty() || !box.is_valid()) return stats;
  if (!nodes_[0].box.overlaps(box)) return stats;
  // Only nodes whose box overlaps `box` are pushed.
  std::uint32_t stack[kStackSize];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    ++stats.node_visits;
    for (std::uint32_t a = node.item_first; a < node.item_first + node.item_count; ++a) {
      ++stats.item_tests;
      if (!item_boxes_[a].overlaps(box)) continue;
      ++stats.reported;
      if (!callback(items_[a])) return stats;
    }
    const std::uint32_t end = node.first_child + static_cast<std::uint32_t>(std::popcount(node.child_mask));
    for (std::uint32_t child = node.first_child; child < end; ++child) {
      if (nodes_[child].box.overlaps(box)) stack[top++] = child;
    }
  }
  return stats;
}

template <class Callback>
OctreeStats Octree::ray_query(const Rayf& ray, Callback&& callback) const {
  OctreeStats stats;
  if (nodes_.empty() || !is_valid(ray)) return stats;
  const RayInverse<float> inverse = RayInverse<float>::from_ray(ray);
  // Child c ^ octant, for c = 0..7, runs from the cell nearest the ray's origin side to the
  // farthest (the order of a strict octree's front-to-back walk).
  const unsigned octant = unsigned(inverse.sign[0]) | unsigned(inverse.sign[1]) << 1 | unsigned(inverse.sign[2]) << 2;
  float tmax = ray.tmax;
  struct Entry {
    std::uint32_t node;
    float t;
  };
  Entry stack[kStackSize];
  int top = 0;
  float t_root;
  if (!ray_enters_box(nodes_[0].box, inverse, tmax, t_root)) return stats;
  stack[top++] = {0, t_root};
  while (top > 0) {
    const Entry entry = stack[--top];
    if (entry.t > tmax) continue;  // tmax shrank since this entry was pushed
    const Node& node = nodes_[entry.node];
    ++stats.node_visits;
    for (std::uint32_t a = node.item_first; a < node.item_first + node.item_count; ++a) {
      ++stats.item_tests;
      float t;
      if (!ray_enters_box(item_boxes_[a], inverse, tmax, t)) continue;
      ++stats.reported;
      const float next = callback(items_[a], tmax);
      if (next < 0.0f) return stats;
      tmax = min(tmax, next);  // keeps tmax for NaN
    }
    if (node.child_mask == 0) continue;
    // The children hit, by descending entry t so that the nearest is popped first; on equal t
    // the earlier in octant order is popped first.
    Entry hits[8];
    int count = 0;
    for (unsigned i = 0; i < 8; ++i) {
      const unsigned c = i ^ octant;
      if (((node.child_mask >> c) & 1u) == 0) continue;
      const std::uint32_t child = node.child(c);
      float t;
      if (!ray_enters_box(nodes_[child].box, inverse, tmax, t)) continue;
      int k = count++;
      while (k > 0 && hits[k - 1].t <= t) {
        hits[k] = hits[k - 1];
        --k;
      }
      hits[k] = {child, t};
    }
    for (int k = 0; k < count; ++k) stack[top++] = hits[k];
  }
  return stats;
}

}  // namespace hitscan::bvh
