#pragma once
// Rules shared by the sphere and capsule sweeps (private to src/): input validation, the
// characteristic sizes the tolerance is taken at, the start-in-contact record, and conservative
// advancement on the GJK distance for the pairs that have no exact kernel.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <cstddef>

#include "hitscan/geometry/detail/gjk_distance.hpp"
#include "hitscan/geometry/contact_triangle.hpp"
#include "hitscan/geometry/convex_hull.hpp"
#include "hitscan/geometry/shape_size.hpp"
#include "hitscan/geometry/sweep.hpp"

namespace hitscan::detail {

/// A finite, non-zero direction and a max_distance in [0, +inf] (+inf: no limit).
template <Real T>
bool valid_motion(Vec3<T> direction, T max_distance) {
  return is_finite(direction) && direction != Vec3<T>{} && max_distance >= T(0);
}

template <Real T>
bool valid_shape(const Sphere<T>& s) {
  return is_finite(s.center) && is_finite(s.radius) && s.radius >= T(0);
}
template <Real T>
bool valid_shape(const Capsule<T>& c) {
  return is_finite(c.a) && is_finite(c.b) && is_finite(c.radius) && c.radius >= T(0);
}
template <Real T>
bool valid_shape(const Obb<T>& b) {
  return is_finite(b.center) && is_finite(b.half_extents) && min_component(b.half_extents) >= T(0) &&
         is_finite(b.rotation.col[0]) && is_finite(b.rotation.col[1]) && is_finite(b.rotation.col[2]);
}
/// A cylinder with a == b has no volume and is never met (as for rays).
template <Real T>
bool valid_shape(const Cylinder<T>& c) {
  return is_finite(c.a) && is_finite(c.b) && c.a != c.b && is_finite(c.radius) && c.radius >= T(0);
}
template <Real T>
bool valid_shape(const Plane<T>& p) {
  return is_finite(p.normal) && is_finite(p.offset) && p.normal != Vec3<T>{};
}
template <Real T>
bool valid_shape(const Triangle<T>& t) {
  return is_finite(t.v0) && is_finite(t.v1) && is_finite(t.v2);
}
/// ConvexPolygon::make only builds finite, usable polygons.
template <Real T>
bool valid_shape(const ConvexPolygon<T>&) {
  return true;
}
/// ConvexHull::make likewise only builds finite hulls of some volume.
template <Real T>
bool valid_shape(const ConvexHull<T>&) {
  return true;
}

/// What every sweep checks first: the motion, the moving shape and the target.
template <Real T, class Moving, class Target>
bool valid_sweep(const Moving& moving, Vec3<T> direction, T max_distance, const Target& target) {
  return valid_motion(direction, max_distance) && valid_shape(moving) && valid_shape(target);
}

/// The record of a sweep blocked at the start by contact c (target is contact.hpp's B).
template <Real T>
SweepHit<T> started_in_contact(const Contact<T>& c) {
  SweepHit<T> hit;
  hit.hit = true;
  hit.started_in_contact = true;
  hit.distance = 0;
  hit.point = c.point_on_b;
  hit.normal = c.normal;
  hit.depth = max(c.depth, T(0));
  return hit;
}

/// The contact of a sphere or capsule with a convex polygon: the deepest of the contacts with the
/// triangles of its fan (v0, vi, vi+1), which is the nearest one while the core stays off the
/// polygon and the face-normal answer of contact_triangle.hpp when it meets it.
template <Real T, class Shape>
Contact<T> polygon_contact(const Shape& moving, const ConvexPolygon<T>& polygon, ContactTolerance<T> tol) {
  Contact<T> best;
  const auto v = polygon.vertices();
  for (std::size_t i = 1; i + 1 < v.size(); ++i) {
    const Contact<T> c = contact(moving, Triangle<T>{v[0], v[i], v[i + 1]}, T(0), tol);
    if (c.touching && (!best.touching || c.depth > best.depth)) best = c;
  }
  return best;
}

/// s is a contact distance the sweep accepts: at most max_distance and finite. A path nearly
/// parallel to a face can put the true contact beyond the largest finite T; that is a miss, never
/// a hit at infinity (as in_range says for rays).
template <Real T>
bool within_sweep(T s, T max_distance) {
  return s <= max_distance && s < std::numeric_limits<T>::infinity();
}

/// A hit at distance s (not a start in contact).
template <Real T>
SweepHit<T> hit_at(T s, Vec3<T> point, Vec3<T> normal) {
  SweepHit<T> hit;
  hit.hit = true;
  hit.distance = s;
  hit.point = point;
  hit.normal = normal;
  return hit;
}

/// The answer of conservative advancement, in double.
struct Advancement {
  bool hit = false;
  double s = 0;
  Vec3d point_on_target{};  // on the target's surface (its core's point plus its radius)
  Vec3d normal{};           // unit, from the target towards the moving shape
};

/// Conservative advancement (Mirtich 1996; the ray-cast form of van den Bergen, "Ray Casting
/// against General Convex Objects with Application to Continuous Collision Detection", 2004):
/// the moving core (any convex support: a point, a segment, a box, a hull) of radius
/// moving_radius travels along direction; the target is a core of radius target_radius. At each step the GJK distance d
/// between the cores, less the radii, and the unit n from the target's closest point to the
/// moving one give a plane that separates the shapes by d, which the motion cannot cross before
/// s advances by d / dot(-direction, n): that step never passes the first contact. Stops with a
/// hit when d <= tolerance, with a miss when the shapes stop approaching (dot(-direction, n) <= 0)
/// or s passes max_distance. After kMaxAdvancementSteps steps without meeting either (only paths
/// that graze the target within a few tolerances come near it) it reports a hit at the last s,
/// where the shapes are still apart: a sweep never reports a position that overlaps the target.
/// `at_start`, when given, is the cores' GJK distance at s = 0 (gjk_distance(moving_core,
/// target)), which a caller that has just read the start's contact from it need not pay twice.
inline constexpr int kMaxAdvancementSteps = 64;
Advancement advance(const ConvexSupport& moving_core, double moving_radius, const ConvexSupport& target,
                    double target_radius, Vec3d direction, double max_distance, double tolerance,
                    const GjkDistance* at_start = nullptr);

/// advance() for a moving sphere's or capsule's core.
inline Advancement advance(const Segment<double>& moving_core, double moving_radius, const ConvexSupport& target,
                           double target_radius, Vec3d direction, double max_distance, double tolerance,
                           const GjkDistance* at_start = nullptr) {
  return advance(ConvexSupport::from(moving_core), moving_radius, target, target_radius, direction, max_distance,
                 tolerance, at_start);
}

/// The GJK distance of a segment (a point when a == b) and a convex support, in double.
GjkDistance core_distance(const Segment<double>& core, const ConvexSupport& target);

/// How far the moving core must travel back along -direction until it is `radius` from the
/// target: the depth, along the normal -direction, of a start in contact whose cores overlap.
/// The distance is convex along the line and 0 at the start, so it only grows going back:
/// doubling finds a point beyond, bisection the crossing (to double's precision at the size).
double backtrack_depth(const Segment<double>& moving_core, double radius, const ConvexSupport& target,
                       Vec3d direction);

/// The sweep's answer from an advancement, in T.
template <Real T>
SweepHit<T> from_advancement(const Advancement& a, T max_distance) {
  // The advancement runs in double: a contact just beyond max_distance there may round onto it
  // in T, and is then a hit, as the analytic pairs (computed in T) would say.
  if (!a.hit || !within_sweep(static_cast<T>(a.s), max_distance)) return {};
  return hit_at(static_cast<T>(a.s), vec3_cast<T>(a.point_on_target), normalize(vec3_cast<T>(a.normal)));
}

/// The limit of an advancement in double for a sweep limited to max_distance in T: one ulp of T
/// beyond, so that every contact that rounds to max_distance or less in T is found.
template <Real T>
double advancement_limit(T max_distance) {
  return static_cast<double>(std::nextafter(max_distance, std::numeric_limits<T>::infinity()));
}

template <Real T>
Segment<double> to_double(const Segment<T>& s) {
  return {vec3_cast<double>(s.a), vec3_cast<double>(s.b)};
}

/// Whether a ball of radius moving_radius centred at `from`, moved along direction over
/// [0, max_distance], stays farther than `reach` (the two radii and a tolerance) from `to`:
/// then the shapes the balls hold never touch. A cheap rejection before an exact sweep.
template <Real T>
bool balls_stay_apart(Vec3<T> from, Vec3<T> direction, T max_distance, Vec3<T> to, T reach) {
  const Vec3<T> offset = to - from;
  const T along = dot(offset, direction) / dot(direction, direction);
  const Vec3<T> off = offset - direction * std::clamp(along, T(0), max_distance);
  return dot(off, off) > reach * reach * T(1.0001);
}

/// The corridor a sphere's or capsule's sweep stays in, seen along its direction: two slabs
/// parallel to the direction (normals n[0], n[1], unit and orthogonal to it, n[0] also to a
/// capsule's segment where it can be), each spanning the projections of the segment's ends (a
/// sphere's centre) grown by the radius. In double whatever T.
/// A target whose projection on either normal lies beyond the slab by more than `reach` (the
/// pair's tolerance) is never met, whatever the distance: a cheap rejection before an exact
/// sweep, for targets whose sweep is costly (the GJK advancements).
struct SweepCorridor {
  Vec3d n[2]{};
  double low[2]{}, high[2]{};
  bool active = false;

