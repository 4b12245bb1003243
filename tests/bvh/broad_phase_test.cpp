// BroadPhase: the pairs it keeps from frame to frame are, after every update, exactly the pairs of
// live objects whose fat boxes overlap, found by brute force over all pairs.

#include <gtest/gtest.h>

#include <random>

#include "hitscan/bvh/broad_phase.hpp"

namespace hitscan::bvh {
namespace {

struct Object {
  std::uint32_t proxy = kNullProxy;
  Vec3f center{};
  Vec3f velocity{};
  float radius = 1;
  bool live = false;
  Aabbf box() const { return Aabbf::from_center_half_extents(center, Vec3f{radius, radius, radius}); }
};

using Pair = std::pair<std::uint64_t, std::uint64_t>;

// Brute force over every pair of live objects: fat boxes (from the tree) overlapping, accepted.
template <class Accept>
std::vector<Pair> brute_force(const BroadPhase& b, const std::vector<Object>& objects, Accept&& accept) {
  std::vector<Pair> out;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (!objects[i].live) continue;
    for (std::size_t j = i + 1; j < objects.size(); ++j) {
      if (!objects[j].live) continue;
      if (b.tree().fat_box(objects[i].proxy).overlaps(b.tree().fat_box(objects[j].proxy)) && accept(i, j)) {
        out.push_back({i, j});
      }
    }
  }
  return out;
}

std::vector<Pair> listed(const BroadPhase& b) {
  std::vector<Pair> out;
  for (const BroadPhasePair& p : b.pairs()) {
    EXPECT_EQ(b.tree().user(p.first_proxy), p.first);
    EXPECT_EQ(b.tree().user(p.second_proxy), p.second);
    out.push_back({p.first, p.second});
  }
  return out;
}

template <class Accept>
void run_frames(Accept&& accept, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> pos(-40, 40), unit(-1, 1), radius(0.2f, 3.0f), chance(0, 1);
  std::vector<Object> objects(300);
  BroadPhase b;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    Object& o = objects[i];
    o.center = {pos(gen), pos(gen), pos(gen)};
    o.velocity = Vec3f{unit(gen), unit(gen), unit(gen)} * (i % 10 == 0 ? 2.0f : 0.05f);
    o.radius = radius(gen);
    o.live = true;
    o.proxy = b.add(o.box(), i);
  }
  b.update_pairs(accept);
  int total_pairs = 0;
  std::size_t refreshed = 0;
  for (int frame = 0; frame < 60; ++frame) {
    for (std::size_t i = 0; i < objects.size(); ++i) {
      Object& o = objects[i];
      if (o.live && chance(gen) < 0.01f) {  // some leave, and come back later
        b.remove(o.proxy);
        o.live = false;
        continue;
      }
      if (!o.live) {
        if (chance(gen) < 0.05f) {
          o.live = true;
          o.proxy = b.add(o.box(), i);
        }
        continue;
      }
      o.center += o.velocity;
      b.move(o.proxy, o.box(), o.velocity);
    }
    refreshed += b.update_pairs(accept);
    const std::vector<Pair> want = brute_force(b, objects, accept);
    ASSERT_EQ(listed(b), want) << "frame " << frame;
    total_pairs += static_cast<int>(want.size());
  }
  EXPECT_GT(total_pairs, 500);
  // Most objects stay inside their fat boxes most frames: far fewer refreshes than moves.
  EXPECT_LT(refreshed, 60u * objects.size() / 3);
}

TEST(BroadPhase, PairsMatchBruteForceFrameAfterFrame) {
  run_frames([](std::uint64_t, std::uint64_t) { return true; }, 1);
}

TEST(BroadPhase, AcceptFilterKeepsOnlyTheChosenPairs) {
  // Even objects against odd ones only, as a physics engine keeps dynamic-vs-static pairs.
  run_frames([](std::uint64_t a, std::uint64_t b) { return (a + b) % 2 == 1; }, 2);
}

TEST(BroadPhase, MoveInsideTheFatBoxChangesNothing) {
  BroadPhase b;
  const std::uint32_t p = b.add(Aabbf{{0, 0, 0}, {1, 1, 1}}, 1);
  const std::uint32_t q = b.add(Aabbf{{0.5f, 0.5f, 0.5f}, {2, 2, 2}}, 2);
  EXPECT_EQ(b.update_pairs(), 2u);
  ASSERT_EQ(b.pairs().size(), 1u);
  const Aabbf fat = b.tree().fat_box(p);
  EXPECT_FALSE(b.move(p, Aabbf{{0.01f, 0, 0}, {1.01f, 1, 1}}));
  EXPECT_EQ(b.tree().fat_box(p).min, fat.min);
  EXPECT_EQ(b.update_pairs(), 0u);
  // Far away: re-inserted, and the pair goes.
  EXPECT_TRUE(b.move(p, Aabbf{{50, 0, 0}, {51, 1, 1}}, {50, 0, 0}));
  EXPECT_EQ(b.update_pairs(), 1u);
  EXPECT_TRUE(b.pairs().empty());
  // A NaN box is never inside: re-inserted as the empty box, in no pair.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(b.move(q, Aabbf{{nan, 0, 0}, {1, 1, 1}}));
  b.update_pairs();
  EXPECT_TRUE(b.pairs().empty());
}

TEST(BroadPhase, RemovedProxyIdReusedByAnotherObject) {
  BroadPhase b;
  const std::uint32_t p = b.add(Aabbf{{0, 0, 0}, {1, 1, 1}}, 10);
  b.add(Aabbf{{0.5f, 0.5f, 0.5f}, {2, 2, 2}}, 20);
  b.update_pairs();
  ASSERT_EQ(b.pairs().size(), 1u);
  b.remove(p);
  const std::uint32_t r = b.add(Aabbf{{1.5f, 1.5f, 1.5f}, {3, 3, 3}}, 30);  // same id, new object
  EXPECT_EQ(r, p);
  b.update_pairs();
  ASSERT_EQ(b.pairs().size(), 1u);
  EXPECT_EQ(b.pairs()[0].first, 20u);
  EXPECT_EQ(b.pairs()[0].second, 30u);
}

}  // namespace
}  // namespace hitscan::bvh
