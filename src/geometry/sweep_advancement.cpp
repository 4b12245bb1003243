// Conservative advancement and the backtracking depth of the GJK-based sweeps (sweep_support.hpp).

#include <cmath>

#include "hitscan/geometry/detail/sweep_support.hpp"

namespace hitscan::detail {

GjkDistance core_distance(const Segment<double>& core, const ConvexSupport& target) {
  return gjk_distance(ConvexSupport::from(core), target);
}

Advancement advance(const ConvexSupport& moving_core, double moving_radius, const ConvexSupport& target,
                    double target_radius, Vec3d direction, double max_distance, double tolerance,
                    const GjkDistance* at_start) {
  const double radii = moving_radius + target_radius;
  Advancement out;
  ConvexSupport moved = moving_core;
  double s = 0, last_approach = 1;
  for (int step = 0; step < kMaxAdvancementSteps; ++step) {
    moved.translation = moving_core.translation + direction * s;
    // At s = 0 the moved core is the core itself (its translation plus +0).
    const GjkDistance g = step == 0 && at_start != nullptr ? *at_start : gjk_distance(moved, target);
    // The cores meet only when a step overshoots by rounding: the way back is then -direction.
    const Vec3d n = g.distance > 0 ? (g.point_on_a - g.point_on_b) / g.distance : -normalize(direction);
    out.s = s;
    out.normal = n;
    out.point_on_target = g.point_on_b + n * target_radius;
    const double gap = g.distance - radii;
    if (gap <= tolerance) {
      out.hit = true;
      if (!(g.distance > 0) && step > 0 && tolerance > 0) {
        // A step that lands exactly on the contact (a vertex meeting a face is reached in one)
        // leaves the cores touching, where GJK's points are any point of the touch and its
        // normal undefined: they are taken half a tolerance back along the path, where they are
        // the contact's own; the distance stays the contact's.
        moved.translation = moving_core.translation + direction * (s - 0.5 * tolerance / last_approach);
        const GjkDistance back = gjk_distance(moved, target);
        if (back.distance > 0) {
          out.normal = (back.point_on_a - back.point_on_b) / back.distance;
          out.point_on_target = back.point_on_b + out.normal * target_radius;
        }
      }
      return out;
    }
    const double approach = -dot(direction, n);
    if (!(approach > 0)) return {};
    last_approach = approach;
    s += gap / approach;
    if (!within_sweep(s, max_distance)) return {};
  }
  out.hit = true;  // still apart at out.s, short of the target (see kMaxAdvancementSteps)
  return out;
}

double backtrack_depth(const Segment<double>& moving_core, double radius, const ConvexSupport& target,
                       Vec3d direction) {
  const Vec3d unit = normalize(direction);
  const auto apart = [&](double u) {
    const Vec3d offset = unit * -u;
    return core_distance({moving_core.a + offset, moving_core.b + offset}, target).distance >= radius;
  };
  // A first step of the scale of the shapes, then doubling.
  double high = length(moving_core.b - moving_core.a) + radius + length(target.support(unit) - target.support(-unit));
  if (!(high > 0)) high = 1;
  double low = 0;
  for (int i = 0; i < 64 && !apart(high); ++i) low = high, high *= 2;
  for (int i = 0; i < 64 && high - low > 1e-15 * high; ++i) {
    const double middle = 0.5 * (low + high);
    (apart(middle) ? high : low) = middle;
  }
  return high;
}

}  // namespace hitscan::detail
