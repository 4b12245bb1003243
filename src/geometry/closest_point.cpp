#include "hitscan/geometry/closest_point.hpp"

#include <type_traits>

namespace hitscan {
namespace {

/// x clamped to [0, 1], NaN to 0, so that no parameter ever leaves its range.
template <Real T>
T clamp_unit(T x) {
  return x > T(0) ? (x < T(1) ? x : T(1)) : T(0);
}

/// x clamped to [lo, hi], NaN to lo; hi wins when lo > hi.
template <Real T>
T clamp_or_low(T x, T lo, T hi) {
  const T above = x > lo ? x : lo;
  return above < hi ? above : hi;
}

/// from + t (to - from), exactly `to` at t = 1.
template <Real T>
Vec3<T> point_at(Vec3<T> from, Vec3<T> to, T t) {
  return t == T(1) ? to : from + (to - from) * t;
}

/// The point q of edge `index` at parameter t (from v[index] to v[(index + 1) % 3]), with its
/// barycentrics and feature. t of exactly 0 or 1 is the edge's end vertex.
template <Real T>
TriangleClosestPoint<T> on_edge(int index, Vec3<T> q, T t) {
  TriangleClosestPoint<T> r{q, 0, 0, Feature::edge, static_cast<std::uint8_t>(index)};
  switch (index) {
    case 0: r.u = t; break;
    case 1: r.u = T(1) - t; r.v = t; break;
    default: r.v = T(1) - t; break;
  }
  if (t == T(0) || t == T(1)) {
    r.feature = Feature::vertex;
    r.index = static_cast<std::uint8_t>(t == T(0) ? index : (index + 1) % 3);
  }
  return r;
}

/// Nearest point of the union of the three edges: the answer for degenerate triangles, and for
/// the rare face-region query whose projection rounding puts just outside the triangle.
template <Real T>
TriangleClosestPoint<T> closest_point_on_triangle_edges(const Triangle<T>& triangle, Vec3<T> p) {
  const Vec3<T> v[3] = {triangle.v0, triangle.v1, triangle.v2};
  TriangleClosestPoint<T> best{};
  T best_d2 = 0;
  for (int i = 0; i < 3; ++i) {
    const SegmentClosestPoint<T> c = closest_point_on_segment_with_parameter(Segment<T>{v[i], v[(i + 1) % 3]}, p);
    const T d2 = distance_squared(p, c.point);
    if (i == 0 || d2 < best_d2) {
      best_d2 = d2;
      best = on_edge(i, c.point, c.t);
    }
  }
  return best;
}

/// The sphere rule shared by spheres and capsules.
template <Real T>
SolidClosestPoint<T> closest_point_on_ball(Vec3<T> center, T radius, Vec3<T> p) {
  const T r = radius > T(0) ? radius : T(0);
  const Vec3<T> d = p - center;
  const T d2 = dot(d, d);
  if (d2 <= r * r) return {p, true};
  // d2 > r² >= 0 here, so the division is safe; d2 = +inf (overflow) collapses onto the centre.
  return {center + d * (r / std::sqrt(d2)), false};
}

}  // namespace

template <Real T>
SegmentClosestPoint<T> closest_point_on_segment_with_parameter(const Segment<T>& segment, Vec3<T> p) {
  const Vec3<T> d = segment.b - segment.a;
  const T dd = dot(d, d);
  if (!(dd > T(0))) return {segment.a, T(0)};
  const T t = dot(p - segment.a, d) / dd;
  if (!(t > T(0))) return {segment.a, T(0)};
  if (t >= T(1)) return {segment.b, T(1)};
  return {segment.a + d * t, t};
}

template <Real T>
Vec3<T> closest_point_on_segment(const Segment<T>& segment, Vec3<T> p) {
  return closest_point_on_segment_with_parameter(segment, p).point;
}

namespace {

/// closest_point_on_triangle in T itself; `flat` is carries_plane of the caller's triangle.
template <Real T>
TriangleClosestPoint<T> closest_point_on_triangle_in(const Triangle<T>& triangle, Vec3<T> p, bool flat) {
  const Vec3<T> a = triangle.v0, b = triangle.v1, c = triangle.v2;
  const Vec3<T> ab = b - a, ac = c - a;
  const Vec3<T> n = cross(ab, ac);
  const T n2 = dot(n, n);
  // |ab × ac|² = |ab|² |ac|² sin²(angle at a). Below epsilon the plane is noise; the union of
  // the edges is then within the triangle's width of the answer. Also catches NaN.
  if (!flat || !(n2 > T(0))) return closest_point_on_triangle_edges(triangle, p);

  // Ericson 5.1.5: vertex regions by the signs of the projections on the two adjacent edges,
  // edge regions by the sign of the barycentric of the opposite vertex as well.
  const Vec3<T> ap = p - a;
  const T d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= T(0) && d2 <= T(0)) return {a, 0, 0, Feature::vertex, 0};

