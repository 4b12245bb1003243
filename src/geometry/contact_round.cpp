#include "hitscan/geometry/contact_round.hpp"

#include "contact_support.hpp"
#include "hitscan/geometry/closest_point.hpp"

namespace hitscan {
namespace {

using detail::capsule_size;
using detail::margin_or_zero;
using detail::pair_size;
using detail::within;

/// Valid radii are >= 0; a negative or NaN one makes the shape touch nothing.
template <Real T>
bool valid_radius(T r) {
  return r >= T(0);
}

/// A fixed unit vector perpendicular to v, +z when v is zero.
template <Real T>
Vec3<T> any_perpendicular(Vec3<T> v) {
  const Vec3<T> u = normalize(v);
  if (u == Vec3<T>{}) return {0, 0, 1};
  Vec3<T> b1, b2;
  orthonormal_basis(u, b1, b2);
  return b1;
}

/// Whether cores at squared distance d2 with these radii are within `limit` of touching, without
/// a square root. NaN anywhere gives false.
template <Real T>
bool within(T d2, T radius_a, T radius_b, T limit) {
  const T reach = radius_a + radius_b + limit;
  return reach >= T(0) && d2 <= reach * reach;
}

/// The contact of two round shapes from their core points and the unit normal from B to A.
template <Real T>
Contact<T> round_contact(Vec3<T> core_a, Vec3<T> core_b, T d2, Vec3<T> normal, T radius_a, T radius_b) {
  Contact<T> c;
  c.touching = true;
  c.normal = normal;
  c.point_on_a = core_a - normal * radius_a;
  c.point_on_b = core_b + normal * radius_b;
  c.depth = radius_a + radius_b - std::sqrt(d2);
  return c;
}

}  // namespace

template <Real T>
bool overlap(const Sphere<T>& a, const Capsule<T>& b, ContactTolerance<T> tol) {
  if (!valid_radius(a.radius) || !valid_radius(b.radius)) return false;
  const Vec3<T> on_b = closest_point_on_segment(Segment<T>{b.a, b.b}, a.center);
  return within(distance_squared(a.center, on_b), a.radius, b.radius, tol.at_size(pair_size(a.radius, capsule_size(b))));
}

template <Real T>
Contact<T> contact(const Sphere<T>& a, const Capsule<T>& b, std::type_identity_t<T> margin, ContactTolerance<T> tol) {
  if (!valid_radius(a.radius) || !valid_radius(b.radius)) return {};
  const Vec3<T> on_b = closest_point_on_segment(Segment<T>{b.a, b.b}, a.center);
  const Vec3<T> d = a.center - on_b;
  const T d2 = dot(d, d);
  const T limit = margin_or_zero(margin) + tol.at_size(pair_size(a.radius, capsule_size(b)));
  if (!within(d2, a.radius, b.radius, limit)) return {};
  Vec3<T> n = normalize(d);
  // The centre on the segment: any direction perpendicular to the segment is a shortest way out.
  if (n == Vec3<T>{}) n = any_perpendicular(b.b - b.a);
  return round_contact(a.center, on_b, d2, n, a.radius, b.radius);
}

template <Real T>
bool overlap(const Capsule<T>& a, const Capsule<T>& b, ContactTolerance<T> tol) {
  if (!valid_radius(a.radius) || !valid_radius(b.radius)) return false;
  const SegmentPairClosestPoints<T> pair = closest_points_between_segments(Segment<T>{a.a, a.b}, Segment<T>{b.a, b.b});
  return within(pair.distance_squared, a.radius, b.radius, tol.at_size(pair_size(capsule_size(a), capsule_size(b))));
}

template <Real T>
Contact<T> contact(const Capsule<T>& a, const Capsule<T>& b, std::type_identity_t<T> margin, ContactTolerance<T> tol) {
  if (!valid_radius(a.radius) || !valid_radius(b.radius)) return {};
  const SegmentPairClosestPoints<T> pair = closest_points_between_segments(Segment<T>{a.a, a.b}, Segment<T>{b.a, b.b});
  const Vec3<T> d = pair.on_first - pair.on_second;
  const T d2 = dot(d, d);
  const T limit = margin_or_zero(margin) + tol.at_size(pair_size(capsule_size(a), capsule_size(b)));
  if (!within(d2, a.radius, b.radius, limit)) return {};

  const Vec3<T> axis_a = a.b - a.a, axis_b = b.b - b.a;
  const Vec3<T> c = cross(axis_a, axis_b);
  const T c2 = dot(c, c);
  // Between points interior to both segments d is perpendicular to both, so along c. d's
  // direction carries the rounding of the points' positions, about eps * length / |d|; c's
  // carries eps / sin(angle). c is the better one when |d| < sin(angle) * the longer length,
  // i.e. d2 * min(|axis_a|², |axis_b|²) < c2. Where the points coincide, either normal of the
  // plane of the two segments is a shortest way out.
  const bool interior = pair.s > T(0) && pair.s < T(1) && pair.t > T(0) && pair.t < T(1);
  const bool use_cross = c2 > T(0) && (interior || d2 == T(0)) &&
                         d2 * min(dot(axis_a, axis_a), dot(axis_b, axis_b)) < c2;
  Vec3<T> n = use_cross ? normalize(c) : normalize(d);
  if (use_cross) {
    T side = dot(n, d);
    if (side == T(0)) side = dot(n, (a.a + a.b) - (b.a + b.b));  // the segments meet: centre to centre
    if (side < T(0)) n = -n;
  }
  if (n == Vec3<T>{}) {
    // Parallel segments that overlap, or points: perpendicular to B's segment (or A's).
    n = any_perpendicular(dot(axis_b, axis_b) > T(0) ? axis_b : axis_a);
  }
  return round_contact(pair.on_first, pair.on_second, d2, n, a.radius, b.radius);
}

#define HITSCAN_INSTANTIATE_CONTACT_ROUND(T)                                                                   \
  template bool overlap(const Sphere<T>&, const Capsule<T>&, ContactTolerance<T>);                              \
  template Contact<T> contact(const Sphere<T>&, const Capsule<T>&, std::type_identity_t<T>, ContactTolerance<T>);  \
  template bool overlap(const Capsule<T>&, const Capsule<T>&, ContactTolerance<T>);                             \
  template Contact<T> contact(const Capsule<T>&, const Capsule<T>&, std::type_identity_t<T>, ContactTolerance<T>);

HITSCAN_INSTANTIATE_CONTACT_ROUND(float)
HITSCAN_INSTANTIATE_CONTACT_ROUND(double)
#undef HITSCAN_INSTANTIATE_CONTACT_ROUND

}  // namespace hitscan
