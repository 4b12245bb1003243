// The SIMD wrapper types against plain scalar float code, lane by lane, on seeded random input
// that over-represents NaN, infinities, signed zeros and denormals. Whatever backend this build
// selected (see kSimdIsa), every result must match the scalar expression bit for bit; the only
// slack is that two NaNs produced by arithmetic count as equal whatever their payloads.
//
// The tests live outside namespace hitscan::simd on purpose: kernels call min, select, bits, ...
// unqualified from other namespaces, so the functions must be reachable through the argument types.

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>

#include "hitscan/math/simd.hpp"

namespace {

using hitscan::simd::Float4;
using hitscan::simd::Float8;

constexpr int kVectorCount = 20000;  // random vectors per operation and width
constexpr std::uint32_t kSeed = 0x5EED5;

template <class F>
using MaskOf = decltype(std::declval<F>() < std::declval<F>());
template <class F>
using Lanes = std::array<float, F::width>;

std::uint32_t bits_of(float x) { return std::bit_cast<std::uint32_t>(x); }
float float_from_bits(std::uint32_t b) { return std::bit_cast<float>(b); }

/// Same bit pattern: tells +0 from -0 and one NaN from another.
bool same_bits(float a, float b) { return bits_of(a) == bits_of(b); }
/// Same bits, or both NaN: the payload of a NaN made by arithmetic is not part of the contract.
bool same_value(float a, float b) { return (std::isnan(a) && std::isnan(b)) || same_bits(a, b); }

std::string describe(float x) {
  char text[64];
  std::snprintf(text, sizeof text, "%a (0x%08x)", static_cast<double>(x), static_cast<unsigned>(bits_of(x)));
  return text;
}

/// Lanes for the tests: about a third are NaN (quiet, random payload and sign), infinities, signed
/// zeros, denormals, the extremes of the normal range or arbitrary bit patterns; the rest are
/// ordinary values between 2^-20 and 2^21 in magnitude.
class LaneSource {
 public:
  explicit LaneSource(std::uint32_t seed) : rng_(seed) {}

  float next() {
    const std::uint32_t r = rng_();
    const std::uint32_t sign = (r & 1u) << 31, mantissa = (r >> 1) & 0x7FFFFFu;
    const std::uint32_t kind = rng_() % 100;
    if (kind < 4) return float_from_bits(sign | 0x7FC00000u | (mantissa & 0x3FFFFFu));  // quiet NaN
    if (kind < 7) return float_from_bits(sign | 0x7F800000u);                           // infinity
    if (kind < 11) return float_from_bits(sign);                                         // zero
    if (kind < 17) return float_from_bits(sign | (mantissa == 0 ? 1u : mantissa));      // denormal
    if (kind < 18) return float_from_bits(sign | 0x7F7FFFFFu);                           // largest finite
    if (kind < 19) return float_from_bits(sign | 0x00800000u);                           // smallest normal
    if (kind < 29) {  // any exponent; NaNs made quiet, signalling NaNs are not part of the contract
      const std::uint32_t exponent = rng_() % 256;
      const std::uint32_t quiet = exponent == 255 && mantissa != 0 ? 0x00400000u : 0u;
      return float_from_bits(sign | (exponent << 23) | mantissa | quiet);
    }
    return float_from_bits(sign | ((127u - 20u + rng_() % 41u) << 23) | mantissa);
  }

  /// A second operand to go with `a`: usually independent, sometimes a itself or -a, so that
  /// equality, <=, and min / max of +0 against -0 come up often.
  float partner(float a) {
    const std::uint32_t r = rng_() % 100;
    if (r < 10) return a;
    if (r < 15) return -a;
    return next();
  }

  template <class F>
  std::pair<Lanes<F>, Lanes<F>> operands() {
    Lanes<F> a, b;
    for (int i = 0; i < F::width; ++i) {
      a[i] = next();
      b[i] = partner(a[i]);
    }
    return {a, b};
  }

  int mask_bits(int width) { return static_cast<int>(rng_() & ((1u << width) - 1u)); }

