// Structural invariants of the binned SAH build and of the 8-wide collapse, on seeded random and
// pathological inputs.

#include "hitscan/bvh/build.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "hitscan/bvh/wide_bvh.hpp"

namespace hitscan::bvh {
namespace {

std::vector<Aabbf> random_boxes(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-100, 100), s(0, 3);
  std::vector<Aabbf> boxes;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3f c{u(gen), u(gen), u(gen)};
    boxes.push_back(Aabbf::from_center_half_extents(c, {s(gen), s(gen), s(gen)}));
  }
  return boxes;
}

bool contains(const Aabbf& outer, const Aabbf& inner) {
  return outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && outer.min.z <= inner.min.z &&
         outer.max.x >= inner.max.x && outer.max.y >= inner.max.y && outer.max.z >= inner.max.z;
}

// Walks the tree: every valid primitive in exactly one leaf, bounds nested, leaves within size.
// Returns the depth.
int check_tree(const BinaryBvh& bvh, std::span<const Aabbf> boxes, const BuildSettings& settings) {
  std::vector<int> seen(boxes.size(), 0);
  int max_depth = 0;
  std::vector<std::pair<std::uint32_t, int>> stack{{0, 0}};
  while (!stack.empty()) {
    const auto [index, depth] = stack.back();
    stack.pop_back();
    max_depth = std::max(max_depth, depth);
    const BinaryNode& node = bvh.nodes.at(index);
    if (node.is_leaf()) {
      EXPECT_LE(node.count, std::max<std::uint32_t>(settings.max_leaf_size, 1)) << "leaf " << index;
      for (std::uint32_t i = node.first; i < node.first + node.count; ++i) {
        const std::uint32_t p = bvh.primitive_order.at(i);
        ++seen.at(p);
        EXPECT_TRUE(contains(node.bounds, boxes[p])) << "leaf " << index << " primitive " << p;
      }
    } else {
      for (std::uint32_t c : {node.first, node.first + 1}) {
        EXPECT_TRUE(contains(node.bounds, bvh.nodes.at(c).bounds)) << "node " << index << " child " << c;
        stack.push_back({c, depth + 1});
      }
    }
  }
  for (std::size_t p = 0; p < boxes.size(); ++p) {
    const bool valid = boxes[p].is_valid() && is_finite(boxes[p].min) && is_finite(boxes[p].max);
    EXPECT_EQ(seen[p], valid ? 1 : 0) << "primitive " << p;
  }
  return max_depth;
}

TEST(BinnedSah, EveryPrimitiveInExactlyOneLeafWithNestedBounds) {
  for (std::uint32_t leaf : {1u, 4u, 8u}) {
    const std::vector<Aabbf> boxes = random_boxes(5000, 1 + leaf);
    const BuildSettings settings{leaf, 16, 1.0f};
    const BinaryBvh bvh = build_binned_sah(boxes, settings);
    ASSERT_FALSE(bvh.nodes.empty());
    check_tree(bvh, boxes, settings);
    EXPECT_EQ(bvh.primitive_order.size(), boxes.size());
  }
}

TEST(BinnedSah, InvalidBoxesAreLeftOut) {
  std::vector<Aabbf> boxes = random_boxes(300, 7);
  boxes[3] = Aabbf::empty();
  boxes[10].min.x = NAN;
  boxes[20].max.y = kInfinity<float>;
  boxes[30] = {{1, 1, 1}, {0, 0, 0}};
  const BinaryBvh bvh = build_binned_sah(boxes);
  check_tree(bvh, boxes, {});
  EXPECT_EQ(bvh.primitive_order.size(), boxes.size() - 4);
}

TEST(BinnedSah, EmptyAndSingleInput) {
  EXPECT_TRUE(build_binned_sah({}).nodes.empty());
  const std::vector<Aabbf> none{Aabbf::empty()};
  EXPECT_TRUE(build_binned_sah(none).nodes.empty());
  const std::vector<Aabbf> one{Aabbf{{0, 0, 0}, {1, 1, 1}}};
  const BinaryBvh bvh = build_binned_sah(one);
  ASSERT_EQ(bvh.nodes.size(), 1u);
  EXPECT_EQ(bvh.nodes[0].count, 1u);
}

TEST(BinnedSah, IdenticalBoxesSplitByMedianToLeafSize) {
  const std::vector<Aabbf> boxes(1000, Aabbf{{0, 0, 0}, {1, 1, 1}});
  const BuildSettings settings{4, 16, 1.0f};
  const BinaryBvh bvh = build_binned_sah(boxes, settings);
  EXPECT_LE(check_tree(bvh, boxes, settings), 12);  // log2(1000 / 4) rounded up, plus slack
}

TEST(BinnedSah, DepthStaysBoundedForExponentiallySpacedBoxes) {
  // Each box twice as far as the last: the SAH peels one box per level, the depth cap stops it.
  std::vector<Aabbf> boxes;
  for (int i = 0; i < 120; ++i) {
    const float x = std::ldexp(1.0f, i);
    boxes.push_back({{x, 0, 0}, {x * 1.01f, 1, 1}});
  }
  const BuildSettings settings{1, 16, 1.0f};
  const BinaryBvh bvh = build_binned_sah(boxes, settings);
  EXPECT_LE(check_tree(bvh, boxes, settings), 40 + 8);
}

