#pragma once
// The seeded random numbers the benchmark scenes are made of, the same bits on every standard
// library.

#include <cmath>
#include <numbers>
#include <random>

#include "hitscan/math/quat.hpp"

namespace hitscan::bench {

/// Uniform in [lo, hi) from the top 24 bits of the generator (std::uniform_real_distribution is
/// not specified bit for bit across standard libraries; this is).
inline float uniform(std::mt19937_64& rng, float lo, float hi) {
  const float u = float(rng() >> 40) * 0x1p-24f;
  return lo + (hi - lo) * u;
}

/// A rotation uniform over SO(3) from three uniform numbers: Shoemake, "Uniform random
/// rotations", Graphics Gems III (1992).
inline Quatf random_rotation(std::mt19937_64& rng) {
  const double u1 = uniform(rng, 0, 1), u2 = uniform(rng, 0, 1), u3 = uniform(rng, 0, 1);
  const double a = std::sqrt(1 - u1), b = std::sqrt(u1);
  const double t2 = 2 * std::numbers::pi * u2, t3 = 2 * std::numbers::pi * u3;
  return Quatf::from_components(float(b * std::cos(t3)), float(a * std::sin(t2)), float(a * std::cos(t2)),
                                float(b * std::sin(t3)));
}

}  // namespace hitscan::bench
