// Batches of edits on the dynamic tree (begin_batch ... end_batch) against brute force over the fat
// boxes and against the same edits made one at a time: many moves at once, a tree filled in one
// batch, and removals, re-insertions and moves of the same proxies within one batch.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "hitscan/bvh/dynamic_tree.hpp"

namespace hitscan::bvh {
namespace {

constexpr float kSide = 30.0f;

Aabbf random_box(std::mt19937& gen) {
  std::uniform_real_distribution<float> u(0.0f, kSide), h(0.1f, 1.2f);
  return Aabbf::from_center_half_extents({u(gen), u(gen), u(gen)}, {h(gen), h(gen), h(gen)});
}

// The user values of the proxies whose fat boxes overlap `box`, sorted: by the tree's query and
// by brute force over `live`.
std::vector<std::uint64_t> tree_answer(const DynamicTree& tree, const Aabbf& box) {
  std::vector<std::uint64_t> users;
  tree.query(box, [&](std::uint32_t p) { return users.push_back(tree.user(p)), true; });
  std::sort(users.begin(), users.end());
  return users;
}
std::vector<std::uint64_t> brute_answer(const DynamicTree& tree, const std::vector<std::uint32_t>& live,
                                        const Aabbf& box) {
  std::vector<std::uint64_t> users;
  for (const std::uint32_t p : live) {
    if (tree.fat_box(p).overlaps(box)) users.push_back(tree.user(p));
  }
  std::sort(users.begin(), users.end());
  return users;
}

// The nearest fat box a ray enters, by the tree's ray_query and by brute force: the entry
// parameter of ray_enters_box, the same test the tree makes.
float tree_nearest(const DynamicTree& tree, const Rayf& ray) {
  const RayInverse<float> inverse = RayInverse<float>::from_ray(ray);
  float nearest = kInfinity<float>;
  tree.ray_query(ray, [&](std::uint32_t p, float tmax) {
    float t;
    if (ray_enters_box(tree.fat_box(p), inverse, tmax, t)) nearest = std::min(nearest, t);
    return std::min(tmax, nearest);
  });
  return nearest;
}
float brute_nearest(const DynamicTree& tree, const std::vector<std::uint32_t>& live, const Rayf& ray) {
  const RayInverse<float> inverse = RayInverse<float>::from_ray(ray);
  float nearest = kInfinity<float>;
  for (const std::uint32_t p : live) {
    float t;
    if (ray_enters_box(tree.fat_box(p), inverse, ray.tmax, t)) nearest = std::min(nearest, t);
  }
  return nearest;
}

void expect_queries_match_brute_force(const DynamicTree& tree, const std::vector<std::uint32_t>& live,
                                      unsigned seed, const char* when) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-2.0f, kSide + 2.0f), h(0.0f, 4.0f), d(-1.0f, 1.0f);
  for (int q = 0; q < 200; ++q) {
    const Aabbf box = Aabbf::from_center_half_extents({u(gen), u(gen), u(gen)}, {h(gen), h(gen), h(gen)});
    ASSERT_EQ(tree_answer(tree, box), brute_answer(tree, live, box)) << when << ", box " << q;
    const Rayf ray{{u(gen), u(gen), u(gen)}, {d(gen), d(gen), d(gen)}, 0.0f, q % 2 ? 15.0f : kInfinity<float>};
    ASSERT_EQ(tree_nearest(tree, ray), brute_nearest(tree, live, ray)) << when << ", ray " << q;
  }
}

