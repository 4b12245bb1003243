#pragma once
/// Scalar backend of the SIMD wrapper types: N plain floats and N booleans, one loop per operation.
/// Used for both widths when HITSCAN_SIMD_SCALAR is defined or no vector instruction set is known;
/// include "hitscan/math/simd.hpp", which names ScalarFloat<4> Float4 and so on. The semantics
/// (NaN rule, ordered comparisons, no FMA) are documented there and written out literally here,
/// so this file doubles as the readable definition of what every backend computes.
///
/// The operations are hidden friends: found through the argument types, and, being non-templates,
/// they accept a float wherever a ScalarFloat is expected (broadcast).

#include <cmath>
#include <concepts>

namespace hitscan::simd {

template <int N>
struct ScalarFloat;

/// N booleans, stored as the low N bits of an unsigned (lane i in bit i).
template <int N>
struct ScalarMask {
  static constexpr int width = N;
  static constexpr unsigned kAllLanes = (1u << N) - 1u;

  unsigned lanes = 0;

  /// Mask from the low `width` bits of b (lane i from bit i); higher bits are ignored.
  static ScalarMask from_bits(int b) { return ScalarMask{static_cast<unsigned>(b) & kAllLanes}; }

  friend ScalarMask operator&(ScalarMask a, ScalarMask b) { return {a.lanes & b.lanes}; }
  friend ScalarMask operator|(ScalarMask a, ScalarMask b) { return {a.lanes | b.lanes}; }
  friend ScalarMask operator^(ScalarMask a, ScalarMask b) { return {a.lanes ^ b.lanes}; }
  friend ScalarMask operator~(ScalarMask a) { return {~a.lanes & kAllLanes}; }
  /// a & ~b.
  friend ScalarMask andnot(ScalarMask a, ScalarMask b) { return {a.lanes & ~b.lanes}; }
  friend bool any(ScalarMask a) { return a.lanes != 0; }
  friend bool all(ScalarMask a) { return a.lanes == kAllLanes; }
  friend bool none(ScalarMask a) { return a.lanes == 0; }
  friend int bits(ScalarMask a) { return static_cast<int>(a.lanes); }

  /// Per lane: m ? a : b.
  friend ScalarFloat<N> select(ScalarMask m, ScalarFloat<N> a, ScalarFloat<N> b) {
    ScalarFloat<N> r;
    for (int i = 0; i < N; ++i) r.lane[i] = (m.lanes >> i) & 1u ? a.lane[i] : b.lane[i];
    return r;
  }
};

template <int N>
struct ScalarFloat {
  static constexpr int width = N;

  float lane[N] = {};

  /// All lanes 0.0f.
  ScalarFloat() = default;
  /// Broadcast: every lane holds s.
  ScalarFloat(float s) {  // implicit on purpose: `a * 0.5f` broadcasts
    for (int i = 0; i < N; ++i) lane[i] = s;
  }
  /// One value per lane, lane 0 first.
  template <std::convertible_to<float>... T>
    requires(N > 1 && sizeof...(T) == N)
  ScalarFloat(T... lanes) : lane{static_cast<float>(lanes)...} {}

  /// Reads N floats from p; p need not be aligned.
  static ScalarFloat load(const float* p) {
    ScalarFloat r;
    for (int i = 0; i < N; ++i) r.lane[i] = p[i];
    return r;
  }
  /// Writes N floats to p; p need not be aligned.
  void store(float* p) const {
    for (int i = 0; i < N; ++i) p[i] = lane[i];
  }
  float operator[](int i) const { return lane[i]; }

  friend ScalarFloat operator+(ScalarFloat a, ScalarFloat b) { return map(a, b, [](float x, float y) { return x + y; }); }
  friend ScalarFloat operator-(ScalarFloat a, ScalarFloat b) { return map(a, b, [](float x, float y) { return x - y; }); }
  friend ScalarFloat operator*(ScalarFloat a, ScalarFloat b) { return map(a, b, [](float x, float y) { return x * y; }); }
  friend ScalarFloat operator/(ScalarFloat a, ScalarFloat b) { return map(a, b, [](float x, float y) { return x / y; }); }
  friend ScalarFloat operator-(ScalarFloat a) { return map(a, a, [](float x, float) { return -x; }); }

  /// a < b ? a : b per lane: a NaN in either operand gives b.
  friend ScalarFloat min(ScalarFloat a, ScalarFloat b) { return map(a, b, [](float x, float y) { return x < y ? x : y; }); }
  /// a > b ? a : b per lane: a NaN in either operand gives b.
  friend ScalarFloat max(ScalarFloat a, ScalarFloat b) { return map(a, b, [](float x, float y) { return x > y ? x : y; }); }
  friend ScalarFloat abs(ScalarFloat a) { return map(a, a, [](float x, float) { return std::fabs(x); }); }
  friend ScalarFloat sqrt(ScalarFloat a) { return map(a, a, [](float x, float) { return std::sqrt(x); }); }
  /// The first three lanes rotated, the others kept (N >= 3): yzx(a) = (a1, a2, a0, a3...),
  /// zxy(a) = (a2, a0, a1, a3...). With a 3-vector in lanes 0 to 2 they give the operands of its
  /// cross products.
  friend ScalarFloat yzx(ScalarFloat a) {
    ScalarFloat r = a;
    r.lane[0] = a.lane[1], r.lane[1] = a.lane[2], r.lane[2] = a.lane[0];
    return r;
  }
  friend ScalarFloat zxy(ScalarFloat a) {
    ScalarFloat r = a;
    r.lane[0] = a.lane[2], r.lane[1] = a.lane[0], r.lane[2] = a.lane[1];
    return r;
  }

  friend ScalarMask<N> operator<(ScalarFloat a, ScalarFloat b) { return test(a, b, [](float x, float y) { return x < y; }); }
  friend ScalarMask<N> operator<=(ScalarFloat a, ScalarFloat b) { return test(a, b, [](float x, float y) { return x <= y; }); }
  friend ScalarMask<N> operator>(ScalarFloat a, ScalarFloat b) { return test(a, b, [](float x, float y) { return x > y; }); }
  friend ScalarMask<N> operator>=(ScalarFloat a, ScalarFloat b) { return test(a, b, [](float x, float y) { return x >= y; }); }
  friend ScalarMask<N> operator==(ScalarFloat a, ScalarFloat b) { return test(a, b, [](float x, float y) { return x == y; }); }
  friend ScalarMask<N> operator!=(ScalarFloat a, ScalarFloat b) { return test(a, b, [](float x, float y) { return x != y; }); }

  /// max(max(max(a[0], a[1]), a[2]), ...), folded left to right with the max rule above.

 private:
  template <class Op>
  static ScalarFloat map(ScalarFloat a, ScalarFloat b, Op op) {
    ScalarFloat r;
    for (int i = 0; i < N; ++i) r.lane[i] = op(a.lane[i], b.lane[i]);
    return r;
  }
  template <class Op>
  static ScalarMask<N> test(ScalarFloat a, ScalarFloat b, Op op) {
    ScalarMask<N> r;
    for (int i = 0; i < N; ++i) r.lanes |= static_cast<unsigned>(op(a.lane[i], b.lane[i])) << i;
    return r;
  }
};

}  // namespace hitscan::simd
