// is_valid: the SSE form for float rays against the scalar form, evaluated in double on the same
// values (exact: every float is a double, and kMaxCoordinate is the same number in both).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "hitscan/geometry/ray.hpp"

namespace hitscan {
namespace {

Rayd widen(const Rayf& r) {
  return {{r.origin.x, r.origin.y, r.origin.z}, {r.dir.x, r.dir.y, r.dir.z}, r.tmin, r.tmax};
}

TEST(RayIsValid, FloatAgreesWithTheScalarFormOnEverySpecialValue) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float big = std::numeric_limits<float>::max();
  const float tiny = std::numeric_limits<float>::denorm_min();
  const float above = std::nextafter(kMaxCoordinate, inf);
  const std::vector<float> values = {0.0f, -0.0f, 1.0f, -2.5f, tiny, -tiny, kMaxCoordinate, -kMaxCoordinate,
                                     above, -above, big, -big, inf, -inf, nan};
  // Each of the eight fields takes every value while the others keep a valid ray's.
  const Rayf base{{1, 2, 3}, {0.5f, -1, 2}, 0.25f, 10};
  int valid = 0, tested = 0;
  for (int field = 0; field < 8; ++field) {
    for (const float v : values) {
      Rayf r = base;
      (&r.origin.x)[field] = v;
      const bool expected = is_valid(widen(r));
      ASSERT_EQ(is_valid(r), expected) << "field " << field << " = " << v;
      valid += expected;
      ++tested;
    }
  }
  // The cases the rules name, checked by hand.
  EXPECT_TRUE(is_valid(Rayf{{kMaxCoordinate, -kMaxCoordinate, 0}, {0, 0, -tiny}, -big, inf}));
  EXPECT_FALSE(is_valid(Rayf{{above, 0, 0}, {1, 0, 0}, 0, 1}));       // origin out of range
  EXPECT_FALSE(is_valid(Rayf{{0, 0, 0}, {0.0f, -0.0f, 0.0f}, 0, 1}));  // zero direction
  EXPECT_FALSE(is_valid(Rayf{{0, 0, 0}, {1, inf, 0}, 0, 1}));         // infinite direction
  EXPECT_FALSE(is_valid(Rayf{{0, 0, 0}, {1, 0, 0}, -inf, 1}));        // tmin not finite
  EXPECT_FALSE(is_valid(Rayf{{0, 0, 0}, {1, 0, 0}, 0, nan}));         // tmax NaN
  EXPECT_FALSE(is_valid(Rayf{{0, 0, 0}, {1, 0, 0}, 2, 1}));           // empty interval
  EXPECT_TRUE(is_valid(Rayf{{0, 0, 0}, {1, 0, 0}, 1, 1}));            // one point
  EXPECT_GT(valid, 20);
  EXPECT_LT(valid, tested);
}

TEST(RayIsValid, FloatAgreesWithTheScalarFormOnRandomMixes) {
  // Every field drawn from ordinary numbers and the special values at once.
  std::mt19937 rng(0x7A11Du);
  const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(), kMaxCoordinate, 2 * kMaxCoordinate};
  std::uniform_real_distribution<float> ordinary(-4, 4);
  int valid = 0;
  for (int i = 0; i < 20000; ++i) {
    Rayf r;
    for (int field = 0; field < 8; ++field) {
      (&r.origin.x)[field] = rng() % 4 == 0 ? specials[rng() % 7] : ordinary(rng);
    }
    const bool expected = is_valid(widen(r));
    ASSERT_EQ(is_valid(r), expected) << i;
    valid += expected;
  }
  EXPECT_GT(valid, 1000);
}

}  // namespace
}  // namespace hitscan
