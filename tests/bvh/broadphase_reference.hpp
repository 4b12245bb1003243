#pragma once
/// Test support for the broadphases: seeded random scenes, two independent references for the
/// overlapping pairs (brute force over all n(n-1)/2 pairs, and a sort-and-sweep on x for sizes
/// where brute force is too slow), an exact sphere-sphere test for the "after the exact test"
/// flow, and a comparison of pair lists that reports the first difference.
///
/// The references compare coordinates axis by axis in their own loops, not through
/// Aabb::overlaps, so that a mistake there cannot hide in both sides; the sphere test works in
/// double precision. Touching boxes count as overlapping.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <map>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hitscan/math/aabb.hpp"

namespace hitscan::broadphase_reference {

/// The "10^5 objects" case. Under AddressSanitizer the whole broadphase suite takes about 17 s
/// of CPU with it, so it is not shrunk there.
inline constexpr std::size_t kLargeScene = 100000;

using Pair = std::pair<std::uint32_t, std::uint32_t>;

inline bool boxes_overlap(const Aabbf& a, const Aabbf& b) {
  for (int i = 0; i < 3; ++i) {
    if (a.min[i] > b.max[i] || b.min[i] > a.max[i]) return false;
  }
  return true;
}

inline bool box_usable(const Aabbf& b) {
  for (int i = 0; i < 3; ++i) {
    if (!(b.min[i] <= b.max[i])) return false;  // also false for NaN
  }
  return true;
}

/// The usable boxes structure-of-arrays, with their indices, for the reference loops.
struct BoxColumns {
  std::vector<float> min[3], max[3];
  std::vector<std::uint32_t> index;

  BoxColumns(std::span<const Aabbf> boxes, std::span<const std::uint32_t> order) {
    for (const std::uint32_t i : order) {
      if (!box_usable(boxes[i])) continue;
      for (int a = 0; a < 3; ++a) {
        min[a].push_back(boxes[i].min[a]);
        max[a].push_back(boxes[i].max[a]);
      }
      index.push_back(i);
    }
  }
  // Branch-free (& rather than &&): the comparisons are cheaper than a mispredicted branch.
  bool overlap_yz(std::size_t k, std::size_t m) const {
    unsigned all = min[1][k] <= max[1][m];
    all &= min[1][m] <= max[1][k];
    all &= min[2][k] <= max[2][m];
    all &= min[2][m] <= max[2][k];
    return all != 0;
  }
  bool overlap(std::size_t k, std::size_t m) const {
    unsigned all = min[0][k] <= max[0][m];
    all &= min[0][m] <= max[0][k];
    return (all != 0) & overlap_yz(k, m);
  }
};

inline std::vector<std::uint32_t> identity_order(std::size_t n) {
  std::vector<std::uint32_t> order(n);
  for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
  return order;
}

/// Every overlapping pair (i < j) among the usable boxes, sorted. O(n^2).
inline std::vector<Pair> brute_force_pairs(std::span<const Aabbf> boxes) {
  const BoxColumns c(boxes, identity_order(boxes.size()));
  std::vector<Pair> pairs;
  for (std::size_t k = 0; k < c.index.size(); ++k) {
    for (std::size_t m = k + 1; m < c.index.size(); ++m) {
      if (c.overlap(k, m)) pairs.emplace_back(c.index[k], c.index[m]);
    }
  }
  return pairs;  // generated in sorted order
}

/// The same pairs by sort and sweep on x: boxes sorted by min.x, each compared on y and z with
/// the boxes whose min.x lies within its own [min.x, max.x] (which settles x). Sorted.
inline std::vector<Pair> sweep_pairs(std::span<const Aabbf> boxes) {
  std::vector<std::uint32_t> order = identity_order(boxes.size());
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return boxes[a].min.x < boxes[b].min.x || (boxes[a].min.x == boxes[b].min.x && a < b);
  });
  const BoxColumns c(boxes, order);
  std::vector<Pair> pairs;
  for (std::size_t k = 0; k < c.index.size(); ++k) {
    const auto end = static_cast<std::size_t>(
        std::upper_bound(c.min[0].begin() + k + 1, c.min[0].end(), c.max[0][k]) - c.min[0].begin());
    for (std::size_t m = k + 1; m < end; ++m) {
      if (c.overlap_yz(k, m)) {
        pairs.emplace_back(std::min(c.index[k], c.index[m]), std::max(c.index[k], c.index[m]));
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

/// Checks that `actual` (in any order) holds each pair of `expected` exactly once, as (i < j),
/// and nothing else.
inline void expect_same_pairs(std::vector<Pair> actual, const std::vector<Pair>& expected, const std::string& what) {
  for (const Pair& p : actual) {
    if (p.first >= p.second) {
      ADD_FAILURE() << what << ": pair (" << p.first << ", " << p.second << ") not ordered";
      return;
    }
  }
  std::sort(actual.begin(), actual.end());
  const auto duplicate = std::adjacent_find(actual.begin(), actual.end());
  if (duplicate != actual.end()) {
    ADD_FAILURE() << what << ": pair (" << duplicate->first << ", " << duplicate->second << ") reported twice";
    return;
  }
  if (actual == expected) return;
  std::vector<Pair> missing, extra;
  std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(), std::back_inserter(missing));
  std::set_difference(actual.begin(), actual.end(), expected.begin(), expected.end(), std::back_inserter(extra));
  const auto example = [](const std::vector<Pair>& v) {
    return v.empty() ? std::string() : " e.g. (" + std::to_string(v[0].first) + ", " + std::to_string(v[0].second) + ")";
  };
  ADD_FAILURE() << what << ": " << actual.size() << " pairs, expected " << expected.size() << "; " << missing.size()
                << " missing" << example(missing) << ", " << extra.size() << " extra" << example(extra);
}

/// n boxes at constant density: centres uniform in a cube of side cbrt(5 n), half extents
/// uniform in [0.2, 1], and one box in a hundred up to eight times larger, so that boxes span
/// several grid cells. About two overlapping pairs per box.
inline std::vector<Aabbf> random_boxes(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  const float side = std::cbrt(5.0f * static_cast<float>(n));
  std::uniform_real_distribution<float> position(0.0f, side), half(0.2f, 1.0f), large(1.0f, 8.0f), chance(0.0f, 1.0f);
  std::vector<Aabbf> boxes;
  boxes.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3f c{position(gen), position(gen), position(gen)};
    const float scale = chance(gen) < 0.01f ? large(gen) : 1.0f;
    boxes.push_back(Aabbf::from_center_half_extents(c, Vec3f{half(gen), half(gen), half(gen)} * scale));
  }
  return boxes;
}

struct Ball {
  Vec3f center;
  float radius;
};

/// n spheres at constant density, radii uniform in [0.2, 1.2].
inline std::vector<Ball> random_balls(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  const float side = std::cbrt(6.0f * static_cast<float>(n));
  std::uniform_real_distribution<float> position(0.0f, side), radius(0.2f, 1.2f);
  std::vector<Ball> balls;
  balls.reserve(n);
  for (std::size_t i = 0; i < n; ++i) balls.push_back({{position(gen), position(gen), position(gen)}, radius(gen)});
  return balls;
}

inline Aabbf bounds_of(const Ball& b) {
  return Aabbf::from_center_half_extents(b.center, {b.radius, b.radius, b.radius});
}

inline std::vector<Aabbf> bounds_of(std::span<const Ball> balls) {
  std::vector<Aabbf> boxes;
  for (const Ball& b : balls) boxes.push_back(bounds_of(b));
  return boxes;
}

/// The exact test: the spheres touch or overlap. Double precision.
inline bool balls_touch(const Ball& a, const Ball& b) {
  const double dx = double(a.center.x) - b.center.x, dy = double(a.center.y) - b.center.y,
               dz = double(a.center.z) - b.center.z, r = double(a.radius) + b.radius;
  return dx * dx + dy * dy + dz * dz <= r * r;
}

/// Every touching pair of spheres (i < j), sorted. O(n^2).
inline std::vector<Pair> brute_force_ball_pairs(std::span<const Ball> balls) {
  std::vector<Pair> pairs;
  const auto n = static_cast<std::uint32_t>(balls.size());
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t j = i + 1; j < n; ++j) {
      if (balls_touch(balls[i], balls[j])) pairs.emplace_back(i, j);
    }
  }
  return pairs;
}

