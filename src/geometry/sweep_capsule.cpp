// Capsule casts (geometry/sweep.hpp). A plane is met first by the capsule's lower end, exactly; a
// sphere is a ray from its centre, moving backwards, against the capsule grown by its radius
// (the relative motion is the same); every other target is conservative advancement on the GJK
// distance of the capsule's segment and the target (sweep_advancement.cpp).

#include "hitscan/geometry/contact_capsule_box.hpp"
#include "hitscan/geometry/contact_round.hpp"
#include "hitscan/geometry/contact_triangle.hpp"
#include "hitscan/geometry/ray_capsule.hpp"
#include "hitscan/geometry/detail/sweep_support.hpp"

namespace hitscan {
namespace {

using detail::hit_at;
using detail::started_in_contact;
using detail::to_double;
using detail::valid_sweep;
using detail::within_sweep;

/// The part every advancement pair shares once the start is known to be apart: the capsule's
/// segment against the target's core, within the tolerance at the pair's size.
template <Real T>
SweepHit<T> advance(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const ConvexSupport& target_core,
                    T target_radius, T limit) {
  return detail::from_advancement<T>(detail::advance(to_double(Segment<T>{moving.a, moving.b}), moving.radius,
                                                     target_core, target_radius, vec3_cast<double>(direction),
                                                     detail::advancement_limit(max_distance), limit),
                                     max_distance);
}

template <Real T, class Target>
T pair_limit(const Capsule<T>& moving, const Target& target, ContactTolerance<T> tol) {
  return tol.at_size(max(size_of(moving), size_of(target)));
}

}  // namespace

template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Sphere<T>& target,
                         ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  // contact() has the sphere as A: its normal runs from the capsule to the sphere, and its
  // point_on_a is the sphere's point facing the capsule.
  const Contact<T> start = contact(target, moving, T(0), tol);
  if (start.touching) return started_in_contact(Contact<T>{true, start.point_on_b, start.point_on_a, -start.normal, start.depth});
  const Capsule<T> grown{moving.a, moving.b, moving.radius + target.radius};
  const RayHit<T> h = ray_vs_capsule(grown, Ray<T>{target.center, -direction, T(0), max_distance});
  if (!h) return {};
  // The ray's normal points out of the grown capsule, from M towards the target.
  const Vec3<T> normal = -h.normal;
  return hit_at(h.t, target.center + normal * target.radius, normal);
}

template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Capsule<T>& target,
                         ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const Contact<T> start = contact(moving, target, T(0), tol);
  if (start.touching) return started_in_contact(start);
  return advance(moving, direction, max_distance, ConvexSupport::from(Segment<T>{target.a, target.b}),
                                target.radius, pair_limit(moving, target, tol));
}

template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Obb<T>& target,
                         ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const Contact<T> start = contact(moving, target, T(0), tol);
  if (start.touching) return started_in_contact(start);
  return advance(moving, direction, max_distance, ConvexSupport::from(target), T(0),
                            pair_limit(moving, target, tol));
}

// No contact kernel covers a capsule against a cylinder: the start is read from the GJK distance
// of the segment and the cylinder. While the segment stays out of the cylinder that is the
// contact (normal between the closest points, depth = radius - distance); once it enters the
// cylinder there are no closest points, and the contact reported is the way back along the
// path: normal -direction, depth how far back the capsule must move to just touch.
template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Cylinder<T>& target,
                         ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const T limit = pair_limit(moving, target, tol);
  const ConvexSupport cylinder = ConvexSupport::from(target);
  const Segment<double> core = to_double(Segment<T>{moving.a, moving.b});
  const GjkDistance g = detail::core_distance(core, cylinder);
  if (g.distance - moving.radius <= limit) {
    Contact<T> c;
    c.touching = true;
    if (g.distance > 0) {
      c.normal = normalize(vec3_cast<T>(g.point_on_a - g.point_on_b));
      c.point_on_b = vec3_cast<T>(g.point_on_b);
      c.depth = static_cast<T>(moving.radius - g.distance);
    } else {
      const Vec3d back = -normalize(vec3_cast<double>(direction));
      const double depth = detail::backtrack_depth(core, moving.radius, cylinder, vec3_cast<double>(direction));
      const Vec3d offset = back * depth;
      c.normal = vec3_cast<T>(back);
      c.point_on_b = vec3_cast<T>(detail::core_distance({core.a + offset, core.b + offset}, cylinder).point_on_b);
      c.depth = static_cast<T>(depth);
    }
    return started_in_contact(c);
  }
  return advance(moving, direction, max_distance, cylinder, T(0), limit);
}

