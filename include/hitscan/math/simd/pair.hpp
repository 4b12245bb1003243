#pragma once
/// Float8 / Mask8 built from two Float4 / Mask4 (lanes 0-3 in `lo`, 4-7 in `hi`), for instruction
/// sets without a native 8-wide float vector (SSE, NEON). Every operation applies the Float4 one to
/// each half, so the semantics are exactly those of the Float4 backend, documented in
/// "hitscan/math/simd.hpp". Include that header rather than this one; it names
/// Float4Pair<Float4, Mask4> Float8 and Mask4Pair<Float4, Mask4> Mask8.
///
/// The operations are hidden friends: found through the argument types, and, being non-templates,
/// they accept a float wherever a Float4Pair is expected (broadcast). select() lives in the mask so
/// that `select(m, 1.0f, 0.0f)` finds it.

namespace hitscan::simd {

template <class F4, class M4>
struct Float4Pair;

template <class F4, class M4>
struct Mask4Pair {
  static constexpr int width = 2 * M4::width;

  /// Backend detail: kernels use the operations below, never the halves. Default: all false.
  M4 lo, hi;

  /// Mask from the low 8 bits of b (lane i from bit i); higher bits are ignored.
  static Mask4Pair from_bits(int b) { return {M4::from_bits(b & 0xF), M4::from_bits((b >> 4) & 0xF)}; }

  friend Mask4Pair operator&(Mask4Pair a, Mask4Pair b) { return {a.lo & b.lo, a.hi & b.hi}; }
  friend Mask4Pair operator|(Mask4Pair a, Mask4Pair b) { return {a.lo | b.lo, a.hi | b.hi}; }
  friend Mask4Pair operator^(Mask4Pair a, Mask4Pair b) { return {a.lo ^ b.lo, a.hi ^ b.hi}; }
  friend Mask4Pair operator~(Mask4Pair a) { return {~a.lo, ~a.hi}; }
  /// a & ~b.
  friend Mask4Pair andnot(Mask4Pair a, Mask4Pair b) { return {andnot(a.lo, b.lo), andnot(a.hi, b.hi)}; }
  friend int bits(Mask4Pair a) { return bits(a.lo) | (bits(a.hi) << 4); }
  friend bool any(Mask4Pair a) { return any(a.lo | a.hi); }
  friend bool all(Mask4Pair a) { return all(a.lo & a.hi); }
  friend bool none(Mask4Pair a) { return none(a.lo | a.hi); }

  /// Per lane: m ? a : b.
  friend Float4Pair<F4, M4> select(Mask4Pair m, Float4Pair<F4, M4> a, Float4Pair<F4, M4> b) {
    Float4Pair<F4, M4> r;
    r.lo = select(m.lo, a.lo, b.lo);
    r.hi = select(m.hi, a.hi, b.hi);
    return r;
  }
};

template <class F4, class M4>
struct Float4Pair {
  static constexpr int width = 2 * F4::width;
  using Mask = Mask4Pair<F4, M4>;

  /// Backend detail: kernels use the operations below, never the halves. Default: all lanes 0.0f.
  F4 lo, hi;

  Float4Pair() = default;
  /// Broadcast: every lane holds s.
  Float4Pair(float s) : lo(s), hi(s) {}  // implicit on purpose: `a * 0.5f` broadcasts
  /// One value per lane, lane 0 first.
  Float4Pair(float l0, float l1, float l2, float l3, float l4, float l5, float l6, float l7)
      : lo(l0, l1, l2, l3), hi(l4, l5, l6, l7) {}

  /// Reads 8 floats from p; p need not be aligned.
  static Float4Pair load(const float* p) { return {F4::load(p), F4::load(p + 4)}; }
  /// Writes 8 floats to p; p need not be aligned.
  void store(float* p) const {
    lo.store(p);
    hi.store(p + 4);
  }
  float operator[](int lane) const { return lane < 4 ? lo[lane] : hi[lane - 4]; }

 private:
  // Private so that `Float8(x, y)` does not compile here while failing on native 8-wide backends.
  Float4Pair(F4 l, F4 h) : lo(l), hi(h) {}

 public:

  friend Float4Pair operator+(Float4Pair a, Float4Pair b) { return {a.lo + b.lo, a.hi + b.hi}; }
  friend Float4Pair operator-(Float4Pair a, Float4Pair b) { return {a.lo - b.lo, a.hi - b.hi}; }
  friend Float4Pair operator*(Float4Pair a, Float4Pair b) { return {a.lo * b.lo, a.hi * b.hi}; }
  friend Float4Pair operator/(Float4Pair a, Float4Pair b) { return {a.lo / b.lo, a.hi / b.hi}; }
  friend Float4Pair operator-(Float4Pair a) { return {-a.lo, -a.hi}; }

  /// a < b ? a : b per lane: a NaN in either operand gives b.
  friend Float4Pair min(Float4Pair a, Float4Pair b) { return {min(a.lo, b.lo), min(a.hi, b.hi)}; }
  /// a > b ? a : b per lane: a NaN in either operand gives b.
  friend Float4Pair max(Float4Pair a, Float4Pair b) { return {max(a.lo, b.lo), max(a.hi, b.hi)}; }
  friend Float4Pair abs(Float4Pair a) { return {abs(a.lo), abs(a.hi)}; }
  friend Float4Pair sqrt(Float4Pair a) { return {sqrt(a.lo), sqrt(a.hi)}; }

  friend Mask operator<(Float4Pair a, Float4Pair b) { return {a.lo < b.lo, a.hi < b.hi}; }
  friend Mask operator<=(Float4Pair a, Float4Pair b) { return {a.lo <= b.lo, a.hi <= b.hi}; }
  friend Mask operator>(Float4Pair a, Float4Pair b) { return {a.lo > b.lo, a.hi > b.hi}; }
  friend Mask operator>=(Float4Pair a, Float4Pair b) { return {a.lo >= b.lo, a.hi >= b.hi}; }
  friend Mask operator==(Float4Pair a, Float4Pair b) { return {a.lo == b.lo, a.hi == b.hi}; }
  friend Mask operator!=(Float4Pair a, Float4Pair b) { return {a.lo != b.lo, a.hi != b.hi}; }

  /// max(...max(max(a[0], a[1]), a[2])..., a[7]): left to right with the max rule.
};

}  // namespace hitscan::simd
