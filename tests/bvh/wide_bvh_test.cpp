#include "hitscan/bvh/wide_bvh.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>

namespace hitscan::bvh {
namespace {

// A slot's centre along the diagonal of `octant` (negative along axis i when bit i is set), in
// double.
double diagonal_distance(const float (&box)[6][kWideWidth], int lane, unsigned octant) {
  double d = 0.0;
  for (int a = 0; a < 3; ++a) {
    const double centre = 0.5 * (double(box[a][lane]) + double(box[3 + a][lane]));
    d += ((octant >> a) & 1u) != 0 ? -centre : centre;
  }
  return d;
}

TEST(WideNodeOrder, EveryOctantListsEachLaneOnceEmptySlotsFirstThenFarthestAlongItsDiagonal) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> coord(-100.0f, 100.0f), size(0.0f, 20.0f);
  for (int round = 0; round < 200; ++round) {
    const int used = 1 + round % kWideWidth;
    float box[6][kWideWidth];
    for (int i = 0; i < kWideWidth; ++i) {
      for (int a = 0; a < 3; ++a) {
        if (i < used) {
          box[a][i] = coord(rng);
          box[3 + a][i] = box[a][i] + size(rng);
        } else {  // empty, as collapse_to_wide fills unused slots
          box[a][i] = std::numeric_limits<float>::infinity();
          box[3 + a][i] = -std::numeric_limits<float>::infinity();
        }
      }
    }
    WideNode node{};
    set_bounds(node, box);
    for (int i = 0; i < kWideWidth; ++i) {
      EXPECT_EQ(node.bounds.min_x[i], box[0][i]);
      EXPECT_EQ(node.bounds.max_z[i], box[5][i]);
    }
    for (unsigned octant = 0; octant < 8; ++octant) {
      const std::uint32_t order = node.lane_order(octant);
      int seen[kWideWidth] = {};
      for (int j = 0; j < kWideWidth; ++j) ++seen[simd::order_lane(order, j)];
      for (int s : seen) EXPECT_EQ(s, 1) << "round " << round << " octant " << octant;
      const int empty = kWideWidth - used;
      for (int j = 0; j < empty; ++j) EXPECT_GE(simd::order_lane(order, j), used) << "empty slots first";
      for (int j = empty + 1; j < kWideWidth; ++j) {
        const int before = simd::order_lane(order, j - 1), lane = simd::order_lane(order, j);
        // Farthest first (float keys: equal within rounding may come either way).
        EXPECT_GE(diagonal_distance(box, before, octant), diagonal_distance(box, lane, octant) - 1e-3)
            << "round " << round << " octant " << octant << " place " << j;
      }
    }
  }
}

}  // namespace
}  // namespace hitscan::bvh