TEST(BinnedSah, BoxSourceIsAskedForEveryBoxOnceAndGivesTheSpansTree) {
  const std::vector<Aabbf> boxes = random_boxes(1000, 31);  // not a multiple of the chunk size
  std::vector<int> asked(boxes.size(), 0);
  const BoxSource source = [&](std::uint32_t first, std::span<Aabbf> out) {
    ASSERT_LE(first + out.size(), boxes.size());
    for (std::size_t k = 0; k < out.size(); ++k) {
      ++asked[first + k];
      out[k] = boxes[first + k];
    }
  };
  const BinaryBvh from_source = build_binned_sah(static_cast<std::uint32_t>(boxes.size()), source);
  for (std::size_t i = 0; i < asked.size(); ++i) EXPECT_EQ(asked[i], 1) << "box " << i;
  const BinaryBvh from_span = build_binned_sah(boxes);
  EXPECT_EQ(from_source.primitive_order, from_span.primitive_order);
  ASSERT_EQ(from_source.nodes.size(), from_span.nodes.size());
  for (std::size_t i = 0; i < from_span.nodes.size(); ++i) {
    EXPECT_EQ(from_source.nodes[i].first, from_span.nodes[i].first);
    EXPECT_EQ(from_source.nodes[i].count, from_span.nodes[i].count);
  }
  check_tree(from_source, boxes, {});
  EXPECT_TRUE(build_binned_sah(0, source).nodes.empty());
}

TEST(BinnedSah, Deterministic) {
  const std::vector<Aabbf> boxes = random_boxes(3000, 99);
  const BinaryBvh a = build_binned_sah(boxes), b = build_binned_sah(boxes);
  EXPECT_EQ(a.primitive_order, b.primitive_order);
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    EXPECT_EQ(a.nodes[i].first, b.nodes[i].first);
    EXPECT_EQ(a.nodes[i].count, b.nodes[i].count);
  }
}

TEST(BinnedSah, ParallelBuildGivesTheSameTreeOnAnyExecutor) {
  const std::vector<Aabbf> boxes = random_boxes(300000, 77);  // large enough to defer subtrees
  // The defaults; single-primitive leaves with few bins; a block size that is not a power of two.
  BuildSettings settings[3];
  settings[1].max_leaf_size = 1, settings[1].bin_count = 8, settings[1].leaf_block_size = 1;
  settings[2].max_leaf_size = 8, settings[2].bin_count = 32, settings[2].leaf_block_size = 3;
  SerialExecutor one;
  ThreadPool three(3);
  for (const BuildSettings& setting : settings) {
    const BinaryBvh serial = build_binned_sah(boxes, setting);
    for (Executor* executor : {static_cast<Executor*>(&one), static_cast<Executor*>(&three)}) {
      const BinaryBvh parallel = build_binned_sah(boxes, setting, executor);
      ASSERT_EQ(parallel.primitive_order, serial.primitive_order);
      ASSERT_EQ(parallel.nodes.size(), serial.nodes.size());
      for (std::size_t i = 0; i < serial.nodes.size(); ++i) {
        ASSERT_EQ(parallel.nodes[i].first, serial.nodes[i].first) << "node " << i;
        ASSERT_EQ(parallel.nodes[i].count, serial.nodes[i].count) << "node " << i;
        ASSERT_EQ(parallel.nodes[i].bounds.min, serial.nodes[i].bounds.min) << "node " << i;
        ASSERT_EQ(parallel.nodes[i].bounds.max, serial.nodes[i].bounds.max) << "node " << i;
      }
    }
    check_tree(serial, boxes, setting);
  }
}

// The SAH cost (in double) of splitting `boxes` into `left` and the rest, as the builder weighs it:
// traversal 1, each side's half area times its leaf blocks of 4, over the node's half area.
double split_cost(std::span<const Aabbf> boxes, const std::vector<std::uint32_t>& left, const std::vector<std::uint32_t>& right) {
  const auto half_area = [&](const std::vector<std::uint32_t>& ids) {
    Aabbf b;
    for (std::uint32_t i : ids) b.grow(boxes[i]);
    const double x = double(b.max.x) - b.min.x, y = double(b.max.y) - b.min.y, z = double(b.max.z) - b.min.z;
    return x * y + y * z + z * x;
  };
  std::vector<std::uint32_t> all = left;
  all.insert(all.end(), right.begin(), right.end());
  const auto blocks = [](std::size_t n) { return double((n + 3) / 4); };
  return 1.0 + (half_area(left) * blocks(left.size()) + half_area(right) * blocks(right.size())) / half_area(all);
}

