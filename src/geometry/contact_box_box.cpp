#include "hitscan/geometry/contact_box_box.hpp"

#include "hitscan/geometry/closest_point.hpp"

namespace hitscan {
namespace {

template <Real T>
bool is_size(Vec3<T> h) {
  return h.x >= T(0) && h.y >= T(0) && h.z >= T(0);
}

/// The caller's margin; a negative or NaN one counts as 0.
template <Real T>
T nonnegative(T margin) {
  return max(T(0), margin);
}

template <Real T>
Vec3<T> unit_axis(int i) {
  return {T(i == 0), T(i == 1), T(i == 2)};
}

// ---- axis-aligned boxes ----------------------------------------------------------------------------

template <Real T>
T box_pair_size(const Aabb<T>& a, const Aabb<T>& b) {
  return max(max_component(a.half_extents()), max_component(b.half_extents()));
}

/// Squared distance between the boxes from the gaps between their intervals, and whether any
/// interval pair is apart.
template <Real T>
T aabb_distance_squared(const Aabb<T>& a, const Aabb<T>& b, bool& apart) {
  T d2 = 0;
  apart = false;
  for (int i = 0; i < 3; ++i) {
    const T gap = max(max(a.min[i] - b.max[i], b.min[i] - a.max[i]), T(0));
    apart = apart || gap > T(0);
    d2 += gap * gap;
  }
  return d2;
}

// ---- oriented boxes ---------------------------------------------------------------------------------

/// Cross products of edges shorter than this (squared) are skipped: edges parallel to within
/// epsilon radians, whose axis could add at most epsilon times the boxes' size to the others.
template <Real T>
inline constexpr T kParallelEdges = kEpsilon<T> * kEpsilon<T>;

/// B seen from A's frame (Ericson 4.4.1): its centre t = Aᵀ (cB - cA) and its axes r[j] = Aᵀ B_j,
/// the columns of Ericson's R.
template <Real T>
struct BoxPairInA {
  Vec3<T> t;
  Vec3<T> r[3];
  Vec3<T> ha, hb;
};

template <Real T>
BoxPairInA<T> box_pair_in_a(const Obb<T>& a, const Obb<T>& b) {
  const Mat3<T>& ra = a.rotation;
  return {ra.transpose_mul(b.center - a.center),
          {ra.transpose_mul(b.rotation.col[0]), ra.transpose_mul(b.rotation.col[1]), ra.transpose_mul(b.rotation.col[2])},
          a.half_extents,
          b.half_extents};
}

/// Candidate axis k of the 15, in A's frame: 0-2 A's face normals, 3-5 B's, 6-14 the cross
/// products A_i x B_j with i = (k - 6) / 3, j = (k - 6) % 3.
template <Real T>
Vec3<T> candidate_axis(const BoxPairInA<T>& p, int k) {
  if (k < 3) return unit_axis<T>(k);
  if (k < 6) return p.r[k - 3];
  return cross(unit_axis<T>((k - 6) / 3), p.r[(k - 6) % 3]);
}

/// |t·L| - ra - rb: how far apart the boxes' projections on L are, times |L| (negative when they
/// overlap). B's radius is projected on L itself rather than taken from Ericson's closed
/// forms, which hold only for exactly orthonormal axes; so the gap is right for the computed L
/// however short it is.
template <Real T>
T projected_gap(const BoxPairInA<T>& p, Vec3<T> axis, T& t_along) {
  t_along = dot(p.t, axis);
  const T ra = dot(p.ha, abs(axis));
  const T rb = p.hb.x * std::abs(dot(axis, p.r[0])) + p.hb.y * std::abs(dot(axis, p.r[1])) +
               p.hb.z * std::abs(dot(axis, p.r[2]));
  return std::abs(t_along) - ra - rb;
}

enum class AxisTest { separated, apart, overlapping };

template <Real T>
struct AxisTestResult {
  AxisTest kind = AxisTest::overlapping;
  /// With kFindAxis: the axis of least penetration (or of largest gap when apart), unit length,
  /// from B towards A in A's frame, the penetration along it and its index (0..14).
  Vec3<T> normal_in_a{0, 0, 1};
  T depth = kInfinity<T>;
  int axis = -1;
};

/// The separating axis test (Gottschalk et al. 1996; Ericson 4.4.1) with a reach: separated when
/// some axis shows a gap larger than reach, apart when the largest gap is positive but within
/// reach. kFindAxis also tracks the least penetration, replacing the best axis only when a later
/// one (faces of A, then of B, then edges) is shallower by more than bias.
template <Real T, bool kFindAxis>
AxisTestResult<T> separating_axis_test(const BoxPairInA<T>& p, T reach, T bias) {
  AxisTestResult<T> result;
  const T reach2 = reach * reach;
  for (int k = 0; k < 15; ++k) {
    const Vec3<T> axis = candidate_axis(p, k);
    const T length2 = dot(axis, axis);
    if (k >= 6 && !(length2 > kParallelEdges<T>)) continue;
    T t_along;
    const T gap = projected_gap(p, axis, t_along);
    if (!(gap <= T(0))) {  // a gap, or NaN
      // gap / |L| > reach without the square root; a NaN gap also lands here.
      if (!(gap * gap <= reach2 * length2)) return {AxisTest::separated};
      result.kind = AxisTest::apart;
    }
    if constexpr (kFindAxis) {
      const T inverse_length = T(1) / std::sqrt(length2);
      const T depth = -gap * inverse_length;
      if (depth < result.depth - bias) {
        result.depth = depth;
        result.axis = k;
        result.normal_in_a = axis * (t_along > T(0) ? -inverse_length : inverse_length);
      }
    }
  }
  return result;
}

template <Real T>
Vec3<T> corner(const Obb<T>& box, int index) {
  Vec3<T> p = box.center;
  for (int k = 0; k < 3; ++k) p += box.rotation.col[k] * ((index >> k) & 1 ? box.half_extents[k] : -box.half_extents[k]);
  return p;
}

/// Edge `index` (0..11): parallel to axis index / 4, at the corner signs index % 4 on the others.
template <Real T>
Segment<T> edge(const Obb<T>& box, int index) {
  const int along = index / 4;
  const int signs = index % 4;
  Vec3<T> mid = box.center;
  for (int k = 0, bit = 0; k < 3; ++k) {
    if (k == along) continue;
    mid += box.rotation.col[k] * ((signs >> bit++) & 1 ? box.half_extents[k] : -box.half_extents[k]);
  }
  const Vec3<T> half = box.rotation.col[along] * box.half_extents[along];
  return {mid - half, mid + half};
}

template <Real T>
struct ClosestPair {
  Vec3<T> on_a{}, on_b{};
  T distance_squared = kInfinity<T>;
};

/// The closest points of two disjoint solid boxes, in A's frame: the nearest of the vertices of
/// each against the other solid and of every edge pair, which covers every feature pair a
/// minimum distance between convex polyhedra can be attained at.
template <Real T>
ClosestPair<T> closest_points_of_boxes(const BoxPairInA<T>& p) {
  const Obb<T> a{{}, p.ha, Mat3<T>::identity()};
  const Obb<T> b{p.t, p.hb, Mat3<T>::from_columns(p.r[0], p.r[1], p.r[2])};
  ClosestPair<T> best;
  const auto consider = [&best](Vec3<T> on_a, Vec3<T> on_b) {
    const T d2 = distance_squared(on_a, on_b);
    if (d2 < best.distance_squared) best = {on_a, on_b, d2};
  };
  for (int v = 0; v < 8; ++v) {
    const Vec3<T> va = corner(a, v), vb = corner(b, v);
    consider(va, closest_point_on_obb(b, va).point);
    consider(closest_point_on_obb(a, vb).point, vb);
  }
  for (int i = 0; i < 12; ++i) {
    const Segment<T> ea = edge(a, i);
    for (int j = 0; j < 12; ++j) {
      const SegmentPairClosestPoints<T> s = closest_points_between_segments(ea, edge(b, j));
      consider(s.on_first, s.on_second);
    }
  }
  return best;
}

/// The point of box x furthest along d. On an axis of x across which the support varies by at
/// most flat / 2 (x's face or edge lies flat against the other box), the point is centred in the
/// overlap of x's extent with the other box's shadow on that axis (the interval it projects to):
/// the middle of the contact patch rather than an arbitrary corner. At most two axes are flat, so
/// the point lies within `flat` of the deepest.
template <Real T>
Vec3<T> support_point(const Obb<T>& x, const Obb<T>& other, Vec3<T> d, T flat) {
  Vec3<T> p = x.center;
  for (int k = 0; k < 3; ++k) {
    const Vec3<T> axis = x.rotation.col[k];
    const T along = dot(axis, d);
    const T h = x.half_extents[k];
    T coordinate = along > T(0) ? h : -h;
    if (T(4) * h * std::abs(along) <= flat) {
      const T center = dot(axis, other.center - x.center);
      const Mat3<T>& r = other.rotation;
      const T shadow = other.half_extents.x * std::abs(dot(axis, r.col[0])) +
                       other.half_extents.y * std::abs(dot(axis, r.col[1])) +
                       other.half_extents.z * std::abs(dot(axis, r.col[2]));
      coordinate = clamp((max(-h, center - shadow) + min(h, center + shadow)) * T(0.5), -h, h);
    }
    p += axis * coordinate;
  }
  return p;
}

/// The point of the box's face on axis k whose outward normal points along d, nearest to p.
template <Real T>
Vec3<T> nearest_on_face(const Obb<T>& box, int k, Vec3<T> d, Vec3<T> p) {
  const Vec3<T> local = box.rotation.transpose_mul(p - box.center);
  Vec3<T> q = box.center;
  for (int i = 0; i < 3; ++i) {
    const T h = box.half_extents[i];
    const T coordinate = i != k ? clamp(local[i], -h, h) : (dot(box.rotation.col[k], d) > T(0) ? h : -h);
    q += box.rotation.col[i] * coordinate;
  }
  return q;
}

/// The edge of box x parallel to axis `along` that lies furthest along d.
template <Real T>
Segment<T> support_edge(const Obb<T>& x, int along, Vec3<T> d) {
  Vec3<T> mid = x.center;
  for (int k = 0; k < 3; ++k) {
    if (k == along) continue;
    const Vec3<T> axis = x.rotation.col[k];
    mid += axis * (dot(axis, d) > T(0) ? x.half_extents[k] : -x.half_extents[k]);
  }
  const Vec3<T> half = x.rotation.col[along] * x.half_extents[along];
  return {mid - half, mid + half};
}

template <Real T>
T box_pair_size(const Obb<T>& a, const Obb<T>& b) {
  return max(max_component(a.half_extents), max_component(b.half_extents));
}

}  // namespace

template <Real T>
bool overlap(const Aabb<T>& a, const Aabb<T>& b, ContactTolerance<T> tol) {
  if (!a.is_valid() || !b.is_valid()) return false;
  const T reach = tol.at_size(box_pair_size(a, b));
  bool apart;
  return aabb_distance_squared(a, b, apart) <= reach * reach;
}

template <Real T>
Contact<T> contact(const Aabb<T>& a, const Aabb<T>& b, std::type_identity_t<T> margin, ContactTolerance<T> tol) {
  Contact<T> c;
  if (!a.is_valid() || !b.is_valid()) return c;
  const T reach = nonnegative(margin) + tol.at_size(box_pair_size(a, b));
  bool apart;
  c.touching = aabb_distance_squared(a, b, apart) <= reach * reach;
  T on_a[3], on_b[3], normal[3] = {0, 0, 0};
  T best = kInfinity<T>;
  int best_axis = 0;
  T best_sign = 1;
  for (int i = 0; i < 3; ++i) {
    // Centre of the overlap of the two intervals (of the gap, when they are apart).
    const T middle = (max(a.min[i], b.min[i]) + min(a.max[i], b.max[i])) * T(0.5);
    on_a[i] = on_b[i] = middle;
    if (apart) {
      if (a.min[i] > b.max[i]) on_a[i] = a.min[i], on_b[i] = b.max[i];
      if (b.min[i] > a.max[i]) on_a[i] = a.max[i], on_b[i] = b.min[i];
      continue;
    }
    // The two ways to push A out along this axis.
    const T push_up = b.max[i] - a.min[i], push_down = a.max[i] - b.min[i];
    if (push_up < best) best = push_up, best_axis = i, best_sign = 1;
    if (push_down < best) best = push_down, best_axis = i, best_sign = -1;
  }
  if (apart) {
    const Vec3<T> difference = Vec3<T>{on_a[0], on_a[1], on_a[2]} - Vec3<T>{on_b[0], on_b[1], on_b[2]};
    c.normal = normalize(difference);
    c.depth = -dot(difference, c.normal);
  } else {
    const int k = best_axis;
    on_a[k] = best_sign > T(0) ? a.min[k] : a.max[k];
    on_b[k] = best_sign > T(0) ? b.max[k] : b.min[k];
    normal[k] = best_sign;
    c.normal = {normal[0], normal[1], normal[2]};
    c.depth = best;
  }
  c.point_on_a = {on_a[0], on_a[1], on_a[2]};
  c.point_on_b = {on_b[0], on_b[1], on_b[2]};
  return c;
}

template <Real T>
bool overlap(const Obb<T>& a, const Obb<T>& b, ContactTolerance<T> tol) {
  if (!is_size(a.half_extents) || !is_size(b.half_extents)) return false;
  const T reach = tol.at_size(box_pair_size(a, b));
  const BoxPairInA<T> pair = box_pair_in_a(a, b);
  const AxisTestResult<T> test = separating_axis_test<T, false>(pair, reach, T(0));
  if (test.kind != AxisTest::apart) return test.kind == AxisTest::overlapping;
  return closest_points_of_boxes(pair).distance_squared <= reach * reach;
}

template <Real T>
Contact<T> contact(const Obb<T>& a, const Obb<T>& b, std::type_identity_t<T> margin, ContactTolerance<T> tol) {
  Contact<T> c;
  if (!is_size(a.half_extents) || !is_size(b.half_extents)) return c;
  const T tolerance = tol.at_size(box_pair_size(a, b));
  const T reach = nonnegative(margin) + tolerance;
  const BoxPairInA<T> pair = box_pair_in_a(a, b);
  const AxisTestResult<T> test = separating_axis_test<T, true>(pair, reach, tolerance);
  if (test.kind == AxisTest::separated) return c;

  if (test.kind == AxisTest::apart) {
    const ClosestPair<T> closest = closest_points_of_boxes(pair);
    c.touching = closest.distance_squared <= reach * reach;
    const Vec3<T> difference = closest.on_a - closest.on_b;
    const Vec3<T> n = normalize(difference);
    // Touching exactly (a zero difference): the axis test's best axis stands in for the normal.
    c.normal = normalize(a.rotation * (n == Vec3<T>{} ? test.normal_in_a : n));
    c.depth = -dot(difference, n);
    c.point_on_a = a.center + a.rotation * closest.on_a;
    c.point_on_b = a.center + a.rotation * closest.on_b;
    return c;
  }

  c.touching = true;
  c.normal = normalize(a.rotation * test.normal_in_a);
  c.depth = test.depth;
  if (test.axis < 3) {
    c.point_on_b = support_point(b, a, c.normal, tolerance);
    c.point_on_a = nearest_on_face(a, test.axis, -c.normal, c.point_on_b);
  } else if (test.axis < 6) {
    c.point_on_a = support_point(a, b, -c.normal, tolerance);
    c.point_on_b = nearest_on_face(b, test.axis - 3, c.normal, c.point_on_a);
  } else {
    const Segment<T> edge_a = support_edge(a, (test.axis - 6) / 3, -c.normal);
    const Segment<T> edge_b = support_edge(b, (test.axis - 6) % 3, c.normal);
    const SegmentPairClosestPoints<T> closest = closest_points_between_segments(edge_a, edge_b);
    c.point_on_a = closest.on_first;
    c.point_on_b = closest.on_second;
  }
  return c;
}

template <Real T>
bool overlap(const CachedObb<T>& a, const CachedObb<T>& b, ContactTolerance<T> tol) {
  // Conservative by a relative 2^-18 or so, far above the rounding of the exact test (done in
  // A's frame, so relative to the boxes' size and distance, not to their distance from the
  // origin): no pair the exact test calls touching is rejected.
  const T reach = a.circumradius + b.circumradius + tol.at_size(box_pair_size(a.box, b.box));
  if (distance_squared(a.box.center, b.box.center) > reach * reach * (T(1) + T(64) * kEpsilon<T>)) return false;
  return overlap(a.box, b.box, tol);
}

#define HITSCAN_INSTANTIATE_CONTACT_BOX_BOX(T)                                             \
  template bool overlap(const Aabb<T>&, const Aabb<T>&, ContactTolerance<T>);              \
  template Contact<T> contact(const Aabb<T>&, const Aabb<T>&, T, ContactTolerance<T>);     \
  template bool overlap(const Obb<T>&, const Obb<T>&, ContactTolerance<T>);                \
  template Contact<T> contact(const Obb<T>&, const Obb<T>&, T, ContactTolerance<T>);       \
  template bool overlap(const CachedObb<T>&, const CachedObb<T>&, ContactTolerance<T>);

HITSCAN_INSTANTIATE_CONTACT_BOX_BOX(float)
HITSCAN_INSTANTIATE_CONTACT_BOX_BOX(double)
#undef HITSCAN_INSTANTIATE_CONTACT_BOX_BOX

}  // namespace hitscan
