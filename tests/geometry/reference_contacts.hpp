#pragma once
/// Test support for the sphere/box contact kernels: independent double-precision references and
/// seeded random configurations.
///
/// The references are written differently from the kernels on purpose, so that one mistake cannot
/// hide in both:
/// - a point against a box by its six face rectangles (distance to each, the nearest wins; inside
///   by the six half-spaces), not by clamping in the box's frame;
/// - two boxes overlap by enumeration (a vertex of one inside the other, or an edge of one
///   crossing a face of the other), their distance is the least over vertex-face and edge-edge
///   pairs (segments by minimising over the parameter square, not Ericson's clamping), and their
///   penetration along an axis comes from projecting all eight vertices, not from radii;
/// - the separating-axis depth is the minimum over the 15 axes of that vertex projection.
/// Tolerances are stated relative to the scale of a case (the coordinates and sizes involved).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "hitscan/geometry/shapes.hpp"

namespace hitscan::contact_reference {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// Names for typed test suites over float and double.
using Reals = ::testing::Types<float, double>;
struct RealNames {
  template <class T>
  static std::string GetName(int) {
    return std::is_same_v<T, float> ? "float" : "double";
  }
};

/// Relative accuracy expected of a kernel in T on a case of scale 1 (a few dozen roundings).
template <Real T>
constexpr double accuracy() {
  return std::is_same_v<T, float> ? 2e-6 : 2e-14;
}

template <Real T>
Vec3d to_double(Vec3<T> v) {
  return {double(v.x), double(v.y), double(v.z)};
}
template <Real T>
Vec3<T> from_double(Vec3d v) {
  return {T(v.x), T(v.y), T(v.z)};
}

/// v with component k replaced (no write through Vec3::operator[] with a run-time index, which
/// GCC 12.2 miscompiled at -O3 in reference_shapes.hpp).
inline Vec3d with(Vec3d v, int k, double value) {
  return {k == 0 ? value : v.x, k == 1 ? value : v.y, k == 2 ? value : v.z};
}

// ---- boxes -------------------------------------------------------------------------------------------

/// A box in double: centre, half extents and three unit axes.
struct Box {
  Vec3d center{};
  Vec3d half{1, 1, 1};
  Vec3d axis[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

  Vec3d local(Vec3d p) const {
    const Vec3d d = p - center;
    return {dot(axis[0], d), dot(axis[1], d), dot(axis[2], d)};
  }
  Vec3d world(Vec3d l) const { return center + axis[0] * l.x + axis[1] * l.y + axis[2] * l.z; }
  double size() const { return std::max({half.x, half.y, half.z}); }
};

template <Real T>
Box box_of(const Obb<T>& b) {
  return {to_double(b.center), to_double(b.half_extents),
          {to_double(b.rotation.col[0]), to_double(b.rotation.col[1]), to_double(b.rotation.col[2])}};
}
template <Real T>
Box box_of(const Aabb<T>& b) {
  return {(to_double(b.min) + to_double(b.max)) * 0.5, (to_double(b.max) - to_double(b.min)) * 0.5};
}
template <Real T>
Obb<T> obb_of(const Box& b) {
  return {from_double<T>(b.center), from_double<T>(b.half),
          Mat3<T>::from_columns(from_double<T>(b.axis[0]), from_double<T>(b.axis[1]), from_double<T>(b.axis[2]))};
}
template <Real T>
Aabb<T> aabb_of(const Box& b) {
  return {from_double<T>(b.center - b.half), from_double<T>(b.center + b.half)};
}

inline std::array<Vec3d, 8> corners(const Box& b) {
  std::array<Vec3d, 8> c;
  for (int i = 0; i < 8; ++i)
    c[i] = b.world({i & 1 ? b.half.x : -b.half.x, i & 2 ? b.half.y : -b.half.y, i & 4 ? b.half.z : -b.half.z});
  return c;
}

struct Edge {
  Vec3d p, q;
};

/// The 12 edges: pairs of corners that differ in one bit.
inline std::array<Edge, 12> edges(const Box& b) {
  const std::array<Vec3d, 8> c = corners(b);
  std::array<Edge, 12> e;
  int n = 0;
  for (int i = 0; i < 8; ++i)
    for (int bit = 1; bit < 8; bit <<= 1)
      if (!(i & bit)) e[n++] = {c[i], c[i | bit]};
  return e;
}

/// A face rectangle: centre, outward unit normal, two unit in-plane directions and half sizes.
struct Face {
  Vec3d center, normal, u, v;
  double hu, hv;
};

inline std::array<Face, 6> faces(const Box& b) {
  std::array<Face, 6> f;
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    for (int s = 0; s < 2; ++s) {
      const double sign = s ? 1.0 : -1.0;
      f[2 * k + s] = {b.center + b.axis[k] * (sign * b.half[k]), b.axis[k] * sign, b.axis[i], b.axis[j], b.half[i], b.half[j]};
    }
  }
  return f;
}

/// Distance from p to the face rectangle, and the nearest point of it.
inline double distance_to_face(const Face& f, Vec3d p, Vec3d& nearest) {
  const Vec3d d = p - f.center;
  const double a = std::clamp(dot(d, f.u), -f.hu, f.hu), b = std::clamp(dot(d, f.v), -f.hv, f.hv);
  nearest = f.center + f.u * a + f.v * b;
  return distance(p, nearest);
}

/// Inside the closed box: behind all six face planes.
inline bool inside(const Box& b, Vec3d p, double slack = 0) {
  for (const Face& f : faces(b))
    if (dot(p - f.center, f.normal) > slack) return false;
  return true;
}

/// Signed distance of p to the box's surface (negative inside), with the nearest surface point and
/// the outward direction there (the nearest face's normal inside, towards p outside). `second` is
/// the runner-up face distance when inside, which says how clearly the nearest face is nearest.
struct PointBox {
  double signed_distance;
  Vec3d nearest, normal;
  double second = kInf;
};

inline PointBox point_vs_box(const Box& b, Vec3d p) {
  const std::array<Face, 6> fs = faces(b);
  if (inside(b, p)) {
    double best = kInf, second = kInf;
    Vec3d normal{};
    for (const Face& f : fs) {
      const double d = dot(f.center - p, f.normal);
      if (d < best) {
        second = best, best = d, normal = f.normal;
      } else {
        second = std::min(second, d);
      }
    }
    return {-best, p + normal * best, normal, second};
  }
  PointBox r{kInf, {}, {}};
  for (const Face& f : fs) {
    Vec3d q;
    const double d = distance_to_face(f, p, q);
    if (d < r.signed_distance) r = {d, q, {}};
  }
  r.normal = normalize(p - r.nearest);
  return r;
}

// ---- segments and boxes --------------------------------------------------------------------------

/// Closest points of segments [p0, p1] and [q0, q1]: the squared distance is a convex quadratic
/// in (s, t) over the unit square, so its minimum is the interior critical point or lies on one
/// of the four sides, each a one-dimensional clamp.
inline double segment_distance(Vec3d p0, Vec3d p1, Vec3d q0, Vec3d q1, Vec3d& on_p, Vec3d& on_q) {
  const Vec3d u = p1 - p0, v = q1 - q0, w = p0 - q0;
  double best = kInf;
  const auto take = [&](double s, double t) {
    const Vec3d a = p0 + u * s, b = q0 + v * t;
    const double d = distance(a, b);
    if (d < best) best = d, on_p = a, on_q = b;
  };
  const double uu = dot(u, u), vv = dot(v, v), uv = dot(u, v);
  // Sides: s fixed at 0 or 1 (t by projection onto the second segment), and t fixed likewise.
  for (double s : {0.0, 1.0}) take(s, vv > 0 ? std::clamp(dot(p0 + u * s - q0, v) / vv, 0.0, 1.0) : 0.0);
  for (double t : {0.0, 1.0}) take(uu > 0 ? std::clamp(dot(q0 + v * t - p0, u) / uu, 0.0, 1.0) : 0.0, t);
  // Interior: the gradient vanishes, [uu -uv; uv -vv] (s, t) = (-u·w, -v·w).
  const double det = uu * vv - uv * uv;
  if (det > 1e-30 * uu * vv) {
    const double s = (uv * dot(v, w) - vv * dot(u, w)) / det;
    const double t = (uu * dot(v, w) - uv * dot(u, w)) / det;
    if (s > 0 && s < 1 && t > 0 && t < 1) take(s, t);
  }
  return best;
}

/// The segment crosses (or touches) the face rectangle.
inline bool segment_crosses_face(const Edge& e, const Face& f) {
  const double a = dot(e.p - f.center, f.normal), b = dot(e.q - f.center, f.normal);
  if ((a > 0 && b > 0) || (a < 0 && b < 0)) return false;
  const Vec3d x = a == b ? e.p : e.p + (e.q - e.p) * (a / (a - b));
  const Vec3d d = x - f.center;
  return std::abs(dot(d, f.u)) <= f.hu && std::abs(dot(d, f.v)) <= f.hv;
}

/// Two solid boxes intersect when a vertex of one is inside the other or an edge of one crosses a
/// face of the other.
inline bool boxes_intersect(const Box& a, const Box& b) {
  for (const Vec3d& c : corners(a))
    if (inside(b, c)) return true;
  for (const Vec3d& c : corners(b))
    if (inside(a, c)) return true;
  for (const Edge& e : edges(a))
    for (const Face& f : faces(b))
      if (segment_crosses_face(e, f)) return true;
  for (const Edge& e : edges(b))
    for (const Face& f : faces(a))
      if (segment_crosses_face(e, f)) return true;
  return false;
}

/// Distance between two disjoint solid boxes, with the closest points: the least over each box's
/// vertices against the other's faces and over all edge pairs. 0 when they intersect.
inline double box_distance(const Box& a, const Box& b, Vec3d& on_a, Vec3d& on_b) {
  if (boxes_intersect(a, b)) return 0;
  double best = kInf;
  for (const Vec3d& c : corners(a)) {
    const PointBox r = point_vs_box(b, c);
    if (r.signed_distance < best) best = r.signed_distance, on_a = c, on_b = r.nearest;
  }
  for (const Vec3d& c : corners(b)) {
    const PointBox r = point_vs_box(a, c);
    if (r.signed_distance < best) best = r.signed_distance, on_a = r.nearest, on_b = c;
  }
  for (const Edge& ea : edges(a))
    for (const Edge& eb : edges(b)) {
      Vec3d p, q;
      const double d = segment_distance(ea.p, ea.q, eb.p, eb.q, p, q);
      if (d < best) best = d, on_a = p, on_b = q;
    }
  return best;
}

/// How far A must move along the unit n to be clear of B: B's largest projection on n minus A's
/// smallest, over all vertices.
inline double penetration_along(const Box& a, const Box& b, Vec3d n) {
  double a_min = kInf, b_max = -kInf;
  for (const Vec3d& c : corners(a)) a_min = std::min(a_min, dot(c, n));
  for (const Vec3d& c : corners(b)) b_max = std::max(b_max, dot(c, n));
  return b_max - a_min;
}

/// The separating-axis view in double: the least penetration over the 15 axes (negative: the
/// largest gap), with cross products of edges parallel within 1e-12 left out.
inline double sat_depth(const Box& a, const Box& b) {
  double depth = kInf;
  const auto test = [&](Vec3d axis) {
    const Vec3d n = normalize(axis);
    depth = std::min({depth, penetration_along(a, b, n), penetration_along(b, a, n)});
  };
  for (int i = 0; i < 3; ++i) test(a.axis[i]), test(b.axis[i]);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Vec3d l = cross(a.axis[i], b.axis[j]);
      if (length(l) > 1e-12) test(l);
    }
  return depth;
}