TEST(DynamicTreeBatch, ManyMovesInOneBatchValidateAndMatchBruteForceAndOneAtATime) {
  constexpr int kObjects = 3000;
  std::mt19937 gen(61);
  std::uniform_real_distribution<float> u(0.0f, kSide), small(-0.2f, 0.2f);
  // `batched` takes each round's moves in one batch, `single` one at a time: the same fat boxes,
  // the same answers from move.
  DynamicTree batched, single;
  std::vector<Aabbf> tight;
  std::vector<std::uint32_t> proxy;
  for (int i = 0; i < kObjects; ++i) {
    tight.push_back(random_box(gen));
    proxy.push_back(batched.insert(tight.back(), i));
    ASSERT_EQ(single.insert(tight.back(), i), proxy.back());
  }
  for (int round = 0; round < 8; ++round) {
    batched.begin_batch();
    for (int k = 0; k < kObjects / 5; ++k) {  // a fifth moved, a third of those teleported
      const std::size_t i = gen() % kObjects;
      const Vec3f d = k % 3 == 0 ? Vec3f{u(gen), u(gen), u(gen)} - tight[i].center()
                                 : Vec3f{small(gen), small(gen), small(gen)};
      tight[i] = {tight[i].min + d, tight[i].max + d};
      ASSERT_EQ(batched.move(proxy[i], tight[i], d), single.move(proxy[i], tight[i], d)) << "round " << round;
      ASSERT_EQ(batched.fat_box(proxy[i]).min, single.fat_box(proxy[i]).min);
      ASSERT_EQ(batched.fat_box(proxy[i]).max, single.fat_box(proxy[i]).max);
    }
    batched.end_batch();
    ASSERT_TRUE(batched.validate()) << "round " << round;
    ASSERT_TRUE(single.validate()) << "round " << round;
    ASSERT_EQ(batched.proxy_count(), std::size_t(kObjects));
    for (int i = 0; i < kObjects; ++i) {
      ASSERT_EQ(batched.user(proxy[i]), std::uint64_t(i));
      // Every tight box inside its fat box.
      const Aabbf& fat = batched.fat_box(proxy[i]);
      ASSERT_TRUE(merge(fat, tight[i]).min == fat.min && merge(fat, tight[i]).max == fat.max) << i;
    }
    expect_queries_match_brute_force(batched, proxy, 100 + round, "batched");
    std::mt19937 again(200 + round);
    for (int q = 0; q < 100; ++q) {
      const Aabbf box = Aabbf::from_center_half_extents({u(again), u(again), u(again)}, {2, 2, 2});
      ASSERT_EQ(tree_answer(batched, box), tree_answer(single, box)) << "round " << round << ", box " << q;
    }
  }
}

TEST(DynamicTreeBatch, TreeFilledInOneBatchIsBuiltOnceAndAnswersLikeOneByOne) {
  std::mt19937 gen(62);
  std::vector<Aabbf> boxes;
  for (int i = 0; i < 5000; ++i) boxes.push_back(random_box(gen));
  boxes[17] = Aabbf::empty();  // stored as the empty box, never reported
  DynamicTree batched, single;
  std::vector<std::uint32_t> proxy;
  batched.begin_batch();
  for (std::uint32_t i = 0; i < boxes.size(); ++i) proxy.push_back(batched.insert(boxes[i], i));
  batched.reset_update_node_visits();
  batched.end_batch();
  // Built, not inserted leaf by leaf: no sibling search, refit or rotation was counted.
  EXPECT_EQ(batched.update_node_visits(), 0u);
  // (The ids differ: a batch allocates the leaves before the inner nodes.)
  for (std::uint32_t i = 0; i < boxes.size(); ++i) single.insert(boxes[i], i);
  ASSERT_TRUE(batched.validate());
  EXPECT_EQ(batched.proxy_count(), boxes.size());
  // The build splits at medians: sibling heights differ by at most one.
  EXPECT_LE(batched.height(), 1 + static_cast<int>(std::ceil(std::log2(double(boxes.size())))));
  expect_queries_match_brute_force(batched, proxy, 63, "filled in one batch");
  std::uniform_real_distribution<float> u(0.0f, kSide);
  for (int q = 0; q < 300; ++q) {
    const Aabbf box = Aabbf::from_center_half_extents({u(gen), u(gen), u(gen)}, {1.5f, 1.5f, 1.5f});
    ASSERT_EQ(tree_answer(batched, box), tree_answer(single, box)) << "box " << q;
  }
  // A small batch later is inserted leaf by leaf into the built tree.
  batched.begin_batch();
  proxy.push_back(batched.insert(random_box(gen), boxes.size()));
  batched.end_batch();
  EXPECT_GT(batched.update_node_visits(), 0u);
  ASSERT_TRUE(batched.validate());
  expect_queries_match_brute_force(batched, proxy, 64, "one more");
}

