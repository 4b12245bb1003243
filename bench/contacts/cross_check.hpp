#pragma once
// Compares a backend's touching pairs with the reference's (brute force), pair by pair.
//
// hitscan's backends run the same exact test on the same floats, so their pairs must equal the
// reference's exactly and their contacts bit for bit. Bullet decides touching with its own
// arithmetic (and, on the GJK path, iteratively), so a pair whose true depth is within
// kBorderlineDepth of 0 may fall either way: such pairs are counted as borderline, not as
// disagreements. The true depth of a pair is taken from contact() in double precision.

#include <cstddef>
#include <string>
#include <vector>

#include "scene.hpp"

namespace hitscan::bench {

/// World units: pairs closer than this to touching are borderline for Bullet (the shapes'
/// sizes are 0.5 to 5).
inline constexpr double kBorderlineDepth = 1e-3;

struct CheckSummary {
  /// Reference pairs the backend did not report (for Bullet: whose true depth exceeds
  /// kBorderlineDepth).
  std::size_t missing = 0;
  /// Pairs the backend reported that the reference did not (for Bullet: whose true depth is
  /// below -kBorderlineDepth).
  std::size_t extra = 0;
  /// Pairs in one set only that are within kBorderlineDepth of touching (Bullet only).
  std::size_t borderline = 0;
  /// Over the pairs both report: the largest |depth - reference depth|, the smallest dot product
  /// of the two normals, and how many contacts differ from the reference's by more than
  /// kBorderlineDepth in depth or 10^-3 in the normal's dot product (Bullet's warm manifolds keep
  /// points from earlier passes, and the deepest of them may be one of those).
  double max_depth_error = 0;
  double min_normal_dot = 1;
  std::size_t different_contacts = 0;

  std::size_t disagreements() const { return missing + extra; }
};

/// Checks `answers` against `reference` for the objects as they are in `frame`, printing the
/// first few disagreements under `name`. Both lists may be in any order.
CheckSummary cross_check(const ContactScene& scene, const Frame& frame, std::vector<PairContact> reference,
                         std::vector<PairContact> answers, bool exact, const std::string& name);

}  // namespace hitscan::bench
