#pragma once
/// Test support for the sweeps: an independent double-precision reference of the first contact
/// of a moving sphere or capsule, and the seeded random differential driver.
///
/// Every shape is reduced to a core (a point, a segment or a convex solid) and a radius. The
/// reference distance between the moving core and the target is written differently from the
/// kernels: segment against segment by enumerating the four end-to-segment distances and the
/// lines' interior critical point; against a box or a cylinder by a golden-section search along
/// the segment of the exact point distance (the box clamped in its frame, the cylinder by its
/// axial and radial excess); against a triangle by the end-to-face distances, the segment against
/// the three edges and the piercing test; a polygon as its triangle fan; a plane by the ends'
/// heights. No GJK, no ray test, no Minkowski sum.
///
/// f(s) = distance(core + s dir, target core) - radii is convex in s (a convex set translated
/// along a line): the reference minimises it by golden section on [0, max_distance], and where
/// the minimum is below 0 bisects the decreasing branch for the first s with f(s) = 0.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "geometry/reference_shapes.hpp"
#include "hitscan/geometry/shapes.hpp"
#include "hitscan/geometry/sweep.hpp"

namespace hitscan::sweep_reference {

using reference::to_double;

/// Closest points of a moving core and a target core, and their distance.
struct Closest {
  double distance = reference::kInf;
  Vec3d on_moving{}, on_target{};
};

inline Closest make_closest(Vec3d on_moving, Vec3d on_target) { return {length(on_moving - on_target), on_moving, on_target}; }

inline Closest nearer(const Closest& x, const Closest& y) { return y.distance < x.distance ? y : x; }

/// Golden-section minimisation of a convex (unimodal) g on [lo, hi]; returns the argument.
template <class G>
double golden_minimum(G g, double lo, double hi, int evaluations = 90) {
  const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
  double x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
  double g1 = g(x1), g2 = g(x2);
  for (int i = 0; i < evaluations; ++i) {
    if (g1 <= g2) {
      hi = x2, x2 = x1, g2 = g1;
      x1 = hi - ratio * (hi - lo), g1 = g(x1);
    } else {
      lo = x1, x1 = x2, g1 = g2;
      x2 = lo + ratio * (hi - lo), g2 = g(x2);
    }
  }
  // The ends are candidates too (a minimum at an end is approached only in the limit).
  double best = 0.5 * (lo + hi), best_g = g(best);
  for (const double x : {lo, hi}) {
    const double gx = g(x);
    if (gx < best_g) best = x, best_g = gx;
  }
  return best;
}

// ---- distances of a point ---------------------------------------------------------------------

inline Vec3d nearest_on_segment(Vec3d p, Vec3d a, Vec3d b) {
  const Vec3d ab = b - a;
  const double l2 = dot(ab, ab);
  if (l2 == 0) return a;
  const double t = std::fmin(1.0, std::fmax(0.0, dot(p - a, ab) / l2));
  return a + ab * t;
}

struct BoxD {
  Vec3d center, half;
  Vec3d axis[3];
};
inline Vec3d nearest_on_box(Vec3d p, const BoxD& b) {
  Vec3d q = b.center;
  for (int i = 0; i < 3; ++i) {
    const double x = dot(p - b.center, b.axis[i]);
    q = q + b.axis[i] * std::fmin(b.half[i], std::fmax(-b.half[i], x));
  }
  return q;
}

struct CylinderD {
  Vec3d a, b;
  double radius;
};
/// The solid cylinder's nearest point: the axial part clamped to the axis' span, the radial part
/// to the radius, in the frame of the axis.
inline Vec3d nearest_on_cylinder(Vec3d p, const CylinderD& c) {
  const double length_axis = length(c.b - c.a);
  const Vec3d u = (c.b - c.a) / length_axis;
  const double z = dot(p - c.a, u);
  const Vec3d radial = p - c.a - u * z;
  const double rho = length(radial);
  const Vec3d radial_clamped = rho > c.radius ? radial * (c.radius / rho) : radial;
  return c.a + u * std::fmin(length_axis, std::fmax(0.0, z)) + radial_clamped;
}

/// Nearest point of the triangle: the plane projection when its three barycentric signs agree,
/// else the nearest of the edges.
inline Vec3d nearest_on_triangle(Vec3d p, Vec3d a, Vec3d b, Vec3d c) {
  const Vec3d n = cross(b - a, c - a);
  const double n2 = dot(n, n);
  if (n2 > 1e-24 * dot(b - a, b - a) * dot(c - a, c - a)) {
    const Vec3d q = p - n * (dot(p - a, n) / n2);
    if (dot(cross(b - a, q - a), n) >= 0 && dot(cross(c - b, q - b), n) >= 0 && dot(cross(a - c, q - c), n) >= 0) return q;
  }
  Vec3d best = nearest_on_segment(p, a, b);
  for (const Vec3d e : {nearest_on_segment(p, b, c), nearest_on_segment(p, c, a)}) {
    if (length(p - e) < length(p - best)) best = e;
  }
  return best;
}

// ---- a segment core against each target core --------------------------------------------------

struct SegmentD {
  Vec3d a, b;
};

inline Closest closest(const SegmentD& m, Vec3d point) {
  return make_closest(nearest_on_segment(point, m.a, m.b), point);
}

inline Closest closest(const SegmentD& m, const SegmentD& t) {
  Closest best = make_closest(m.a, nearest_on_segment(m.a, t.a, t.b));
  best = nearer(best, make_closest(m.b, nearest_on_segment(m.b, t.a, t.b)));
  best = nearer(best, make_closest(nearest_on_segment(t.a, m.a, m.b), t.a));
  best = nearer(best, make_closest(nearest_on_segment(t.b, m.a, m.b), t.b));
  // Interior critical point of the two lines: the common perpendicular.
  const Vec3d d1 = m.b - m.a, d2 = t.b - t.a;
  const Vec3d n = cross(d1, d2);
  const double n2 = dot(n, n);
  if (n2 > 1e-20 * dot(d1, d1) * dot(d2, d2)) {
    const double s = dot(cross(t.a - m.a, d2), n) / n2;
    const double u = dot(cross(t.a - m.a, d1), n) / n2;
    if (s > 0 && s < 1 && u > 0 && u < 1) best = nearer(best, make_closest(m.a + d1 * s, t.a + d2 * u));
  }
  return best;
}

template <class NearestPoint>
Closest closest_by_search(const SegmentD& m, NearestPoint nearest) {
  const auto at = [&](double t) { return m.a + (m.b - m.a) * t; };
  const auto g = [&](double t) { return length(at(t) - nearest(at(t))); };
  const double t = m.a == m.b ? 0.0 : golden_minimum(g, 0.0, 1.0);
  return make_closest(at(t), nearest(at(t)));
}

inline Closest closest(const SegmentD& m, const BoxD& box) {
  return closest_by_search(m, [&](Vec3d p) { return nearest_on_box(p, box); });
}
inline Closest closest(const SegmentD& m, const CylinderD& c) {
  return closest_by_search(m, [&](Vec3d p) { return nearest_on_cylinder(p, c); });
}

struct TriangleD {
  Vec3d v0, v1, v2;
};
inline Closest closest(const SegmentD& m, const TriangleD& t) {
  Closest best = make_closest(m.a, nearest_on_triangle(m.a, t.v0, t.v1, t.v2));
  best = nearer(best, make_closest(m.b, nearest_on_triangle(m.b, t.v0, t.v1, t.v2)));
  best = nearer(best, closest(m, SegmentD{t.v0, t.v1}));
  best = nearer(best, closest(m, SegmentD{t.v1, t.v2}));
  best = nearer(best, closest(m, SegmentD{t.v2, t.v0}));
  // Piercing: the segment crosses the plane at a point of the triangle.
  const Vec3d n = cross(t.v1 - t.v0, t.v2 - t.v0);
  const double ha = dot(m.a - t.v0, n), hb = dot(m.b - t.v0, n);
  if (ha * hb < 0) {
    const Vec3d x = m.a + (m.b - m.a) * (ha / (ha - hb));
    if (length(nearest_on_triangle(x, t.v0, t.v1, t.v2) - x) <= 1e-14 * length(t.v1 - t.v0)) best = make_closest(x, x);
  }
  return best;
}

struct PolygonD {
  std::vector<Vec3d> vertices;
};
inline Closest closest(const SegmentD& m, const PolygonD& p) {
  Closest best;
  for (std::size_t i = 1; i + 1 < p.vertices.size(); ++i) {
    best = nearer(best, closest(m, TriangleD{p.vertices[0], p.vertices[i], p.vertices[i + 1]}));
  }
  return best;
}

struct PlaneD {
  Vec3d normal;  // unit
  double offset;
};
inline Closest closest(const SegmentD& m, const PlaneD& p) {
  const double ha = dot(p.normal, m.a) - p.offset, hb = dot(p.normal, m.b) - p.offset;
  if (ha * hb <= 0) {
    const Vec3d x = ha == hb ? m.a : m.a + (m.b - m.a) * (ha / (ha - hb));
    return make_closest(x, x);
  }
  const Vec3d end = std::abs(ha) <= std::abs(hb) ? m.a : m.b;
  return make_closest(end, end - p.normal * (std::abs(ha) <= std::abs(hb) ? ha : hb));
}

// ---- shapes to cores --------------------------------------------------------------------------

/// A target as a core in double and the radius around it.
template <class Core>
struct TargetD {
  Core core;
  double radius = 0;
};

template <Real T>
TargetD<Vec3d> target_of(const Sphere<T>& s) {
  return {to_double(s.center), double(s.radius)};
}
template <Real T>
TargetD<SegmentD> target_of(const Capsule<T>& c) {
  return {{to_double(c.a), to_double(c.b)}, double(c.radius)};
}
template <Real T>
TargetD<BoxD> target_of(const Obb<T>& b) {
  return {{to_double(b.center), to_double(b.half_extents),
           {to_double(b.rotation.col[0]), to_double(b.rotation.col[1]), to_double(b.rotation.col[2])}},
          0.0};
}
template <Real T>
TargetD<CylinderD> target_of(const Cylinder<T>& c) {
  return {{to_double(c.a), to_double(c.b), double(c.radius)}, 0.0};
}
template <Real T>
TargetD<TriangleD> target_of(const Triangle<T>& t) {
  return {{to_double(t.v0), to_double(t.v1), to_double(t.v2)}, 0.0};
}
template <Real T>
TargetD<PolygonD> target_of(const ConvexPolygon<T>& p) {
  PolygonD d;
  for (const Vec3<T>& v : p.vertices()) d.vertices.push_back(to_double(v));
  return {d, 0.0};
}
template <Real T>
TargetD<PlaneD> target_of(const Plane<T>& p) {
  const Vec3d n = to_double(p.normal);
  return {{n / length(n), double(p.offset) / length(n)}, 0.0};
}

/// The moving shape as a segment core and a radius.
struct MovingD {
  SegmentD core;
  double radius = 0;
};
template <Real T>
MovingD moving_of(const Sphere<T>& s) {
  return {{to_double(s.center), to_double(s.center)}, double(s.radius)};
}
template <Real T>
MovingD moving_of(const Capsule<T>& c) {
  return {{to_double(c.a), to_double(c.b)}, double(c.radius)};
}

// ---- the first contact ------------------------------------------------------------------------

/// The gap function f(s) of a sweep and its first zero.
template <class Core>
struct SweepProblem {
  MovingD moving;
  TargetD<Core> target;
  Vec3d direction;
  double max_distance;

