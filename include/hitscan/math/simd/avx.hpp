#pragma once
/// AVX backend of Float8 / Mask8: one __m256 per value and per mask. Only AVX (not AVX2)
/// instructions are used, since the float operations need nothing more.
/// Include "hitscan/math/simd.hpp" rather than this file; the semantics are documented there.
///
/// A Mask8 lane is all ones (true) or all zeros (false), the form vcmpps produces; every operation
/// here keeps it that way, which is what lets select() and vmovmskps read it.

#if !defined(__AVX__)
#error "hitscan/math/simd/avx.hpp needs AVX; include hitscan/math/simd.hpp to pick a backend"
#endif

#include <immintrin.h>

#include "hitscan/math/simd/float8_avx.hpp"

namespace hitscan::simd {

struct Mask8 {
  static constexpr int width = 8;

  /// Backend detail: kernels use the operations below, never this register.
  __m256 native;

  /// Every lane false.
  Mask8() : native(_mm256_setzero_ps()) {}
  explicit Mask8(__m256 m) : native(m) {}

  /// Mask from the low 8 bits of b (lane i from bit i); higher bits are ignored.
  static Mask8 from_bits(int b) {
    return Mask8(_mm256_castsi256_ps(_mm256_setr_epi32(-(b & 1), -((b >> 1) & 1), -((b >> 2) & 1),
                                                       -((b >> 3) & 1), -((b >> 4) & 1), -((b >> 5) & 1),
                                                       -((b >> 6) & 1), -((b >> 7) & 1))));
  }
};


// Ordered, quiet predicates (false on NaN), except != which is unordered (true on NaN).
inline Mask8 operator<(Float8 a, Float8 b) { return Mask8(_mm256_cmp_ps(a.native, b.native, _CMP_LT_OQ)); }
inline Mask8 operator<=(Float8 a, Float8 b) { return Mask8(_mm256_cmp_ps(a.native, b.native, _CMP_LE_OQ)); }
inline Mask8 operator>(Float8 a, Float8 b) { return Mask8(_mm256_cmp_ps(a.native, b.native, _CMP_GT_OQ)); }
inline Mask8 operator>=(Float8 a, Float8 b) { return Mask8(_mm256_cmp_ps(a.native, b.native, _CMP_GE_OQ)); }
inline Mask8 operator==(Float8 a, Float8 b) { return Mask8(_mm256_cmp_ps(a.native, b.native, _CMP_EQ_OQ)); }
inline Mask8 operator!=(Float8 a, Float8 b) { return Mask8(_mm256_cmp_ps(a.native, b.native, _CMP_NEQ_UQ)); }

/// Per lane: m ? a : b.
inline Float8 select(Mask8 m, Float8 a, Float8 b) { return Float8(_mm256_blendv_ps(b.native, a.native, m.native)); }

inline Mask8 operator&(Mask8 a, Mask8 b) { return Mask8(_mm256_and_ps(a.native, b.native)); }
inline Mask8 operator|(Mask8 a, Mask8 b) { return Mask8(_mm256_or_ps(a.native, b.native)); }
inline Mask8 operator^(Mask8 a, Mask8 b) { return Mask8(_mm256_xor_ps(a.native, b.native)); }
inline Mask8 operator~(Mask8 a) {
  const __m256 all_ones = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
  return Mask8(_mm256_xor_ps(a.native, all_ones));
}
/// a & ~b (vandnps complements its first operand).
inline Mask8 andnot(Mask8 a, Mask8 b) { return Mask8(_mm256_andnot_ps(b.native, a.native)); }
inline int bits(Mask8 a) { return _mm256_movemask_ps(a.native); }
inline bool any(Mask8 a) { return bits(a) != 0; }
inline bool all(Mask8 a) { return bits(a) == 0xFF; }
inline bool none(Mask8 a) { return bits(a) == 0; }

}  // namespace hitscan::simd
