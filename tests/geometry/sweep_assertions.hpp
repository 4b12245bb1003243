#pragma once
/// Test support for the sweeps of geometry/sweep.hpp and sweep_plane.hpp: a hit checked against
/// its hand-worked answer.

#include <gtest/gtest.h>

#include <cmath>

#include "geometry/reference_shapes.hpp"
#include "hitscan/geometry/sweep.hpp"

namespace hitscan::reference {

/// A hit that is not a start in contact, at `distance` with `point` and `normal`, each within e.
template <Real T>
::testing::AssertionResult IsHit(const SweepHit<T>& h, double distance, Vec3d point, Vec3d normal, double e) {
  if (!h.hit) return ::testing::AssertionFailure() << "miss";
  if (h.started_in_contact) return ::testing::AssertionFailure() << "started in contact";
  const double dd = std::abs(double(h.distance) - distance);
  const double dp = length(to_double(h.point) - point);
  const double dn = length(to_double(h.normal) - normal);
  if (dd <= e && dp <= e && dn <= e) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "distance " << h.distance << " (want " << distance << "), point "
                                       << hex(h.point) << ", normal " << hex(h.normal) << "; errors " << dd << " "
                                       << dp << " " << dn;
}

}  // namespace hitscan::reference