  Closest closest_at(double s) const {
    const Vec3d o = direction * s;
    return sweep_reference::closest(SegmentD{moving.core.a + o, moving.core.b + o}, target.core);
  }
  double gap(double s) const { return closest_at(s).distance - moving.radius - target.radius; }
  /// The unit normal at s, from the target's core towards the moving core.
  Vec3d normal_at(double s) const {
    const Closest c = closest_at(s);
    return (c.on_moving - c.on_target) / c.distance;
  }
};

struct ReferenceSweep {
  bool started = false;   // f(0) <= 0
  bool hit = false;       // f <= 0 somewhere on [0, max_distance]
  double s = reference::kInf;  // the first zero of f (0 when started)
  double min_s = 0;       // where f is least on [0, max_distance]
  double min_gap = 0;     // that least value
};

template <class Core>
ReferenceSweep solve(const SweepProblem<Core>& p) {
  ReferenceSweep r;
  const double g0 = p.gap(0);
  if (g0 <= 0) {
    r.started = r.hit = true;
    r.s = 0, r.min_gap = g0;
    return r;
  }
  r.min_s = golden_minimum([&](double s) { return p.gap(s); }, 0.0, p.max_distance, 120);
  r.min_gap = p.gap(r.min_s);
  if (!(r.min_gap <= 0)) return r;
  double lo = 0, hi = r.min_s;
  for (int i = 0; i < 200 && hi - lo > 0; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) break;
    (p.gap(mid) <= 0 ? hi : lo) = mid;
  }
  r.hit = true;
  r.s = hi;
  return r;
}

}  // namespace hitscan::sweep_reference
