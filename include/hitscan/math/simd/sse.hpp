#pragma once
/// SSE backend of Float4 / Mask4 (SSE2 baseline; select uses blendvps when SSE4.1 is enabled).
/// Include "hitscan/math/simd.hpp" rather than this file; the semantics are documented there.
///
/// A Mask4 lane is all ones (true) or all zeros (false), the form the cmpps instructions produce;
/// every operation here keeps it that way, which is what lets select() and movmskps read it.

#if !defined(__SSE2__)
#error "hitscan/math/simd/sse.hpp needs SSE2; include hitscan/math/simd.hpp to pick a backend"
#endif

#include <emmintrin.h>
#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

namespace hitscan::simd {

struct Mask4 {
  static constexpr int width = 4;

  /// Backend detail: kernels use the operations below, never this register.
  __m128 native;

  /// Every lane false.
  Mask4() : native(_mm_setzero_ps()) {}
  explicit Mask4(__m128 m) : native(m) {}

  /// Mask from the low 4 bits of b (lane i from bit i); higher bits are ignored.
  static Mask4 from_bits(int b) {
    return Mask4(_mm_castsi128_ps(_mm_setr_epi32(-(b & 1), -((b >> 1) & 1), -((b >> 2) & 1), -((b >> 3) & 1))));
  }
};

struct Float4 {
  static constexpr int width = 4;

  /// Backend detail: kernels use the operations below, never this register.
  __m128 native;

  /// All lanes 0.0f.
  Float4() : native(_mm_setzero_ps()) {}
  /// Broadcast: every lane holds s.
  Float4(float s) : native(_mm_set1_ps(s)) {}  // implicit on purpose: `a * 0.5f` broadcasts
  /// One value per lane, lane 0 first.
  Float4(float l0, float l1, float l2, float l3) : native(_mm_setr_ps(l0, l1, l2, l3)) {}
  explicit Float4(__m128 v) : native(v) {}

  /// Reads 4 floats from p; p need not be aligned.
  static Float4 load(const float* p) { return Float4(_mm_loadu_ps(p)); }
  /// Writes 4 floats to p; p need not be aligned.
  void store(float* p) const { _mm_storeu_ps(p, native); }
  float operator[](int lane) const {
    float l[4];
    store(l);
    return l[lane];
  }
};

inline Float4 operator+(Float4 a, Float4 b) { return Float4(_mm_add_ps(a.native, b.native)); }
inline Float4 operator-(Float4 a, Float4 b) { return Float4(_mm_sub_ps(a.native, b.native)); }
inline Float4 operator*(Float4 a, Float4 b) { return Float4(_mm_mul_ps(a.native, b.native)); }
inline Float4 operator/(Float4 a, Float4 b) { return Float4(_mm_div_ps(a.native, b.native)); }
/// Flips the sign bit only, so -0 and NaN behave like scalar negation.
inline Float4 operator-(Float4 a) { return Float4(_mm_xor_ps(a.native, _mm_set1_ps(-0.0f))); }

/// a < b ? a : b per lane. minps returns its second operand when either is NaN or both are zero,
/// which is exactly the documented rule.
inline Float4 min(Float4 a, Float4 b) { return Float4(_mm_min_ps(a.native, b.native)); }
/// a > b ? a : b per lane (maxps, same NaN rule as min).
inline Float4 max(Float4 a, Float4 b) { return Float4(_mm_max_ps(a.native, b.native)); }
/// Clears the sign bit only.
inline Float4 abs(Float4 a) { return Float4(_mm_andnot_ps(_mm_set1_ps(-0.0f), a.native)); }
inline Float4 sqrt(Float4 a) { return Float4(_mm_sqrt_ps(a.native)); }
/// The first three lanes rotated, the fourth kept: yzx(a) = (a1, a2, a0, a3), zxy(a) = (a2, a0,
/// a1, a3). With a 3-vector in lanes 0 to 2 they give the operands of its cross products.
inline Float4 yzx(Float4 a) { return Float4(_mm_shuffle_ps(a.native, a.native, _MM_SHUFFLE(3, 0, 2, 1))); }
inline Float4 zxy(Float4 a) { return Float4(_mm_shuffle_ps(a.native, a.native, _MM_SHUFFLE(3, 1, 0, 2))); }

// cmpps: lt, le, gt, ge and eq are ordered predicates (false on NaN); neq is "unordered or not
// equal" (true on NaN). Floating-point exceptions stay masked, so the signalling forms never trap.
inline Mask4 operator<(Float4 a, Float4 b) { return Mask4(_mm_cmplt_ps(a.native, b.native)); }
inline Mask4 operator<=(Float4 a, Float4 b) { return Mask4(_mm_cmple_ps(a.native, b.native)); }
inline Mask4 operator>(Float4 a, Float4 b) { return Mask4(_mm_cmpgt_ps(a.native, b.native)); }
inline Mask4 operator>=(Float4 a, Float4 b) { return Mask4(_mm_cmpge_ps(a.native, b.native)); }
inline Mask4 operator==(Float4 a, Float4 b) { return Mask4(_mm_cmpeq_ps(a.native, b.native)); }
inline Mask4 operator!=(Float4 a, Float4 b) { return Mask4(_mm_cmpneq_ps(a.native, b.native)); }

/// Per lane: m ? a : b.
inline Float4 select(Mask4 m, Float4 a, Float4 b) {
#if defined(__SSE4_1__)
  return Float4(_mm_blendv_ps(b.native, a.native, m.native));
#else
  return Float4(_mm_or_ps(_mm_and_ps(m.native, a.native), _mm_andnot_ps(m.native, b.native)));
#endif
}

inline Mask4 operator&(Mask4 a, Mask4 b) { return Mask4(_mm_and_ps(a.native, b.native)); }
inline Mask4 operator|(Mask4 a, Mask4 b) { return Mask4(_mm_or_ps(a.native, b.native)); }
inline Mask4 operator^(Mask4 a, Mask4 b) { return Mask4(_mm_xor_ps(a.native, b.native)); }
inline Mask4 operator~(Mask4 a) {
  const __m128 all_ones = _mm_castsi128_ps(_mm_set1_epi32(-1));
  return Mask4(_mm_xor_ps(a.native, all_ones));
}
/// a & ~b (andnps complements its first operand).
inline Mask4 andnot(Mask4 a, Mask4 b) { return Mask4(_mm_andnot_ps(b.native, a.native)); }
inline int bits(Mask4 a) { return _mm_movemask_ps(a.native); }
inline bool any(Mask4 a) { return bits(a) != 0; }
inline bool all(Mask4 a) { return bits(a) == 0xF; }
inline bool none(Mask4 a) { return bits(a) == 0; }

/// max(max(max(a[0], a[1]), a[2]), a[3]): left to right with the max rule.

}  // namespace hitscan::simd
