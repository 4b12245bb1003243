#pragma once
/// Test-only references for the contacts of capsules, spheres, triangles and boxes, in double and
/// written differently from the kernels so that one mistake cannot hide in both:
///
/// - segment pairs by enumerating the candidate pairs (four end-against-segment projections and
///   the interior solution of the 2x2 normal equations by Cramer's rule);
/// - point vs triangle by projection onto the plane and a sign test of three cross products,
///   falling back to the three edges;
/// - segment vs triangle by the plane crossing inside the triangle (distance 0), else the nearest
///   of the ends against the triangle and the segment against the three edges;
/// - segment vs box by golden-section search of the point-box distance along the segment (a
///   convex function), after a dense scan that brackets the minimum;
/// - penetration depth by brute force over the convex hull of the Minkowski difference: every
///   triple of its points whose plane has all points on one side is a facet, and the depth is the
///   least distance from the origin to a facet plane (the kernels use separating axes instead);
/// - box vs triangle distance by enumerating corners against the other shape and edges against
///   edges (the kernel takes triangle edges against the solid box instead).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "geometry/reference_shapes.hpp"
#include "hitscan/geometry/contact.hpp"

namespace hitscan::reference {

/// Tolerances of the differential tests, relative to a case's scale (the largest coordinate or
/// size involved): distances and depths, and the angle of normals where the normal is unique.
template <Real T>
struct ContactError;
template <>
struct ContactError<float> {
  static constexpr double distance = 4e-6;
  static constexpr double angle = 2e-3;
};
template <>
struct ContactError<double> {
  static constexpr double distance = 1e-12;
  static constexpr double angle = 1e-7;
};

template <Real T>
Segment<double> to_double(const Segment<T>& s) { return {to_double(s.a), to_double(s.b)}; }
template <Real T>
Triangle<double> to_double(const Triangle<T>& t) { return {to_double(t.v0), to_double(t.v1), to_double(t.v2)}; }
template <Real T>
Obb<double> to_double(const Obb<T>& b) {
  return {to_double(b.center), to_double(b.half_extents),
          Mat3d::from_columns(to_double(b.rotation.col[0]), to_double(b.rotation.col[1]), to_double(b.rotation.col[2]))};
}

template <Real T>
std::string describe(const Contact<T>& c) {
  if (!c.touching) return "not touching";
  return "Contact{a " + hex(c.point_on_a) + ", b " + hex(c.point_on_b) + ", n " + hex(c.normal) + ", depth " +
         hex(c.depth) + "}";
}

/// What every touching contact must satisfy: finite fields, a unit normal, and
/// depth = dot(point_on_b - point_on_a, normal) up to `error` (absolute).
template <Real T>
::testing::AssertionResult IsWellFormed(const Contact<T>& c, double error) {
  if (!c.touching) return ::testing::AssertionSuccess();
  if (!is_finite(c.point_on_a) || !is_finite(c.point_on_b) || !is_finite(c.normal) || !std::isfinite(double(c.depth)))
    return ::testing::AssertionFailure() << "non-finite " << describe(c);
  const double unit = std::is_same_v<T, float> ? 1e-6 : 1e-14;
  if (!(std::abs(length(to_double(c.normal)) - 1) <= unit))
    return ::testing::AssertionFailure() << "normal not unit: " << describe(c);
  const double identity = dot(to_double(c.point_on_b) - to_double(c.point_on_a), to_double(c.normal));
  if (!(std::abs(identity - double(c.depth)) <= error))
    return ::testing::AssertionFailure() << "depth " << double(c.depth) << " but dot(b - a, n) = " << identity << " in "
                                         << describe(c);
  return ::testing::AssertionSuccess();
}

/// A hand-worked contact: every field within `error` (absolute).
struct ExpectedContact {
  Vec3d point_on_a{}, point_on_b{}, normal{};
  double depth = 0;
};

template <Real T>
::testing::AssertionResult IsContact(const Contact<T>& c, const ExpectedContact& e, double error) {
  if (!c.touching) return ::testing::AssertionFailure() << "not touching, expected depth " << e.depth;
  if (auto w = IsWellFormed(c, error); !w) return w;
  const double worst = std::max({distance(to_double(c.point_on_a), e.point_on_a), distance(to_double(c.point_on_b), e.point_on_b),
                                 distance(to_double(c.normal), e.normal), std::abs(double(c.depth) - e.depth)});
  if (!(worst <= error))
    return ::testing::AssertionFailure() << describe(c) << "\n  expected a " << hex(e.point_on_a) << ", b " << hex(e.point_on_b)
                                         << ", n " << hex(e.normal) << ", depth " << e.depth << " (off by " << worst << ")";
  return ::testing::AssertionSuccess();
}

/// Error allowed in hand-worked cases of unit scale.
template <Real T>
double hand_error(double scale = 1) {
  return (std::is_same_v<T, float> ? 4e-6 : 1e-13) * scale;
}

struct PointPair {
  Vec3d on_a{}, on_b{};
  double distance = kInf;
};

inline void keep_nearer(PointPair& best, Vec3d on_a, Vec3d on_b) {
  const double d = distance(on_a, on_b);
  if (d < best.distance) best = {on_a, on_b, d};
}

/// Closest points of the segments [a0, a1] and [b0, b1] by enumeration.
inline PointPair segment_pair(Vec3d a0, Vec3d a1, Vec3d b0, Vec3d b1) {
  PointPair best;
  keep_nearer(best, a0, closest_on_segment(b0, b1, a0));
  keep_nearer(best, a1, closest_on_segment(b0, b1, a1));
  keep_nearer(best, closest_on_segment(a0, a1, b0), b0);
  keep_nearer(best, closest_on_segment(a0, a1, b1), b1);
  // Interior: (a0 + s u - b0 - t v) perpendicular to u and v.
  const Vec3d u = a1 - a0, v = b1 - b0, w = a0 - b0;
  const double uu = dot(u, u), uv = dot(u, v), vv = dot(v, v), uw = dot(u, w), vw = dot(v, w);
  const double det = uu * vv - uv * uv;
  if (det > 1e-14 * uu * vv) {
    const double s = (uv * vw - vv * uw) / det, t = (uu * vw - uv * uw) / det;
    if (s > 0 && s < 1 && t > 0 && t < 1) keep_nearer(best, a0 + u * s, b0 + v * t);
  }
  return best;
}

/// The unit normal of the triangle, or zero for a degenerate one.
inline Vec3d triangle_normal(const Triangle<double>& t) {
  const Vec3d n = cross(t.v1 - t.v0, t.v2 - t.v0);
  const double scale = std::max({length_squared(t.v1 - t.v0), length_squared(t.v2 - t.v0), length_squared(t.v2 - t.v1)});
  return length_squared(n) > 1e-20 * scale * scale ? normalize(n) : Vec3d{};
}

/// Whether p (in the triangle's plane) lies inside it, by the signs of the edge cross products.
inline bool inside_triangle(const Triangle<double>& t, Vec3d p, Vec3d n) {
  const Vec3d v[3] = {t.v0, t.v1, t.v2};
  for (int i = 0; i < 3; ++i) {
    if (dot(cross(v[(i + 1) % 3] - v[i], p - v[i]), n) < 0) return false;
  }
  return true;
}

inline Vec3d closest_on_triangle(const Triangle<double>& t, Vec3d p) {
  const Vec3d n = triangle_normal(t);
  if (n != Vec3d{}) {
    const Vec3d q = p - n * dot(p - t.v0, n);
    if (inside_triangle(t, q, n)) return q;
  }
  const Vec3d v[3] = {t.v0, t.v1, t.v2};
  PointPair best;
  for (int i = 0; i < 3; ++i) keep_nearer(best, p, closest_on_segment(v[i], v[(i + 1) % 3], p));
  return best.on_b;
}

/// Closest points of the segment [a0, a1] (on_a) and the triangle (on_b).
inline PointPair segment_triangle(Vec3d a0, Vec3d a1, const Triangle<double>& t) {
  const Vec3d n = triangle_normal(t);
  if (n != Vec3d{}) {
    const double d0 = dot(a0 - t.v0, n), d1 = dot(a1 - t.v0, n);
    if ((d0 < 0 && d1 > 0) || (d0 > 0 && d1 < 0)) {
      const Vec3d x = a0 + (a1 - a0) * (d0 / (d0 - d1));
      if (inside_triangle(t, x, n)) return {x, x, 0};
    }
  }
  PointPair best;
  keep_nearer(best, a0, closest_on_triangle(t, a0));
  keep_nearer(best, a1, closest_on_triangle(t, a1));
  const Vec3d v[3] = {t.v0, t.v1, t.v2};
  for (int i = 0; i < 3; ++i) {
    const PointPair e = segment_pair(a0, a1, v[i], v[(i + 1) % 3]);
    keep_nearer(best, e.on_a, e.on_b);
  }
  return best;
}

/// The box point nearest to p (the box's columns taken as given, possibly not quite orthonormal
/// after rounding to float: then it is the parallelepiped the kernels see, to first order).
inline Vec3d closest_on_box(const Obb<double>& b, Vec3d p) {
  const Vec3d local = b.rotation.transpose_mul(p - b.center);
  return b.center + b.rotation * clamp(local, -b.half_extents, b.half_extents);
}

/// Closest points of the segment (on_a) and the solid box (on_b): a scan of 64 parameters, then
/// golden-section search around the best one.
inline PointPair segment_box(Vec3d a0, Vec3d a1, const Obb<double>& b) {
  auto at = [&](double t) { return a0 + (a1 - a0) * t; };
  auto f = [&](double t) { return distance(at(t), closest_on_box(b, at(t))); };
  int best_k = 0;
  double best_f = kInf;
  for (int k = 0; k <= 64; ++k) {
    const double v = f(k / 64.0);
    if (v < best_f) best_f = v, best_k = k;
  }
  double lo = std::max(0.0, (best_k - 1) / 64.0), hi = std::min(1.0, (best_k + 1) / 64.0);
  const double g = 0.6180339887498949;
  double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo), f1 = f(x1), f2 = f(x2);
  for (int i = 0; i < 200 && hi - lo > 1e-16; ++i) {
    if (f1 < f2) {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = f(x1);
    } else {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = f(x2);
    }
  }
  double t = 0.5 * (lo + hi);
  for (const double c : {0.0, 1.0, best_k / 64.0}) {
    if (f(c) < f(t)) t = c;
  }
  return {at(t), closest_on_box(b, at(t)), f(t)};
}

