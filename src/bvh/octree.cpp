#include "hitscan/bvh/octree.hpp"

#include <algorithm>
#include <cmath>

#include "hitscan/assert.hpp"

namespace hitscan::bvh {

namespace {

OctreeSettings clamped(OctreeSettings s) {
  if (!(s.looseness >= 1.25f && s.looseness <= 8.0f)) s.looseness = 2.0f;
  s.max_depth = std::clamp(s.max_depth, 0, kMaxOctreeDepth);
  s.min_items_to_split = std::max<std::uint32_t>(s.min_items_to_split, 1);
  return s;
}

bool usable(const Aabbf& b) { return b.is_valid() && is_finite(b.min) && is_finite(b.max); }

}  // namespace

Octree::Octree(const OctreeSettings& settings) : settings_(clamped(settings)) {}

void Octree::build(std::span<const Aabbf> boxes, std::span<const std::uint64_t> users) {
  HITSCAN_ASSERT(users.empty() || users.size() == boxes.size());
  nodes_.clear();
  items_.clear();
  item_boxes_.clear();
  users_.assign(users.begin(), users.end());
  scratch_.clear();
  skipped_ = 0;
  depth_ = -1;
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const Aabbf& b = boxes[i];
    if (!usable(b)) {
      ++skipped_;
      continue;
    }
    BuildItem item;
    item.half = 0.0;
    for (int a = 0; a < 3; ++a) {
      const double mn = b.min[a], mx = b.max[a];
      item.centre[a] = 0.5 * (mn + mx);
      item.half = std::max(item.half, 0.5 * (mx - mn));
      lo[a] = std::min(lo[a], mn);
      hi[a] = std::max(hi[a], mx);
    }
    item.index = static_cast<std::uint32_t>(i);
    scratch_.push_back(item);
  }
  if (scratch_.empty()) return;
  // The root cell: the cube around every box. Every object fits the root, whatever its size.
  double centre[3], half = 0.0;
  for (int a = 0; a < 3; ++a) {
    centre[a] = 0.5 * (lo[a] + hi[a]);
    half = std::max(half, 0.5 * (hi[a] - lo[a]));
  }
  sorted_.resize(scratch_.size());
  nodes_.emplace_back();
  build_node(0, 0, static_cast<std::uint32_t>(scratch_.size()), centre, half, 0);
  items_.resize(scratch_.size());
  item_boxes_.resize(scratch_.size());
  for (std::size_t i = 0; i < scratch_.size(); ++i) {
    items_[i] = scratch_[i].index;
    item_boxes_[i] = boxes[scratch_[i].index];
  }
  // Node boxes, children before parents: children always come after their parent in nodes_.
  for (std::size_t n = nodes_.size(); n-- > 0;) {
    Node& node = nodes_[n];
    Aabbf box;
    for (std::uint32_t a = node.item_first; a < node.item_first + node.item_count; ++a) box.grow(item_boxes_[a]);
    for (std::uint32_t c = 0; c < static_cast<std::uint32_t>(std::popcount(node.child_mask)); ++c) {
      box.grow(nodes_[node.first_child + c].box);
    }
    node.box = box;
  }
}

// Objects [begin, end) of scratch_ belong to `node`, the cell of the given centre and half side.
// Those small enough for a child's loose box go to the child holding their centre; the others
// stay, at the front of the range.
void Octree::build_node(std::uint32_t node, std::uint32_t begin, std::uint32_t end, const double centre[3],
                        double half, int level) {
  depth_ = std::max(depth_, level);
  nodes_[node].item_first = begin;
  nodes_[node].item_count = end - begin;
  if (level >= settings_.max_depth || end - begin < settings_.min_items_to_split) return;
  const double child_half = 0.5 * half;
  // Objects of half extent h fit a child's loose box (half side k child_half) from anywhere in the
  // child's cell when h <= (k - 1) child_half.
  const double fits = (double(settings_.looseness) - 1.0) * child_half;
  auto slot = [&](const BuildItem& item) {
    if (item.half > fits) return 8u;
    return unsigned(item.centre[0] >= centre[0]) | unsigned(item.centre[1] >= centre[1]) << 1 |
           unsigned(item.centre[2] >= centre[2]) << 2;
  };
  // A counting sort by slot, the staying objects (slot 8) first.
  std::uint32_t count[9] = {};
  for (std::uint32_t i = begin; i < end; ++i) ++count[slot(scratch_[i])];
  if (count[8] == end - begin) return;
  std::uint32_t start[9];
  start[8] = begin;
  for (unsigned c = 0, at = begin + count[8]; c < 8; ++c) start[c] = at, at += count[c];
  std::uint32_t fill[9];
  std::copy(start, start + 9, fill);
  for (std::uint32_t i = begin; i < end; ++i) sorted_[fill[slot(scratch_[i])]++] = scratch_[i];
  std::copy(sorted_.begin() + begin, sorted_.begin() + end, scratch_.begin() + begin);

  std::uint32_t mask = 0;
  for (unsigned c = 0; c < 8; ++c) mask |= (count[c] != 0 ? 1u : 0u) << c;
  const auto first_child = static_cast<std::uint32_t>(nodes_.size());
  nodes_[node].item_count = count[8];
  nodes_[node].first_child = first_child;
  nodes_[node].child_mask = mask;
  nodes_.resize(nodes_.size() + static_cast<std::size_t>(std::popcount(mask)));
  std::uint32_t child = first_child;
  for (unsigned c = 0; c < 8; ++c) {
    if (count[c] == 0) continue;
    const double child_centre[3] = {centre[0] + ((c & 1u) ? child_half : -child_half),
                                    centre[1] + ((c & 2u) ? child_half : -child_half),
                                    centre[2] + ((c & 4u) ? child_half : -child_half)};
    build_node(child++, start[c], start[c] + count[c], child_centre, child_half, level + 1);
  }
}

}  // namespace hitscan::bvh
