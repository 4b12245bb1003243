#pragma once
/// SIMD wrapper types: Float4 / Mask4 (4 lanes) and Float8 / Mask8 (8 lanes) in hitscan::simd.
///
/// Kernels are written against these types, never against raw intrinsics, so that one kernel
/// compiles to SSE, AVX, AVX-512, NEON or plain scalar code and gives bit-identical results on
/// each. This is the only SIMD header users include; it picks one backend per width from what the
/// compiler targets:
///
/// | condition                                      | Float4 / Mask4   | Float8 / Mask8                |
/// | ---------------------------------------------- | ---------------- | ----------------------------- |
/// | `HITSCAN_SIMD_SCALAR` (CMake HITSCAN_SIMD=OFF) | scalar           | scalar                        |
/// | `__AVX512F__` and `__AVX512VL__`               | SSE (__m128)     | __m256 values, __mmask8 masks |
/// | `__AVX2__` or `__AVX__`                        | SSE (__m128)     | __m256 values, __m256 masks   |
/// | `__SSE4_1__` or `__SSE2__`                     | SSE (__m128)     | pair of Float4                |
/// | `__ARM_NEON` on AArch64                        | NEON float32x4_t | pair of Float4                |
/// | anything else                                  | scalar           | scalar                        |
///
/// 32-bit ARM NEON is not used: it lacks vector divide and square root, and it flushes denormals
/// to zero, which would break bit-for-bit agreement with the scalar reference.
///
/// Semantics every backend shares (tests/math/simd_test.cpp pins them lane by lane):
///
/// - **min / max and NaN.** `min(a, b)` is `a < b ? a : b` per lane and `max(a, b)` is
///   `a > b ? a : b`. When either operand is NaN, or both are zeros of either sign, the result is
///   the SECOND operand. This is what x86 minps/maxps do; NEON's vminq/vmaxq propagate NaN, so the
///   NEON backend emulates the rule with compare + select. Kernels rely on it to drop NaNs by
///   operand order: `min(t, t_best)` keeps `t_best` when `t` is NaN (a slab test on an axis-parallel
///   ray produces 0 * inf = NaN).
/// - **Comparisons** are IEEE ordered: any comparison with a NaN is false, except `!=`, which is
///   true.
/// - **Arithmetic** `+ - * /` and `sqrt` are correctly rounded IEEE single precision; `-a` and
///   `abs(a)` only touch the sign bit (also of NaN). Denormals are kept, never flushed.
/// - **No fused multiply-add.** No backend emits one; `a * b + c` rounds twice. The wrappers alone
///   cannot promise it: once inlined, clang fuses vector multiply and add under
///   -ffp-contract=fast. The project builds with -ffp-contract=off (the watertight triangle test
///   depends on it) and the test MultiplyThenAddRoundsTwice fails in a build that fuses.
/// - **Default construction** gives all lanes 0.0f and masks with every lane false.
/// - **Broadcast**: a float converts implicitly to FloatN (all lanes), so `a * 0.5f`,
///   `min(t, 0.0f)` and `select(m, 1.0f, 0.0f)` work.
/// - **load / store** take any float pointer; no alignment is required.
/// - **Masks** hold one boolean per lane. `bits(m)` puts lane i in bit i; `MaskN::from_bits(b)`
///   reads the low `width` bits of b and ignores the rest.
/// - **Reductions** fold left to right with the min / max rule above:
///   `reduce_min(v) == min(min(min(v[0], v[1]), v[2]), v[3])`. So a NaN lane discards the lanes
///   before it: the result is the minimum of the lanes after the last NaN lane, and NaN exactly
///   when the last lane is NaN. Without NaN lanes it is the plain minimum (of two equal zeros, the
///   later lane). Reductions are meant for the end of a loop, not its body.
/// - `operator[]` reads one lane and is meant for tests and debugging; it may go through memory.
///
/// API (identical in every backend; N is 4 or 8; F = FloatN, M = MaskN):
///   F::width, M::width                     // N
///   F(), F(float), F(float x N lanes)      // zero, broadcast, lane 0 first
///   static F F::load(const float*); void F::store(float*) const; float F::operator[](int) const
///   F + F, F - F, F * F, F / F, -F
///   min(F, F), max(F, F), abs(F), sqrt(F), select(M, F, F)
///   F < F, F <= F, F > F, F >= F, F == F, F != F   -> M
///   M & M, M | M, M ^ M, ~M, andnot(M a, M b) == a & ~b
///   any(M), all(M), none(M), int bits(M), static M M::from_bits(int), M() (all false)
///   float reduce_min(F), float reduce_max(F)
///   select_lanes(order, keep), store_selected(selection, in, out)   // lane_select.hpp
///   HITSCAN_SIMD_ISA, kSimdIsa               // "scalar", "sse2", "sse4.1", "avx", "avx2", ...