inline std::array<Vec3d, 8> box_corners(const Obb<double>& b) {
  std::array<Vec3d, 8> corners;
  for (int i = 0; i < 8; ++i) {
    Vec3d p = b.center;
    for (int k = 0; k < 3; ++k) p += b.rotation.col[k] * (((i >> k) & 1) ? b.half_extents[k] : -b.half_extents[k]);
    corners[i] = p;
  }
  return corners;
}

/// The 12 edges of the box as pairs of corner indices.
inline constexpr int kBoxEdges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                         {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

/// Closest points of the box (on_a) and the triangle (on_b) when they do not intersect.
inline PointPair box_triangle_apart(const Obb<double>& b, const Triangle<double>& t) {
  PointPair best;
  const std::array<Vec3d, 8> corners = box_corners(b);
  for (const Vec3d& c : corners) keep_nearer(best, c, closest_on_triangle(t, c));
  const Vec3d v[3] = {t.v0, t.v1, t.v2};
  for (const Vec3d& p : v) keep_nearer(best, closest_on_box(b, p), p);
  for (const auto& e : kBoxEdges) {
    for (int i = 0; i < 3; ++i) {
      const PointPair pair = segment_pair(corners[e[0]], corners[e[1]], v[i], v[(i + 1) % 3]);
      keep_nearer(best, pair.on_a, pair.on_b);
    }
  }
  return best;
}

/// The origin against the convex hull of `points` (the Minkowski difference B - A, so that
/// moving A by depth * normal makes it touch B): inside, the least distance to a facet plane and
/// that facet's outward normal. Facets are found by brute force over triples of points.
struct HullDepth {
  bool inside = false;
  double depth = 0;
  Vec3d normal{};
};

inline HullDepth hull_depth(const std::vector<Vec3d>& points) {
  double scale = 0;
  for (const Vec3d& p : points) scale = std::max(scale, max_component(abs(p)));
  const double flat = 1e-10 * std::max(scale, 1e-300);
  HullDepth out;
  out.inside = true;
  out.depth = kInf;
  const std::size_t n = points.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      for (std::size_t k = j + 1; k < n; ++k) {
        const Vec3d m = cross(points[j] - points[i], points[k] - points[i]);
        if (length(m) <= 1e-12 * scale * scale) continue;
        const Vec3d u = normalize(m);
        const double offset = dot(u, points[i]);
        bool below = true, above = true;
        for (const Vec3d& p : points) {
          const double h = dot(u, p) - offset;
          below = below && h <= flat;
          above = above && h >= -flat;
        }
        // A supporting plane: the hull lies on one side, and the origin is at `offset` from it.
        for (int side = 0; side < 2; ++side) {
          if (!(side == 0 ? below : above)) continue;
          const Vec3d outward = side == 0 ? u : -u;
          const double distance = side == 0 ? offset : -offset;
          if (distance < 0) out.inside = false;
          if (distance < out.depth) out.depth = distance, out.normal = outward;
        }
      }
    }
  }
  return out;
}

