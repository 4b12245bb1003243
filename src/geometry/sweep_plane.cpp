// Box and hull casts against a plane (geometry/sweep_plane.hpp): the moving shape's extent along
// the plane's unit normal n moves linearly along the path, so the first contact is the gap
// between the plane and the near end of that extent over the approach speed -dot(n, direction).

#include "hitscan/geometry/sweep_plane.hpp"

#include <cmath>

#include "hitscan/geometry/shape_size.hpp"
#include "hitscan/geometry/detail/sweep_support.hpp"

namespace hitscan {
namespace {

// The extent [low, high] of a box along unit n, and its point furthest along -n. An axis that lies
// flat across n (its reach along n at most `flat`) leaves that point in the middle of the axis,
// so a box resting on a face or an edge touches at the middle of it.
template <Real T>
void extent_along(const Obb<T>& b, Vec3<T> n, T flat, T& low, T& high, Vec3<T>& lowest) {
  T reach = 0;
  lowest = b.center;
  for (int i = 0; i < 3; ++i) {
    const T along = dot(n, b.rotation.col[i]) * b.half_extents[i];
    reach += std::abs(along);
    if (std::abs(along) > flat) lowest = lowest - b.rotation.col[i] * (along < T(0) ? -b.half_extents[i] : b.half_extents[i]);
  }
  low = dot(n, b.center) - reach, high = dot(n, b.center) + reach;
}
template <Real T>
void extent_along(const ConvexHull<T>& h, Vec3<T> n, T, T& low, T& high, Vec3<T>& lowest) {
  lowest = h.support(-n);
  low = dot(n, lowest), high = dot(n, h.support(n));
}

template <Real T, class Moving>
SweepHit<T> plane_cast(const Moving& moving, Vec3<T> direction, T max_distance, const Plane<T>& plane,
                       ContactTolerance<T> tol) {
  SweepHit<T> hit;
  if (!detail::valid_sweep(moving, direction, max_distance, plane)) return hit;
  const T scale = length(plane.normal);
  if (!(scale > T(0))) return hit;
  const Vec3<T> n = plane.normal / scale;
  const T offset = plane.offset / scale;
  const T touching = tol.at_size(size_of(moving));
  T low, high;
  Vec3<T> lowest;  // its point nearest the plane on the side of its middle
  extent_along(moving, n, touching, low, high, lowest);
  const bool front = low + high >= T(2) * offset;
  const Vec3<T> normal = front ? n : -n;
  const T gap = front ? low - offset : offset - high;
  if (!front) extent_along(moving, normal, touching, low, high, lowest);
  auto on_plane = [&](Vec3<T> p) { return p - n * (dot(n, p) - offset); };
  hit.normal = normal;
  if (gap <= touching) {
    hit.hit = hit.started_in_contact = true;
    hit.distance = T(0);
    hit.depth = max(-gap, T(0));
    hit.point = on_plane(lowest);
    return hit;
  }
  const T approach = -dot(normal, direction);
  if (!(approach > T(0))) return {};
  const T s = gap / approach;
  if (!detail::within_sweep(s, max_distance)) return {};
  hit.hit = true;
  hit.distance = s;
  hit.point = on_plane(lowest + direction * s);
  return hit;
}

}  // namespace

template <Real T>
SweepHit<T> box_cast(const Obb<T>& moving, Vec3<T> direction, T max_distance, const Plane<T>& target,
                     ContactTolerance<T> tol) {
  return plane_cast(moving, direction, max_distance, target, tol);
}

template <Real T>
SweepHit<T> convex_cast(const ConvexHull<T>& moving, Vec3<T> direction, T max_distance, const Plane<T>& target,
                        ContactTolerance<T> tol) {
  return plane_cast(moving, direction, max_distance, target, tol);
}

template SweepHit<float> box_cast(const Obb<float>&, Vec3<float>, float, const Plane<float>&, ContactTolerance<float>);
template SweepHit<double> box_cast(const Obb<double>&, Vec3<double>, double, const Plane<double>&,
                                   ContactTolerance<double>);
template SweepHit<float> convex_cast(const ConvexHull<float>&, Vec3<float>, float, const Plane<float>&,
                                     ContactTolerance<float>);
template SweepHit<double> convex_cast(const ConvexHull<double>&, Vec3<double>, double, const Plane<double>&,
                                      ContactTolerance<double>);

}  // namespace hitscan
