#pragma once
/// Choosing and ordering lanes of 8-lane values: `select_lanes(order, keep)` lists the lanes of
/// `keep` in the order that `order` gives them, and `store_selected` writes those lanes' values
/// side by side. A tree walk puts a node's hit children on its stack this way, in an order fixed
/// beforehand, with one vector permute and store per field instead of a loop over the children.
/// Include "hitscan/math/simd.hpp" rather than this file.
///
/// An order packs 8 lane indices 3 bits each: the j-th lane of the order in bits 3j..3j+2; bits
/// from 24 up are ignored. Every backend gives the same result; AVX2 permutes in registers
/// (AVX-512 compresses with vpcompressd), the others loop over the lanes.

#include <array>
#include <bit>
#include <cstdint>

#if !defined(HITSCAN_SIMD_SCALAR) && defined(__AVX2__)
#include <immintrin.h>
#define HITSCAN_LANE_SELECT_AVX2 1
#endif

namespace hitscan::simd {

/// The order 0, 1, ..., 7.
inline constexpr std::uint32_t kIdentityOrder8 = [] {
  std::uint32_t order = 0;
  for (std::uint32_t j = 0; j < 8; ++j) order |= j << (3 * j);
  return order;
}();

/// Lane j of an order.
constexpr int order_lane(std::uint32_t order, int j) { return static_cast<int>((order >> (3 * j)) & 7u); }

#if defined(HITSCAN_LANE_SELECT_AVX2)

/// The kept lanes in order, as a permutation of 8 lanes (the first popcount(keep) are the kept
/// lanes; the rest are unspecified).
struct LaneSelection8 {
  /// Backend detail.
  __m256i index;
};

namespace detail {
inline __m256i order_shifts() { return _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21); }
#if !defined(__AVX512VL__)
// For each 8-bit mask, the positions of its set bits, lowest first, packed as an order.
inline constexpr auto kCompressOrders = [] {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t mask = 0; mask < 256; ++mask) {
    std::uint32_t j = 0;
    for (std::uint32_t lane = 0; lane < 8; ++lane) {
      if ((mask >> lane) & 1u) table[mask] |= lane << (3 * j++);
    }
  }
  return table;
}();
#endif
}  // namespace detail

inline LaneSelection8 select_lanes(std::uint32_t order, unsigned keep) {
  const __m256i shifts = detail::order_shifts();
  const __m256i lanes = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32(static_cast<int>(order)), shifts),
                                         _mm256_set1_epi32(7));
  // Bit 0 of each is whether the lane at that place of the order is kept.
  const __m256i kept = _mm256_srlv_epi32(_mm256_set1_epi32(static_cast<int>(keep)), lanes);
#if defined(__AVX512VL__)
  return {_mm256_maskz_compress_epi32(_mm256_test_epi32_mask(kept, _mm256_set1_epi32(1)), lanes)};
#else
  const int places = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_slli_epi32(kept, 31)));
  const __m256i compress = _mm256_srlv_epi32(
      _mm256_set1_epi32(static_cast<int>(detail::kCompressOrders[static_cast<unsigned>(places)])), shifts);
  return {_mm256_permutevar8x32_epi32(lanes, compress)};
#endif
}

/// The lane at place k of the selection (k below popcount(keep)).
inline int selected_lane(const LaneSelection8& s, int k) {
  return _mm256_cvtsi256_si32(_mm256_permutevar8x32_epi32(s.index, _mm256_set1_epi32(k)));
}

/// out[k] = in[lane k of the selection] for k < 8 (out needs room for 8; only the first
/// popcount(keep) are meaningful).
inline void store_selected(const LaneSelection8& s, const std::uint32_t* in, std::uint32_t* out) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_permutevar8x32_epi32(v, s.index));
}
inline void store_selected(const LaneSelection8& s, const std::uint8_t* in, std::uint32_t* out) {
  const __m256i v = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(in)));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_permutevar8x32_epi32(v, s.index));
}
inline void store_selected(const LaneSelection8& s, const float* in, float* out) {
  _mm256_storeu_ps(out, _mm256_permutevar8x32_ps(_mm256_loadu_ps(in), s.index));
}
inline void store_selected(const LaneSelection8& s, Float8 in, float* out) {
  _mm256_storeu_ps(out, _mm256_permutevar8x32_ps(in.native, s.index));
}

#else

struct LaneSelection8 {
  /// Backend detail.
  std::uint8_t lane[8];
  int count;
};

inline LaneSelection8 select_lanes(std::uint32_t order, unsigned keep) {
  LaneSelection8 s{};
  for (int j = 0; j < 8; ++j) {
    const int lane = order_lane(order, j);
    if ((keep >> lane) & 1u) s.lane[s.count++] = static_cast<std::uint8_t>(lane);
  }
  return s;
}

inline int selected_lane(const LaneSelection8& s, int k) { return s.lane[k]; }

inline void store_selected(const LaneSelection8& s, const std::uint32_t* in, std::uint32_t* out) {
  for (int k = 0; k < s.count; ++k) out[k] = in[s.lane[k]];
}
inline void store_selected(const LaneSelection8& s, const std::uint8_t* in, std::uint32_t* out) {
  for (int k = 0; k < s.count; ++k) out[k] = in[s.lane[k]];
}
inline void store_selected(const LaneSelection8& s, const float* in, float* out) {
  for (int k = 0; k < s.count; ++k) out[k] = in[s.lane[k]];
}
inline void store_selected(const LaneSelection8& s, Float8 in, float* out) {
  alignas(32) float lanes[8];
  in.store(lanes);
  store_selected(s, lanes, out);
}

#endif

}  // namespace hitscan::simd
