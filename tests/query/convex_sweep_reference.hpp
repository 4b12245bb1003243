#pragma once
// A brute-force reference for sweeps of convex shapes, in double: the distance from a convex shape
// moving on a line to a convex target is a convex function of the path parameter, so its least
// value comes from a golden-section search over GJK distances (gjk_epa.hpp, in double) and the
// first contact from bisection before it. Planes are done analytically. Independent of the scene's
// conservative advancement, and slow: for tests only.

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>
#include <vector>

#include "hitscan/geometry/gjk_epa.hpp"
#include "hitscan/math/transform.hpp"

namespace hitscan::test {

/// A convex piece of a collider, in double: a solid, a mesh triangle, a polygon or a hull.
using ConvexPiece = std::variant<Sphere<double>, Obb<double>, Capsule<double>, Cylinder<double>, Triangle<double>,
                                 ConvexPolygon<double>, ConvexHull<double>>;

inline Vec3d to_double(Vec3f v) { return vec3_cast<double>(v); }

/// The transform in double (its quaternion normalised again in double).
inline Transform<double> to_double(const Transformf& t) {
  return {Quat<double>::from_components(t.rotation.w, t.rotation.x, t.rotation.y, t.rotation.z), to_double(t.translation),
          to_double(t.scale)};
}

inline ConvexHull<double> hull_of(const std::vector<Vec3d>& points) { return ConvexHull<double>::make(points).value(); }

/// A hull's vertices carried by a transform, rebuilt in double.
inline ConvexHull<double> world_hull(const ConvexHullf& local, const Transform<double>& t) {
  std::vector<Vec3d> points;
  for (const Vec3f& v : local.vertices()) points.push_back(t.apply_point(to_double(v)));
  return hull_of(points);
}

inline Obb<double> to_double(const Obbf& b) {
  return {to_double(b.center), to_double(b.half_extents),
          Mat3<double>::from_columns(to_double(b.rotation.col[0]), to_double(b.rotation.col[1]),
                                     to_double(b.rotation.col[2]))};
}

/// The piece moved by `offset` (a hull rebuilt from its moved vertices).
inline ConvexPiece translated(const ConvexPiece& piece, Vec3d offset) {
  if (const auto* s = std::get_if<Sphere<double>>(&piece)) return Sphere<double>{s->center + offset, s->radius};
  if (const auto* b = std::get_if<Obb<double>>(&piece)) return Obb<double>{b->center + offset, b->half_extents, b->rotation};
  if (const auto* c = std::get_if<Capsule<double>>(&piece)) return Capsule<double>{c->a + offset, c->b + offset, c->radius};
  if (const auto* c = std::get_if<Cylinder<double>>(&piece)) return Cylinder<double>{c->a + offset, c->b + offset, c->radius};
  if (const auto* t = std::get_if<Triangle<double>>(&piece)) return Triangle<double>{t->v0 + offset, t->v1 + offset, t->v2 + offset};
  std::vector<Vec3d> moved;
  if (const auto* p = std::get_if<ConvexPolygon<double>>(&piece)) {
    for (const Vec3d& v : p->vertices()) moved.push_back(v + offset);
    return ConvexPolygon<double>::make(moved).value();
  }
  for (const Vec3d& v : std::get<ConvexHull<double>>(piece).vertices()) moved.push_back(v + offset);
  return hull_of(moved);
}

/// The piece's bounding box.
inline Aabb<double> bounds(const ConvexPiece& piece) {
  Aabb<double> box;
  auto grow_ball = [&](Vec3d c, double r) { box.grow(c - Vec3d{r, r, r}), box.grow(c + Vec3d{r, r, r}); };
  if (const auto* s = std::get_if<Sphere<double>>(&piece)) grow_ball(s->center, s->radius);
  else if (const auto* b = std::get_if<Obb<double>>(&piece)) {
    for (int k = 0; k < 8; ++k) {
      const Vec3d corner{k & 1 ? 1.0 : -1.0, k & 2 ? 1.0 : -1.0, k & 4 ? 1.0 : -1.0};
      box.grow(b->center + b->rotation * mul(corner, b->half_extents));
    }
  } else if (const auto* c = std::get_if<Capsule<double>>(&piece)) grow_ball(c->a, c->radius), grow_ball(c->b, c->radius);
  else if (const auto* c = std::get_if<Cylinder<double>>(&piece)) grow_ball(c->a, c->radius), grow_ball(c->b, c->radius);
  else if (const auto* t = std::get_if<Triangle<double>>(&piece)) box.grow(t->v0), box.grow(t->v1), box.grow(t->v2);
  else if (const auto* p = std::get_if<ConvexPolygon<double>>(&piece)) {
    for (const Vec3d& v : p->vertices()) box.grow(v);
  } else {
    box = std::get<ConvexHull<double>>(piece).bounds();
  }
  return box;
}

/// GJK distance between two pieces (0 when they overlap).
inline double gap(const ConvexPiece& a, const ConvexPiece& b) {
  return std::visit(
      [](const auto& x, const auto& y) { return gjk_distance(ConvexShape<double>(x), ConvexShape<double>(y)).distance; },
      a, b);
}

struct ReferenceContact {
  bool hit = false;
  /// The first s in [0, limit] at which the shapes touch.
  double distance = std::numeric_limits<double>::infinity();
  /// The least distance between them along the path: near 0 without a hit, the path grazes.
  double least_gap = std::numeric_limits<double>::infinity();
  /// The distance between them at the start.
  double start_gap = std::numeric_limits<double>::infinity();
};

/// The first contact of `moving` travelling as moving + s * direction (unit), s in [0, limit]
/// (limit finite), with `target`: the target is moved by -s * direction instead unless it is a
/// hull (which would have to be rebuilt at every step).
inline ReferenceContact first_contact(const ConvexPiece& moving, Vec3d direction, double limit,
                                      const ConvexPiece& target) {
  const bool move_target = !std::holds_alternative<ConvexHull<double>>(target);
  auto f = [&](double s) {
    return move_target ? gap(moving, translated(target, direction * -s)) : gap(translated(moving, direction * s), target);
  };
  ReferenceContact r;
  r.start_gap = f(0.0);
  constexpr double kTouch = 1e-12;
  if (r.start_gap <= kTouch) {
    r.hit = true, r.distance = 0.0, r.least_gap = 0.0;
    return r;
  }
  // Golden-section search for the least distance.
  const double phi = (std::sqrt(5.0) - 1.0) / 2.0;
  double lo = 0.0, hi = limit;
  double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo), f1 = f(x1), f2 = f(x2);
  for (int i = 0; i < 90 && hi - lo > 1e-12 * (1.0 + limit); ++i) {
    if (f1 <= f2) {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - phi * (hi - lo), f1 = f(x1);
    } else {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + phi * (hi - lo), f2 = f(x2);
    }
  }
  const double s_min = f1 <= f2 ? x1 : x2, f_end = f(limit);
  r.least_gap = std::min({f1, f2, f_end});
  if (r.least_gap > kTouch) return r;
  // Bisection for the first touch on [0, s_min] (or [0, limit] when only the end touches).
  lo = 0.0, hi = std::min(f1, f2) <= kTouch ? s_min : limit;
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) <= kTouch ? hi : lo) = mid;
  }
  r.hit = true;
  r.distance = hi;
  return r;
}

