#include "hitscan/math/simd.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

namespace hitscan::simd {
namespace {

std::uint32_t pack_order(const std::array<int, 8>& lanes) {
  std::uint32_t order = 0;
  for (int j = 0; j < 8; ++j) order |= static_cast<std::uint32_t>(lanes[j]) << (3 * j);
  return order;
}

// The kept lanes in the order's sequence, by a plain loop over the order.
std::vector<int> kept_in_order(const std::array<int, 8>& lanes, unsigned keep) {
  std::vector<int> out;
  for (int lane : lanes) {
    if ((keep >> lane) & 1u) out.push_back(lane);
  }
  return out;
}

TEST(LaneSelect, EveryMaskUnderRandomOrdersGivesTheKeptLanesInOrderForEachFieldTypeAndEachPlace) {
  std::mt19937 rng(11);
  std::array<int, 8> lanes;
  std::iota(lanes.begin(), lanes.end(), 0);
  const std::uint32_t u32[8] = {10, 0xFFFFFFFFu, 12, 13, 0x80000000u, 15, 16, 17};
  const std::uint8_t u8[8] = {0, 255, 2, 3, 4, 5, 6, 7};
  const float f[8] = {0.5f, -0.0f, 1e30f, -2.0f, 3.0f, std::numeric_limits<float>::infinity(), 1e-40f, 7.0f};
  for (int round = 0; round < 50; ++round) {
    if (round > 0) std::shuffle(lanes.begin(), lanes.end(), rng);
    // Bits above the 24 of the order must be ignored.
    const std::uint32_t order = pack_order(lanes) | (round % 2 == 0 ? 0u : 0xAB000000u);
    for (unsigned keep = 0; keep < 256; ++keep) {
      const std::vector<int> want = kept_in_order(lanes, keep);
      const LaneSelection8 s = select_lanes(order, keep | (round % 3 == 0 ? 0u : 0xF00u));
      std::uint32_t out32[8], out8[8];
      float outf[8];
      store_selected(s, u32, out32);
      store_selected(s, u8, out8);
      store_selected(s, Float8::load(f), outf);
      float outp[8];
      store_selected(s, f, outp);
      for (std::size_t k = 0; k < want.size(); ++k) {
        ASSERT_EQ(selected_lane(s, static_cast<int>(k)), want[k]) << "round " << round << " keep " << keep;
        ASSERT_EQ(out32[k], u32[want[k]]) << "round " << round << " keep " << keep << " place " << k;
        ASSERT_EQ(out8[k], u8[want[k]]) << "round " << round << " keep " << keep << " place " << k;
        ASSERT_EQ(std::bit_cast<std::uint32_t>(outf[k]), std::bit_cast<std::uint32_t>(f[want[k]]));
        ASSERT_EQ(std::bit_cast<std::uint32_t>(outp[k]), std::bit_cast<std::uint32_t>(f[want[k]]));
      }
    }
  }
}

TEST(LaneSelect, IdentityOrderListsLanesAscending) {
  for (int j = 0; j < 8; ++j) EXPECT_EQ(order_lane(kIdentityOrder8, j), j);
  const std::uint32_t in[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  std::uint32_t out[8];
  store_selected(select_lanes(kIdentityOrder8, 0b10100110u), in, out);
  EXPECT_EQ(out[0], 1u);
  EXPECT_EQ(out[1], 2u);
  EXPECT_EQ(out[2], 5u);
  EXPECT_EQ(out[3], 7u);
}

}  // namespace
}  // namespace hitscan::simd
