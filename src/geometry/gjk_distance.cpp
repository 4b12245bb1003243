// GJK distance (see gjk_distance.hpp). The simplex holds up to four points of the Minkowski
// difference A - B, each with the support points of A and B it came from; every step replaces it
// by the smallest sub-simplex holding its point nearest the origin, with barycentric weights, from
// which the closest points of A and B are read.

#include "hitscan/geometry/detail/gjk_distance.hpp"

#include <cmath>
#include <type_traits>

namespace hitscan {
namespace {

using V = Vec3<double>;

template <Real T>
V to_double(Vec3<T> v) {
  return {v.x, v.y, v.z};
}

// The vertex furthest along d (the first of equals).
template <Real T>
V furthest(std::span<const Vec3<T>> vertices, V d) {
  V best = to_double(vertices[0]);
  double best_along = dot(best, d);
  for (const Vec3<T>& vertex : vertices.subspan(1)) {
    const V p = to_double(vertex);
    const double along = dot(p, d);
    if (along > best_along) best = p, best_along = along;
  }
  return best;
}

struct SimplexPoint {
  V w, on_a, on_b;
};

struct Simplex {
  SimplexPoint p[4];
  double weight[4] = {};
  int size = 0;
};

// Keeps the listed points of `s` with the given weights.
Simplex keep(const Simplex& s, std::initializer_list<int> which, std::initializer_list<double> weights) {
  Simplex out;
  auto w = weights.begin();
  for (const int i : which) {
    out.p[out.size] = s.p[i];
    out.weight[out.size++] = *w++;
  }
  return out;
}

V combination(const Simplex& s) {
  V v{};
  for (int i = 0; i < s.size; ++i) v = v + s.p[i].w * s.weight[i];
  return v;
}

Simplex nearest_on_segment(const Simplex& s, int ia, int ib) {
  const V a = s.p[ia].w, ab = s.p[ib].w - a;
  const double denominator = dot(ab, ab);
  const double t = denominator > 0 ? -dot(a, ab) / denominator : 0.0;
  if (t <= 0) return keep(s, {ia}, {1.0});
  if (t >= 1) return keep(s, {ib}, {1.0});
  return keep(s, {ia, ib}, {1 - t, t});
}

// Ericson 5.1.5, closest point of triangle abc to the origin, by its Voronoi regions.
Simplex nearest_on_triangle(const Simplex& s, int ia, int ib, int ic) {
  const V a = s.p[ia].w, b = s.p[ib].w, c = s.p[ic].w;
  const V ab = b - a, ac = c - a, ap = -a;
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return keep(s, {ia}, {1.0});
  const V bp = -b;
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return keep(s, {ib}, {1.0});
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const double t = d1 / (d1 - d3);
    return keep(s, {ia, ib}, {1 - t, t});
  }
  const V cp = -c;
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return keep(s, {ic}, {1.0});
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const double t = d2 / (d2 - d6);
    return keep(s, {ia, ic}, {1 - t, t});
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return keep(s, {ib, ic}, {1 - t, t});
  }
  const double sum = va + vb + vc;
  if (!(sum > 0)) return nearest_on_segment(s, ia, ib);  // a flat triangle: its edges decide
  return keep(s, {ia, ib, ic}, {va / sum, vb / sum, vc / sum});
}

