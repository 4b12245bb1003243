#include "hitscan/geometry/contact_triangle.hpp"

#include "contact_support.hpp"
#include "hitscan/geometry/closest_point.hpp"
#include "hitscan/geometry/contact_capsule_box.hpp"
#include "hitscan/geometry/contact_round.hpp"

namespace hitscan {
namespace {

using detail::capsule_size;
using detail::margin_or_zero;
using detail::pair_size;
using detail::within;

template <Real T>
T triangle_size(const Triangle<T>& t) {
  const T e = pair_size(distance_squared(t.v0, t.v1), pair_size(distance_squared(t.v1, t.v2), distance_squared(t.v2, t.v0)));
  return T(0.5) * std::sqrt(e);
}

/// The unit normal of the triangle's front, or zero when the triangle is too thin to carry a
/// plane: the test closest_point_on_triangle makes, so that its face region and this agree.
template <Real T>
Vec3<T> face_normal(const Triangle<T>& t) {
  const Vec3<T> ab = t.v1 - t.v0, ac = t.v2 - t.v0;
  if (!carries_plane(ab, ac)) return {};
  return normalize(cross(ab, ac));
}

/// For a triangle without a plane: a fixed unit vector perpendicular to its longest edge, +z for
/// a point.
template <Real T>
Vec3<T> degenerate_normal(const Triangle<T>& t) {
  const Vec3<T> edges[3] = {t.v1 - t.v0, t.v2 - t.v1, t.v0 - t.v2};
  Vec3<T> longest = edges[0];
  for (const Vec3<T>& e : edges) {
    if (dot(e, e) > dot(longest, longest)) longest = e;
  }
  const Vec3<T> u = normalize(longest);
  if (u == Vec3<T>{}) return {0, 0, 1};
  Vec3<T> b1, b2;
  orthonormal_basis(u, b1, b2);
  return b1;
}

/// Sphere (centre, radius) against the triangle, face_n = face_normal(t). No limit check when
/// limit is infinite: used for the feature pairs of the other shapes.
template <Real T>
Contact<T> sphere_vs_triangle(Vec3<T> center, T radius, const Triangle<T>& t, Vec3<T> face_n, T limit) {
  const TriangleClosestPoint<T> q = closest_point_on_triangle(t, center);
  const Vec3<T> d = center - q.point;
  const T d2 = dot(d, d);
  if (!within(d2, radius, limit)) return {};
  Vec3<T> n;
  if (q.feature == Feature::face && face_n != Vec3<T>{}) {
    n = dot(d, face_n) < T(0) ? -face_n : face_n;  // exact, however close the centre is to the face
  } else {
    n = normalize(d);
    if (n == Vec3<T>{}) n = face_n != Vec3<T>{} ? face_n : degenerate_normal(t);
  }
  return {true, center - n * radius, q.point, n, radius - std::sqrt(d2)};
}

/// Keeps the deeper contact (the less separated pair), the earlier one on a tie; a candidate
/// that is not touching (NaN input) is ignored.
template <Real T>
void keep_deeper(Contact<T>& best, const Contact<T>& candidate) {
  if (candidate.touching && (!best.touching || candidate.depth > best.depth)) best = candidate;
}

/// The contact of a capsule whose segment meets the triangle: the face normal towards the side
/// of the segment's centre, and the depth that lifts the segment's lowest point onto the plane.
template <Real T>
Contact<T> face_contact(Vec3<T> normal, T lowest_height, Vec3<T> lowest, Vec3<T> on_triangle, T radius) {
  Contact<T> c;
  c.touching = true;
  c.normal = normal;
  c.depth = radius - lowest_height;
  c.point_on_a = lowest - normal * radius;
  c.point_on_b = on_triangle;
  return c;
}

// ---- box vs triangle ------------------------------------------------------------------------------

enum class AxisKind { triangle_normal, box_axis, edge_cross };

/// The outcome of the separating axis test: the least depth over all axes (negative: a
/// separating axis, and minus a lower bound on the distance), and the chosen axis (the least
/// depth after the preference for face axes) oriented from the triangle to the box.
template <Real T>
struct SeparatingAxes {
  T min_depth = 0;
  T depth = 0;
  Vec3<T> normal{0, 0, 1};
  AxisKind kind = AxisKind::triangle_normal;
  int box_axis = 0, edge = 0;
};

template <Real T>
struct BoxTriangleFrame {
  Vec3<T> h{};
  Vec3<T> axes[3];
  Vec3<T> w[3];      // triangle corners relative to the box's centre
  Vec3<T> edges[3];  // edge j from corner j to corner (j + 1) % 3
  Vec3<T> face_n{};
};

/// Half extents are valid when >= 0; a negative or NaN one makes the box touch nothing.
template <Real T>
bool valid_box(const Obb<T>& a) {
  return a.half_extents.x >= T(0) && a.half_extents.y >= T(0) && a.half_extents.z >= T(0);
}

template <Real T>
BoxTriangleFrame<T> frame_of(const Obb<T>& a, const Triangle<T>& b) {
  BoxTriangleFrame<T> f;
  f.h = a.half_extents;
  for (int k = 0; k < 3; ++k) f.axes[k] = a.rotation.col[k];
  f.w[0] = b.v0 - a.center, f.w[1] = b.v1 - a.center, f.w[2] = b.v2 - a.center;
  for (int j = 0; j < 3; ++j) f.edges[j] = f.w[(j + 1) % 3] - f.w[j];
  f.face_n = face_normal(b);
  return f;
}

template <Real T>
T box_reach(const BoxTriangleFrame<T>& f, Vec3<T> axis) {
  return f.h.x * std::abs(dot(f.axes[0], axis)) + f.h.y * std::abs(dot(f.axes[1], axis)) +
         f.h.z * std::abs(dot(f.axes[2], axis));
}

template <Real T>
SeparatingAxes<T> separating_axes(const BoxTriangleFrame<T>& f, T slack) {
  SeparatingAxes<T> result;
  bool first = true;
  auto test = [&](Vec3<T> axis, AxisKind kind, int box_axis, int edge) {
    const T reach = box_reach(f, axis);
    const T p0 = dot(f.w[0], axis), p1 = dot(f.w[1], axis), p2 = dot(f.w[2], axis);
    const T up = max(p0, max(p1, p2)) + reach;    // moving the box along +axis until it clears
    const T down = reach - min(p0, min(p1, p2));  // along -axis
    const T depth = min(up, down);
    if (first || depth < result.min_depth) result.min_depth = depth;
    if (first || depth < result.depth - (kind == AxisKind::edge_cross ? slack : T(0))) {
      result.depth = depth;
      result.normal = up <= down ? axis : -axis;
      result.kind = kind;
      result.box_axis = box_axis;
      result.edge = edge;
    }
    first = false;
  };
  if (f.face_n != Vec3<T>{}) test(f.face_n, AxisKind::triangle_normal, 0, 0);
  for (int k = 0; k < 3; ++k) test(f.axes[k], AxisKind::box_axis, k, 0);
  for (int k = 0; k < 3; ++k) {
    for (int j = 0; j < 3; ++j) {
      const Vec3<T> c = cross(f.axes[k], f.edges[j]);
      if (dot(c, c) > kEpsilon<T> * dot(f.edges[j], f.edges[j])) test(normalize(c), AxisKind::edge_cross, k, j);
    }
  }
  return result;
}

/// Coefficient (-1, 0, +1) of box axis k in the box's supporting point along -n: 0 on a tie,
/// where the two faces across that axis are within `slack` of the same height along n.
template <Real T>
T support_sign(const BoxTriangleFrame<T>& f, int k, Vec3<T> n, T slack) {
  const T along = dot(f.axes[k], n);
  if (T(2) * f.h[k] * std::abs(along) <= slack) return T(0);
  return along > T(0) ? T(-1) : T(1);
}

template <Real T>
Contact<T> overlapping_box_contact(const Obb<T>& a, const Triangle<T>& b, const BoxTriangleFrame<T>& f,
                                   const SeparatingAxes<T>& sat, T slack) {
  const Vec3<T> n = sat.normal;
  Contact<T> c;
  c.touching = true;
  c.normal = n;
  c.depth = sat.depth;
  if (sat.kind == AxisKind::box_axis) {
    // The triangle's supporting corner along n, or the middle of the corners tied with it.
    const T p[3] = {dot(f.w[0], n), dot(f.w[1], n), dot(f.w[2], n)};
    const T top = max(p[0], max(p[1], p[2]));
    Vec3<T> sum{};
    T count = 0;
    for (int i = 0; i < 3; ++i) {
      if (p[i] >= top - slack) sum += f.w[i], count += T(1);
    }
    c.point_on_b = a.center + sum / count;
    c.point_on_a = c.point_on_b - n * c.depth;
    return c;
  }
  // The box's supporting point along -n; for an edge axis, the middle of the supporting edge
  // along box axis k, which the axis is perpendicular to.
  Vec3<T> support = a.center;
  for (int k = 0; k < 3; ++k) {
    if (sat.kind == AxisKind::edge_cross && k == sat.box_axis) continue;
    support += f.axes[k] * (support_sign(f, k, n, slack) * f.h[k]);
  }
  if (sat.kind == AxisKind::triangle_normal) {
    // The box's supporting point lifted onto the plane, then onto the triangle.
    c.point_on_b = closest_point_on_triangle(b, support + n * c.depth).point;
    c.point_on_a = c.point_on_b - n * c.depth;
    return c;
  }
  // Edge against edge: the box's supporting edge and the triangle's edge j, or its third corner
  // when that lies higher along n.
  const int k = sat.box_axis, j = sat.edge;
  const Segment<T> box_edge{support - f.axes[k] * f.h[k], support + f.axes[k] * f.h[k]};
  const Vec3<T> corner_j = a.center + f.w[j], corner_next = a.center + f.w[(j + 1) % 3];
  const Vec3<T> third = a.center + f.w[(j + 2) % 3];
  const Segment<T> triangle_feature = dot(f.w[(j + 2) % 3], n) > dot(f.w[j], n) + slack ? Segment<T>{third, third}
                                                                                         : Segment<T>{corner_j, corner_next};
  c.point_on_a = closest_points_between_segments(box_edge, triangle_feature).on_first;
  c.point_on_b = c.point_on_a + n * c.depth;
  return c;
}

/// The exact closest points of a box and a triangle that do not intersect: the nearest of the
/// triangle's edges against the box and the box's corners against the triangle.
template <Real T>
Contact<T> separated_box_contact(const Obb<T>& a, const Triangle<T>& b, const BoxTriangleFrame<T>& f,
                                 ContactTolerance<T> tol) {
  const Vec3<T> corners[3] = {b.v0, b.v1, b.v2};
  Contact<T> best;
  for (int j = 0; j < 3; ++j) {
    const Contact<T> e = contact(Capsule<T>{corners[j], corners[(j + 1) % 3], T(0)}, a, kInfinity<T>, tol);
    if (e.touching) keep_deeper(best, Contact<T>{true, e.point_on_b, e.point_on_a, -e.normal, e.depth});
  }
  for (int corner = 0; corner < 8; ++corner) {
    Vec3<T> p = a.center;
    for (int k = 0; k < 3; ++k) p += f.axes[k] * (((corner >> k) & 1) ? f.h[k] : -f.h[k]);
    const Contact<T> v = sphere_vs_triangle(p, T(0), b, f.face_n, kInfinity<T>);
    keep_deeper(best, v);
  }
  return best;
}

}  // namespace

template <Real T>
bool overlap(const Sphere<T>& a, const Triangle<T>& b, ContactTolerance<T> tol) {
  if (!(a.radius >= T(0))) return false;
  const Vec3<T> q = closest_point_on_triangle(b, a.center).point;
  return within(distance_squared(a.center, q), a.radius, tol.at_size(pair_size(a.radius, triangle_size(b))));
}

template <Real T>
Contact<T> contact(const Sphere<T>& a, const Triangle<T>& b, std::type_identity_t<T> margin, ContactTolerance<T> tol) {
  if (!(a.radius >= T(0))) return {};
  const T limit = margin_or_zero(margin) + tol.at_size(pair_size(a.radius, triangle_size(b)));
  return sphere_vs_triangle(a.center, a.radius, b, face_normal(b), limit);
}

template <Real T>
bool overlap(const Capsule<T>& a, const Triangle<T>& b, ContactTolerance<T> tol) {
  return contact(a, b, T(0), tol).touching;
}

template <Real T>
Contact<T> contact(const Capsule<T>& a, const Triangle<T>& b, std::type_identity_t<T> margin, ContactTolerance<T> tol) {
  if (!(a.radius >= T(0))) return {};
  const T r = a.radius;
  const T size_tolerance = tol.at_size(pair_size(capsule_size(a), triangle_size(b)));
  if (!(size_tolerance >= T(0))) return {};  // a NaN coordinate
  const T limit = margin_or_zero(margin) + size_tolerance;
  const Vec3<T> face_n = face_normal(b);

  // Piercing: the segment crosses the plane within tolerance of the triangle.
  bool in_plane = false;
  if (face_n != Vec3<T>{} && a.a != a.b) {
    const T da = dot(a.a - b.v0, face_n), db = dot(a.b - b.v0, face_n);
    in_plane = da == T(0) && db == T(0);
    if (((da <= T(0) && db >= T(0)) || (da >= T(0) && db <= T(0))) && !in_plane) {
      const Vec3<T> x = a.a + (a.b - a.a) * (da / (da - db));
      const Vec3<T> q = closest_point_on_triangle(b, x).point;
      if (distance_squared(x, q) <= size_tolerance * size_tolerance) {
        const T side = da + db >= T(0) ? T(1) : T(-1);  // the centre's side; the front in the plane
        const bool a_lower = side * da <= side * db;
        return face_contact(face_n * side, min(side * da, side * db), a_lower ? a.a : a.b, q, r);
      }
    }
  }

  // The nearest of the five feature pairs: exact unless the segment meets the triangle's interior.
  Contact<T> nearest = sphere_vs_triangle(a.a, r, b, face_n, kInfinity<T>);
  keep_deeper(nearest, sphere_vs_triangle(a.b, r, b, face_n, kInfinity<T>));
  const Vec3<T> corners[3] = {b.v0, b.v1, b.v2};
  for (int j = 0; j < 3; ++j) {
    const Contact<T> e = contact(a, Capsule<T>{corners[j], corners[(j + 1) % 3], T(0)}, kInfinity<T>, tol);
    keep_deeper(nearest, e);
  }
  if (!nearest.touching || !(-nearest.depth <= limit)) return {};
  if (in_plane && r - nearest.depth <= size_tolerance) {
    // A segment lying in the plane across the triangle: the front face normal.
    const Vec3<T> core = nearest.point_on_a + nearest.normal * r;
    return face_contact(face_n, T(0), core, nearest.point_on_b, r);
  }
  return nearest;
}

template <Real T>
bool overlap(const Obb<T>& a, const Triangle<T>& b, ContactTolerance<T> tol) {
  if (!valid_box(a)) return false;
  const BoxTriangleFrame<T> f = frame_of(a, b);
  const T size_tolerance = tol.at_size(pair_size(max_component(f.h), triangle_size(b)));
  if (!(size_tolerance >= T(0))) return false;  // a NaN coordinate
  const SeparatingAxes<T> sat = separating_axes(f, size_tolerance);
  if (sat.min_depth >= T(0)) return true;
  if (-sat.min_depth > size_tolerance) return false;
  const Contact<T> c = separated_box_contact(a, b, f, tol);
  return c.touching && -c.depth <= size_tolerance;
}

template <Real T>
Contact<T> contact(const Obb<T>& a, const Triangle<T>& b, std::type_identity_t<T> margin, ContactTolerance<T> tol) {
  if (!valid_box(a)) return {};
  const BoxTriangleFrame<T> f = frame_of(a, b);
  const T size_tolerance = tol.at_size(pair_size(max_component(f.h), triangle_size(b)));
  if (!(size_tolerance >= T(0))) return {};  // a NaN coordinate
  const T limit = margin_or_zero(margin) + size_tolerance;
  const SeparatingAxes<T> sat = separating_axes(f, size_tolerance);
  if (sat.min_depth >= T(0)) {
    return overlapping_box_contact(a, b, f, sat, size_tolerance);
  }
  if (!(-sat.min_depth <= limit)) return {};  // the axis's gap is a lower bound on the distance
  const Contact<T> c = separated_box_contact(a, b, f, tol);
  if (!c.touching || !(-c.depth <= limit)) return {};
  return c;
}

#define HITSCAN_INSTANTIATE_CONTACT_TRIANGLE(T)                                                                  \
  template bool overlap(const Sphere<T>&, const Triangle<T>&, ContactTolerance<T>);                              \
  template Contact<T> contact(const Sphere<T>&, const Triangle<T>&, std::type_identity_t<T>, ContactTolerance<T>);  \
  template bool overlap(const Capsule<T>&, const Triangle<T>&, ContactTolerance<T>);                             \
  template Contact<T> contact(const Capsule<T>&, const Triangle<T>&, std::type_identity_t<T>, ContactTolerance<T>); \
  template bool overlap(const Obb<T>&, const Triangle<T>&, ContactTolerance<T>);                                 \
  template Contact<T> contact(const Obb<T>&, const Triangle<T>&, std::type_identity_t<T>, ContactTolerance<T>);

HITSCAN_INSTANTIATE_CONTACT_TRIANGLE(float)
HITSCAN_INSTANTIATE_CONTACT_TRIANGLE(double)
#undef HITSCAN_INSTANTIATE_CONTACT_TRIANGLE

}  // namespace hitscan