#if defined(HITSCAN_SIMD_SCALAR)
#define HITSCAN_SIMD_ISA "scalar"
#include "hitscan/math/simd/scalar.hpp"
namespace hitscan::simd {
using Float4 = ScalarFloat<4>;
using Mask4 = ScalarMask<4>;
using Float8 = ScalarFloat<8>;
using Mask8 = ScalarMask<8>;
}  // namespace hitscan::simd

#elif defined(__AVX512F__) && defined(__AVX512VL__)
#define HITSCAN_SIMD_ISA "avx512"
#include "hitscan/math/simd/sse.hpp"
#include "hitscan/math/simd/avx512.hpp"

#elif defined(__AVX__)
#if defined(__AVX2__)
#define HITSCAN_SIMD_ISA "avx2"
#else
#define HITSCAN_SIMD_ISA "avx"
#endif
#include "hitscan/math/simd/sse.hpp"
#include "hitscan/math/simd/avx.hpp"

#elif defined(__SSE2__) || defined(__SSE4_1__)
#if defined(__SSE4_1__)
#define HITSCAN_SIMD_ISA "sse4.1"
#else
#define HITSCAN_SIMD_ISA "sse2"
#endif
#include "hitscan/math/simd/sse.hpp"
#include "hitscan/math/simd/pair.hpp"
namespace hitscan::simd {
using Float8 = Float4Pair<Float4, Mask4>;
using Mask8 = Mask4Pair<Float4, Mask4>;
}  // namespace hitscan::simd

#elif defined(__ARM_NEON) && defined(__aarch64__)
#define HITSCAN_SIMD_ISA "neon"
#include "hitscan/math/simd/neon.hpp"
#include "hitscan/math/simd/pair.hpp"
namespace hitscan::simd {
using Float8 = Float4Pair<Float4, Mask4>;
using Mask8 = Mask4Pair<Float4, Mask4>;
}  // namespace hitscan::simd

#else
#define HITSCAN_SIMD_ISA "scalar"
#include "hitscan/math/simd/scalar.hpp"
namespace hitscan::simd {
using Float4 = ScalarFloat<4>;
using Mask4 = ScalarMask<4>;
using Float8 = ScalarFloat<8>;
using Mask8 = ScalarMask<8>;
}  // namespace hitscan::simd
#endif

#include "hitscan/math/simd/reduce.hpp"
#include "hitscan/math/simd/lane_select.hpp"

namespace hitscan::simd {

/// Name of the instruction set the wrapper types compiled to: "scalar", "sse2", "sse4.1", "avx",
/// "avx2", "avx512" or "neon", for benchmarks and tools to print beside their results.
inline constexpr const char* kSimdIsa = HITSCAN_SIMD_ISA;

static_assert(Float4::width == 4 && Mask4::width == 4, "Float4 / Mask4 must have 4 lanes");
static_assert(Float8::width == 8 && Mask8::width == 8, "Float8 / Mask8 must have 8 lanes");

}  // namespace hitscan::simd
