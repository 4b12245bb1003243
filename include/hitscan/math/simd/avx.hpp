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

struct Float8 {
  static constexpr int width = 8;

  /// Backend detail: kernels use the operations below, never this register.
  __m256 native;

  /// All lanes 0.0f.
  Float8() : native(_mm256_setzero_ps()) {}
  /// Broadcast: every lane holds s.
  Float8(float s) : native(_mm256_set1_ps(s)) {}  // implicit on purpose: `a * 0.5f` broadcasts
  /// One value per lane, lane 0 first.
  Float8(float l0, float l1, float l2, float l3, float l4, float l5, float l6, float l7)
      : native(_mm256_setr_ps(l0, l1, l2, l3, l4, l5, l6, l7)) {}
  explicit Float8(__m256 v) : native(v) {}

  /// Reads 8 floats from p; p need not be aligned.
  static Float8 load(const float* p) { return Float8(_mm256_loadu_ps(p)); }
  /// Writes 8 floats to p; p need not be aligned.
  void store(float* p) const { _mm256_storeu_ps(p, native); }
  float operator[](int lane) const {
    float l[8];
    store(l);
    return l[lane];
  }
};

inline Float8 operator+(Float8 a, Float8 b) { return Float8(_mm256_add_ps(a.native, b.native)); }
inline Float8 operator-(Float8 a, Float8 b) { return Float8(_mm256_sub_ps(a.native, b.native)); }
inline Float8 operator*(Float8 a, Float8 b) { return Float8(_mm256_mul_ps(a.native, b.native)); }
inline Float8 operator/(Float8 a, Float8 b) { return Float8(_mm256_div_ps(a.native, b.native)); }
/// Flips the sign bit only, so -0 and NaN behave like scalar negation.
inline Float8 operator-(Float8 a) { return Float8(_mm256_xor_ps(a.native, _mm256_set1_ps(-0.0f))); }

/// a < b ? a : b per lane. vminps returns its second operand when either is NaN or both are zero,
/// which is exactly the documented rule.
inline Float8 min(Float8 a, Float8 b) { return Float8(_mm256_min_ps(a.native, b.native)); }
/// a > b ? a : b per lane (vmaxps, same NaN rule as min).
inline Float8 max(Float8 a, Float8 b) { return Float8(_mm256_max_ps(a.native, b.native)); }
/// Clears the sign bit only.
inline Float8 abs(Float8 a) { return Float8(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), a.native)); }
inline Float8 sqrt(Float8 a) { return Float8(_mm256_sqrt_ps(a.native)); }

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

/// min(...min(min(a[0], a[1]), a[2])..., a[7]): left to right with the min rule.
inline float reduce_min(Float8 a) {
  float l[8];
  a.store(l);
  float r = l[0];
  for (int i = 1; i < 8; ++i) r = r < l[i] ? r : l[i];
  return r;
}
/// max(...max(max(a[0], a[1]), a[2])..., a[7]): left to right with the max rule.
inline float reduce_max(Float8 a) {
  float l[8];
  a.store(l);
  float r = l[0];
  for (int i = 1; i < 8; ++i) r = r > l[i] ? r : l[i];
  return r;
}

}  // namespace hitscan::simd
