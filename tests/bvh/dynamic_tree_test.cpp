// The dynamic AABB tree against brute force and sort-and-sweep: the pairs of a static scene and of
// a moving one frame by frame, box and ray queries, churn of insertions and removals, the balance
// invariants after every batch, and the growth of its counted work with n.

#include "hitscan/bvh/dynamic_tree.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <span>
#include <vector>

#include "broadphase_reference.hpp"
#include "hitscan/geometry/ray_aabb.hpp"

namespace hitscan::bvh {
namespace {

using namespace broadphase_reference;

// The tallest a tree of n leaves may be when sibling heights differ by at most 2: the largest h
// whose sparsest tree, N(h) = N(h - 1) + N(h - 3) leaves, has no more than n.
int height_bound(std::size_t n) {
  std::vector<std::size_t> least{1, 2, 3};
  while (least.back() <= n) least.push_back(least[least.size() - 1] + least[least.size() - 3]);
  return static_cast<int>(least.size()) - 2;
}

// A tree with a proxy for each box, user value i for boxes[i]; proxies[i] receives its id.
DynamicTree tree_of(std::span<const Aabbf> boxes, const DynamicTreeSettings& settings = {},
                    std::vector<std::uint32_t>* proxies = nullptr) {
  DynamicTree tree(settings);
  for (std::uint32_t i = 0; i < boxes.size(); ++i) {
    const std::uint32_t p = tree.insert(boxes[i], i);
    if (proxies) proxies->push_back(p);
  }
  return tree;
}

// The tree's pairs as pairs of user values, (low, high).
std::vector<Pair> user_pairs(const DynamicTree& tree) {
  std::vector<ProxyPair> proxies;
  tree.find_pairs(proxies);
  std::vector<Pair> pairs;
  for (const auto& [a, b] : proxies) {
    const auto u = static_cast<std::uint32_t>(tree.user(a)), v = static_cast<std::uint32_t>(tree.user(b));
    pairs.emplace_back(std::min(u, v), std::max(u, v));
  }
  return pairs;
}

TEST(DynamicTree, EmptyTreeReportsNothing) {
  DynamicTree tree;
  EXPECT_TRUE(tree.validate());
  EXPECT_EQ(tree.height(), 0);
  EXPECT_EQ(tree.node_count(), 0u);
  std::vector<ProxyPair> pairs;
  EXPECT_EQ(tree.find_pairs(pairs).node_visits, 0u);
  EXPECT_TRUE(pairs.empty());
  EXPECT_EQ(tree.query(Aabbf{{-1, -1, -1}, {1, 1, 1}}, [](std::uint32_t) { return true; }).reported, 0u);
  EXPECT_EQ(tree.ray_query(Rayf{}, [](std::uint32_t, float t) { return t; }).reported, 0u);
}

TEST(DynamicTree, PairsEqualBruteForceAtEverySize) {
  for (std::size_t n : {std::size_t{100}, std::size_t{1000}, std::size_t{10000}, kLargeScene}) {
    const std::vector<Aabbf>& boxes = box_scene(n, 1).boxes;
    const std::vector<Pair>& expected = box_scene(n, 1).pairs;
    if (n <= 10000) {  // without a margin the fat boxes are the boxes: the pairs match as they are
      const DynamicTree exact = tree_of(boxes, {0.0f, 0.0f, 0.0f});
      EXPECT_TRUE(exact.validate());
      expect_same_pairs(user_pairs(exact), expected, "no margin, n=" + std::to_string(n));
    }
    // With the default margin the pairs are candidates; the tight-box test leaves the same set.
    const DynamicTree fat = tree_of(boxes);
    EXPECT_TRUE(fat.validate());
    EXPECT_LE(fat.height(), height_bound(n));
    const std::vector<Pair> candidates = user_pairs(fat);
    EXPECT_GE(candidates.size(), expected.size());
    expect_same_pairs(tight_only(candidates, boxes), expected, "margin, n=" + std::to_string(n));
  }
}

TEST(DynamicTree, SpherePairsAfterTheExactTestEqualBruteForce) {
  for (std::size_t n : {std::size_t{100}, std::size_t{1000}, std::size_t{10000}, kLargeScene}) {
    const BallScene& scene = ball_scene(n, 2);
    EXPECT_GT(scene.pairs.size(), n / 2);
    const DynamicTree tree = tree_of(scene.boxes);
    expect_same_pairs(touching_only(user_pairs(tree), scene.balls), scene.pairs, "spheres n=" + std::to_string(n));
  }
}

TEST(DynamicTree, StaysBalancedWhenBoxesArriveInSortedOrder) {
  // Sorted insertion along a line is the worst order for an unbalanced tree: a chain.
  std::vector<Aabbf> line;
  for (int i = 0; i < 10000; ++i) line.push_back({{float(i), 0, 0}, {float(i) + 0.5f, 1, 1}});
  DynamicTree tree = tree_of(line);
  EXPECT_TRUE(tree.validate());
  EXPECT_LE(tree.height(), height_bound(line.size()));
  EXPECT_EQ(tree.node_count(), 2 * line.size() - 1);
  expect_same_pairs(user_pairs(tree), brute_force_pairs(line), "line");

  // Identical boxes: every pair overlaps and no cost tells the leaves apart.
  const std::vector<Aabbf> same(500, Aabbf{{0, 0, 0}, {1, 1, 1}});
  const DynamicTree stack = tree_of(same);
  EXPECT_TRUE(stack.validate());
  EXPECT_LE(stack.height(), height_bound(same.size()));
  EXPECT_EQ(user_pairs(stack).size(), same.size() * (same.size() - 1) / 2);
}

TEST(DynamicTree, ValidAfterEverySingleOperation) {
  std::mt19937 gen(21);
  std::uniform_real_distribution<float> u(0.0f, 20.0f), h(0.1f, 2.0f), step(-0.5f, 0.5f);
  std::uniform_int_distribution<int> op(0, 9);
  DynamicTree tree;
  std::vector<std::uint32_t> live;
  std::vector<Aabbf> tight;  // by proxy
  for (int k = 0; k < 3000; ++k) {
    const int what = op(gen);
    if (live.empty() || what < 4) {
      const Aabbf box = Aabbf::from_center_half_extents({u(gen), u(gen), u(gen)}, {h(gen), h(gen), h(gen)});
      live.push_back(tree.insert(box, 0));
      tight.resize(std::max<std::size_t>(tight.size(), live.back() + 1));
      tight[live.back()] = box;
    } else if (what < 7) {
      const std::size_t i = gen() % live.size();
      tree.remove(live[i]);
      live[i] = live.back();
      live.pop_back();
    } else {
      const std::uint32_t p = live[gen() % live.size()];
      const Vec3f d{step(gen), step(gen), step(gen)};
      tight[p] = {tight[p].min + d, tight[p].max + d};
      tree.move(p, tight[p], d);
    }
    ASSERT_TRUE(tree.validate()) << "after operation " << k;
    ASSERT_EQ(tree.proxy_count(), live.size());
  }
}

TEST(DynamicTree, InsertRemoveChurnMatchesBruteForce) {
  std::mt19937 gen(8);
  std::uniform_real_distribution<float> u(0.0f, 20.0f), h(0.2f, 1.5f), step(-0.3f, 0.3f);
  DynamicTree tree;
  // tight[user] is the object's box; proxy[user] its proxy, kNullProxy once removed.
  std::vector<Aabbf> tight;
  std::vector<std::uint32_t> proxy;
  auto add = [&] {
    tight.push_back(Aabbf::from_center_half_extents({u(gen), u(gen), u(gen)}, {h(gen), h(gen), h(gen)}));
    proxy.push_back(tree.insert(tight.back(), tight.size() - 1));
  };
  for (int i = 0; i < 1000; ++i) add();
  std::uint32_t largest_proxy = 0;
  std::size_t most_live = 0;
  for (int round = 0; round < 30; ++round) {
    for (int k = 0; k < 100; ++k) {  // remove
      const std::size_t user = gen() % proxy.size();
      if (proxy[user] == kNullProxy) continue;
      tree.remove(proxy[user]);
      proxy[user] = kNullProxy;
    }
    for (int k = 0; k < 100; ++k) add();
    for (int k = 0; k < 300; ++k) {  // move, a tenth of them far
      const std::size_t user = gen() % proxy.size();
      if (proxy[user] == kNullProxy) continue;
      const Vec3f d = k % 10 == 0 ? Vec3f{u(gen), u(gen), u(gen)} - tight[user].center()
                                  : Vec3f{step(gen), step(gen), step(gen)};
      tight[user] = {tight[user].min + d, tight[user].max + d};
      tree.move(proxy[user], tight[user], d);
    }
    ASSERT_TRUE(tree.validate()) << "round " << round;
    // The live objects, by user, and brute force over them.
    std::vector<std::uint32_t> users;
    std::vector<Aabbf> live;
    for (std::uint32_t user = 0; user < proxy.size(); ++user) {
      if (proxy[user] == kNullProxy) continue;
      users.push_back(user);
      live.push_back(tight[user]);
      largest_proxy = std::max(largest_proxy, proxy[user]);
      ASSERT_EQ(tree.user(proxy[user]), user);
    }
    ASSERT_EQ(tree.proxy_count(), users.size());
    most_live = std::max(most_live, users.size());
    ASSERT_EQ(tree.node_count(), 2 * users.size() - 1);
    std::vector<Pair> expected;
    for (const auto& [i, j] : brute_force_pairs(live)) expected.emplace_back(users[i], users[j]);
    expect_same_pairs(tight_only(user_pairs(tree), tight), expected, "round " + std::to_string(round));
  }
  // Removed ids are handed out again: the pool never outgrows the 2 n - 1 nodes of the most
  // objects alive at once, although 4000 were inserted.
  EXPECT_LT(largest_proxy, 2 * most_live);
}

TEST(DynamicTree, MovingObjectsMatchBruteForceEveryFrame) {
  constexpr int kObjects = 1000, kFrames = 150;
  constexpr float kSide = 25.0f;
  std::mt19937 gen(4);
  std::uniform_real_distribution<float> u(0.0f, kSide), h(0.2f, 1.0f), v(-0.05f, 0.05f);
  std::vector<Vec3f> center, half, velocity;
  for (int i = 0; i < kObjects; ++i) {
    center.push_back({u(gen), u(gen), u(gen)});
    half.push_back({h(gen), h(gen), h(gen)});
    velocity.push_back({v(gen), v(gen), v(gen)});
  }
  std::vector<Aabbf> tight(kObjects);
  DynamicTree tree;
  std::vector<std::uint32_t> proxy;
  for (int i = 0; i < kObjects; ++i) {
    tight[i] = Aabbf::from_center_half_extents(center[i], half[i]);
    proxy.push_back(tree.insert(tight[i], i));
  }
  std::size_t moves = 0, reinserts = 0;
  for (int frame = 0; frame < kFrames; ++frame) {
    for (int i = 0; i < kObjects; ++i) {
      Vec3f d = velocity[i];
      if (frame % 50 == 49 && i % 50 == 0) d = Vec3f{u(gen), u(gen), u(gen)} - center[i];  // teleport
      center[i] += d;
      for (int a = 0; a < 3; ++a) {  // bounce off the walls of the cube
        if (center[i][a] < 0.0f || center[i][a] > kSide) velocity[i][a] = -velocity[i][a];
      }
      tight[i] = Aabbf::from_center_half_extents(center[i], half[i]);
      reinserts += tree.move(proxy[i], tight[i], d) ? 1 : 0;
      ++moves;
    }
    ASSERT_TRUE(tree.validate()) << "frame " << frame;
    for (int i = 0; i < kObjects; ++i) {
      const Aabbf& fat = tree.fat_box(proxy[i]);
      ASSERT_TRUE(fat.contains(tight[i].min) && fat.contains(tight[i].max)) << "frame " << frame << " object " << i;
    }
    expect_same_pairs(tight_only(user_pairs(tree), tight), brute_force_pairs(tight), "frame " + std::to_string(frame));
  }
  std::printf("moving scene: %zu of %zu moves re-inserted a proxy (%.1f%%)\n", reinserts, moves,
              100.0 * double(reinserts) / double(moves));
  EXPECT_LT(reinserts, moves / 4) << "the fat boxes should absorb most small motions";
}

TEST(DynamicTree, MoveReinsertsOnlyWhenTheBoxLeavesItsFatBox) {
  DynamicTreeSettings settings;  // margin: 0.1 of the mean side on each face
  settings.prediction_scale = 2.0f;  // prediction: 2 displacements
  DynamicTree tree(settings);
  const Aabbf box{{0, 0, 0}, {1, 1, 1}};
  const std::uint32_t p = tree.insert(box, 7);
  EXPECT_FLOAT_EQ(tree.fat_box(p).min.x, -0.1f);
  EXPECT_FLOAT_EQ(tree.fat_box(p).max.z, 1.1f);
  const Vec3f small{0.05f, 0, 0};
  EXPECT_FALSE(tree.move(p, {box.min + small, box.max + small}, small));
  EXPECT_FLOAT_EQ(tree.fat_box(p).max.x, 1.1f);
  const Vec3f past{0.15f, 0, 0};
  EXPECT_TRUE(tree.move(p, {box.min + past, box.max + past}, past));
  // The new fat box: the margin all round, and two displacements further ahead in +x only.
  EXPECT_FLOAT_EQ(tree.fat_box(p).min.x, 0.15f - 0.1f);
  EXPECT_FLOAT_EQ(tree.fat_box(p).max.x, 1.15f + 0.1f + 0.3f);
  EXPECT_FLOAT_EQ(tree.fat_box(p).min.y, -0.1f);
  EXPECT_EQ(tree.user(p), 7u);

  // A fast object gets a long box: two displacements of 1.5 ahead.
  const Vec3f fast{1.5f, 0, 0};
  EXPECT_TRUE(tree.move(p, {box.min + fast, box.max + fast}, fast));
  EXPECT_FLOAT_EQ(tree.fat_box(p).max.x, 2.5f + 0.1f + 3.0f);
  // A displacement within prediction_limit = 4 mean sides (here 4) is predicted up to the limit.
  const Vec3f faster{5.4f, 0, 0};
  EXPECT_TRUE(tree.move(p, {box.min + faster, box.max + faster}, faster - fast));
  EXPECT_FLOAT_EQ(tree.fat_box(p).max.x, 6.4f + 0.1f + 4.0f);
  EXPECT_FLOAT_EQ(tree.fat_box(p).min.x, 5.4f - 0.1f);
  // A teleport, beyond the limit along an axis, is not predicted at all: the margin only.
  const Vec3f teleport{10, 0, 0};
  EXPECT_TRUE(tree.move(p, {box.min + teleport, box.max + teleport}, teleport - faster));
  EXPECT_FLOAT_EQ(tree.fat_box(p).max.x, 11.1f);
  EXPECT_FLOAT_EQ(tree.fat_box(p).min.x, 9.9f);
  // Once it stops, the box stays snug.
  EXPECT_FALSE(tree.move(p, {box.min + teleport, box.max + teleport}, {}));
  EXPECT_FLOAT_EQ(tree.fat_box(p).max.x, 11.1f);
  EXPECT_TRUE(tree.validate());
}

TEST(DynamicTree, DefaultFatBoxReachesFourDisplacementsAhead) {
  DynamicTree tree;
  const Aabbf box{{0, 0, 0}, {1, 1, 1}};
  const std::uint32_t p = tree.insert(box, 1);
  const Vec3f step{0, 0.15f, 0};
  EXPECT_TRUE(tree.move(p, {box.min + step, box.max + step}, step));
  EXPECT_FLOAT_EQ(tree.fat_box(p).max.y, 1.15f + 0.1f + 4 * 0.15f);
  EXPECT_FLOAT_EQ(tree.fat_box(p).min.y, 0.15f - 0.1f);
  // The box's top reaches 1.15 + 0.15 k after k steps: inside the fat box's 1.85 up to the fifth
  // step, out at the sixth.
  for (int k = 2; k <= 5; ++k) {
    const Vec3f at{0, 0.15f * float(k), 0};
    EXPECT_FALSE(tree.move(p, {box.min + at, box.max + at}, step)) << "step " << k;
  }
  const Vec3f out{0, 0.15f * 6.0f, 0};
  EXPECT_TRUE(tree.move(p, {box.min + out, box.max + out}, step));
  // A non-finite motion is not predicted: the margin only, on every side.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const Vec3f motion : {Vec3f{nan, 0, 0}, Vec3f{0, kInfinity<float>, 0}, Vec3f{0, 0, -kInfinity<float>}}) {
    const Vec3f far{5, 5, 5};
    EXPECT_TRUE(tree.move(p, {box.min + far, box.max + far}, motion));
    EXPECT_FLOAT_EQ(tree.fat_box(p).min.x, 4.9f);
    EXPECT_FLOAT_EQ(tree.fat_box(p).max.y, 6.1f);
    EXPECT_FLOAT_EQ(tree.fat_box(p).min.z, 4.9f);
    // Still inside, and the "far too large" bound takes no stretch from the motion either.
    EXPECT_FALSE(tree.move(p, {box.min + far, box.max + far}, motion));
    EXPECT_TRUE(tree.move(p, {box.min, box.max}, {}));  // back, for the next motion
  }
  EXPECT_TRUE(tree.validate());
}

TEST(DynamicTree, InvalidBoxesAreNeverReported) {
  std::vector<Aabbf> boxes = random_boxes(500, 31);
  boxes[3] = Aabbf::empty();
  boxes[4].min.x = NAN;
  boxes[5].max.y = kInfinity<float>;
  boxes[6] = {{1, 1, 1}, {0, 0, 0}};
  std::vector<std::uint32_t> proxy;
  DynamicTree tree = tree_of(boxes, {}, &proxy);
  EXPECT_TRUE(tree.validate());
  std::vector<Aabbf> expected_boxes = boxes;
  expected_boxes[5] = Aabbf::empty();  // the tree leaves non-finite boxes out too
  expect_same_pairs(tight_only(user_pairs(tree), boxes), brute_force_pairs(expected_boxes), "invalid boxes");
  const Aabbf everything{{-1e30f, -1e30f, -1e30f}, {1e30f, 1e30f, 1e30f}};
  std::vector<std::uint32_t> seen;
  tree.query(everything, [&](std::uint32_t p) { return seen.push_back(p), true; });
  EXPECT_EQ(seen.size(), boxes.size() - 4);
  // Moved to a valid box, a proxy is reported again.
  EXPECT_TRUE(tree.move(proxy[4], boxes[0], {}));
  EXPECT_TRUE(tree.validate());
  const std::vector<Pair> pairs = user_pairs(tree);
  EXPECT_NE(std::find(pairs.begin(), pairs.end(), Pair{0, 4}), pairs.end());
}

TEST(DynamicTree, QueryReportsEveryOverlappingProxyOnce) {
  const std::vector<Aabbf> boxes = random_boxes(5000, 41);
  std::vector<std::uint32_t> proxy;
  const DynamicTree tree = tree_of(boxes, {}, &proxy);
  std::mt19937 gen(42);
  std::uniform_real_distribution<float> u(-5.0f, 42.0f), h(0.0f, 6.0f);
  for (int q = 0; q < 300; ++q) {
    const Aabbf box = Aabbf::from_center_half_extents({u(gen), u(gen), u(gen)}, {h(gen), h(gen), h(gen)});
    std::vector<std::uint32_t> expected, seen;
    for (std::uint32_t i = 0; i < boxes.size(); ++i) {
      if (boxes_overlap(tree.fat_box(proxy[i]), box)) expected.push_back(i);
    }
    const TreeQueryStats stats =
        tree.query(box, [&](std::uint32_t p) { return seen.push_back(static_cast<std::uint32_t>(tree.user(p))), true; });
    EXPECT_EQ(stats.reported, seen.size());
    std::sort(seen.begin(), seen.end());
    ASSERT_EQ(seen, expected) << "query " << q;
    if (expected.size() >= 2) {  // returning false stops the walk at once
      std::size_t calls = 0;
      tree.query(box, [&](std::uint32_t) { return ++calls < 2; });
      EXPECT_EQ(calls, 2u);
    }
  }
  std::size_t calls = 0;
  tree.query(Aabbf::empty(), [&](std::uint32_t) { return ++calls, true; });
  EXPECT_EQ(calls, 0u);
}

TEST(DynamicTree, RayQueryFindsTheNearestHitLikeBruteForce) {
  const std::vector<Aabbf> boxes = random_boxes(5000, 51);
  const DynamicTree tree = tree_of(boxes);
  std::mt19937 gen(52);
  std::uniform_real_distribution<float> u(-5.0f, 42.0f), d(-1.0f, 1.0f);
  std::uniform_int_distribution<int> axis(0, 5);
  for (int r = 0; r < 500; ++r) {
    Rayf ray{{u(gen), u(gen), u(gen)}, {d(gen), d(gen), d(gen)}, 0.0f, r % 3 == 0 ? 20.0f : kInfinity<float>};
    if (r % 4 == 0) {  // axis-aligned: zero direction components
      const int a = axis(gen);
      ray.dir = {};
      ray.dir[a % 3] = a < 3 ? 1.0f : -1.0f;
    }
    // Brute force: the nearest tight-box hit, and every box the ray hits.
    float nearest = kInfinity<float>;
    std::vector<std::uint32_t> hit_all;
    for (std::uint32_t i = 0; i < boxes.size(); ++i) {
      const RayHitf hit = ray_vs_aabb(boxes[i], ray);
      if (!hit) continue;
      nearest = std::min(nearest, hit.t);
      hit_all.push_back(i);
    }
    // Closest hit: the callback runs the exact test and clips the ray to what it found.
    float found = kInfinity<float>;
    tree.ray_query(ray, [&](std::uint32_t p, float tmax) {
      Rayf clipped = ray;
      clipped.tmax = tmax;
      const RayHitf hit = ray_vs_aabb(boxes[tree.user(p)], clipped);
      if (hit) found = std::min(found, hit.t);
      return hit ? hit.t : tmax;
    });
    ASSERT_EQ(found, nearest) << "ray " << r;
    // All hits: the fat boxes contain the tight ones, so no tight hit may be culled.
    std::vector<std::uint32_t> reported;
    tree.ray_query(ray, [&](std::uint32_t p, float tmax) {
      return reported.push_back(static_cast<std::uint32_t>(tree.user(p))), tmax;
    });
    std::sort(reported.begin(), reported.end());
    ASSERT_TRUE(std::includes(reported.begin(), reported.end(), hit_all.begin(), hit_all.end())) << "ray " << r;
    // A ray prepared by the caller is walked the same: the same proxies at the same tmax.
    std::vector<std::pair<std::uint32_t, float>> from_ray, from_prepared;
    tree.ray_query(ray, [&](std::uint32_t p, float tmax) { return from_ray.emplace_back(p, tmax), tmax * 0.75f; });
    tree.ray_query(RayInverse<float>::from_valid_ray(ray),
                   [&](std::uint32_t p, float tmax) { return from_prepared.emplace_back(p, tmax), tmax * 0.75f; });
    ASSERT_EQ(from_prepared, from_ray) << "ray " << r;
    // A negative return stops at once.
    std::size_t calls = 0;
    tree.ray_query(ray, [&](std::uint32_t, float) { return ++calls, -1.0f; });
    EXPECT_EQ(calls, reported.empty() ? 0u : 1u);
  }
  std::size_t calls = 0;
  tree.ray_query(Rayf{{0, 0, 0}, {0, 0, 0}}, [&](std::uint32_t, float t) { return ++calls, t; });
  EXPECT_EQ(calls, 0u) << "a zero direction is an invalid ray";
}

TEST(DynamicTree, SameOperationsGiveTheSamePairsInTheSameOrder) {
  const std::vector<Aabbf> boxes = random_boxes(3000, 61);
  std::vector<std::uint32_t> proxy;
  DynamicTree a = tree_of(boxes, {}, &proxy), b = tree_of(boxes);
  for (std::uint32_t i = 0; i < boxes.size(); i += 3) {
    const Vec3f d{0.4f, -0.3f, 0.2f};
    const Aabbf moved{boxes[i].min + d, boxes[i].max + d};
    EXPECT_EQ(a.move(proxy[i], moved, d), b.move(proxy[i], moved, d));
  }
  std::vector<ProxyPair> pa, pb;
  a.find_pairs(pa);
  b.find_pairs(pb);
  EXPECT_EQ(pa, pb);
}

TEST(DynamicTree, CountedWorkGrowsNoFasterThanNLogN) {
  // Constant density, so the number of pairs grows like n. Per n log2 n, the work of building by
  // insertion, of finding the pairs, of one small query per object and of one frame of moves
  // must not grow from n = 10^3 to 10^5 (the bound allows 1.5 times for noise in tree shape).
  struct Work {
    double insert, pairs, queries, moves;
  };
  std::vector<std::size_t> sizes{1000, 10000, kLargeScene};
  std::vector<Work> work;
  for (std::size_t n : sizes) {
    const std::vector<Aabbf> boxes = random_boxes(n, 1);
    std::vector<std::uint32_t> proxy;
    DynamicTree tree;
    std::uint64_t worst = 0;  // one insertion: bounded by the sibling search's budget per level
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint64_t before = tree.update_node_visits();
      proxy.push_back(tree.insert(boxes[i], i));
      worst = std::max<std::uint64_t>(worst, tree.update_node_visits() - before);
    }
    EXPECT_LE(worst, 40u * (tree.height() + 1u)) << "n=" << n;
    Work w{};
    w.insert = per_n_log_n(double(tree.update_node_visits()), n);
    w.pairs = per_n_log_n(double(tree.find_pairs([](std::uint32_t, std::uint32_t) {}).node_visits), n);
    std::uint64_t visits = 0;
    for (std::uint32_t i = 0; i < n; ++i) visits += tree.query(boxes[i], [](std::uint32_t) { return true; }).node_visits;
    w.queries = per_n_log_n(double(visits), n);
    tree.reset_update_node_visits();
    std::mt19937 gen(72);
    std::uniform_real_distribution<float> step(-0.2f, 0.2f);
    for (std::uint32_t i = 0; i < n; ++i) {
      const Vec3f d{step(gen), step(gen), step(gen)};
      tree.move(proxy[i], {boxes[i].min + d, boxes[i].max + d}, d);
    }
    w.moves = per_n_log_n(double(tree.update_node_visits()), n);
    std::printf("tree n=%zu work per n log2 n: insert %.3f, pairs %.3f, queries %.3f, moves %.3f\n", n, w.insert,
                w.pairs, w.queries, w.moves);
    work.push_back(w);
  }
  for (std::size_t k = 1; k < sizes.size(); ++k) {
    EXPECT_LE(work[k].insert, 1.5 * work[0].insert) << "n=" << sizes[k];
    EXPECT_LE(work[k].pairs, 1.5 * work[0].pairs) << "n=" << sizes[k];
    EXPECT_LE(work[k].queries, 1.5 * work[0].queries) << "n=" << sizes[k];
    EXPECT_LE(work[k].moves, 1.5 * work[0].moves) << "n=" << sizes[k];
  }
}

}  // namespace
}  // namespace hitscan::bvh
