// The loose octree against brute force over every box: overlap queries, the boxes a ray enters
// and the nearest box entry, on seeded scenes (uniform, clustered, mixed sizes, flat boxes) and
// under several settings; rays grazing box faces and parallel to axes; empty trees, invalid
// boxes and invalid rays.

#include "hitscan/bvh/octree.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace hitscan::bvh {
namespace {

enum class SceneKind { uniform, clustered, mixed_sizes, flat };

std::vector<Aabbf> make_scene(SceneKind kind, std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::normal_distribution<float> gauss(0.0f, 1.0f);
  Vec3f centres[4];
  for (Vec3f& c : centres) c = {unit(rng) * 100, unit(rng) * 100, unit(rng) * 100};
  std::vector<Aabbf> boxes;
  for (std::size_t i = 0; i < n; ++i) {
    Vec3f c{unit(rng) * 100, unit(rng) * 100, unit(rng) * 100};
    Vec3f h{0.5f + unit(rng), 0.5f + unit(rng), 0.5f + unit(rng)};
    if (kind == SceneKind::clustered) {
      c = centres[i % 4] + Vec3f{gauss(rng), gauss(rng), gauss(rng)} * 3.0f;
      h = h * 0.3f;
    } else if (kind == SceneKind::mixed_sizes) {
      h = h * std::pow(10.0f, unit(rng) * 4.0f - 3.0f);  // 1e-3 to 10 times
    } else if (kind == SceneKind::flat) {
      h[int(i % 3)] = 0.0f;  // flat on one axis; every fifth a point
      if (i % 5 == 0) h = {};
    }
    boxes.push_back(Aabbf::from_center_half_extents(c, h));
  }
  return boxes;
}

std::string name(SceneKind kind) {
  const char* names[] = {"uniform", "clustered", "mixed_sizes", "flat"};
  return names[int(kind)];
}

std::vector<Rayf> make_rays(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::normal_distribution<float> gauss(0.0f, 1.0f);
  std::vector<Rayf> rays;
  for (std::size_t i = 0; i < n; ++i) {
    Rayf r;
    r.origin = {unit(rng) * 140 - 20, unit(rng) * 140 - 20, unit(rng) * 140 - 20};
    r.dir = {gauss(rng), gauss(rng), gauss(rng)};
    if (i % 7 == 0) r.dir[int(i % 3)] = (i % 2 == 0) ? 0.0f : -0.0f;  // parallel to one plane
    r.tmin = (i % 4 == 0) ? 0.5f : 0.0f;
    r.tmax = (i % 3 == 0) ? 40.0f : std::numeric_limits<float>::infinity();
    rays.push_back(r);
  }
  return rays;
}

// The boxes the exact slab test says the ray enters, and those the conservative node test may
// report: what the octree reports must lie between the two.
void expect_ray_reports(const Octree& tree, std::span<const Aabbf> boxes, const Rayf& ray, const std::string& what) {
  const RayInverse<float> inverse = RayInverse<float>::from_ray(ray);
  std::vector<int> reported(boxes.size(), 0);
  tree.ray_query(ray, [&](std::uint32_t i, float tmax) {
    ++reported[i];
    return tmax;
  });
  for (std::uint32_t i = 0; i < boxes.size(); ++i) {
    float t0, t1, t;
    const bool exact = ray_vs_aabb_interval(boxes[i], inverse, t0, t1);
    const bool may = boxes[i].is_valid() && ray_enters_box(boxes[i], inverse, ray.tmax, t);
    ASSERT_LE(reported[i], 1) << what << " box " << i << " reported twice";
    if (exact) {
      ASSERT_EQ(reported[i], 1) << what << " box " << i << " entered at " << t0 << " not reported";
    }
    if (!may) {
      ASSERT_EQ(reported[i], 0) << what << " box " << i << " reported but not entered";
    }
  }
}

// The nearest box entry, found by a callback that clips tmax to each entry, equals brute force's.
void expect_nearest_entry(const Octree& tree, std::span<const Aabbf> boxes, const Rayf& ray, const std::string& what) {
  const RayInverse<float> inverse = RayInverse<float>::from_ray(ray);
  float best = std::numeric_limits<float>::infinity();
  for (const Aabbf& b : boxes) {
    float t0, t1;
    if (ray_vs_aabb_interval(b, inverse, t0, t1)) best = std::min(best, t0);
  }
  float found = std::numeric_limits<float>::infinity();
  tree.ray_query(ray, [&](std::uint32_t i, float tmax) {
    float t0, t1;
    if (ray_vs_aabb_interval(boxes[i], inverse, t0, t1) && t0 < found) found = t0;
    return std::min(tmax, found);
  });
  ASSERT_EQ(found, best) << what;
}

void expect_overlaps(const Octree& tree, std::span<const Aabbf> boxes, const Aabbf& query, const std::string& what) {
  std::vector<std::uint32_t> got, want;
  tree.query(query, [&](std::uint32_t i) {
    got.push_back(i);
    return true;
  });
  for (std::uint32_t i = 0; i < boxes.size(); ++i) {
    if (boxes[i].is_valid() && boxes[i].overlaps(query)) want.push_back(i);
  }
  std::sort(got.begin(), got.end());
  ASSERT_EQ(got, want) << what;
}

const OctreeSettings kSettings[] = {
    {},                        // k = 2, adaptive
    {1.5f, 16, 8},             // tighter loose boxes: more objects stay high
    {4.0f, 16, 1},             // split down to single objects
    {2.0f, 0, 8},              // a single root node
    {2.0f, 3, 100000},         // never split
};

TEST(Octree, EmptyTreeReportsNothing) {
  Octree tree;
  tree.build({});
  EXPECT_EQ(tree.node_count(), 0u);
  EXPECT_EQ(tree.depth(), -1);
  const auto fail = [](std::uint32_t) { ADD_FAILURE(); return true; };
  EXPECT_EQ(tree.query(Aabbf{{-1e9f, -1e9f, -1e9f}, {1e9f, 1e9f, 1e9f}}, fail).reported, 0u);
  EXPECT_EQ(tree.ray_query(Rayf{}, [](std::uint32_t, float t) { ADD_FAILURE(); return t; }).reported, 0u);
}

TEST(Octree, OverlapQueriesEqualBruteForce) {
  for (SceneKind kind : {SceneKind::uniform, SceneKind::clustered, SceneKind::mixed_sizes, SceneKind::flat}) {
    const std::vector<Aabbf> boxes = make_scene(kind, 3000, 11 + int(kind));
    for (std::size_t s = 0; s < std::size(kSettings); ++s) {
      Octree tree(kSettings[s]);
      tree.build(boxes);
      ASSERT_EQ(tree.object_count(), boxes.size());
      ASSERT_LE(tree.depth(), tree.settings().max_depth);
      std::mt19937 rng(7 + std::uint32_t(s));
      std::uniform_real_distribution<float> unit(0.0f, 1.0f);
      for (int q = 0; q < 200; ++q) {
        const Vec3f c{unit(rng) * 110 - 5, unit(rng) * 110 - 5, unit(rng) * 110 - 5};
        const float h = q % 10 == 0 ? 0.0f : std::pow(10.0f, unit(rng) * 3.0f - 1.5f);
        expect_overlaps(tree, boxes, Aabbf::from_center_half_extents(c, {h, h * 0.5f, h}),
                        name(kind) + " settings " + std::to_string(s) + " query " + std::to_string(q));
      }
      // The boxes themselves: each overlaps at least itself, touching faces included.
      for (std::size_t i = 0; i < boxes.size(); i += 97) {
        expect_overlaps(tree, boxes, boxes[i], name(kind) + " own box " + std::to_string(i));
      }
    }
  }
}

TEST(Octree, RaysReportExactlyTheBoxesTheyEnter) {
  const std::vector<Rayf> rays = make_rays(100, 5);
  for (SceneKind kind : {SceneKind::uniform, SceneKind::clustered, SceneKind::mixed_sizes, SceneKind::flat}) {
    const std::vector<Aabbf> boxes = make_scene(kind, 1500, 21 + int(kind));
    for (std::size_t s = 0; s < std::size(kSettings); ++s) {
      Octree tree(kSettings[s]);
      tree.build(boxes);
      for (std::size_t r = 0; r < rays.size(); ++r) {
        expect_ray_reports(tree, boxes, rays[r], name(kind) + " settings " + std::to_string(s) + " ray " +
                                                     std::to_string(r));
      }
    }
  }
}

TEST(Octree, ClippingTmaxFindsTheNearestEntry) {
  const std::vector<Rayf> rays = make_rays(400, 6);
  for (SceneKind kind : {SceneKind::uniform, SceneKind::clustered, SceneKind::mixed_sizes, SceneKind::flat}) {
    const std::vector<Aabbf> boxes = make_scene(kind, 4000, 31 + int(kind));
    Octree tree;
    tree.build(boxes);
    std::uint64_t clipped_tests = 0, full_tests = 0;
    for (std::size_t r = 0; r < rays.size(); ++r) {
      expect_nearest_entry(tree, boxes, rays[r], name(kind) + " ray " + std::to_string(r));
      const RayInverse<float> inverse = RayInverse<float>::from_ray(rays[r]);
      clipped_tests += tree.ray_query(rays[r], [&](std::uint32_t i, float tmax) {
        float t0, t1;
        return ray_vs_aabb_interval(boxes[i], inverse, t0, t1) ? std::min(t0, tmax) : tmax;
      }).item_tests;
      full_tests += tree.ray_query(rays[r], [](std::uint32_t, float tmax) { return tmax; }).item_tests;
    }
    // Front to back: once the nearest box is found, the subtrees behind it are skipped.
    EXPECT_LT(clipped_tests, full_tests) << name(kind);
  }
  // In a dense scene (the uniform one's centres brought five times closer: every ray crosses
  // dozens of boxes) the nearest is found after a small share of the tests.
  std::vector<Aabbf> dense = make_scene(SceneKind::uniform, 4000, 35);
  for (Aabbf& b : dense) b = Aabbf::from_center_half_extents(b.center() * 0.2f, b.half_extents());
  Octree tree;
  tree.build(dense);
  std::uint64_t clipped_tests = 0, full_tests = 0;
  for (std::size_t r = 0; r < rays.size(); ++r) {
    Rayf ray = rays[r];
    ray.origin = ray.origin * 0.2f;
    expect_nearest_entry(tree, dense, ray, "dense ray " + std::to_string(r));
    const RayInverse<float> inverse = RayInverse<float>::from_ray(ray);
    clipped_tests += tree.ray_query(ray, [&](std::uint32_t i, float tmax) {
      float t0, t1;
      return ray_vs_aabb_interval(dense[i], inverse, t0, t1) ? std::min(t0, tmax) : tmax;
    }).item_tests;
    full_tests += tree.ray_query(ray, [](std::uint32_t, float tmax) { return tmax; }).item_tests;
  }
  EXPECT_LT(clipped_tests * 3, full_tests);
}

// Unit boxes on a lattice, touching face to face; rays lying in the planes of their faces, along
// their edges, and parallel to axes through their insides.
TEST(Octree, GrazingAndAxisParallelRaysReportEveryBoxTheyTouch) {
  std::vector<Aabbf> boxes;
  for (int x = 0; x < 12; ++x) {
    for (int y = 0; y < 12; ++y) {
      for (int z = 0; z < 12; ++z) {
        if ((x * 7 + y * 3 + z) % 4 == 0) continue;  // some holes
        boxes.push_back({{float(x), float(y), float(z)}, {float(x + 1), float(y + 1), float(z + 1)}});
      }
    }
  }
  for (const OctreeSettings& settings : kSettings) {
    Octree tree(settings);
    tree.build(boxes);
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> cell(0, 12);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    for (int r = 0; r < 200; ++r) {
      Rayf ray;
      const int axis = r % 3, sign = (r / 3) % 2;
      float o[3] = {float(cell(rng)), float(cell(rng)), float(cell(rng))};  // on face planes and edges
      if (r % 4 == 1) o[(axis + 1) % 3] += unit(rng);  // on a face plane only
      if (r % 4 == 2) o[(axis + 1) % 3] += 0.5f, o[(axis + 2) % 3] += 0.5f;  // through box insides
      o[axis] = sign ? 20.0f : -8.0f;
      ray.origin = {o[0], o[1], o[2]};
      ray.dir = {sign ? -0.0f : 0.0f, sign ? -0.0f : 0.0f, sign ? -0.0f : 0.0f};
      ray.dir[axis] = sign ? -1.0f : 1.0f;
      if (r % 4 == 3) ray.dir[(axis + 1) % 3] = 0.25f;  // in a face plane, not along an axis
      expect_ray_reports(tree, boxes, ray, "grazing ray " + std::to_string(r));
      expect_nearest_entry(tree, boxes, ray, "grazing ray " + std::to_string(r));
    }
  }
}

TEST(Octree, InvalidBoxesAreSkippedAndCounted) {
  std::vector<Aabbf> boxes = make_scene(SceneKind::uniform, 500, 41);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  boxes[3].min.x = nan;
  boxes[10].max.y = nan;
  boxes[20].max.z = inf;
  boxes[30].min = {-inf, -inf, -inf};
  boxes[40] = Aabbf::empty();
  boxes[50].min.x = boxes[50].max.x + 1.0f;
  Octree tree;
  tree.build(boxes);
  EXPECT_EQ(tree.skipped_count(), 6u);
  EXPECT_EQ(tree.object_count(), boxes.size() - 6);
  std::vector<std::uint32_t> all;
  tree.query(Aabbf{{-1e30f, -1e30f, -1e30f}, {1e30f, 1e30f, 1e30f}}, [&](std::uint32_t i) {
    all.push_back(i);
    return true;
  });
  EXPECT_EQ(all.size(), boxes.size() - 6);
  for (std::uint32_t bad : {3u, 10u, 20u, 30u, 40u, 50u}) {
    EXPECT_EQ(std::count(all.begin(), all.end(), bad), 0) << bad;
  }
  for (const Rayf& ray : make_rays(50, 42)) {
    tree.ray_query(ray, [&](std::uint32_t i, float tmax) {
      EXPECT_TRUE(i != 3 && i != 10 && i != 20 && i != 30 && i != 40 && i != 50) << i;
      return tmax;
    });
  }
  // Rebuilding from only invalid boxes leaves an empty tree.
  tree.build(std::span<const Aabbf>(boxes).subspan(40, 1));
  EXPECT_EQ(tree.node_count(), 0u);
  EXPECT_EQ(tree.skipped_count(), 1u);
}

TEST(Octree, InvalidRaysVisitNothing) {
  const std::vector<Aabbf> boxes = make_scene(SceneKind::uniform, 500, 51);
  Octree tree;
  tree.build(boxes);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const Rayf bad[] = {{{nan, 0, 0}, {1, 0, 0}},           {{0, 0, 0}, {0, 0, 0}},
                      {{0, 0, 0}, {inf, 0, 0}},           {{50, 50, 50}, {1, 0, 0}, 2.0f, 1.0f},
                      {{50, 50, 50}, {1, 0, 0}, nan, 1.0f}, {{50, 50, 50}, {0, nan, 1}}};
  for (const Rayf& ray : bad) {
    EXPECT_EQ(tree.ray_query(ray, [](std::uint32_t, float t) { ADD_FAILURE(); return t; }).node_visits, 0u);
  }
}

TEST(Octree, CallbacksStopTheWalkAndUsersAreKept) {
  const std::vector<Aabbf> boxes = make_scene(SceneKind::clustered, 1000, 61);
  std::vector<std::uint64_t> users(boxes.size());
  for (std::size_t i = 0; i < users.size(); ++i) users[i] = 1000000 + 3 * i;
  Octree tree;
  tree.build(boxes, users);
  for (std::uint32_t i = 0; i < boxes.size(); i += 50) EXPECT_EQ(tree.user(i), users[i]);
  int calls = 0;
  tree.query(Aabbf{{-1e3f, -1e3f, -1e3f}, {1e3f, 1e3f, 1e3f}}, [&](std::uint32_t) { return ++calls < 5; });
  EXPECT_EQ(calls, 5);
  calls = 0;
  const Rayf through{{-10, 50, 50}, {1, 0.01f, 0.02f}};
  tree.ray_query(through, [&](std::uint32_t, float) { return ++calls < 2 ? 1e30f : -1.0f; });
  EXPECT_LE(calls, 2);
}

// Many objects at one point: the split stops at max_depth, and every one is still found.
TEST(Octree, CoincidentObjectsStopAtMaxDepth) {
  std::vector<Aabbf> boxes(200, Aabbf::from_point({1, 2, 3}));
  boxes.push_back(Aabbf{{0, 0, 0}, {4, 4, 4}});
  Octree tree(OctreeSettings{2.0f, 6, 4});
  tree.build(boxes);
  EXPECT_LE(tree.depth(), 6);
  expect_overlaps(tree, boxes, Aabbf::from_point({1, 2, 3}), "the point");
  expect_ray_reports(tree, boxes, Rayf{{1, 2, -5}, {0, 0, 1}}, "through the point");
}

}  // namespace
}  // namespace hitscan::bvh
