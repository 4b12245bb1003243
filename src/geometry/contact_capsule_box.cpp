#include "hitscan/geometry/contact_capsule_box.hpp"

#include "contact_support.hpp"
#include <utility>

namespace hitscan {
namespace {

using detail::capsule_size;
using detail::margin_or_zero;
using detail::pair_size;
using detail::within;

/// Radii and half extents are valid when >= 0; a negative or NaN one makes the shape touch nothing.
template <Real T>
bool valid(const Capsule<T>& a, const Obb<T>& b) {
  return a.radius >= T(0) && b.half_extents.x >= T(0) && b.half_extents.y >= T(0) && b.half_extents.z >= T(0);
}

/// The segment p0 + t d (t in [0, 1]) and the box [-h, h], both in the box's frame.
template <Real T>
struct LocalSegment {
  Vec3<T> p0{}, d{}, h{};

  Vec3<T> at(T t) const { return p0 + d * t; }
};

/// A point of the segment at parameter t, the box point nearest to it and their squared distance.
template <Real T>
struct SegmentBoxPoints {
  T t = 0;
  Vec3<T> on_box{};
  T distance_squared = 0;
};

template <Real T>
SegmentBoxPoints<T> points_at(const LocalSegment<T>& s, T t) {
  const Vec3<T> p = s.at(t);
  const Vec3<T> q = min(max(p, -s.h), s.h);  // NaN stays NaN
  return {t, q, distance_squared(p, q)};
}

// The squared distance from s.at(t) to the box is the sum over the axes of the squared excess
// beyond the slab, a convex function of t that is quadratic between the parameters where the
// segment crosses a face plane. On each piece, every axis is either inside its slab (no term) or
// beyond one face (the term (p0 + t d - face)²), and the sum's minimum is the parabola's vertex
// clamped to the piece. A flat piece (the outside axes all parallel to the segment) is taken at
// its middle, and wins ties with its neighbours' ends.
template <Real T>
SegmentBoxPoints<T> closest_segment_box(const LocalSegment<T>& s) {
  T cuts[8];
  int count = 0;
  cuts[count++] = T(0);
  for (int i = 0; i < 3; ++i) {
    if (s.d[i] == T(0)) continue;
    for (const T face : {-s.h[i], s.h[i]}) {
      const T t = (face - s.p0[i]) / s.d[i];
      if (t > T(0) && t < T(1)) cuts[count++] = t;
    }
  }
  cuts[count++] = T(1);
  for (int i = 1; i < count; ++i) {  // insertion sort of at most 8
    for (int j = i; j > 0 && cuts[j] < cuts[j - 1]; --j) std::swap(cuts[j], cuts[j - 1]);
  }

  SegmentBoxPoints<T> best{};
  bool found = false;
  for (int k = 0; k + 1 < count; ++k) {
    const T lo = cuts[k], hi = cuts[k + 1];
    if (!(lo < hi)) continue;
    const T mid = T(0.5) * (lo + hi);
    const Vec3<T> pm = s.at(mid);
    T curvature = 0, slope = 0;  // of the piece's sum of squares, halved
    for (int i = 0; i < 3; ++i) {
      T face;
      if (pm[i] > s.h[i]) {
        face = s.h[i];
      } else if (pm[i] < -s.h[i]) {
        face = -s.h[i];
      } else {
        continue;
      }
      curvature += s.d[i] * s.d[i];
      slope += s.d[i] * (s.p0[i] - face);
    }
    const bool flat = !(curvature > T(0));
    const SegmentBoxPoints<T> candidate = points_at(s, flat ? mid : clamp(-slope / curvature, lo, hi));
    if (!found || candidate.distance_squared < best.distance_squared ||
        (flat && candidate.distance_squared <= best.distance_squared)) {
      best = candidate;
      found = true;
    }
  }
  return best;
}

/// The middle of the part of the segment inside the box, or `fallback` when rounding left that
/// part empty.
template <Real T>
T middle_inside(const LocalSegment<T>& s, T fallback) {
  T t_in = 0, t_out = 1;
  for (int i = 0; i < 3; ++i) {
    if (s.d[i] == T(0)) {
      if (std::abs(s.p0[i]) > s.h[i]) return fallback;
      continue;
    }
    T t0 = (-s.h[i] - s.p0[i]) / s.d[i], t1 = (s.h[i] - s.p0[i]) / s.d[i];
    if (t1 < t0) std::swap(t0, t1);
    t_in = max(t_in, t0);
    t_out = min(t_out, t1);
  }
  return t_in <= t_out ? T(0.5) * (t_in + t_out) : fallback;
}

/// Depth and direction of the shallowest way out for a segment touching or inside the box: the
/// separating axis test over the Minkowski difference's face normals, in the box's frame.
template <Real T>
Vec3<T> shallowest_axis(const LocalSegment<T>& s, T slack, T& depth) {
  Vec3<T> axes[6] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  int count = 3;
  const T d2 = dot(s.d, s.d);
  for (int k = 0; k < 3; ++k) {
    const Vec3<T> c = cross(s.d, axes[k]);
    if (dot(c, c) > kEpsilon<T> * d2) axes[count++] = normalize(c);
  }
  const Vec3<T> p1 = s.p0 + s.d;
  Vec3<T> best{0, 0, 1};
  for (int k = 0; k < count; ++k) {
    const Vec3<T> axis = axes[k];
    const T reach = s.h.x * std::abs(axis.x) + s.h.y * std::abs(axis.y) + s.h.z * std::abs(axis.z);
    const T s0 = dot(s.p0, axis), s1 = dot(p1, axis);
    const T up = reach - min(s0, s1);    // moving the segment along +axis until it clears the box
    const T down = max(s0, s1) + reach;  // along -axis
    const T axis_depth = min(up, down);
    if (k == 0 || axis_depth < depth - (k < 3 ? T(0) : slack)) {
      depth = axis_depth;
      best = up <= down ? axis : -axis;
    }
  }
  return best;
}

template <Real T>
LocalSegment<T> in_box_frame(const Capsule<T>& a, const Obb<T>& b) {
  return {b.rotation.transpose_mul(a.a - b.center), b.rotation.transpose_mul(a.b - a.a), b.half_extents};
}

}  // namespace

template <Real T>
bool overlap(const Capsule<T>& a, const Obb<T>& b, ContactTolerance<T> tol) {
  if (!valid(a, b)) return false;
  const LocalSegment<T> s = in_box_frame(a, b);
  const T size = pair_size(capsule_size(a), max_component(s.h));
  return within(closest_segment_box(s).distance_squared, a.radius, tol.at_size(size));
}

template <Real T>
Contact<T> contact(const Capsule<T>& a, const Obb<T>& b, std::type_identity_t<T> margin, ContactTolerance<T> tol) {
  if (!valid(a, b)) return {};
  const LocalSegment<T> s = in_box_frame(a, b);
  const T r = a.radius;
  const T size_tolerance = tol.at_size(pair_size(capsule_size(a), max_component(s.h)));
  const SegmentBoxPoints<T> closest = closest_segment_box(s);
  if (!within(closest.distance_squared, r, margin_or_zero(margin) + size_tolerance)) return {};

  Contact<T> c;
  c.touching = true;
  const Vec3<T> local_normal = normalize(s.at(closest.t) - closest.on_box);
  if (closest.distance_squared > T(0) && local_normal != Vec3<T>{}) {
    c.normal = b.rotation * local_normal;
    c.point_on_a = a.a + (a.b - a.a) * closest.t - c.normal * r;
    c.point_on_b = b.center + b.rotation * closest.on_box;
    c.depth = r - std::sqrt(closest.distance_squared);
    return c;
  }

  T segment_depth = 0;
  const Vec3<T> n = shallowest_axis(s, size_tolerance, segment_depth);
  // The segment's deepest point along -n: the lower end, or on a tie (the segment lies along the
  // face) the middle of its part inside the box.
  const T s0 = dot(s.p0, n), s1 = dot(s.p0 + s.d, n);
  const T t = std::abs(s0 - s1) <= size_tolerance ? middle_inside(s, closest.t) : (s0 < s1 ? T(0) : T(1));
  c.normal = b.rotation * n;
  c.depth = r + segment_depth;
  c.point_on_a = a.a + (a.b - a.a) * t - c.normal * r;
  c.point_on_b = c.point_on_a + c.normal * c.depth;
  return c;
}

#define HITSCAN_INSTANTIATE_CONTACT_CAPSULE_BOX(T)                                  \
  template bool overlap(const Capsule<T>&, const Obb<T>&, ContactTolerance<T>);     \
  template Contact<T> contact(const Capsule<T>&, const Obb<T>&, std::type_identity_t<T>, ContactTolerance<T>);

HITSCAN_INSTANTIATE_CONTACT_CAPSULE_BOX(float)
HITSCAN_INSTANTIATE_CONTACT_CAPSULE_BOX(double)
#undef HITSCAN_INSTANTIATE_CONTACT_CAPSULE_BOX

}  // namespace hitscan