TEST(BinnedSah, SmallNodesTakeTheBestSplitOfTheirSortedCentres) {
  // Nodes of at most 16 primitives are split by sweeping their centres in order on each axis.
  // Reference: the same sweep by std::sort and the cost in double, over centres that are
  // negative, positive, repeated, and -0 beside +0 (equal as floats).
  std::mt19937 gen(2024);
  std::uniform_int_distribution<int> count(2, 16), pick(0, 5);
  std::uniform_real_distribution<float> u(-50, 50), s(0.1f, 4);
  const float kCentres[] = {-0.0f, 0.0f, -3.5f, 3.5f, -40.0f};
  for (int round = 0; round < 300; ++round) {
    const int n = count(gen);
    std::vector<Aabbf> boxes;
    for (int i = 0; i < n; ++i) {
      Vec3f c{u(gen), u(gen), u(gen)};
      for (int a = 0; a < 3; ++a) {
        if (pick(gen) < 5) continue;
        c[a] = kCentres[pick(gen) % 5];
      }
      const float h = s(gen);  // cubes: a centre of -0 stays -0 after (min + max) / 2
      boxes.push_back(Aabbf::from_center_half_extents(c, {h, h, h}));
    }
    const BuildSettings settings{1, 16, 1.0f, 4};
    const BinaryBvh bvh = build_binned_sah(boxes, settings);
    check_tree(bvh, boxes, settings);
    const BinaryNode& root = bvh.nodes.at(0);
    ASSERT_FALSE(root.is_leaf()) << "round " << round;
    // The root's split: the primitives under its left child.
    std::vector<std::uint32_t> left, right;
    std::vector<std::uint32_t> stack{root.first};
    while (!stack.empty()) {
      const BinaryNode& node = bvh.nodes.at(stack.back());
      stack.pop_back();
      if (!node.is_leaf()) {
        stack.push_back(node.first), stack.push_back(node.first + 1);
        continue;
      }
      for (std::uint32_t i = node.first; i < node.first + node.count; ++i) left.push_back(bvh.primitive_order[i]);
    }
    std::vector<bool> in_left(boxes.size(), false);
    for (std::uint32_t i : left) in_left[i] = true;
    for (std::uint32_t i = 0; i < boxes.size(); ++i) {
      if (!in_left[i]) right.push_back(i);
    }
    double best = std::numeric_limits<double>::infinity();
    for (int a = 0; a < 3; ++a) {
      std::vector<std::uint32_t> order(boxes.size());
      for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
      const auto centre = [&](std::uint32_t i) { return (boxes[i].min[a] + boxes[i].max[a]) * 0.5f; };
      std::sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
        return centre(x) < centre(y) || (centre(x) == centre(y) && x < y);
      });
      if (!(centre(order.back()) > centre(order.front()))) continue;  // every centre equal on this axis
      for (std::size_t k = 1; k < order.size(); ++k) {
        best = std::min(best, split_cost(boxes, {order.begin(), order.begin() + long(k)}, {order.begin() + long(k), order.end()}));
      }
    }
    if (best == std::numeric_limits<double>::infinity()) continue;  // every centre equal: a median split
    EXPECT_LE(split_cost(boxes, left, right), best * (1 + 1e-5)) << "round " << round << ", " << n << " boxes";
  }
}

TEST(WideCollapse, KeepsEveryLeafOnceWithBoundsContainingItsLeaves) {
  const std::vector<Aabbf> boxes = random_boxes(4000, 5);
  const BinaryBvh binary = build_binned_sah(boxes);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> leaves;  // binary leaf ranges, by item
  const auto nodes = collapse_to_wide(binary, [&](std::uint32_t first, std::uint32_t count) {
    leaves.emplace_back(first, count);
    return std::pair{static_cast<std::uint32_t>(leaves.size() - 1), 1u};
  });
  ASSERT_FALSE(nodes.empty());
  std::vector<int> seen(leaves.size(), 0), visited(nodes.size(), 0);
  std::vector<std::uint32_t> stack{0};
  while (!stack.empty()) {
    const std::uint32_t index = stack.back();
    stack.pop_back();
    ++visited.at(index);
    const WideNode& node = nodes[index];
    int used = 0;
    for (int i = 0; i < kWideWidth; ++i) {
      if (node.child[i] == kEmptySlot) {
        EXPECT_GT(node.bounds.min_x[i], node.bounds.max_x[i]) << "an empty slot has an empty box";
        continue;
      }
      ++used;
      const Aabbf slot{{node.bounds.min_x[i], node.bounds.min_y[i], node.bounds.min_z[i]},
                       {node.bounds.max_x[i], node.bounds.max_y[i], node.bounds.max_z[i]}};
      if (node.count[i] == 0) {
        stack.push_back(node.child[i]);
        continue;
      }
      ++seen.at(node.child[i]);
      const auto [first, count] = leaves[node.child[i]];
      for (std::uint32_t k = first; k < first + count; ++k) EXPECT_TRUE(contains(slot, boxes[binary.primitive_order[k]]));
    }
    EXPECT_GE(used, 1);
  }
  for (int s : seen) EXPECT_EQ(s, 1);
  for (int v : visited) EXPECT_EQ(v, 1);
  // 8-wide collapse of a tree with ~1000 leaves needs far fewer nodes than the binary tree.
  EXPECT_LT(nodes.size() * 4, binary.nodes.size());
}

}  // namespace
}  // namespace hitscan::bvh