// Exact: the signed distances of the segment's ends are linear in s, so the end nearer the plane
// meets it first (both at once when the segment is parallel to it, the middle then reported).
// A segment that reaches the plane gives the face-normal start of contact_triangle.hpp: the
// normal towards the side of the segment's centre (the front when it lies in the plane), the
// depth the radius plus how far the lower end lies beyond the plane.
template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Plane<T>& target,
                         ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const T scale = length(target.normal);
  const Vec3<T> n = target.normal / scale;
  const T offset = target.offset / scale;
  const T da = dot(n, moving.a) - offset, db = dot(n, moving.b) - offset;
  const T r = moving.radius, limit = tol.at_size(size_of(moving));
  const T side = da + db < T(0) ? T(-1) : T(1);
  const Vec3<T> normal = n * side;
  const T near_a = side * da, near_b = side * db;  // heights above the plane on the centre's side
  const T lowest = min(near_a, near_b);
  // The end the plane meets first, or the middle of a segment parallel to it.
  const Vec3<T> low_point =
      std::abs(near_a - near_b) <= limit ? (moving.a + moving.b) * T(0.5) : (near_a < near_b ? moving.a : moving.b);
  if (lowest - r <= limit) {
    Vec3<T> on_plane = low_point - normal * lowest;
    if (da * db < T(0)) on_plane = moving.a + (moving.b - moving.a) * (da / (da - db));  // where it crosses
    SweepHit<T> hit = hit_at(T(0), on_plane, normal);
    hit.started_in_contact = true;
    hit.depth = max(r - lowest, T(0));
    return hit;
  }
  const T approach = -dot(normal, direction);
  if (!(approach > T(0))) return {};
  const T s = (lowest - r) / approach;
  if (!within_sweep(s, max_distance)) return {};
  return hit_at(s, low_point + direction * s - normal * r, normal);
}

template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Triangle<T>& target,
                         ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const Contact<T> start = contact(moving, target, T(0), tol);
  if (start.touching) return started_in_contact(start);
  return advance(moving, direction, max_distance, ConvexSupport::from(target), T(0),
                                 pair_limit(moving, target, tol));
}

template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const ConvexPolygon<T>& target,
                         ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const Contact<T> start = detail::polygon_contact(moving, target, tol);
  if (start.touching) return started_in_contact(start);
  return advance(moving, direction, max_distance, ConvexSupport::from(target), T(0),
                                      pair_limit(moving, target, tol));
}

#define HITSCAN_INSTANTIATE_CAPSULE_CAST(T, Target)                                                   \
  template SweepHit<T> capsule_cast(const Capsule<T>&, Vec3<T>, T, const Target<T>&, ContactTolerance<T>);
#define HITSCAN_INSTANTIATE_CAPSULE_CASTS(T)            \
  HITSCAN_INSTANTIATE_CAPSULE_CAST(T, Sphere)           \
  HITSCAN_INSTANTIATE_CAPSULE_CAST(T, Capsule)          \
  HITSCAN_INSTANTIATE_CAPSULE_CAST(T, Obb)              \
  HITSCAN_INSTANTIATE_CAPSULE_CAST(T, Cylinder)         \
  HITSCAN_INSTANTIATE_CAPSULE_CAST(T, Plane)            \
  HITSCAN_INSTANTIATE_CAPSULE_CAST(T, Triangle)         \
  HITSCAN_INSTANTIATE_CAPSULE_CAST(T, ConvexPolygon)

HITSCAN_INSTANTIATE_CAPSULE_CASTS(float)
HITSCAN_INSTANTIATE_CAPSULE_CASTS(double)
#undef HITSCAN_INSTANTIATE_CAPSULE_CASTS
#undef HITSCAN_INSTANTIATE_CAPSULE_CAST

}  // namespace hitscan