// Ericson 5.1.6: the origin inside the tetrahedron is its own nearest point; otherwise the nearest
// of the faces it lies outside of. A flat tetrahedron tests all four faces.
Simplex nearest_on_tetrahedron(const Simplex& s, bool& inside) {
  static constexpr int faces[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
  inside = true;
  Simplex best;
  double best_d2 = INFINITY;
  for (const auto& f : faces) {
    const V a = s.p[f[0]].w;
    const V n = cross(s.p[f[1]].w - a, s.p[f[2]].w - a);
    const double origin_side = -dot(a, n), opposite_side = dot(s.p[f[3]].w - a, n);
    if (origin_side * opposite_side > 0) continue;  // the origin is on the inner side of this face
    inside = false;
    const Simplex face = nearest_on_triangle(s, f[0], f[1], f[2]);
    const V v = combination(face);
    if (dot(v, v) < best_d2) best_d2 = dot(v, v), best = face;
  }
  return best;
}

// Whether the tetrahedron's volume is below rounding: |det| against the product of its edge
// lengths from the first point, a sine-like measure of how far the fourth point leaves the plane.
bool is_flat_tetrahedron(const Simplex& s) {
  const V e1 = s.p[1].w - s.p[0].w, e2 = s.p[2].w - s.p[0].w, e3 = s.p[3].w - s.p[0].w;
  const double volume = std::abs(dot(e1, cross(e2, e3)));
  return !(volume > 1e-9 * length(e1) * length(e2) * length(e3));
}

}  // namespace

template <Real T>
ConvexSupport ConvexSupport::from(const Obb<T>& box) {
  ConvexSupport s;
  s.kind = Kind::box;
  s.center = to_double(box.center);
  for (int i = 0; i < 3; ++i) s.axes[i] = to_double(box.rotation.col[i]) * static_cast<double>(box.half_extents[i]);
  return s;
}

template <Real T>
ConvexSupport ConvexSupport::from(const Cylinder<T>& cylinder) {
  ConvexSupport s;
  s.kind = Kind::cylinder;
  s.a = to_double(cylinder.a);
  s.b = to_double(cylinder.b);
  s.radius = cylinder.radius;
  return s;
}

template <Real T>
ConvexSupport ConvexSupport::from(const Segment<T>& segment) {
  ConvexSupport s;
  s.a = to_double(segment.a);
  s.b = to_double(segment.b);
  return s;
}

template <Real T>
ConvexSupport ConvexSupport::from(const Triangle<T>& triangle) {
  ConvexSupport s;
  s.kind = Kind::triangle;
  s.a = to_double(triangle.v0);
  s.b = to_double(triangle.v1);
  s.c = to_double(triangle.v2);
  return s;
}

template <Real T>
ConvexSupport ConvexSupport::from(const ConvexPolygon<T>& polygon) {
  ConvexSupport s;
  s.kind = Kind::polygon;
  if constexpr (std::is_same_v<T, float>) s.vertices_float = polygon.vertices();
  else s.vertices_double = polygon.vertices();
  // The walk starts from a vertex (any point of the hull will do).
  s.a = to_double(polygon.vertices()[0]);
  return s;
}

template <Real T>
ConvexSupport ConvexSupport::from(const ConvexHull<T>& hull) {
  ConvexSupport s;
  s.kind = Kind::polygon;
  if constexpr (std::is_same_v<T, float>) s.vertices_float = hull.vertices();
  else s.vertices_double = hull.vertices();
  s.a = to_double(hull.interior_point());
  return s;
}

#define HITSCAN_INSTANTIATE_CONVEX_SUPPORT(T)                           \
  template ConvexSupport ConvexSupport::from(const Obb<T>&);            \
  template ConvexSupport ConvexSupport::from(const ConvexHull<T>&);     \
  template ConvexSupport ConvexSupport::from(const Cylinder<T>&);       \
  template ConvexSupport ConvexSupport::from(const Segment<T>&);        \
  template ConvexSupport ConvexSupport::from(const Triangle<T>&);       \
  template ConvexSupport ConvexSupport::from(const ConvexPolygon<T>&);

HITSCAN_INSTANTIATE_CONVEX_SUPPORT(float)
HITSCAN_INSTANTIATE_CONVEX_SUPPORT(double)
#undef HITSCAN_INSTANTIATE_CONVEX_SUPPORT

V ConvexSupport::support(V d) const { return translation + support_at_rest(d); }

