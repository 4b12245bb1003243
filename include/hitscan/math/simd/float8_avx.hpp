#pragma once
/// Float8 on one __m256 register: the values and their arithmetic, shared by the AVX backend
/// (masks in __m256) and the AVX-512 backend (masks in __mmask8), which differ only in masks.
/// Include "hitscan/math/simd.hpp" rather than this file; the semantics are documented there.

#if !defined(__AVX__)
#error "hitscan/math/simd/float8_avx.hpp needs AVX; include hitscan/math/simd.hpp to pick a backend"
#endif

#include <immintrin.h>

namespace hitscan::simd {

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

/// max(...max(max(a[0], a[1]), a[2])..., a[7]): left to right with the max rule.

}  // namespace hitscan::simd
