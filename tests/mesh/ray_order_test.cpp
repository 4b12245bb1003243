// A batch's tracing order: a permutation of its rays, by the Morton code of each origin's cell.

#include "mesh/ray_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace hitscan {
namespace {

// The cell of `p` in a 16^3 grid over `bounds`, worked in double, its Morton code (x in the
// lowest bit of each triple); outside the bounds or not finite, the nearest cell (0 for NaN).
std::uint32_t morton_cell(Vec3f p, const Aabbf& bounds) {
  std::uint32_t key = 0;
  for (int a = 0; a < 3; ++a) {
    const double f = (double(p[a]) - bounds.min[a]) / (double(bounds.max[a]) - bounds.min[a]) * 16.0;
    const int c = std::isnan(f) ? 0 : static_cast<int>(std::clamp(std::floor(f), 0.0, 15.0));
    for (int bit = 0; bit < 4; ++bit) key |= static_cast<std::uint32_t>((c >> bit) & 1) << (3 * bit + a);
  }
  return key;
}

TEST(LocalityOrder, APermutationByOriginCellInMortonOrderKeepingTheGivenOrderWithinACell) {
  const Aabbf bounds{{-10, 0, 5}, {30, 8, 6}};
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> x(-12, 32), y(-1, 9), z(4.9f, 6.1f);
  std::vector<Rayf> rays;
  for (int i = 0; i < 6000; ++i) rays.push_back({{x(gen), y(gen), z(gen)}, {1, 0, 0}});
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  rays[10].origin = {nan, 3, 5.5f};
  rays[11].origin = {inf, -inf, 5.5f};
  const std::vector<std::uint32_t> order = locality_order(rays, bounds);
  ASSERT_EQ(order.size(), rays.size());
  std::vector<int> seen(rays.size(), 0);
  for (const std::uint32_t i : order) ++seen.at(i);
  for (int s : seen) EXPECT_EQ(s, 1);
  for (std::size_t k = 1; k < order.size(); ++k) {
    const std::uint32_t before = morton_cell(rays[order[k - 1]].origin, bounds);
    const std::uint32_t here = morton_cell(rays[order[k]].origin, bounds);
    ASSERT_LE(before, here) << "place " << k;
    if (before == here) {
      EXPECT_LT(order[k - 1], order[k]) << "place " << k;
    }
  }
}

TEST(LocalityOrder, OnlyLargeBatchesOverLargeTreesAreReordered) {
  EXPECT_FALSE(reorders(kLocalityOrderMinRays - 1, kLocalityOrderMinTreeBytes));
  EXPECT_FALSE(reorders(kLocalityOrderMinRays, kLocalityOrderMinTreeBytes - 1));
  EXPECT_TRUE(reorders(kLocalityOrderMinRays, kLocalityOrderMinTreeBytes));
}

}  // namespace
}  // namespace hitscan
