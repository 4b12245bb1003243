// Sphere casts (geometry/sweep.hpp). Against spheres, capsules, boxes and flat targets the moving
// sphere shrinks to its centre and the target grows by its radius (the Minkowski sum), so the
// sweep is a ray against the grown target (Ericson, Real-Time Collision Detection, 2005, 5.5.7
// for the rounded box); against a cylinder, whose grown shape has no simple ray test, it is
// conservative advancement on the GJK distance.

#include "hitscan/geometry/contact_round.hpp"
#include "hitscan/geometry/contact_sphere_box.hpp"
#include "hitscan/geometry/contact_triangle.hpp"
#include "hitscan/geometry/ray_capsule.hpp"
#include "hitscan/geometry/ray_obb.hpp"
#include "hitscan/geometry/ray_sphere.hpp"
#include "hitscan/geometry/detail/sweep_support.hpp"

namespace hitscan {
namespace {

using detail::hit_at;
using detail::started_in_contact;
using detail::valid_sweep;
using detail::within_sweep;

/// The sweep's answer from a ray hit on the target grown by the sphere's radius r: the ray's
/// point is the centre at contact, its normal the target's outward normal there.
template <Real T>
SweepHit<T> from_grown_hit(const RayHit<T>& ray_hit, T r) {
  if (!ray_hit) return {};
  return hit_at(ray_hit.t, ray_hit.point - ray_hit.normal * r, ray_hit.normal);
}

/// The first of the edge capsules (radius r around each edge) the centre's ray meets.
template <Real T, class Edge>
RayHit<T> first_edge_capsule(const Ray<T>& ray, T r, int edge_count, Edge edge) {
  RayHit<T> best;
  if (!(r > T(0))) return best;  // a point sweep meets an edge only on a set of measure zero
  for (int i = 0; i < edge_count; ++i) {
    const Segment<T> e = edge(i);
    const RayHit<T> h = ray_vs_capsule(Capsule<T>{e.a, e.b, r}, ray);
    if (h && h.t < best.t) best = h;
  }
  return best;
}

/// A flat target (triangle, polygon): the sum with the ball is the slab |dot(n, x) - offset| <= r
/// over the face, together with the capsules around the edges (the slab's side walls lie inside
/// them). The centre first reaches the slab face at s_enter; when its projection there is on the
/// face that is the first contact (every earlier point lies outside the slab), otherwise the
/// first contact, if any, is on an edge capsule. A target too thin to carry a plane is the union
/// of its edges. The slab test comes first and rejects a path that never reaches the plane within
/// max_distance without touching the edges or computing a closest point, which keeps a mesh's
/// per-triangle test cheap.
template <Real T, class StartContact>
SweepHit<T> sweep_flat(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const detail::FlatTarget<T>& face,
                       T limit, StartContact start) {
  const Vec3<T> n = face.n;
  const T r = moving.radius;
  const T d0 = dot(n, moving.center) - face.offset;
  const T distance_to_plane = std::abs(d0);
  if (distance_to_plane <= r + limit) {
    const Contact<T> c = start();
    if (c.touching) return started_in_contact(c);
  }
  const Ray<T> ray{moving.center, direction, T(0), max_distance};
  if (face.has_plane() && distance_to_plane > r) {
    const T side = d0 < T(0) ? T(-1) : T(1);
    const T approach = -side * dot(n, direction);
    if (!(approach > T(0))) return {};  // moving along or away from the plane, outside the slab
    const T s = (distance_to_plane - r) / approach;
    if (!within_sweep(s, max_distance)) return {};
    const Vec3<T> normal = n * side;
    const Vec3<T> on_plane = ray.at(s) - normal * r;
    if (face.inside(on_plane)) return hit_at(s, on_plane, normal);
  }
  return from_grown_hit(first_edge_capsule(ray, r, face.count, [&](int i) { return face.edge(i); }), r);
}

/// Start in contact with a cylinder, from the sphere's centre: outside, its nearest point of the
/// solid (depth = radius - distance); inside, the nearest point of the boundary, the side winning
/// ties with a cap (depth = radius + distance), the rule of cylinder_closest_point.hpp carried
/// out in T.
template <Real T>
Contact<T> cylinder_start_contact(const Sphere<T>& s, const Cylinder<T>& c, T limit) {
  T length_axis;
  const Vec3<T> u = cylinder_axis(c, length_axis);
  const T along = dot(s.center - c.a, u);
  const Vec3<T> radial = s.center - c.a - u * along;
  const T radial_length = length(radial);
  Contact<T> out;
  if (along >= T(0) && along <= length_axis && radial_length <= c.radius) {
    const T to_side = c.radius - radial_length, to_bottom = along, to_top = length_axis - along;
    if (to_side <= to_bottom && to_side <= to_top) {
      Vec3<T> n = normalize(radial);
      if (n == Vec3<T>{}) {
        Vec3<T> other;
        orthonormal_basis(u, n, other);
      }
      out.normal = n;
      out.point_on_b = c.a + u * along + n * c.radius;
      out.depth = s.radius + to_side;
    } else {
      out.normal = to_bottom < to_top ? -u : u;
      out.point_on_b = s.center + out.normal * min(to_bottom, to_top);
      out.depth = s.radius + min(to_bottom, to_top);
    }
  } else {
    const Vec3<T> r = radial_length > c.radius ? radial * (c.radius / radial_length) : radial;
    const Vec3<T> closest = c.a + u * clamp(along, T(0), length_axis) + r;
    const T distance = hitscan::distance(s.center, closest);
    if (!(distance - s.radius <= limit)) return out;
    out.normal = distance > T(0) ? (s.center - closest) / distance : -u;
    out.point_on_b = closest;
    out.depth = s.radius - distance;
  }
  out.touching = true;
  out.point_on_a = s.center - out.normal * s.radius;
  return out;
}

}  // namespace

template <Real T>
SweepHit<T> sphere_cast(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const Sphere<T>& target,
                        ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const Contact<T> start = contact(moving, target, T(0), tol);
  if (start.touching) return started_in_contact(start);
  const Sphere<T> grown{target.center, moving.radius + target.radius};
  return from_grown_hit(ray_vs_sphere(grown, Ray<T>{moving.center, direction, T(0), max_distance}), moving.radius);
}

template <Real T>
SweepHit<T> sphere_cast(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const Capsule<T>& target,
                        ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const Contact<T> start = contact(moving, target, T(0), tol);
  if (start.touching) return started_in_contact(start);
  const Capsule<T> grown{target.a, target.b, moving.radius + target.radius};
  return from_grown_hit(ray_vs_capsule(grown, Ray<T>{moving.center, direction, T(0), max_distance}), moving.radius);
}

// The rounded box is the box grown by r on every side with its edges and corners rounded. The
// ray against the grown box finds the first contact when it enters through a face region (the
// point within the original extent on the other two axes: that point is on the rounded box).
// Otherwise (or when the centre starts inside the grown box, necessarily in an edge or corner
// region) the rounded part decides, and it is the union of the 12 edge capsules: all are tested,
// since a path can pass a corner region without touching its sphere and meet another edge.
template <Real T>
SweepHit<T> sphere_cast(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const Obb<T>& target,
                        ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const Contact<T> start = contact(moving, target, T(0), tol);
  if (start.touching) return started_in_contact(start);
  const T r = moving.radius;
  const Vec3<T> h = target.half_extents;
  const Ray<T> ray{moving.center, direction, T(0), max_distance};
  const RayHit<T> grown_hit = ray_vs_obb(Obb<T>{target.center, h + Vec3<T>{r, r, r}, target.rotation}, ray);
  if (!grown_hit) return {};
  if (!grown_hit.started_inside()) {
    const Vec3<T> local = target.rotation.transpose_mul(grown_hit.point - target.center);
    int outside = 0;
    for (int i = 0; i < 3; ++i) outside += std::abs(local[i]) > h[i] ? 1 : 0;
    if (outside <= 1 || r == T(0)) return from_grown_hit(grown_hit, r);
  }
  const auto edge = [&](int i) {
    const int axis = i / 4, j = (axis + 1) % 3, k = (axis + 2) % 3;
    const T sj = (i & 1) ? T(1) : T(-1), sk = (i & 2) ? T(1) : T(-1);
    const Mat3<T>& m = target.rotation;
    const Vec3<T> middle = target.center + m.col[j] * (sj * h[j]) + m.col[k] * (sk * h[k]);
    return Segment<T>{middle - m.col[axis] * h[axis], middle + m.col[axis] * h[axis]};
  };
  return from_grown_hit(first_edge_capsule(ray, r, 12, edge), r);
}

template <Real T>
SweepHit<T> sphere_cast(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const Cylinder<T>& target,
                        ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const T limit = tol.at_size(max(size_of(moving), size_of(target)));
  if (!detail::SweepCorridor(moving, direction)
           .may_touch(detail::cylinder_centre(target), detail::cylinder_half_width(target), double(limit))) {
    return {};
  }
  const Contact<T> start = cylinder_start_contact(moving, target, limit);
  if (start.touching) return started_in_contact(start);
  const Vec3d center = vec3_cast<double>(moving.center);
  return detail::from_advancement<T>(detail::advance({center, center}, moving.radius, ConvexSupport::from(target), 0.0,
                                                     vec3_cast<double>(direction),
                                                     detail::advancement_limit(max_distance), limit),
                                     max_distance);
}

template <Real T>
SweepHit<T> sphere_cast(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const Plane<T>& target,
                        ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  // The plane's equation divided by |normal|, in case it is not quite unit length.
  const T scale = length(target.normal);
  const Vec3<T> n = target.normal / scale;
  const T d0 = dot(n, moving.center) - target.offset / scale;
  const T side = d0 < T(0) ? T(-1) : T(1);
  const Vec3<T> normal = n * side;
  const T r = moving.radius, distance_to_plane = std::abs(d0);
  if (distance_to_plane - r <= tol.at_size(r)) {
    SweepHit<T> hit = hit_at(T(0), moving.center - n * d0, normal);
    hit.started_in_contact = true;
    hit.depth = max(r - distance_to_plane, T(0));
    return hit;
  }
  const T approach = -dot(normal, direction);
  if (!(approach > T(0))) return {};
  const T s = (distance_to_plane - r) / approach;
  if (!within_sweep(s, max_distance)) return {};
  return hit_at(s, moving.center + direction * s - normal * r, normal);
}

template <Real T>
SweepHit<T> sphere_cast(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const Triangle<T>& target,
                        ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const detail::TriangleCorners<T> corners(target);
  const T limit = tol.at_size(max(size_of(moving), size_of(target)));
  return sweep_flat(moving, direction, max_distance, corners.target(), limit,
                    [&] { return contact(moving, target, T(0), tol); });
}

template <Real T>
SweepHit<T> sphere_cast(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const ConvexPolygon<T>& target,
                        ContactTolerance<T> tol) {
  if (!valid_sweep(moving, direction, max_distance, target)) return {};
  const T limit = tol.at_size(max(size_of(moving), size_of(target)));
  return sweep_flat(moving, direction, max_distance, detail::flat_target(target), limit,
                    [&] { return detail::polygon_contact(moving, target, tol); });
}

#define HITSCAN_INSTANTIATE_SPHERE_CAST(T, Target)                                                   \
  template SweepHit<T> sphere_cast(const Sphere<T>&, Vec3<T>, T, const Target<T>&, ContactTolerance<T>);
#define HITSCAN_INSTANTIATE_SPHERE_CASTS(T)            \
  HITSCAN_INSTANTIATE_SPHERE_CAST(T, Sphere)           \
  HITSCAN_INSTANTIATE_SPHERE_CAST(T, Capsule)          \
  HITSCAN_INSTANTIATE_SPHERE_CAST(T, Obb)              \
  HITSCAN_INSTANTIATE_SPHERE_CAST(T, Cylinder)         \
  HITSCAN_INSTANTIATE_SPHERE_CAST(T, Plane)            \
  HITSCAN_INSTANTIATE_SPHERE_CAST(T, Triangle)         \
  HITSCAN_INSTANTIATE_SPHERE_CAST(T, ConvexPolygon)

HITSCAN_INSTANTIATE_SPHERE_CASTS(float)
HITSCAN_INSTANTIATE_SPHERE_CASTS(double)
#undef HITSCAN_INSTANTIATE_SPHERE_CASTS
#undef HITSCAN_INSTANTIATE_SPHERE_CAST

}  // namespace hitscan