 private:
  std::mt19937 rng_;
};

template <class F>
Lanes<F> lanes_of(F v) {
  Lanes<F> l;
  v.store(l.data());
  return l;
}

template <class F>
F vector_of(const Lanes<F>& l) {
  return F::load(l.data());
}

/// Runs vector_op on kVectorCount random operand pairs and checks every lane against scalar_op
/// on that lane's operands with `equal`.
template <class F, class VectorOp, class ScalarOp, class Equal>
void expect_lanes_match(VectorOp vector_op, ScalarOp scalar_op, Equal equal) {
  LaneSource source(kSeed);
  for (int n = 0; n < kVectorCount; ++n) {
    const auto [a, b] = source.operands<F>();
    const Lanes<F> got = lanes_of<F>(vector_op(vector_of<F>(a), vector_of<F>(b)));
    for (int i = 0; i < F::width; ++i) {
      const float want = scalar_op(a[i], b[i]);
      ASSERT_TRUE(equal(got[i], want)) << "vector " << n << " lane " << i << ": a = " << describe(a[i])
                                       << ", b = " << describe(b[i]) << ", got " << describe(got[i])
                                       << ", want " << describe(want);
    }
  }
}

/// Same for an operation that returns a mask: bits() of the result against the scalar predicate.
template <class F, class VectorOp, class ScalarPredicate>
void expect_mask_matches(VectorOp vector_op, ScalarPredicate scalar_predicate) {
  LaneSource source(kSeed);
  for (int n = 0; n < kVectorCount; ++n) {
    const auto [a, b] = source.operands<F>();
    int want = 0;
    for (int i = 0; i < F::width; ++i) want |= (scalar_predicate(a[i], b[i]) ? 1 : 0) << i;
    const int got = bits(vector_op(vector_of<F>(a), vector_of<F>(b)));
    if (got == want) continue;
    const int lane = std::countr_zero(static_cast<unsigned>(got ^ want));
    FAIL() << "vector " << n << " lane " << lane << ": a = " << describe(a[lane]) << ", b = " << describe(b[lane])
           << ", got bits " << got << ", want " << want;
  }
}

template <class F>
void expect_every_lane(F v, float want) {
  for (int i = 0; i < F::width; ++i) EXPECT_TRUE(same_bits(v[i], want)) << "lane " << i << ": " << describe(v[i]);
}

template <class F>
class SimdFloat : public ::testing::Test {};

struct WidthName {
  template <class F>
  static std::string GetName(int) {
    return F::width == 4 ? "Float4" : "Float8";
  }
};

using Widths = ::testing::Types<Float4, Float8>;
TYPED_TEST_SUITE(SimdFloat, Widths, WidthName);

TYPED_TEST(SimdFloat, DefaultConstructionIsZeroAndAllFalse) {
  using F = TypeParam;
  static_assert(MaskOf<F>::width == F::width);
  expect_every_lane(F(), 0.0f);
  expect_every_lane(F{}, 0.0f);
  EXPECT_EQ(bits(MaskOf<F>()), 0);
  EXPECT_EQ(bits(MaskOf<F>{}), 0);
}

TYPED_TEST(SimdFloat, BroadcastCopiesTheBitsIntoEveryLane) {
  using F = TypeParam;
  for (const float s : {1.5f, -0.0f, float_from_bits(0x7FC12345u), float_from_bits(0x80000003u),
                        -std::numeric_limits<float>::infinity()}) {
    expect_every_lane(F(s), s);
  }
}

TYPED_TEST(SimdFloat, LaneConstructorPutsArgumentIInLaneI) {
  using F = TypeParam;
  F v;
  if constexpr (F::width == 4) {
    v = F(10.0f, 11.0f, 12.0f, 13.0f);
  } else {
    v = F(10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f);
  }
  for (int i = 0; i < F::width; ++i) EXPECT_EQ(v[i], 10.0f + static_cast<float>(i));
}

TYPED_TEST(SimdFloat, LoadStoreRoundTripKeepsBitsAtUnalignedAddresses) {
  using F = TypeParam;
  constexpr int W = F::width;
  LaneSource source(kSeed);
  for (int n = 0; n < kVectorCount; ++n) {
    float in[W + 3], out[W + 3];
    for (float& x : in) x = source.next();
    for (float& x : out) x = 7.0f;
    const int offset = n % 4;  // 4-byte steps: most loads and stores straddle a vector boundary
    const F v = F::load(in + offset);
    v.store(out + offset);
    for (int i = 0; i < W + 3; ++i) {
      const bool inside = i >= offset && i < offset + W;
      ASSERT_TRUE(same_bits(out[i], inside ? in[i] : 7.0f)) << "vector " << n << " slot " << i;
    }
    for (int i = 0; i < W; ++i) ASSERT_TRUE(same_bits(v[i], in[offset + i])) << "operator[] lane " << i;
  }
}

TYPED_TEST(SimdFloat, AddMatchesScalar) {
  expect_lanes_match<TypeParam>([](auto a, auto b) { return a + b; }, [](float a, float b) { return a + b; },
                                same_value);
}

TYPED_TEST(SimdFloat, SubtractMatchesScalar) {
  expect_lanes_match<TypeParam>([](auto a, auto b) { return a - b; }, [](float a, float b) { return a - b; },
                                same_value);
}

TYPED_TEST(SimdFloat, MultiplyMatchesScalar) {
  expect_lanes_match<TypeParam>([](auto a, auto b) { return a * b; }, [](float a, float b) { return a * b; },
                                same_value);
}

TYPED_TEST(SimdFloat, DivideMatchesScalar) {
  expect_lanes_match<TypeParam>([](auto a, auto b) { return a / b; }, [](float a, float b) { return a / b; },
                                same_value);
}

TYPED_TEST(SimdFloat, SqrtMatchesScalar) {
  expect_lanes_match<TypeParam>([](auto a, auto) { return sqrt(a); }, [](float a, float) { return std::sqrt(a); },
                                same_value);
}

TYPED_TEST(SimdFloat, NegateFlipsOnlyTheSignBit) {
  expect_lanes_match<TypeParam>([](auto a, auto) { return -a; },
                                [](float a, float) { return float_from_bits(bits_of(a) ^ 0x80000000u); }, same_bits);
}

TEST(SimdFloat4, YzxAndZxyRotateTheFirstThreeLanesAndKeepTheFourth) {
  using hitscan::simd::Float4;
  const Float4 a(1.5f, -2.0f, 3.25f, -0.0f);
  alignas(16) float l[4];
  yzx(a).store(l);
  EXPECT_EQ(l[0], -2.0f);
  EXPECT_EQ(l[1], 3.25f);
  EXPECT_EQ(l[2], 1.5f);
  EXPECT_TRUE(std::signbit(l[3]) && l[3] == 0.0f);
  zxy(a).store(l);
  EXPECT_EQ(l[0], 3.25f);
  EXPECT_EQ(l[1], 1.5f);
  EXPECT_EQ(l[2], -2.0f);
  EXPECT_TRUE(std::signbit(l[3]) && l[3] == 0.0f);
  // Each undoes the other, bits and NaN included.
  const Float4 b(std::numeric_limits<float>::quiet_NaN(), 1e-40f, -std::numeric_limits<float>::infinity(), 7.0f);
  alignas(16) float in[4], out[4];
  b.store(in);
  zxy(yzx(b)).store(out);
  EXPECT_EQ(std::memcmp(in, out, sizeof in), 0);
}

TYPED_TEST(SimdFloat, AbsClearsOnlyTheSignBit) {
  expect_lanes_match<TypeParam>([](auto a, auto) { return abs(a); },
                                [](float a, float) { return float_from_bits(bits_of(a) & 0x7FFFFFFFu); }, same_bits);
}

TYPED_TEST(SimdFloat, ArithmeticKeepsDenormals) {
  using F = TypeParam;
  const float tiny = float_from_bits(0x00000003u);  // 3 * 2^-149
  expect_every_lane(F(tiny) + F(tiny), float_from_bits(0x00000006u));
  expect_every_lane(F(tiny) * F(1.0f), tiny);
  expect_every_lane(F(float_from_bits(0x00800000u)) * F(0.5f), float_from_bits(0x00400000u));
  expect_every_lane(F(tiny) / F(3.0f), float_from_bits(0x00000001u));
}

TYPED_TEST(SimdFloat, MultiplyThenAddRoundsTwice) {
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11, so a*a - (1 + 2^-11) is 0 with two
  // roundings and 2^-24 if the multiply and subtract were fused.
  // volatile keeps the compiler from folding the expression at compile time, which never fuses.
  using F = TypeParam;
  volatile float factor = 1.0f + 0x1p-12f, rounded_square = 1.0f + 0x1p-11f;
  const F a(factor), c(rounded_square);
  expect_every_lane(a * a - c, 0.0f);
  expect_every_lane(a * a + (-c), 0.0f);
}

TYPED_TEST(SimdFloat, MinIsFirstIfLessElseSecond) {
  expect_lanes_match<TypeParam>([](auto a, auto b) { return min(a, b); },
                                [](float a, float b) { return a < b ? a : b; }, same_bits);
}

TYPED_TEST(SimdFloat, MaxIsFirstIfGreaterElseSecond) {
  expect_lanes_match<TypeParam>([](auto a, auto b) { return max(a, b); },
                                [](float a, float b) { return a > b ? a : b; }, same_bits);
}

TYPED_TEST(SimdFloat, MinMaxReturnTheSecondOperandOnNanAndOnZerosOfEitherSign) {
  using F = TypeParam;
  const float nan_a = float_from_bits(0x7FC00001u);
  const float nan_b = float_from_bits(0xFFC00002u);
  const float inf = std::numeric_limits<float>::infinity();
  expect_every_lane(min(F(nan_a), F(1.0f)), 1.0f);
  expect_every_lane(min(F(1.0f), F(nan_a)), nan_a);
  expect_every_lane(min(F(nan_a), F(nan_b)), nan_b);
  expect_every_lane(min(F(nan_a), F(-inf)), -inf);
  expect_every_lane(max(F(nan_a), F(-1.0f)), -1.0f);
  expect_every_lane(max(F(-1.0f), F(nan_a)), nan_a);
  expect_every_lane(max(F(nan_b), F(nan_a)), nan_a);
  expect_every_lane(max(F(nan_a), F(inf)), inf);
  expect_every_lane(min(F(0.0f), F(-0.0f)), -0.0f);
  expect_every_lane(min(F(-0.0f), F(0.0f)), 0.0f);
  expect_every_lane(max(F(0.0f), F(-0.0f)), -0.0f);
  expect_every_lane(max(F(-0.0f), F(0.0f)), 0.0f);
}

TYPED_TEST(SimdFloat, OrderingComparisonsMatchScalar) {
  using F = TypeParam;
  expect_mask_matches<F>([](F a, F b) { return a < b; }, [](float a, float b) { return a < b; });
  expect_mask_matches<F>([](F a, F b) { return a <= b; }, [](float a, float b) { return a <= b; });
  expect_mask_matches<F>([](F a, F b) { return a > b; }, [](float a, float b) { return a > b; });
  expect_mask_matches<F>([](F a, F b) { return a >= b; }, [](float a, float b) { return a >= b; });
}

TYPED_TEST(SimdFloat, EqualityComparisonsMatchScalar) {
  using F = TypeParam;
  expect_mask_matches<F>([](F a, F b) { return a == b; }, [](float a, float b) { return a == b; });
  expect_mask_matches<F>([](F a, F b) { return a != b; }, [](float a, float b) { return a != b; });
}

TYPED_TEST(SimdFloat, ComparisonsWithNanAreFalseExceptNotEqual) {
  using F = TypeParam;
  const int all_lanes = (1 << F::width) - 1;
  const F nan(float_from_bits(0x7FC00000u)), one(1.0f);
  for (const auto& [a, b] : {std::pair{nan, one}, std::pair{one, nan}, std::pair{nan, nan}}) {
    EXPECT_EQ(bits(a < b), 0);
    EXPECT_EQ(bits(a <= b), 0);
    EXPECT_EQ(bits(a > b), 0);
    EXPECT_EQ(bits(a >= b), 0);
    EXPECT_EQ(bits(a == b), 0);
    EXPECT_EQ(bits(a != b), all_lanes);
  }
  EXPECT_EQ(bits(F(0.0f) == F(-0.0f)), all_lanes);
  EXPECT_EQ(bits(F(0.0f) < F(-0.0f)), 0);
}

TYPED_TEST(SimdFloat, ComparisonMaskPutsLaneIInBitI) {
  using F = TypeParam;
  for (int lane = 0; lane < F::width; ++lane) {
    Lanes<F> l{};
    l[lane] = 1.0f;
    EXPECT_EQ(bits(vector_of<F>(l) > F(0.0f)), 1 << lane);
  }
}

TYPED_TEST(SimdFloat, MaskFromBitsRoundTripsAndIgnoresHigherBits) {
  using M = MaskOf<TypeParam>;
  constexpr int all_lanes = (1 << M::width) - 1;
  for (int b = 0; b <= all_lanes; ++b) {
    ASSERT_EQ(bits(M::from_bits(b)), b);
    ASSERT_EQ(bits(M::from_bits(b | (0x5A5 << M::width))), b);
  }
  EXPECT_EQ(bits(M::from_bits(-1)), all_lanes);
}

TYPED_TEST(SimdFloat, MaskLogicMatchesIntegerLogicOnEveryPairOfPatterns) {
  using M = MaskOf<TypeParam>;
  constexpr int all_lanes = (1 << M::width) - 1;
  for (int a = 0; a <= all_lanes; ++a) {
    const M ma = M::from_bits(a);
    ASSERT_EQ(bits(~ma), ~a & all_lanes) << "a = " << a;
    ASSERT_EQ(any(ma), a != 0) << "a = " << a;
    ASSERT_EQ(all(ma), a == all_lanes) << "a = " << a;
    ASSERT_EQ(none(ma), a == 0) << "a = " << a;
    for (int b = 0; b <= all_lanes; ++b) {
      const M mb = M::from_bits(b);
      ASSERT_EQ(bits(ma & mb), a & b) << "a = " << a << ", b = " << b;
      ASSERT_EQ(bits(ma | mb), a | b) << "a = " << a << ", b = " << b;
      ASSERT_EQ(bits(ma ^ mb), a ^ b) << "a = " << a << ", b = " << b;
      ASSERT_EQ(bits(andnot(ma, mb)), a & ~b) << "a = " << a << ", b = " << b;
    }
  }
}

TYPED_TEST(SimdFloat, SelectTakesFirstWhereMaskIsSetElseSecond) {
  using F = TypeParam;
  using M = MaskOf<F>;
  LaneSource source(kSeed);
  for (int n = 0; n < kVectorCount; ++n) {
    const auto [a, b] = source.operands<F>();
    const int m = source.mask_bits(F::width);
    const Lanes<F> got = lanes_of(select(M::from_bits(m), vector_of<F>(a), vector_of<F>(b)));
    for (int i = 0; i < F::width; ++i) {
      ASSERT_TRUE(same_bits(got[i], (m >> i) & 1 ? a[i] : b[i])) << "vector " << n << " lane " << i;
    }
  }
}

TYPED_TEST(SimdFloat, SelectOnComputedMasksMatchesScalarTernary) {
  // Masks straight from comparisons and mask logic, not from from_bits: catches a backend whose
  // ~ or andnot leaves lanes that select() does not read as cleanly true or false.
  using F = TypeParam;
  expect_lanes_match<F>([](F a, F b) { return select(a < b, a, b); },
                        [](float a, float b) { return a < b ? a : b; }, same_bits);
  expect_lanes_match<F>([](F a, F b) { return select(~(a < b), a, b); },
                        [](float a, float b) { return !(a < b) ? a : b; }, same_bits);
  expect_lanes_match<F>([](F a, F b) { return select(andnot(a <= b, a == b), a, b); },
                        [](float a, float b) { return (a <= b && !(a == b)) ? a : b; }, same_bits);
  expect_lanes_match<F>([](F a, F b) { return select((a > b) | (a != a), a, b); },
                        [](float a, float b) { return (a > b || a != a) ? a : b; }, same_bits);
  expect_lanes_match<F>([](F a, F b) { return select((a >= b) ^ (a == b), a, b); },
                        [](float a, float b) { return ((a >= b) != (a == b)) ? a : b; }, same_bits);
  expect_lanes_match<F>([](F a, F b) { return select((a >= b) & (b >= F(0.0f)), a, b); },
                        [](float a, float b) { return (a >= b && b >= 0.0f) ? a : b; }, same_bits);
}

TYPED_TEST(SimdFloat, ReduceMinFoldsLeftToRightWithTheMinRule) {
  using F = TypeParam;
  LaneSource source(kSeed);
  for (int n = 0; n < kVectorCount; ++n) {
    const Lanes<F> a = source.operands<F>().first;
    float want = a[0];
    for (int i = 1; i < F::width; ++i) want = want < a[i] ? want : a[i];
    const float got = reduce_min(vector_of<F>(a));
    ASSERT_TRUE(same_bits(got, want)) << "vector " << n << ": got " << describe(got) << ", want " << describe(want);
  }
}

TYPED_TEST(SimdFloat, ReduceMaxFoldsLeftToRightWithTheMaxRule) {
  using F = TypeParam;
  LaneSource source(kSeed);
  for (int n = 0; n < kVectorCount; ++n) {
    const Lanes<F> a = source.operands<F>().first;
    float want = a[0];
    for (int i = 1; i < F::width; ++i) want = want > a[i] ? want : a[i];
    const float got = reduce_max(vector_of<F>(a));
    ASSERT_TRUE(same_bits(got, want)) << "vector " << n << ": got " << describe(got) << ", want " << describe(want);
  }
}

TYPED_TEST(SimdFloat, ReductionRestartsAfterEachNanLaneAndIsNanOnlyForANanLastLane) {
  // min(running, NaN) is NaN and min(NaN, x) is x: a NaN lane throws away the lanes before it.
  using F = TypeParam;
  constexpr int W = F::width;
  const float nan = float_from_bits(0x7FC00000u);
  Lanes<F> l;
  for (int i = 0; i < W; ++i) l[i] = static_cast<float>(10 * i);
  l[0] = nan;
  l[1] = -5.0f;  // the true minimum, before the second NaN: dropped
  l[W / 2] = nan;
  l[W - 1] = 1000.0f;
  const float after_last_nan = W == 4 ? 1000.0f : 50.0f;  // smallest of the lanes after index W/2
  EXPECT_EQ(reduce_min(vector_of<F>(l)), after_last_nan);
  EXPECT_EQ(reduce_max(vector_of<F>(l)), 1000.0f);
  l[W - 1] = nan;
  EXPECT_TRUE(std::isnan(reduce_min(vector_of<F>(l))));
  EXPECT_TRUE(std::isnan(reduce_max(vector_of<F>(l))));
  l[0] = -5.0f;
  l[W / 2] = 0.0f;
  l[W - 1] = 2000.0f;
  EXPECT_EQ(reduce_min(vector_of<F>(l)), -5.0f);
  EXPECT_EQ(reduce_max(vector_of<F>(l)), 2000.0f);
}

TYPED_TEST(SimdFloat, FloatOperandsBroadcast) {
  using F = TypeParam;
  Lanes<F> l;
  for (int i = 0; i < F::width; ++i) l[i] = static_cast<float>(i) - 1.5f;  // -1.5, -0.5, 0.5, ...
  const F a = vector_of<F>(l);
  const F sum = a + 1.0f, scaled = 2.0f * a, low = min(a, 0.0f), high = max(0.0f, a);
  const F picked = select(a < 0.0f, 1.0f, 2.0f);
  int below_one = 0;
  for (int i = 0; i < F::width; ++i) {
    const float x = l[i];
    EXPECT_EQ(sum[i], x + 1.0f);
    EXPECT_EQ(scaled[i], 2.0f * x);
    EXPECT_EQ(low[i], x < 0.0f ? x : 0.0f);
    EXPECT_EQ(high[i], 0.0f > x ? 0.0f : x);
    EXPECT_EQ(picked[i], x < 0.0f ? 1.0f : 2.0f);
    below_one |= (x < 1.0f ? 1 : 0) << i;
  }
  EXPECT_EQ(bits(a < 1.0f), below_one);
}

TEST(SimdIsa, NamesTheBackendThisBuildSelected) {
  const std::string isa = hitscan::simd::kSimdIsa;
  EXPECT_TRUE(isa == "scalar" || isa == "sse2" || isa == "sse4.1" || isa == "avx" || isa == "avx2" ||
              isa == "avx512" || isa == "neon")
      << isa;
#if defined(HITSCAN_SIMD_SCALAR)
  EXPECT_EQ(isa, "scalar");
#endif
  RecordProperty("simd_isa", isa);
}

}  // namespace
