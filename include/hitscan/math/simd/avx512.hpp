#pragma once
/// AVX-512 backend of Float8 / Mask8: values stay in 256-bit __m256 registers (AVX-512VL), masks
/// are __mmask8 opmask registers, so comparisons write a k-register directly and select is a
/// masked blend. Float8 is 8 lanes by definition, so no 512-bit register is needed.
/// Include "hitscan/math/simd.hpp" rather than this file; the semantics are documented there.

#if !defined(__AVX512F__) || !defined(__AVX512VL__)
#error "hitscan/math/simd/avx512.hpp needs AVX-512F and AVX-512VL; include hitscan/math/simd.hpp"
#endif

#include <immintrin.h>

#include "hitscan/math/simd/float8_avx.hpp"

namespace hitscan::simd {

struct Mask8 {
  static constexpr int width = 8;

  /// Backend detail: kernels use the operations below, never this register. Bit i is lane i.
  __mmask8 native = 0;

  /// Every lane false.
  Mask8() = default;
  explicit Mask8(__mmask8 m) : native(m) {}

  /// Mask from the low 8 bits of b (lane i from bit i); higher bits are ignored.
  static Mask8 from_bits(int b) { return Mask8(static_cast<__mmask8>(b & 0xFF)); }
};


// Ordered, quiet predicates (false on NaN), except != which is unordered (true on NaN).
inline Mask8 operator<(Float8 a, Float8 b) { return Mask8(_mm256_cmp_ps_mask(a.native, b.native, _CMP_LT_OQ)); }
inline Mask8 operator<=(Float8 a, Float8 b) { return Mask8(_mm256_cmp_ps_mask(a.native, b.native, _CMP_LE_OQ)); }
inline Mask8 operator>(Float8 a, Float8 b) { return Mask8(_mm256_cmp_ps_mask(a.native, b.native, _CMP_GT_OQ)); }
inline Mask8 operator>=(Float8 a, Float8 b) { return Mask8(_mm256_cmp_ps_mask(a.native, b.native, _CMP_GE_OQ)); }
inline Mask8 operator==(Float8 a, Float8 b) { return Mask8(_mm256_cmp_ps_mask(a.native, b.native, _CMP_EQ_OQ)); }
inline Mask8 operator!=(Float8 a, Float8 b) { return Mask8(_mm256_cmp_ps_mask(a.native, b.native, _CMP_NEQ_UQ)); }

/// Per lane: m ? a : b (vblendmps takes the second source where the mask bit is set).
inline Float8 select(Mask8 m, Float8 a, Float8 b) { return Float8(_mm256_mask_blend_ps(m.native, b.native, a.native)); }

// Plain integer operations on the 8-bit mask; the compiler keeps them in k-registers when it can.
inline Mask8 operator&(Mask8 a, Mask8 b) { return Mask8(static_cast<__mmask8>(a.native & b.native)); }
inline Mask8 operator|(Mask8 a, Mask8 b) { return Mask8(static_cast<__mmask8>(a.native | b.native)); }
inline Mask8 operator^(Mask8 a, Mask8 b) { return Mask8(static_cast<__mmask8>(a.native ^ b.native)); }
inline Mask8 operator~(Mask8 a) { return Mask8(static_cast<__mmask8>(~a.native & 0xFF)); }
/// a & ~b.
inline Mask8 andnot(Mask8 a, Mask8 b) { return Mask8(static_cast<__mmask8>(a.native & ~b.native & 0xFF)); }
inline int bits(Mask8 a) { return static_cast<int>(a.native); }
inline bool any(Mask8 a) { return a.native != 0; }
inline bool all(Mask8 a) { return a.native == 0xFF; }
inline bool none(Mask8 a) { return a.native == 0; }

}  // namespace hitscan::simd