/// The Minkowski difference box - segment (the segment is A).
inline std::vector<Vec3d> box_minus_segment(const Obb<double>& b, Vec3d a0, Vec3d a1) {
  std::vector<Vec3d> points;
  for (const Vec3d& c : box_corners(b)) points.push_back(c - a0), points.push_back(c - a1);
  return points;
}

/// The Minkowski difference triangle - box (the box is A).
inline std::vector<Vec3d> triangle_minus_box(const Triangle<double>& t, const Obb<double>& b) {
  std::vector<Vec3d> points;
  for (const Vec3d& c : box_corners(b)) {
    for (const Vec3d& v : {t.v0, t.v1, t.v2}) points.push_back(v - c);
  }
  return points;
}

/// How far A must move along the unit n to clear B, given their support functions.
inline double overlap_along_box_segment(const Obb<double>& b, Vec3d a0, Vec3d a1, Vec3d n) {
  double box_top = -kInf;
  for (const Vec3d& c : box_corners(b)) box_top = std::max(box_top, dot(c, n));
  return box_top - std::min(dot(a0, n), dot(a1, n));
}
inline double overlap_along_triangle_box(const Triangle<double>& t, const Obb<double>& b, Vec3d n) {
  double box_bottom = kInf;
  for (const Vec3d& c : box_corners(b)) box_bottom = std::min(box_bottom, dot(c, n));
  return std::max({dot(t.v0, n), dot(t.v1, n), dot(t.v2, n)}) - box_bottom;
}