  template <Real T>
  SweepCorridor(const Sphere<T>& moving, Vec3<T> direction)
      : SweepCorridor(Capsule<T>{moving.center, moving.center, moving.radius}, direction) {}
  template <Real T>
  SweepCorridor(const Capsule<T>& moving, Vec3<T> direction) {
    const Vec3d a = vec3_cast<double>(moving.a), b = vec3_cast<double>(moving.b);
    const Vec3d d = normalize(vec3_cast<double>(direction)), u = b - a, c = cross(u, d);
    const double c2 = dot(c, c);
    if (c2 > 1e-12 * dot(u, u)) {
      n[0] = c / std::sqrt(c2);
      n[1] = cross(d, n[0]);
    } else {
      orthonormal_basis(d, n[0], n[1]);
    }
    active = dot(d, d) > 0.5 && is_finite(n[0]) && is_finite(n[1]);
    for (int k = 0; k < 2; ++k) {
      const double pa = dot(n[k], a), pb = dot(n[k], b);
      low[k] = std::fmin(pa, pb) - double(moving.radius);
      high[k] = std::fmax(pa, pb) + double(moving.radius);
    }
  }
  /// Whether a target whose projection on n[k] is [centre_k - extent_k, centre_k + extent_k]
  /// (extent(n[k]) its half width along n[k]) may come within `reach` of the swept capsule. The
  /// margin of 1e-9 of the sizes and coordinates covers the rounding of these products in double.
  template <class Extent>
  bool may_touch(Vec3d centre, const Extent& extent, double reach) const {
    if (!active) return true;
    for (int k = 0; k < 2; ++k) {
      const double p = dot(n[k], centre), e = extent(n[k]);
      const double margin = reach + 1e-9 * (std::fabs(p) + e + std::fabs(low[k]) + std::fabs(high[k]));
      if (p - e > high[k] + margin || p + e < low[k] - margin) return false;
    }
    return true;
  }
};

/// A box's half width along a unit n, for SweepCorridor::may_touch: the sum of its scaled axes'
/// reaches along n.
template <Real T>
auto box_half_width(const Obb<T>& box) {
  return [axes = std::array<Vec3d, 3>{vec3_cast<double>(box.rotation.col[0]) * double(box.half_extents.x),
                                      vec3_cast<double>(box.rotation.col[1]) * double(box.half_extents.y),
                                      vec3_cast<double>(box.rotation.col[2]) * double(box.half_extents.z)}](Vec3d n) {
    return std::fabs(dot(n, axes[0])) + std::fabs(dot(n, axes[1])) + std::fabs(dot(n, axes[2]));
  };
}

/// A cylinder's centre, and its half width along a unit n (for SweepCorridor::may_touch): its half
/// axis's reach along n, and its caps' radius times the sine of the angle between n and the axis.
template <Real T>
Vec3d cylinder_centre(const Cylinder<T>& c) {
  return (vec3_cast<double>(c.a) + vec3_cast<double>(c.b)) * 0.5;
}
template <Real T>
auto cylinder_half_width(const Cylinder<T>& c) {
  const Vec3d half_axis = (vec3_cast<double>(c.b) - vec3_cast<double>(c.a)) * 0.5;
  return [half_axis, half_axis2 = dot(half_axis, half_axis), radius = double(c.radius)](Vec3d n) {
    const double along = dot(n, half_axis);
    return std::fabs(along) + radius * std::sqrt(std::fmax(0.0, 1.0 - along * along / half_axis2));
  };
}

/// A flat target (triangle, convex polygon) as the sphere and capsule sweeps see it: its unit
/// normal, zero for a triangle too thin to carry a plane (closest_point.hpp's rule; it is then
/// the union of its edges), its plane's offset, and its corners in order about the normal. The
/// corners are the caller's.
template <Real T>
struct FlatTarget {
  Vec3<T> n{};
  T offset = 0;
  const Vec3<T>* corners = nullptr;
  int count = 0;