/// Signed separation of two boxes: the distance when apart, minus the separating-axis depth when
/// they intersect.
inline double box_separation(const Box& a, const Box& b) {
  Vec3d p, q;
  return boxes_intersect(a, b) ? -sat_depth(a, b) : box_distance(a, b, p, q);
}

// ---- seeded randomness ---------------------------------------------------------------------------

/// std::mt19937 with its own uniform mapping, so the cases are the same with every standard library.
class Rng {
 public:
  explicit Rng(std::uint32_t seed) : engine_(seed) {}
  double uniform() {
    const std::uint64_t hi = engine_() >> 5, lo = engine_() >> 6;
    return (double(hi) * 67108864.0 + double(lo)) * (1.0 / 9007199254740992.0);
  }
  double uniform(double a, double b) { return a + (b - a) * uniform(); }
  double log_uniform(double a, double b) { return a * std::exp(std::log(b / a) * uniform()); }
  bool chance(double p) { return uniform() < p; }
  Vec3d in_cube(double h) { return {uniform(-h, h), uniform(-h, h), uniform(-h, h)}; }
  Vec3d unit_vector() {
    for (;;) {
      const Vec3d p = in_cube(1);
      const double l2 = length_squared(p);
      if (l2 <= 1 && l2 > 1e-4) return p / std::sqrt(l2);
    }
  }
  /// A uniformly random rotation, as orthonormal axes (from a random unit quaternion in double).
  std::array<Vec3d, 3> rotation() {
    for (;;) {
      const double w = uniform(-1, 1), x = uniform(-1, 1), y = uniform(-1, 1), z = uniform(-1, 1);
      const double n2 = w * w + x * x + y * y + z * z;
      if (n2 > 1 || n2 < 1e-4) continue;
      const Mat3d m = Mat3d::from_quat(Quatd::from_components(w, x, y, z));
      return {m.col[0], m.col[1], m.col[2]};
    }
  }
  /// A box at c: half extents log-uniform in [lo, hi], one of them 0 with probability `flat`,
  /// rotated at random unless axis_aligned.
  Box box(Vec3d c, double lo, double hi, double flat = 0.05, bool axis_aligned = false) {
    Box b{c, {log_uniform(lo, hi), log_uniform(lo, hi), log_uniform(lo, hi)}};
    if (chance(flat)) b.half[static_cast<int>(uniform(0, 2.999))] = 0;
    if (!axis_aligned) {
      const std::array<Vec3d, 3> r = rotation();
      for (int k = 0; k < 3; ++k) b.axis[k] = r[k];
    }
    return b;
  }

 private:
  std::mt19937 engine_;
};

/// The offset s along the unit direction d at which box b, moved to a.center + d s, just touches
/// a (found by bisection on the enumeration test; the set of touching offsets is convex and holds 0).
inline double touching_offset(const Box& a, Box b, Vec3d d) {
  double lo = 0, hi = 2 * (length(a.half) + length(b.half)) + 1;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    b.center = a.center + d * mid;
    (boxes_intersect(a, b) ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace hitscan::contact_reference
