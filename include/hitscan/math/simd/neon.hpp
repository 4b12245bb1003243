#pragma once
/// NEON backend of Float4 / Mask4 for AArch64 (float32x4_t values, uint32x4_t masks). Float8 is
/// a pair of these (pair.hpp). Include "hitscan/math/simd.hpp" rather than this file; the
/// semantics are documented there.
///
/// AArch64 only: vector divide, square root and the across-lane reductions used by bits/any/all
/// are A64 instructions, and 32-bit NEON flushes denormals to zero, which would break agreement
/// with the scalar reference. AArch64 NEON arithmetic is IEEE with denormals kept (FPCR.FZ = 0 is
/// the default).
///
/// A Mask4 lane is all ones (true) or all zeros (false), the form vcltq_f32 and friends produce;
/// every operation here keeps it that way, which is what lets vbslq_f32 act as a per-lane select.

#if !defined(__ARM_NEON) || !defined(__aarch64__)
#error "hitscan/math/simd/neon.hpp needs AArch64 NEON; include hitscan/math/simd.hpp to pick a backend"
#endif

#include <arm_neon.h>

#include <cstdint>

namespace hitscan::simd {

namespace detail {
/// Lane i holds 1 << i: the weight of lane i in bits().
inline uint32x4_t lane_weights() {
  const std::uint32_t w[4] = {1u, 2u, 4u, 8u};
  return vld1q_u32(w);
}
}  // namespace detail

struct Mask4 {
  static constexpr int width = 4;

  /// Backend detail: kernels use the operations below, never this register.
  uint32x4_t native;

  /// Every lane false.
  Mask4() : native(vdupq_n_u32(0u)) {}
  explicit Mask4(uint32x4_t m) : native(m) {}

  /// Mask from the low 4 bits of b (lane i from bit i); higher bits are ignored.
  static Mask4 from_bits(int b) {
    return Mask4(vtstq_u32(vdupq_n_u32(static_cast<std::uint32_t>(b)), detail::lane_weights()));
  }
};

struct Float4 {
  static constexpr int width = 4;

  /// Backend detail: kernels use the operations below, never this register.
  float32x4_t native;

  /// All lanes 0.0f.
  Float4() : native(vdupq_n_f32(0.0f)) {}
  /// Broadcast: every lane holds s.
  Float4(float s) : native(vdupq_n_f32(s)) {}  // implicit on purpose: `a * 0.5f` broadcasts
  /// One value per lane, lane 0 first.
  Float4(float l0, float l1, float l2, float l3) {
    const float l[4] = {l0, l1, l2, l3};
    native = vld1q_f32(l);
  }
  explicit Float4(float32x4_t v) : native(v) {}

  /// Reads 4 floats from p; p need not be aligned (ld1 has no alignment requirement).
  static Float4 load(const float* p) { return Float4(vld1q_f32(p)); }
  /// Writes 4 floats to p; p need not be aligned.
  void store(float* p) const { vst1q_f32(p, native); }
  float operator[](int lane) const {
    float l[4];
    store(l);
    return l[lane];
  }
};

inline Float4 operator+(Float4 a, Float4 b) { return Float4(vaddq_f32(a.native, b.native)); }
inline Float4 operator-(Float4 a, Float4 b) { return Float4(vsubq_f32(a.native, b.native)); }
inline Float4 operator*(Float4 a, Float4 b) { return Float4(vmulq_f32(a.native, b.native)); }
inline Float4 operator/(Float4 a, Float4 b) { return Float4(vdivq_f32(a.native, b.native)); }
/// fneg flips the sign bit only, so -0 and NaN behave like scalar negation.
inline Float4 operator-(Float4 a) { return Float4(vnegq_f32(a.native)); }

// vminq_f32 / vmaxq_f32 return NaN when either operand is NaN, and vminnmq_f32 returns the number;
// neither is the documented rule (second operand on NaN), so min and max are compare + select.
/// a < b ? a : b per lane.
inline Float4 min(Float4 a, Float4 b) { return Float4(vbslq_f32(vcltq_f32(a.native, b.native), a.native, b.native)); }
/// a > b ? a : b per lane.
inline Float4 max(Float4 a, Float4 b) { return Float4(vbslq_f32(vcgtq_f32(a.native, b.native), a.native, b.native)); }
/// fabs clears the sign bit only.
inline Float4 abs(Float4 a) { return Float4(vabsq_f32(a.native)); }
inline Float4 sqrt(Float4 a) { return Float4(vsqrtq_f32(a.native)); }
/// The first three lanes rotated, the fourth kept: yzx(a) = (a1, a2, a0, a3), zxy(a) = (a2, a0,
/// a1, a3). With a 3-vector in lanes 0 to 2 they give the operands of its cross products.
inline Float4 yzx(Float4 a) {
  float l[4];
  a.store(l);
  return Float4(l[1], l[2], l[0], l[3]);
}
inline Float4 zxy(Float4 a) {
  float l[4];
  a.store(l);
  return Float4(l[2], l[0], l[1], l[3]);
}

// fcmgt / fcmge / fcmeq are false when either operand is NaN; != is the complement of ==.
inline Mask4 operator<(Float4 a, Float4 b) { return Mask4(vcltq_f32(a.native, b.native)); }
inline Mask4 operator<=(Float4 a, Float4 b) { return Mask4(vcleq_f32(a.native, b.native)); }
inline Mask4 operator>(Float4 a, Float4 b) { return Mask4(vcgtq_f32(a.native, b.native)); }
inline Mask4 operator>=(Float4 a, Float4 b) { return Mask4(vcgeq_f32(a.native, b.native)); }
inline Mask4 operator==(Float4 a, Float4 b) { return Mask4(vceqq_f32(a.native, b.native)); }
inline Mask4 operator!=(Float4 a, Float4 b) { return Mask4(vmvnq_u32(vceqq_f32(a.native, b.native))); }

/// Per lane: m ? a : b (bsl takes bits from a where the mask is set).
inline Float4 select(Mask4 m, Float4 a, Float4 b) { return Float4(vbslq_f32(m.native, a.native, b.native)); }

inline Mask4 operator&(Mask4 a, Mask4 b) { return Mask4(vandq_u32(a.native, b.native)); }
inline Mask4 operator|(Mask4 a, Mask4 b) { return Mask4(vorrq_u32(a.native, b.native)); }
inline Mask4 operator^(Mask4 a, Mask4 b) { return Mask4(veorq_u32(a.native, b.native)); }
inline Mask4 operator~(Mask4 a) { return Mask4(vmvnq_u32(a.native)); }
/// a & ~b (bic).
inline Mask4 andnot(Mask4 a, Mask4 b) { return Mask4(vbicq_u32(a.native, b.native)); }
inline int bits(Mask4 a) { return static_cast<int>(vaddvq_u32(vandq_u32(a.native, detail::lane_weights()))); }
inline bool any(Mask4 a) { return vmaxvq_u32(a.native) != 0u; }
inline bool all(Mask4 a) { return vminvq_u32(a.native) != 0u; }
inline bool none(Mask4 a) { return vmaxvq_u32(a.native) == 0u; }

/// max(max(max(a[0], a[1]), a[2]), a[3]): left to right with the max rule.

}  // namespace hitscan::simd