/// Calls f(variant, k) for each copy of `shape` whose k-th scalar is NaN (the shapes are plain
/// aggregates of T: centres, corners, extents, rotation columns, radii).
template <Real T, class Shape, class F>
void for_each_nan_field(const Shape& shape, F&& f) {
  static_assert(std::is_trivially_copyable_v<Shape> && sizeof(Shape) % sizeof(T) == 0);
  constexpr std::size_t n = sizeof(Shape) / sizeof(T);
  for (std::size_t k = 0; k < n; ++k) {
    T fields[n];
    std::memcpy(fields, &shape, sizeof(Shape));
    fields[k] = std::numeric_limits<T>::quiet_NaN();
    Shape variant;
    std::memcpy(&variant, fields, sizeof(Shape));
    f(variant, k);
  }
}

/// A uniformly random rotation as a matrix of T.
template <Real T>
Mat3<T> random_rotation(Rng& rng) {
  const Vec3d v = rng.in_ball(1);
  const Quat<double> q = Quat<double>::from_components(rng.uniform(-1, 1), v.x, v.y, v.z);
  const Mat3d m = Mat3d::from_quat(q);
  return Mat3<T>::from_columns(from_double<T>(m.col[0]), from_double<T>(m.col[1]), from_double<T>(m.col[2]));
}

}  // namespace hitscan::reference