V ConvexSupport::support_at_rest(V d) const {
  if (kind == Kind::box) {
    V p = center;
    for (const V& axis : axes) p = p + (dot(axis, d) < 0 ? -axis : axis);
    return p;
  }
  if (kind == Kind::triangle) {
    const double da = dot(a, d), db = dot(b, d), dc = dot(c, d);
    return da >= db ? (da >= dc ? a : c) : (db >= dc ? b : c);
  }
  if (kind == Kind::polygon) return vertices_float.empty() ? furthest(vertices_double, d) : furthest(vertices_float, d);
  const V axis = b - a;
  const V end = dot(axis, d) < 0 ? a : b;
  if (kind == Kind::segment) return end;
  // The cap's rim point furthest along the part of d across the axis.
  const double axis2 = dot(axis, axis);
  V across = d;
  if (axis2 > 0) {
    // Projected twice: for d within rounding of the axis the first pass leaves a residue along
    // the axis as large as what is across it, which scaled to the radius would lift the rim point
    // off the cap (GJK then reports a distance below the true one).
    across = across - axis * (dot(across, axis) / axis2);
    across = across - axis * (dot(across, axis) / axis2);
  }
  const double across_length = length(across);
  return across_length > 0 ? end + across * (radius / across_length) : end;
}

V ConvexSupport::inner_point() const { return translation + inner_point_at_rest(); }

V ConvexSupport::inner_point_at_rest() const {
  switch (kind) {
    case Kind::box: return center;
    case Kind::triangle: return (a + b + c) * (1.0 / 3.0);
    case Kind::polygon: return a;
    default: return (a + b) * 0.5;
  }
}

GjkDistance gjk_distance(const ConvexSupport& a, const ConvexSupport& b) {
  // Termination (van den Bergen): the gap between the upper bound |v| and the lower bound
  // v.w / |v| on the distance falls below a relative tolerance; or v stops shrinking.
  constexpr double kRelative = 1e-12;
  constexpr int kMaxIterations = 64;
  Simplex s;
  V v = a.inner_point() - b.inner_point();
  if (!(dot(v, v) > 0)) v = {1, 0, 0};
  double scale2 = 0;  // the largest |w|² met, for the "at the origin" test
  bool inside = false;
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    const V on_a = a.support(-v), on_b = b.support(v);
    const SimplexPoint p{on_a - on_b, on_a, on_b};
    scale2 = std::fmax(scale2, dot(p.w, p.w));
    const double vv = dot(v, v);
    if (s.size > 0 && vv - dot(v, p.w) <= kRelative * vv) break;
    bool repeated = false;
    for (int i = 0; i < s.size; ++i) repeated = repeated || (s.p[i].w == p.w);
    if (repeated) break;
    s.p[s.size] = p;
    s.weight[s.size++] = 0;
    if (s.size == 1) s = keep(s, {0}, {1.0});
    else if (s.size == 2) s = nearest_on_segment(s, 0, 1);
    else if (s.size == 3) s = nearest_on_triangle(s, 0, 1, 2);
    else {
      if (is_flat_tetrahedron(s)) {
        // The new point lies in the plane of the triangle, to rounding: its inside test would
        // be noise (the support points of a curved surface cluster as GJK converges on it).
        // No progress is left; the triangle's nearest point stands.
        s.size = 3;
        break;
      }
      const Simplex reduced = nearest_on_tetrahedron(s, inside);
      if (inside) break;  // s keeps its four points; the closest points are then unspecified
      s = reduced;
    }
    const V next = combination(s);
    if (dot(next, next) <= 1e-28 * scale2) {
      inside = true;  // the origin is on the simplex: the solids touch
      break;
    }
    if (s.size > 1 && dot(next, next) >= vv) break;  // no progress: v is as near as rounding allows
    v = next;
  }
  GjkDistance out;
  out.simplex_size = s.size;
  for (int i = 0; i < s.size; ++i) {
    out.simplex_on_a[i] = s.p[i].on_a;
    out.simplex_on_b[i] = s.p[i].on_b;
    out.point_on_a = out.point_on_a + s.p[i].on_a * s.weight[i];
    out.point_on_b = out.point_on_b + s.p[i].on_b * s.weight[i];
  }
  out.distance = inside ? 0.0 : length(out.point_on_a - out.point_on_b);
  return out;
}

}  // namespace hitscan