/// The vertices of a box or a hull.
inline std::vector<Vec3d> vertices_of(const ConvexPiece& piece) {
  std::vector<Vec3d> v;
  if (const auto* b = std::get_if<Obb<double>>(&piece)) {
    for (int k = 0; k < 8; ++k) {
      const Vec3d corner{k & 1 ? 1.0 : -1.0, k & 2 ? 1.0 : -1.0, k & 4 ? 1.0 : -1.0};
      v.push_back(b->center + b->rotation * mul(corner, b->half_extents));
    }
  } else {
    const auto h = std::get<ConvexHull<double>>(piece).vertices();
    v.assign(h.begin(), h.end());
  }
  return v;
}

/// The first contact of a moving box or hull with a plane (a two-sided surface): its extent along
/// the normal moves linearly with s.
inline ReferenceContact first_contact_with_plane(const ConvexPiece& moving, Vec3d direction, double limit,
                                                 const Plane<double>& plane) {
  const Vec3d n = normalize(plane.normal);
  const double offset = plane.offset / length(plane.normal);
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (const Vec3d& v : vertices_of(moving)) low = std::min(low, dot(n, v) - offset), high = std::max(high, dot(n, v) - offset);
  ReferenceContact r;
  const double rate = dot(n, direction);
  r.start_gap = std::max({0.0, low, -high});
  // Above the plane its lowest point closes in at -rate, below its highest at +rate.
  const double gap_at_end = std::max({0.0, low + rate * limit, -(high + rate * limit)});
  r.least_gap = std::min(r.start_gap, gap_at_end);
  if (r.start_gap == 0.0) {
    r.hit = true, r.distance = 0.0;
  } else if (low > 0.0 && rate < 0.0 && low / -rate <= limit) {
    r.hit = true, r.distance = low / -rate, r.least_gap = 0.0;
  } else if (high < 0.0 && rate > 0.0 && -high / rate <= limit) {
    r.hit = true, r.distance = -high / rate, r.least_gap = 0.0;
  }
  return r;
}

}  // namespace hitscan::test
