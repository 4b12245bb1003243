#pragma once
// Seeded random values and tolerances shared by the math tests (and the geometry tests that need
// the same draws).

#include <gtest/gtest.h>

#include <random>
#include <type_traits>

#include "hitscan/math/quat.hpp"

namespace hitscan::test {

using RealTypes = ::testing::Types<float, double>;

/// Tolerance for unit-sized results of a chain of a few dozen operations.
template <class T>
double tolerance() { return std::is_same_v<T, float> ? 2e-6 : 1e-14; }

inline double uniform(std::mt19937& rng, double lo, double hi) { return lo + (hi - lo) * (rng() / 4294967296.0); }

template <class T>
Vec3<T> random_vec(std::mt19937& rng, double half = 1) {
  return {T(uniform(rng, -half, half)), T(uniform(rng, -half, half)), T(uniform(rng, -half, half))};
}

template <class T>
Quat<T> random_quat(std::mt19937& rng) {
  const Vec3<T> v = random_vec<T>(rng);
  return Quat<T>::from_components(T(uniform(rng, -1, 1)), v.x, v.y, v.z);
}

}  // namespace hitscan::test
