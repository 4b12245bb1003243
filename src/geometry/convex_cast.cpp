// Shape casts between any two convex shapes (geometry/gjk_epa.hpp): the start from penetration(),
// then conservative advancement of the moving shape's core against the target's
// (sweep_advancement.cpp), the radii of spheres and capsules added to the gap.

#include "hitscan/geometry/detail/gjk_distance.hpp"
#include "hitscan/geometry/gjk_epa.hpp"
#include "hitscan/geometry/detail/sweep_support.hpp"

namespace hitscan {
namespace {

template <Real T>
SweepHit<T> cast(const ConvexShape<T>& moving, Vec3<T> direction, T max_distance, const ConvexShape<T>& target,
                 ContactTolerance<T> tol) {
  if (!detail::valid_motion(direction, max_distance)) return {};
  const ConvexCore a = convex_core(moving), b = convex_core(target);
  if (!a.valid || !b.valid) return {};
  const Contact<T> start = penetration(moving, target, tol);
  if (start.touching) return detail::started_in_contact(start);
  const double limit = tol.at_size(static_cast<T>(std::fmax(a.size, b.size)));
  return detail::from_advancement<T>(detail::advance(a.support, a.radius, b.support, b.radius,
                                                     vec3_cast<double>(direction),
                                                     detail::advancement_limit(max_distance), limit),
                                     max_distance);
}

}  // namespace

SweepHit<float> convex_cast(const ConvexShape<float>& moving, Vec3f direction, float max_distance,
                            const ConvexShape<float>& target, ContactTolerance<float> tol) {
  return cast(moving, direction, max_distance, target, tol);
}

SweepHit<double> convex_cast(const ConvexShape<double>& moving, Vec3d direction, double max_distance,
                             const ConvexShape<double>& target, ContactTolerance<double> tol) {
  return cast(moving, direction, max_distance, target, tol);
}

}  // namespace hitscan
