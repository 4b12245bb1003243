#pragma once
// Shared by the scale tests (tests/query/scene_scale_test.cpp, tests/mesh/mesh_bvh_scale_test.cpp):
// a scene and its queries scaled by k must answer with everything scaled by k. How answers are
// compared with those at k = 1, printed, and how failures are reported and summed up.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>

#include "hitscan/math/scalar.hpp"
#include "hitscan/math/vec3.hpp"

namespace hitscan::test {

/// Lengths agree to this, relative (absolute below 1).
inline constexpr double kScaleRelative = 2e-3;
/// Unit normals agree to this cosine.
inline constexpr double kScaleNormalDot = 0.999;

/// x times k, rounded once to float.
inline float scaled(float x, double k) { return static_cast<float>(static_cast<double>(x) * k); }
inline Vec3f scaled(Vec3f v, double k) { return {scaled(v.x, k), scaled(v.y, k), scaled(v.z, k)}; }

/// The largest power of ten k for which a scene of this extent (at k = 1) still lies within the
/// working range.
inline double largest_scale(double extent) {
  double k = 1;
  while (extent * k * 10 <= double(kMaxCoordinate)) k *= 10;
  return k;
}

inline std::string show(double x) {
  std::ostringstream s;
  s.precision(7);
  s << x;
  return s.str();
}
inline std::string show_scaled(Vec3f v, double k) {
  std::string s = "(";
  s.append(show(v.x / k)).append(", ").append(show(v.y / k)).append(", ").append(show(v.z / k)).append(")");
  return s;
}
inline std::string show(Vec3f v) { return show_scaled(v, 1.0); }

inline bool length_agrees(double unit, double scaled_back) {
  if (std::isinf(unit) || std::isinf(scaled_back)) return unit == scaled_back;
  return std::abs(scaled_back - unit) <= kScaleRelative * std::max(1.0, std::abs(unit));
}
inline bool point_agrees(Vec3f unit, Vec3f got, double k) {
  const double dx = got.x / k - unit.x, dy = got.y / k - unit.y, dz = got.z / k - unit.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz) <= kScaleRelative * std::max(1.0, double(length(unit)));
}

/// The failures of one test, reported one by one (up to a limit) and summed up at the end: for
/// each `where` (up to a '#', which numbers probes of one kind), the scales at which it failed.
class ScaleReport {
 public:
  void fail(double k, const std::string& where, const std::string& detail) {
    if (shown_ < kShownLimit) ADD_FAILURE() << "k=" << k << " " << where << ": " << detail;
    ++shown_;
    summary_[where.substr(0, where.find('#'))][k] += 1;
  }
  void finish() {
    if (summary_.empty()) return;
    std::ostringstream s;
    s << shown_ << " mismatches (the first " << std::min(shown_, kShownLimit) << " shown above); failing at k:\n";
    for (const auto& [what, ks] : summary_) {
      s << "  " << what << ":";
      for (const auto& [k, n] : ks) s << " " << k << " (" << n << ")";
      s << "\n";
    }
    ADD_FAILURE() << s.str();
  }

 private:
  static constexpr int kShownLimit = 80;
  int shown_ = 0;
  std::map<std::string, std::map<double, int>> summary_;
};

}  // namespace hitscan::test
