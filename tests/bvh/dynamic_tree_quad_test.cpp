// The 4-wide mirror of the dynamic tree (dynamic_tree_quad.hpp): its lane tests against the scalar
// tests they repeat, bit for bit; the mirror against the tree after random edits and rebuilds
// (validate checks every quad); and every walk over it, ray, box sweep, box and nearest, against
// brute force over the fat boxes, with nothing missing and nothing extra.

#include "hitscan/bvh/detail/dynamic_tree_quad.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "broadphase_reference.hpp"
#include "hitscan/bvh/dynamic_tree.hpp"

namespace hitscan::bvh {
namespace {

using namespace broadphase_reference;

std::uint32_t bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }

// The scalar distance the nearest walk bounds: squared distance from p to the box (0 inside).
float reference_distance_squared(const Aabbf& box, Vec3f p) {
  const Vec3f d = max(max(box.min - p, p - box.max), Vec3f{});
  return dot(d, d);
}

// A ray whose components are sometimes 0 or -0, and whose origin sometimes lies on a box face.
Rayf random_ray(std::mt19937& gen, const Aabbf& near_box) {
  std::uniform_real_distribution<float> u(-6.0f, 6.0f), d(-1.0f, 1.0f), length(0.5f, 20.0f);
  std::uniform_int_distribution<int> pick(0, 9);
  Rayf ray{{u(gen), u(gen), u(gen)}, {d(gen), d(gen), d(gen)}, 0.0f, length(gen)};
  for (int i = 0; i < 3; ++i) {
    const int k = pick(gen);
    if (k == 0) ray.dir[i] = 0.0f;
    if (k == 1) ray.dir[i] = -0.0f;
    if (k == 2) ray.origin[i] = near_box.min[i];
    if (k == 3) ray.origin[i] = near_box.max[i];
  }
  if (pick(gen) == 0) ray.tmax = kInfinity<float>;
  if (ray.dir == Vec3f{}) ray.dir.x = 1.0f;
  return ray;
}

Aabbf random_box(std::mt19937& gen) {
  std::uniform_real_distribution<float> c(-5.0f, 5.0f), h(0.0f, 2.0f);
  return Aabbf::from_center_half_extents({c(gen), c(gen), c(gen)}, {h(gen), h(gen), h(gen)});
}

TEST(DynamicTreeQuad, LaneTestsEqualTheScalarTestsBitForBit) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> half(0.0f, 1.5f), point(-8.0f, 8.0f);
  for (int q = 0; q < 20000; ++q) {
    detail::QuadNode quad;
    Aabbf boxes[4];
    for (int lane = 0; lane < 4; ++lane) {
      boxes[lane] = q % 7 == 0 && lane == 3 ? Aabbf::empty() : random_box(gen);
      quad.set_lane(lane, boxes[lane], static_cast<std::uint32_t>(lane));
    }
    quad.count = 4;
    const Rayf ray = random_ray(gen, boxes[q % 4]);
    const RayInverse<float> inverse = RayInverse<float>::from_ray(ray);
    const Vec3f grow{half(gen), half(gen), half(gen)};
    const float tmax = q % 3 == 0 ? ray.tmax : 0.5f * ray.tmax;
    alignas(16) float t_plain[4], t_grown[4];
    const unsigned plain = detail::ray_enters_quad<false>(quad, detail::QuadRay::from(inverse, {}), tmax, t_plain);
    const unsigned grown = detail::ray_enters_quad<true>(quad, detail::QuadRay::from(inverse, grow), tmax, t_grown);
    const Aabbf query = random_box(gen);
    const unsigned overlaps = detail::quad_overlaps(quad, query);
    const Vec3f p{point(gen), point(gen), point(gen)};
    alignas(16) float d2[4];
    detail::quad_distance_squared(quad, p).store(d2);
    for (int lane = 0; lane < 4; ++lane) {
      const Aabbf& b = boxes[lane];
      float t;
      const bool hit = ray_enters_box(b, inverse, tmax, t);
      ASSERT_EQ((plain >> lane & 1u) != 0, hit) << "case " << q << " lane " << lane;
      if (hit) {
        ASSERT_EQ(bits_of(t_plain[lane]), bits_of(t)) << "case " << q << " lane " << lane;
      }
      const bool hit_grown = ray_enters_box({b.min - grow, b.max + grow}, inverse, tmax, t);
      ASSERT_EQ((grown >> lane & 1u) != 0, hit_grown) << "case " << q << " lane " << lane;
      if (hit_grown) {
        ASSERT_EQ(bits_of(t_grown[lane]), bits_of(t)) << "case " << q << " lane " << lane;
      }
      ASSERT_EQ((overlaps >> lane & 1u) != 0, b.overlaps(query)) << "case " << q << " lane " << lane;
      ASSERT_EQ(bits_of(d2[lane]), bits_of(reference_distance_squared(b, p))) << "case " << q << " lane " << lane;
    }
  }
}