  const Vec3<T> bp = p - b;
  const T d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= T(0) && d4 <= d3) return {b, 1, 0, Feature::vertex, 1};

  const T vc = d1 * d4 - d3 * d2;
  if (vc <= T(0) && d1 >= T(0) && d3 <= T(0)) {
    const T t = d1 - d3 > T(0) ? clamp_unit(d1 / (d1 - d3)) : T(0);
    return on_edge(0, point_at(a, b, t), t);
  }

  const Vec3<T> cp = p - c;
  const T d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= T(0) && d5 <= d6) return {c, 0, 1, Feature::vertex, 2};

  const T vb = d5 * d2 - d1 * d6;
  if (vb <= T(0) && d2 >= T(0) && d6 <= T(0)) {
    // Edge 2 runs from c to a, so its parameter is Ericson's d2 / (d2 - d6) taken from 1.
    const T t = d2 - d6 > T(0) ? clamp_unit(-d6 / (d2 - d6)) : T(0);
    return on_edge(2, point_at(c, a, t), t);
  }

  const T va = d3 * d6 - d5 * d4;
  const T along_bc_from_b = d4 - d3, along_bc_from_c = d5 - d6;  // (c - b)·(p - b), (b - c)·(p - c)
  if (va <= T(0) && along_bc_from_b >= T(0) && along_bc_from_c >= T(0)) {
    const T bc2 = along_bc_from_b + along_bc_from_c;
    const T t = bc2 > T(0) ? clamp_unit(along_bc_from_b / bc2) : T(0);
    return on_edge(1, point_at(b, c, t), t);
  }

  // Face region. Ericson divides vb and vc by va + vb + vc, a sum that equals |n|² only after
  // cancellation, which costs accuracy on thin triangles; n itself does not. The areas of the
  // sub-triangles (a, q, c) and (a, b, q) over the whole are the barycentrics of v1 and v2.
  const Vec3<T> q = p - n * (dot(ap, n) / n2);
  const Vec3<T> aq = q - a;
  const T u = dot(cross(aq, ac), n) / n2;
  const T v = dot(cross(ab, aq), n) / n2;
  if (u >= T(0) && v >= T(0) && u + v <= T(1)) return {q, u, v, Feature::face, 0};
  return closest_point_on_triangle_edges(triangle, p);
}

}  // namespace

template <Real T>
TriangleClosestPoint<T> closest_point_on_triangle(const Triangle<T>& triangle, Vec3<T> p) {
  const bool flat = carries_plane(triangle.v1 - triangle.v0, triangle.v2 - triangle.v0);
  if constexpr (std::is_same_v<T, double>) {
    return closest_point_on_triangle_in(triangle, p, flat);
  } else {
    // The region tests multiply squared lengths (|ab × ac|² is the fourth power of the
    // triangle's size): in float they overflow for a triangle wider than about 4e9 and lose
    // everything below about 1e-9, where double has room to spare; scalar double costs what float does.
    const TriangleClosestPoint<double> r = closest_point_on_triangle_in(
        Triangle<double>{vec3_cast<double>(triangle.v0), vec3_cast<double>(triangle.v1), vec3_cast<double>(triangle.v2)},
        vec3_cast<double>(p), flat);
    return {vec3_cast<T>(r.point), static_cast<T>(r.u), static_cast<T>(r.v), r.feature, r.index};
  }
}

template <Real T>
SolidClosestPoint<T> closest_point_on_aabb(const Aabb<T>& box, Vec3<T> p) {
  const Vec3<T> q{clamp_or_low(p.x, box.min.x, box.max.x), clamp_or_low(p.y, box.min.y, box.max.y),
                  clamp_or_low(p.z, box.min.z, box.max.z)};
  const bool inside = q == p;
  return {inside ? p : q, inside};  // p itself: clamping may have swapped -0 for +0
}