TEST(DynamicTreeBatch, RemovingReinsertingAndMovingTheSameProxiesInOneBatch) {
  std::mt19937 gen(65);
  std::uniform_real_distribution<float> u(0.0f, kSide);
  DynamicTree tree;
  std::vector<Aabbf> tight;  // by user value
  std::vector<std::uint32_t> proxy;  // by user value, kNullProxy once removed
  auto add = [&] {
    tight.push_back(random_box(gen));
    proxy.push_back(tree.insert(tight.back(), tight.size() - 1));
  };
  for (int i = 0; i < 2000; ++i) add();
  auto teleport = [&](std::size_t user) {
    const Vec3f d = Vec3f{u(gen), u(gen), u(gen)} - tight[user].center();
    tight[user] = {tight[user].min + d, tight[user].max + d};
    EXPECT_TRUE(tree.move(proxy[user], tight[user], d));
  };
  for (int round = 0; round < 10; ++round) {
    tree.begin_batch();
    for (int k = 0; k < 150; ++k) {
      const std::size_t user = gen() % proxy.size();
      if (proxy[user] == kNullProxy) continue;
      switch (k % 5) {
        case 0:  // moved, then removed: it waits outside the tree when removed
          teleport(user);
          tree.remove(proxy[user]);
          proxy[user] = kNullProxy;
          break;
        case 1:  // removed, and a new proxy inserted, which may take its id, then moved twice
          tree.remove(proxy[user]);
          proxy[user] = kNullProxy;
          add();
          teleport(proxy.size() - 1);
          teleport(proxy.size() - 1);
          break;
        case 2:  // inserted and removed within the batch
          add();
          tree.remove(proxy.back());
          proxy.back() = kNullProxy;
          break;
        default:  // moved twice, far then near
          teleport(user);
          tight[user] = {tight[user].min + Vec3f{0.01f, 0, 0}, tight[user].max + Vec3f{0.01f, 0, 0}};
          tree.move(proxy[user], tight[user], {0.01f, 0, 0});
          break;
      }
    }
    tree.end_batch();
    ASSERT_TRUE(tree.validate()) << "round " << round;
    std::vector<std::uint32_t> live;
    for (std::size_t user = 0; user < proxy.size(); ++user) {
      if (proxy[user] == kNullProxy) continue;
      live.push_back(proxy[user]);
      ASSERT_EQ(tree.user(proxy[user]), user);
    }
    ASSERT_EQ(tree.proxy_count(), live.size());
    ASSERT_EQ(tree.node_count(), 2 * live.size() - 1);
    expect_queries_match_brute_force(tree, live, 300 + round, "churn");
  }
}

TEST(DynamicTreeBatch, EmptyingTheTreeInOneBatch) {
  std::mt19937 gen(66);
  DynamicTree tree;
  std::vector<std::uint32_t> proxy;
  for (int i = 0; i < 100; ++i) proxy.push_back(tree.insert(random_box(gen), i));
  tree.begin_batch();
  for (const std::uint32_t p : proxy) tree.remove(p);
  tree.end_batch();
  EXPECT_TRUE(tree.validate());
  EXPECT_EQ(tree.proxy_count(), 0u);
  EXPECT_EQ(tree.query(Aabbf{{-1, -1, -1}, {kSide + 1, kSide + 1, kSide + 1}}, [](std::uint32_t) { return true; })
                .reported,
            0u);
  tree.begin_batch();
  tree.end_batch();
  EXPECT_TRUE(tree.validate());
}

TEST(DynamicTreeBatch, ReservedTreeAnswersLikeOneGrownStepByStep) {
  std::mt19937 gen(65);
  std::vector<Aabbf> boxes;
  for (int i = 0; i < 3000; ++i) boxes.push_back(random_box(gen));
  DynamicTree reserved, grown;
  reserved.reserve(2000);  // fewer than are inserted: the rest grows as usual
  std::vector<std::uint32_t> proxy;
  reserved.begin_batch();
  grown.begin_batch();
  for (std::uint32_t i = 0; i < boxes.size(); ++i) {
    proxy.push_back(reserved.insert(boxes[i], i));
    ASSERT_EQ(grown.insert(boxes[i], i), proxy.back());
  }
  reserved.end_batch();
  grown.end_batch();
  ASSERT_TRUE(reserved.validate());
  expect_queries_match_brute_force(reserved, proxy, 66, "reserved");
  std::uniform_real_distribution<float> u(0.0f, kSide);
  for (int q = 0; q < 300; ++q) {
    const Aabbf box = Aabbf::from_center_half_extents({u(gen), u(gen), u(gen)}, {1.5f, 1.5f, 1.5f});
    ASSERT_EQ(tree_answer(reserved, box), tree_answer(grown, box)) << "box " << q;
  }
}

}  // namespace
}  // namespace hitscan::bvh