  bool has_plane() const { return n != Vec3<T>{}; }
  Segment<T> edge(int i) const { return {corners[i], corners[(i + 1) % count]}; }
  /// Whether q, a point of the plane, lies on the face (its edges included).
  bool inside(Vec3<T> q) const {
    for (int i = 0; i < count; ++i) {
      const Segment<T> e = edge(i);
      if (dot(cross(e.b - e.a, q - e.a), n) < T(0)) return false;
    }
    return true;
  }
};

/// A triangle's corners, held for its FlatTarget.
template <Real T>
struct TriangleCorners {
  Vec3<T> v[3];
  explicit TriangleCorners(const Triangle<T>& t) : v{t.v0, t.v1, t.v2} {}
  FlatTarget<T> target() const {
    const Vec3<T> e1 = v[1] - v[0], e2 = v[2] - v[0];
    const Vec3<T> n = carries_plane(e1, e2) ? normalize(cross(e1, e2)) : Vec3<T>{};
    return {n, dot(n, v[0]), v, 3};
  }
};

template <Real T>
FlatTarget<T> flat_target(const ConvexPolygon<T>& p) {
  const auto v = p.vertices();
  return {p.normal(), p.offset(), v.data(), static_cast<int>(v.size())};
}

}  // namespace hitscan::detail