template <Real T>
SolidClosestPoint<T> closest_point_on_obb(const Obb<T>& box, Vec3<T> p) {
  const Vec3<T> local = box.rotation.transpose_mul(p - box.center);
  const Vec3<T> h = box.half_extents;
  const Vec3<T> clamped{clamp_or_low(local.x, -h.x, h.x), clamp_or_low(local.y, -h.y, h.y),
                        clamp_or_low(local.z, -h.z, h.z)};
  // Returning p itself inside spares it the rounding of the round trip through the box frame.
  if (clamped == local) return {p, true};
  return {box.center + box.rotation * clamped, false};
}

template <Real T>
SolidClosestPoint<T> closest_point_on_sphere(const Sphere<T>& sphere, Vec3<T> p) {
  return closest_point_on_ball(sphere.center, sphere.radius, p);
}

template <Real T>
SolidClosestPoint<T> closest_point_on_capsule(const Capsule<T>& capsule, Vec3<T> p) {
  return closest_point_on_ball(closest_point_on_segment(Segment<T>{capsule.a, capsule.b}, p), capsule.radius, p);
}

namespace {

/// closest_points_between_segments in T itself.
template <Real T>
SegmentPairClosestPoints<T> closest_points_between_segments_in(const Segment<T>& first, const Segment<T>& second) {
  const Vec3<T> d1 = first.b - first.a, d2 = second.b - second.a, r = first.a - second.a;
  // Ericson's s = (b f - c e) / (a e - b²) rewritten with Lagrange's identity as
  // ((d2 × r) · n) / |n|², n = d1 × d2: the cross products carry the near-parallel case without
  // the cancellation of a e - b². Parallel or degenerate (n = 0): any s will do, take 0.
  const Vec3<T> n = cross(d1, d2);
  const T n2 = dot(n, n);
  SegmentClosestPoint<T> on_first{first.a, T(0)};
  if (n2 > T(0)) {
    const T s = clamp_unit(dot(cross(d2, r), n) / n2);
    on_first = {point_at(first.a, first.b, s), s};
  }
  const SegmentClosestPoint<T> on_second = closest_point_on_segment_with_parameter(second, on_first.point);
  // When the projection clamped to an end of the second segment, the first point moves to the
  // projection of that end (Ericson's argument: the clamped pair is then optimal).
  if (on_second.t == T(0) || on_second.t == T(1)) {
    on_first = closest_point_on_segment_with_parameter(first, on_second.point);
  }
  return {on_first.t, on_second.t, on_first.point, on_second.point, distance_squared(on_first.point, on_second.point)};
}

}  // namespace

template <Real T>
SegmentPairClosestPoints<T> closest_points_between_segments(const Segment<T>& first, const Segment<T>& second) {
  if constexpr (std::is_same_v<T, double>) {
    return closest_points_between_segments_in(first, second);
  } else {
    // |d1 × d2|² is the fourth power of the segments' length: in float it overflows for
    // segments longer than about 4e9 (as closest_point_on_triangle's products do).
    const SegmentPairClosestPoints<double> r = closest_points_between_segments_in(
        Segment<double>{vec3_cast<double>(first.a), vec3_cast<double>(first.b)},
        Segment<double>{vec3_cast<double>(second.a), vec3_cast<double>(second.b)});
    const Vec3<T> on_first = vec3_cast<T>(r.on_first), on_second = vec3_cast<T>(r.on_second);
    return {static_cast<T>(r.s), static_cast<T>(r.t), on_first, on_second, distance_squared(on_first, on_second)};
  }
}

#define HITSCAN_INSTANTIATE_CLOSEST_POINT(T)                                                                  \
  template Vec3<T> closest_point_on_segment(const Segment<T>&, Vec3<T>);                                      \
  template SegmentClosestPoint<T> closest_point_on_segment_with_parameter(const Segment<T>&, Vec3<T>);        \
  template TriangleClosestPoint<T> closest_point_on_triangle(const Triangle<T>&, Vec3<T>);                    \
  template SolidClosestPoint<T> closest_point_on_aabb(const Aabb<T>&, Vec3<T>);                               \
  template SolidClosestPoint<T> closest_point_on_obb(const Obb<T>&, Vec3<T>);                                 \
  template SolidClosestPoint<T> closest_point_on_sphere(const Sphere<T>&, Vec3<T>);                           \
  template SolidClosestPoint<T> closest_point_on_capsule(const Capsule<T>&, Vec3<T>);                         \
  template SegmentPairClosestPoints<T> closest_points_between_segments(const Segment<T>&, const Segment<T>&);

HITSCAN_INSTANTIATE_CLOSEST_POINT(float)
HITSCAN_INSTANTIATE_CLOSEST_POINT(double)
#undef HITSCAN_INSTANTIATE_CLOSEST_POINT

}  // namespace hitscan
