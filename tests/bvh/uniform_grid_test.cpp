// The hashed uniform grid against brute force and sort-and-sweep: pairs at every size, with the
// exact sphere test after it, at any cell size, on cell boundaries, far from the origin, with
// huge and invalid boxes, frame after frame; box queries; and the growth of its counted work.
// Also the references themselves, which the tree's tests share.

#include "hitscan/bvh/uniform_grid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "broadphase_reference.hpp"

namespace hitscan::bvh {
namespace {

using namespace broadphase_reference;

std::vector<Pair> grid_pairs(std::span<const Aabbf> boxes, const UniformGridSettings& settings = {}) {
  UniformGrid grid(settings);
  grid.update(boxes);
  std::vector<Pair> pairs;
  grid.find_pairs(pairs);
  return pairs;
}

// The references themselves: the sweep, which stands in for brute force at 10^5, agrees with it
// below, for boxes and for spheres.
TEST(SweepReference, AgreesWithBruteForce) {
  for (std::size_t n : {100u, 1000u, 10000u}) {
    const BoxScene& scene = box_scene(n, 1);
    EXPECT_GT(scene.pairs.size(), n) << "the scenes should have a few neighbours per box";
    expect_same_pairs(sweep_pairs(scene.boxes), scene.pairs, "sweep n=" + std::to_string(n));
    const BallScene& balls = ball_scene(n, 2);
    expect_same_pairs(touching_only(sweep_pairs(balls.boxes), balls.balls), balls.pairs,
                      "sweep spheres n=" + std::to_string(n));
  }
}

TEST(UniformGrid, EmptyGridReportsNothing) {
  UniformGrid grid;
  grid.update({});
  std::vector<Pair> pairs;
  EXPECT_EQ(grid.find_pairs(pairs).reported, 0u);
  EXPECT_TRUE(pairs.empty());
  EXPECT_EQ(grid.query(Aabbf{{-1, -1, -1}, {1, 1, 1}}, [](std::uint32_t) { return true; }).reported, 0u);
  EXPECT_GT(grid.cell_size(), 0.0f);
}

TEST(UniformGrid, PairsEqualBruteForceAtEverySize) {
  for (std::size_t n : {std::size_t{100}, std::size_t{1000}, std::size_t{10000}, kLargeScene}) {
    const BoxScene& scene = box_scene(n, 1);
    UniformGrid grid;
    grid.update(scene.boxes);
    std::vector<Pair> pairs;
    grid.find_pairs(pairs);
    expect_same_pairs(pairs, scene.pairs, "grid n=" + std::to_string(n));
    // The callback form reports the same pairs in the same order.
    std::vector<Pair> called;
    grid.find_pairs([&](std::uint32_t i, std::uint32_t j) { called.emplace_back(i, j); });
    EXPECT_EQ(called, pairs);
  }
}

TEST(UniformGrid, SpherePairsAfterTheExactTestEqualBruteForce) {
  for (std::size_t n : {std::size_t{100}, std::size_t{1000}, std::size_t{10000}, kLargeScene}) {
    const BallScene& scene = ball_scene(n, 2);
    expect_same_pairs(touching_only(grid_pairs(scene.boxes), scene.balls), scene.pairs,
                      "grid spheres n=" + std::to_string(n));
  }
}

double mean_side(const Aabbf& b) {
  return (double(b.max.x) - b.min.x + double(b.max.y) - b.min.y + double(b.max.z) - b.min.z) / 3;
}

TEST(UniformGrid, DefaultCellSizeIsTwiceTheTypicalSide) {
  std::vector<Aabbf> boxes = box_scene(1000, 1).boxes;
  double log_sum = 0;
  for (const Aabbf& b : boxes) log_sum += std::log(mean_side(b));
  const double typical = 2 * std::exp(log_sum / double(boxes.size()));
  UniformGrid grid;
  grid.update(boxes);
  EXPECT_NEAR(grid.cell_size(), typical, 1e-4);
  // A floor a million times larger than the rest barely moves it.
  boxes.push_back({{-1e6f, -1, -1e6f}, {1e6f, 0, 1e6f}});
  grid.update(boxes);
  EXPECT_NEAR(grid.cell_size(), typical, 0.02 * typical);
  UniformGrid fixed({0.75f});
  fixed.update(boxes);
  EXPECT_EQ(fixed.cell_size(), 0.75f);
  EXPECT_EQ(fixed.cell_of({0.74f, -0.01f, 1.6f}), (GridCell{0, -1, 2}));
}

TEST(UniformGrid, AnyCellSizeGivesTheSamePairs) {
  // From cells far smaller than the boxes (each spans many; some go to the large list) to one
  // cell holding everything.
  const BoxScene& scene = box_scene(1000, 1);
  for (float cell : {0.1f, 0.4f, 1.0f, 3.0f, 10.0f, 1000.0f}) {
    UniformGrid grid({cell});
    grid.update(scene.boxes);
    std::vector<Pair> pairs;
    grid.find_pairs(pairs);
    expect_same_pairs(pairs, scene.pairs, "cell " + std::to_string(cell));
    if (cell == 0.1f) {
      EXPECT_GT(grid.large_object_count(), 0u);
    }
    if (cell == 1000.0f) {
      EXPECT_LE(grid.occupied_cell_count(), 8u);  // the cells around the origin
    }
  }
}

TEST(UniformGrid, BoxesTouchingOnCellBoundariesArePairedOnce) {
  // Unit boxes on an integer lattice with unit cells: every face, edge and corner contact lies on
  // cell planes, and each pair shares up to eight cells.
  std::vector<Aabbf> boxes;
  for (int x = 0; x < 6; ++x) {
    for (int y = 0; y < 6; ++y) {
      for (int z = 0; z < 6; ++z) boxes.push_back({{float(x), float(y), float(z)}, {x + 1.0f, y + 1.0f, z + 1.0f}});
    }
  }
  // Half-offset boxes and points on lattice corners and faces.
  for (int i = 0; i < 5; ++i) boxes.push_back({{i + 0.5f, 0.5f, 0.5f}, {i + 1.5f, 1.5f, 1.5f}});
  for (int i = 0; i < 5; ++i) boxes.push_back(Aabbf::from_point({float(i), 2.0f, 3.0f}));
  boxes.push_back(Aabbf::from_point({2.5f, 2.0f, 3.0f}));
  const std::vector<Pair> expected = brute_force_pairs(boxes);
  EXPECT_GT(expected.size(), 1000u);
  for (float cell : {1.0f, 0.5f, 2.0f}) expect_same_pairs(grid_pairs(boxes, {cell}), expected, "lattice " + std::to_string(cell));
}

TEST(UniformGrid, UnboundedWorldFarFromTheOrigin) {
  // Clusters at ever larger distances: cell coordinates reach and pass the int32 range (there
  // they clamp, which keeps the report-once rule exact).
  std::mt19937 gen(9);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), h(0.1f, 0.5f);
  std::vector<Aabbf> boxes;
  for (float offset : {0.0f, 1e5f, -3e7f, 1e9f, -2e10f, 1e15f, 3e30f}) {
    const float spread = std::max(4.0f, offset * 1e-6f);  // float spacing grows with the offset
    for (int i = 0; i < 150; ++i) {
      const Vec3f c{offset + spread * u(gen), offset + spread * u(gen), -offset + spread * u(gen)};
      const float s = std::max(h(gen), offset * 2e-7f);
      boxes.push_back(Aabbf::from_center_half_extents(c, {s, s, s}));
    }
  }
  const std::vector<Pair> expected = brute_force_pairs(boxes);
  for (float cell : {0.0f, 0.5f}) expect_same_pairs(grid_pairs(boxes, {cell}), expected, "far, cell " + std::to_string(cell));
}

TEST(UniformGrid, HugeBoxesAreTestedAgainstEveryObject) {
  std::vector<Aabbf> boxes = box_scene(1000, 1).boxes;
  boxes.push_back({{-1000, -1000, -1000}, {1000, 1000, 1000}});
  boxes.push_back({{0, 0, 0}, {5, 1e6f, 5}});
  boxes.push_back({{-kInfinity<float>, 3, -kInfinity<float>}, {kInfinity<float>, 4, kInfinity<float>}});  // a slab
  UniformGrid grid;
  grid.update(boxes);
  EXPECT_EQ(grid.large_object_count(), 3u);
  std::vector<Pair> pairs;
  grid.find_pairs(pairs);
  expect_same_pairs(pairs, brute_force_pairs(boxes), "huge boxes");
}

TEST(UniformGrid, InvalidBoxesAreNeverReported) {
  std::vector<Aabbf> boxes = box_scene(1000, 1).boxes;
  boxes[3] = Aabbf::empty();
  boxes[4].min.x = NAN;
  boxes[5] = {{1, 1, 1}, {0, 0, 0}};
  boxes[6].max.z = NAN;
  UniformGrid grid;
  grid.update(boxes);
  std::vector<Pair> pairs;
  grid.find_pairs(pairs);
  expect_same_pairs(pairs, brute_force_pairs(boxes), "invalid boxes");
  std::vector<std::uint32_t> seen;
  grid.query({{-1e30f, -1e30f, -1e30f}, {1e30f, 1e30f, 1e30f}}, [&](std::uint32_t i) { return seen.push_back(i), true; });
  EXPECT_EQ(seen.size(), boxes.size() - 4);
  EXPECT_EQ(std::count_if(seen.begin(), seen.end(), [](std::uint32_t i) { return i >= 3 && i <= 6; }), 0);
  // Points only: the cell size still comes out positive, and equal points pair.
  const std::vector<Aabbf> points{Aabbf::from_point({1, 2, 3}), Aabbf::from_point({1, 2, 3}), Aabbf::from_point({4, 2, 3})};
  UniformGrid point_grid;
  point_grid.update(points);
  EXPECT_GT(point_grid.cell_size(), 0.0f);
  point_grid.find_pairs(pairs);
  EXPECT_EQ(pairs, (std::vector<Pair>{{0, 1}}));
}

TEST(UniformGrid, QueryReportsEveryOverlappingObjectOnce) {
  const BoxScene& scene = box_scene(10000, 1);
  UniformGrid grid;
  grid.update(scene.boxes);
  std::mt19937 gen(43);
  std::uniform_real_distribution<float> u(-5.0f, 42.0f), h(0.0f, 4.0f);
  for (int q = 0; q < 300; ++q) {
    // Small boxes walk the cells; every tenth is large enough to be answered by a scan instead.
    const float scale = q % 10 == 0 ? 10.0f : 1.0f;
    const Aabbf box = Aabbf::from_center_half_extents({u(gen), u(gen), u(gen)}, Vec3f{h(gen), h(gen), h(gen)} * scale);
    std::vector<std::uint32_t> expected, seen;
    for (std::uint32_t i = 0; i < scene.boxes.size(); ++i) {
      if (boxes_overlap(scene.boxes[i], box)) expected.push_back(i);
    }
    const GridStats stats = grid.query(box, [&](std::uint32_t i) { return seen.push_back(i), true; });
    EXPECT_EQ(stats.reported, seen.size());
    std::sort(seen.begin(), seen.end());
    ASSERT_EQ(seen, expected) << "query " << q;
    if (expected.size() >= 2) {
      std::size_t calls = 0;
      grid.query(box, [&](std::uint32_t) { return ++calls < 2; });
      EXPECT_EQ(calls, 2u);
    }
  }
  std::size_t calls = 0;
  grid.query(Aabbf::empty(), [&](std::uint32_t) { return ++calls, true; });
  EXPECT_EQ(calls, 0u);
}

TEST(UniformGrid, MovingObjectsMatchBruteForceEveryFrame) {
  constexpr int kObjects = 2000, kFrames = 60;
  constexpr float kSide = 25.0f;
  std::mt19937 gen(6);
  std::uniform_real_distribution<float> u(0.0f, kSide), h(0.2f, 1.0f), v(-0.3f, 0.3f);
  std::vector<Vec3f> center, half, velocity;
  for (int i = 0; i < kObjects; ++i) {
    center.push_back({u(gen), u(gen), u(gen)});
    half.push_back({h(gen), h(gen), h(gen)});
    velocity.push_back({v(gen), v(gen), v(gen)});
  }
  std::vector<Aabbf> boxes(kObjects);
  UniformGrid grid;
  std::vector<Pair> pairs;
  for (int frame = 0; frame < kFrames; ++frame) {
    for (int i = 0; i < kObjects; ++i) {
      center[i] += velocity[i];
      for (int a = 0; a < 3; ++a) {
        if (center[i][a] < 0.0f || center[i][a] > kSide) velocity[i][a] = -velocity[i][a];
      }
      boxes[i] = Aabbf::from_center_half_extents(center[i], half[i]);
    }
    const GridStats stats = grid.update(boxes);
    EXPECT_LE(stats.cell_visits, 8u * kObjects) << "boxes of at most a cell's size cover at most 8 cells";
    grid.find_pairs(pairs);
    expect_same_pairs(pairs, brute_force_pairs(boxes), "frame " + std::to_string(frame));
  }
}

TEST(UniformGrid, CountedWorkGrowsNoFasterThanNLogN) {
  // Constant density: the update, the pair search and one small query per object must not cost
  // more per n log2 n at 10^5 objects than at 10^3 (the grid is in fact linear).
  struct Work {
    double update, pairs, queries;
  };
  const std::vector<std::size_t> sizes{1000, 10000, kLargeScene};
  std::vector<Work> work;
  for (std::size_t n : sizes) {
    const std::vector<Aabbf> boxes = random_boxes(n, 1);
    UniformGrid grid;
    const GridStats update = grid.update(boxes);
    const GridStats pairs = grid.find_pairs([](std::uint32_t, std::uint32_t) {});
    std::uint64_t queries = 0;
    for (const Aabbf& b : boxes) {
      const GridStats s = grid.query(b, [](std::uint32_t) { return true; });
      queries += s.cell_visits + s.candidate_tests;
    }
    const Work w{per_n_log_n(double(update.cell_visits), n), per_n_log_n(double(pairs.cell_visits + pairs.candidate_tests), n),
                 per_n_log_n(double(queries), n)};
    std::printf("grid n=%zu work per n log2 n: update %.3f, pairs %.3f, queries %.3f (%zu cells, %zu large)\n", n,
                w.update, w.pairs, w.queries, grid.occupied_cell_count(), grid.large_object_count());
    work.push_back(w);
  }
  for (std::size_t k = 1; k < sizes.size(); ++k) {
    EXPECT_LE(work[k].update, 1.5 * work[0].update) << "n=" << sizes[k];
    EXPECT_LE(work[k].pairs, 1.5 * work[0].pairs) << "n=" << sizes[k];
    EXPECT_LE(work[k].queries, 1.5 * work[0].queries) << "n=" << sizes[k];
  }
}

}  // namespace
}  // namespace hitscan::bvh