/// The candidate pairs whose tight boxes overlap, for broadphases that pair looser boxes.
inline std::vector<Pair> tight_only(const std::vector<Pair>& candidates, std::span<const Aabbf> tight) {
  std::vector<Pair> pairs;
  for (const Pair& p : candidates) {
    if (boxes_overlap(tight[p.first], tight[p.second])) pairs.push_back(p);
  }
  return pairs;
}

/// The broadphase pairs that survive the exact sphere test, sorted.
inline std::vector<Pair> touching_only(const std::vector<Pair>& candidates, std::span<const Ball> balls) {
  std::vector<Pair> pairs;
  for (const Pair& p : candidates) {
    if (balls_touch(balls[p.first], balls[p.second])) pairs.push_back(p);
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

/// The pairs of a scene: brute force up to 10^4 boxes, sort and sweep beyond.
inline std::vector<Pair> reference_pairs(std::span<const Aabbf> boxes) {
  return boxes.size() <= 10000 ? brute_force_pairs(boxes) : sweep_pairs(boxes);
}

struct BoxScene {
  std::vector<Aabbf> boxes;
  std::vector<Pair> pairs;
};

/// random_boxes(n, seed) and its reference pairs, computed once per test program (the tree and
/// grid tests share the scenes).
inline const BoxScene& box_scene(std::size_t n, unsigned seed) {
  static std::map<std::pair<std::size_t, unsigned>, BoxScene> cache;
  auto [it, added] = cache.try_emplace({n, seed});
  if (added) {
    it->second.boxes = random_boxes(n, seed);
    it->second.pairs = reference_pairs(it->second.boxes);
  }
  return it->second;
}

struct BallScene {
  std::vector<Ball> balls;
  std::vector<Aabbf> boxes;
  /// The touching pairs: brute force up to 10^4 spheres, the sweep's box pairs then the exact test.
  std::vector<Pair> pairs;
};

inline const BallScene& ball_scene(std::size_t n, unsigned seed) {
  static std::map<std::pair<std::size_t, unsigned>, BallScene> cache;
  auto [it, added] = cache.try_emplace({n, seed});
  if (added) {
    BallScene& scene = it->second;
    scene.balls = random_balls(n, seed);
    scene.boxes = bounds_of(scene.balls);
    scene.pairs = n <= 10000 ? brute_force_ball_pairs(scene.balls) : touching_only(sweep_pairs(scene.boxes), scene.balls);
  }
  return it->second;
}

/// Cost per n log2 n, the quantity the growth tests hold bounded.
inline double per_n_log_n(double work, std::size_t n) {
  return work / (static_cast<double>(n) * std::log2(static_cast<double>(n)));
}

}  // namespace hitscan::broadphase_reference