// Brute force over a tree's live proxies, by their fat boxes.
struct Proxies {
  std::vector<std::uint32_t> ids;

  std::vector<std::uint32_t> entered(const DynamicTree& tree, const Rayf& ray, Vec3f grow) const {
    std::vector<std::uint32_t> out;
    if (!is_valid(ray)) return out;
    const RayInverse<float> inverse = RayInverse<float>::from_ray(ray);
    for (const std::uint32_t p : ids) {
      const Aabbf& b = tree.fat_box(p);
      float t;
      if (ray_enters_box({b.min - grow, b.max + grow}, inverse, ray.tmax, t)) out.push_back(p);
    }
    return out;
  }
  std::vector<std::uint32_t> overlapping(const DynamicTree& tree, const Aabbf& box) const {
    std::vector<std::uint32_t> out;
    for (const std::uint32_t p : ids) {
      if (tree.fat_box(p).overlaps(box)) out.push_back(p);
    }
    return out;
  }
  std::vector<std::uint32_t> within(const DynamicTree& tree, Vec3f point, float d2) const {
    std::vector<std::uint32_t> out;
    for (const std::uint32_t p : ids) {
      if (reference_distance_squared(tree.fat_box(p), point) <= d2) out.push_back(p);
    }
    return out;
  }
};

std::vector<std::uint32_t> sorted(std::vector<std::uint32_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Every walk of the tree reports exactly the proxies brute force finds, each once.
void expect_walks_equal_brute_force(const DynamicTree& tree, const Proxies& live, std::mt19937& gen,
                                    const std::string& where) {
  std::uniform_real_distribution<float> half(0.0f, 1.0f), bound(0.0f, 9.0f);
  for (int q = 0; q < 20; ++q) {
    const Aabbf near_box = random_box(gen);
    const Rayf ray = random_ray(gen, near_box);
    std::vector<std::uint32_t> seen;
    const TreeQueryStats stats = tree.ray_query(ray, [&](std::uint32_t p, float tmax) {
      seen.push_back(p);
      return tmax;
    });
    EXPECT_EQ(stats.reported, seen.size()) << where;
    ASSERT_EQ(sorted(seen), sorted(live.entered(tree, ray, {}))) << where << " ray " << q;

    const Vec3f grow{half(gen), half(gen), half(gen)};
    seen.clear();
    tree.box_sweep_query(ray, grow, [&](std::uint32_t p, float tmax) { return seen.push_back(p), tmax; });
    ASSERT_EQ(sorted(seen), sorted(live.entered(tree, ray, grow))) << where << " sweep " << q;

    seen.clear();
    tree.query(near_box, [&](std::uint32_t p) { return seen.push_back(p), true; });
    ASSERT_EQ(sorted(seen), sorted(live.overlapping(tree, near_box))) << where << " box " << q;

    // Nearest, with the bound left alone: every box within it; with the bound shrunk to each box
    // found: the nearest box.
    const Vec3f point = near_box.center();
    const float d2 = bound(gen);
    seen.clear();
    tree.nearest_query(point, d2, [&](std::uint32_t p, float best) { return seen.push_back(p), best; });
    ASSERT_EQ(sorted(seen), sorted(live.within(tree, point, d2))) << where << " nearest " << q;
    float nearest = kInfinity<float>;
    for (const std::uint32_t p : live.ids) nearest = std::min(nearest, reference_distance_squared(tree.fat_box(p), point));
    float found = kInfinity<float>;
    tree.nearest_query(point, kInfinity<float>, [&](std::uint32_t p, float best) {
      found = std::min(found, reference_distance_squared(tree.fat_box(p), point));
      return std::min(best, found);
    });
    ASSERT_EQ(found, live.ids.empty() ? kInfinity<float> : nearest) << where << " nearest " << q;
  }
}

TEST(DynamicTreeQuad, MirrorFollowsRandomEditsAndRebuilds) {
  std::mt19937 gen(91);
  std::uniform_real_distribution<float> step(-0.4f, 0.4f), far(-6.0f, 6.0f);
  std::uniform_int_distribution<int> op(0, 19);
  DynamicTree tree;
  Proxies live;
  std::vector<Aabbf> tight;  // by proxy
  for (int k = 0; k < 4000; ++k) {
    const int what = op(gen);
    if (live.ids.empty() || what < 7) {
      Aabbf box = random_box(gen);
      if (what == 0) box = Aabbf::empty();  // stored as the empty box, never reported
      live.ids.push_back(tree.insert(box, static_cast<std::uint64_t>(k)));
      tight.resize(std::max<std::size_t>(tight.size(), live.ids.back() + 1));
      tight[live.ids.back()] = box;
    } else if (what < 11) {
      const std::size_t i = gen() % live.ids.size();
      tree.remove(live.ids[i]);
      live.ids[i] = live.ids.back();
      live.ids.pop_back();
    } else if (what < 19) {
      // Small steps (often absorbed by the fat box) and teleports (always re-inserted).
      const std::uint32_t p = live.ids[gen() % live.ids.size()];
      const Vec3f d = what < 16 ? Vec3f{step(gen), step(gen), step(gen)} : Vec3f{far(gen), far(gen), far(gen)};
      if (tight[p].is_valid()) tight[p] = {tight[p].min + d, tight[p].max + d};
      tree.move(p, tight[p], d);
    } else {
      tree.rebuild();
    }
    ASSERT_TRUE(tree.validate()) << "after operation " << k;
    if (k % 200 == 0) expect_walks_equal_brute_force(tree, live, gen, "operation " + std::to_string(k));
  }
}

TEST(DynamicTreeQuad, RebuildKeepsEveryProxyAndBalancesTheTree) {
  const std::vector<Aabbf> boxes = random_boxes(5000, 17);
  DynamicTree tree;
  Proxies live;
  // Sorted order: the worst case for insertion, the same set for the build.
  for (std::uint32_t i = 0; i < boxes.size(); ++i) live.ids.push_back(tree.insert(boxes[i], 100u + i));
  std::vector<Aabbf> fat;
  for (const std::uint32_t p : live.ids) fat.push_back(tree.fat_box(p));
  tree.rebuild();
  ASSERT_TRUE(tree.validate());
  EXPECT_EQ(tree.proxy_count(), boxes.size());
  EXPECT_LE(tree.height(), static_cast<int>(std::ceil(std::log2(double(boxes.size())))));
  for (std::uint32_t i = 0; i < boxes.size(); ++i) {
    EXPECT_EQ(tree.user(live.ids[i]), 100u + i);
    EXPECT_TRUE(tree.fat_box(live.ids[i]).min == fat[i].min && tree.fat_box(live.ids[i]).max == fat[i].max);
  }
  std::mt19937 gen(18);
  expect_walks_equal_brute_force(tree, live, gen, "after rebuild");
  // The rebuilt tree takes edits as before.
  std::uniform_real_distribution<float> step(-3.0f, 3.0f);
  for (std::uint32_t i = 0; i < boxes.size(); i += 7) {
    const Vec3f d{step(gen), step(gen), step(gen)};
    tree.move(live.ids[i], {boxes[i].min + d, boxes[i].max + d}, d);
  }
  ASSERT_TRUE(tree.validate());
  expect_walks_equal_brute_force(tree, live, gen, "after moves");
  // Down to one proxy and back: the root quad follows.
  while (live.ids.size() > 1) {
    tree.remove(live.ids.back());
    live.ids.pop_back();
  }
  tree.rebuild();
  ASSERT_TRUE(tree.validate());
  expect_walks_equal_brute_force(tree, live, gen, "one proxy");
  tree.remove(live.ids.back());
  live.ids.clear();
  tree.rebuild();
  ASSERT_TRUE(tree.validate());
  expect_walks_equal_brute_force(tree, live, gen, "empty");
}

}  // namespace
}  // namespace hitscan::bvh
