#include "hitscan/geometry/contact_sphere_box.hpp"

namespace hitscan {
namespace {

/// Radii and half extents must be >= 0 to touch anything; NaN fails too.
template <Real T>
bool is_size(T x) {
  return x >= T(0);
}
template <Real T>
bool is_size(Vec3<T> h) {
  return h.x >= T(0) && h.y >= T(0) && h.z >= T(0);
}

/// The caller's margin: a negative or NaN one counts as 0 (hitscan::max returns its first
/// operand when the second is NaN).
template <Real T>
T nonnegative(T margin) {
  return max(T(0), margin);
}

/// How far the sphere's centre lies beyond each face of a box, per axis: low = low face - centre,
/// high = centre - high face, negative inside. For an Obb in its own frame the larger of the two
/// is |local| - half extent, bit for bit (the form the SIMD kernel uses).
template <Real T>
struct FaceGaps {
  Vec3<T> low, high;
};

template <Real T>
FaceGaps<T> face_gaps(Vec3<T> center, const Aabb<T>& box) {
  return {box.min - center, center - box.max};
}

template <Real T>
FaceGaps<T> face_gaps(Vec3<T> local, Vec3<T> half_extents) {
  return {-local - half_extents, local - half_extents};
}

/// Squared distance from the centre to the box: the sum of the squared positive gaps. A NaN
/// coordinate makes both gaps NaN and max keeps its first operand when the second is NaN, so the
/// sum is NaN and never counts as touching.
template <Real T>
T outside_distance_squared(const FaceGaps<T>& g) {
  T d2 = 0;
  for (int i = 0; i < 3; ++i) {
    const T e = max(max(g.low[i], g.high[i]), T(0));
    d2 += e * e;
  }
  return d2;
}

/// The contact of a sphere with a box, in the box's frame (axes e_x, e_y, e_z). point_on_a and
/// point_on_b are left as offsets from the sphere's centre, so that the caller adds the centre
/// itself in the world and never puts it through the round trip of an Obb's frame.
template <Real T>
Contact<T> sphere_box_contact_in_frame(T radius, const FaceGaps<T>& g) {
  Contact<T> c;
  // Signed offset of the centre beyond the box on each axis (0 within the slab).
  T beyond[3] = {0, 0, 0};
  int nearest = 0;
  T nearest_gap = -kInfinity<T>;
  bool nearest_high = true;
  for (int i = 0; i < 3; ++i) {
    const bool high = g.high[i] >= g.low[i];
    const T gap = high ? g.high[i] : g.low[i];
    if (gap > T(0)) beyond[i] = high ? gap : -gap;
    if (gap > nearest_gap) {
      nearest_gap = gap;
      nearest = i;
      nearest_high = high;
    }
  }
  const Vec3<T> offset{beyond[0], beyond[1], beyond[2]};
  if (offset == Vec3<T>{}) {
    // Centre inside or on the surface: out through the nearest face.
    const T to_face = -nearest_gap;
    const T sign = nearest_high ? T(1) : T(-1);
    c.normal = {nearest == 0 ? sign : T(0), nearest == 1 ? sign : T(0), nearest == 2 ? sign : T(0)};
    c.depth = radius + to_face;
    c.point_on_b = c.normal * to_face;
  } else {
    // normalize() copes with gaps whose squares underflow.
    c.normal = normalize(offset);
    c.depth = radius - dot(offset, c.normal);
    c.point_on_b = -offset;
  }
  c.point_on_a = -c.normal * radius;
  return c;
}

/// touching for a contact whose squared outside distance is d2: the same comparison as overlap()
/// with the margin added to the radius (r + 0 is r exactly, so margin 0 gives overlap()'s flag).
template <Real T>
bool within_reach(T d2, T radius, T margin, T tolerance) {
  const T reach = (radius + nonnegative(margin)) + tolerance;
  return d2 <= reach * reach;
}

/// Every face is at least radius - allowed beyond the centre: the sphere is inside. Written as a
/// conjunction of comparisons, so that a NaN anywhere fails it.
template <Real T>
bool within_faces(const FaceGaps<T>& g, T radius, T allowed) {
  for (int i = 0; i < 3; ++i) {
    if (!(g.low[i] + radius <= allowed) || !(g.high[i] + radius <= allowed)) return false;
  }
  return true;
}

}  // namespace

template <Real T>
bool overlap(const Sphere<T>& a, const Sphere<T>& b, ContactTolerance<T> tol) {
  if (!is_size(a.radius) || !is_size(b.radius)) return false;
  const T reach = a.radius + b.radius + tol.at_size(max(a.radius, b.radius));
  return distance_squared(a.center, b.center) <= reach * reach;
}

template <Real T>
Contact<T> contact(const Sphere<T>& a, const Sphere<T>& b, std::type_identity_t<T> margin, ContactTolerance<T> tol) {
  Contact<T> c;
  if (!is_size(a.radius) || !is_size(b.radius)) return c;
  const Vec3<T> d = a.center - b.center;
  const T reach = (a.radius + b.radius + nonnegative(margin)) + tol.at_size(max(a.radius, b.radius));
  c.touching = dot(d, d) <= reach * reach;
  const Vec3<T> n = normalize(d);
  c.normal = n == Vec3<T>{} ? Vec3<T>{0, 0, 1} : n;
  c.depth = a.radius + b.radius - dot(d, c.normal);
  c.point_on_a = a.center - c.normal * a.radius;
  c.point_on_b = b.center + c.normal * b.radius;
  return c;
}

template <Real T>
bool overlap(const Sphere<T>& sphere, const Aabb<T>& box, ContactTolerance<T> tol) {
  if (!is_size(sphere.radius) || !box.is_valid()) return false;
  const T reach = sphere.radius + tol.at_size(max(sphere.radius, max_component(box.half_extents())));
  return outside_distance_squared(face_gaps(sphere.center, box)) <= reach * reach;
}

template <Real T>
Contact<T> contact(const Sphere<T>& sphere, const Aabb<T>& box, std::type_identity_t<T> margin,
                   ContactTolerance<T> tol) {
  if (!is_size(sphere.radius) || !box.is_valid()) return {};
  const FaceGaps<T> g = face_gaps(sphere.center, box);
  Contact<T> c = sphere_box_contact_in_frame(sphere.radius, g);
  c.point_on_a += sphere.center;
  c.point_on_b += sphere.center;
  c.touching = within_reach(outside_distance_squared(g), sphere.radius, margin,
                            tol.at_size(max(sphere.radius, max_component(box.half_extents()))));
  return c;
}

template <Real T>
bool overlap(const Sphere<T>& sphere, const Obb<T>& box, ContactTolerance<T> tol) {
  if (!is_size(sphere.radius) || !is_size(box.half_extents)) return false;
  // The operations and their order are those of overlap_sphere_obbs (contact_box_pack.cpp),
  // which must give the same answer bit for bit.
  const Vec3<T> local = box.rotation.transpose_mul(sphere.center - box.center);
  const T reach = sphere.radius + tol.at_size(max(sphere.radius, max_component(box.half_extents)));
  return outside_distance_squared(face_gaps(local, box.half_extents)) <= reach * reach;
}

template <Real T>
Contact<T> contact(const Sphere<T>& sphere, const Obb<T>& box, std::type_identity_t<T> margin,
                   ContactTolerance<T> tol) {
  if (!is_size(sphere.radius) || !is_size(box.half_extents)) return {};
  const Vec3<T> local = box.rotation.transpose_mul(sphere.center - box.center);
  const FaceGaps<T> g = face_gaps(local, box.half_extents);
  const Contact<T> in_box = sphere_box_contact_in_frame(sphere.radius, g);
  Contact<T> c;
  c.touching = within_reach(outside_distance_squared(g), sphere.radius, margin,
                            tol.at_size(max(sphere.radius, max_component(box.half_extents))));
  c.normal = box.rotation * in_box.normal;
  c.depth = in_box.depth;
  c.point_on_a = sphere.center - c.normal * sphere.radius;
  c.point_on_b = sphere.center + box.rotation * in_box.point_on_b;
  return c;
}

template <Real T>
bool sphere_inside(const Sphere<T>& sphere, const Aabb<T>& box, ContactTolerance<T> tol) {
  if (!is_size(sphere.radius) || !box.is_valid()) return false;
  const T allowed = tol.at_size(max(sphere.radius, max_component(box.half_extents())));
  return within_faces(face_gaps(sphere.center, box), sphere.radius, allowed);
}

template <Real T>
bool sphere_inside(const Sphere<T>& sphere, const Obb<T>& box, ContactTolerance<T> tol) {
  if (!is_size(sphere.radius) || !is_size(box.half_extents)) return false;
  const FaceGaps<T> g = face_gaps(box.rotation.transpose_mul(sphere.center - box.center), box.half_extents);
  return within_faces(g, sphere.radius, tol.at_size(max(sphere.radius, max_component(box.half_extents))));
}

template <Real T>
Obb<T> obb_from_scaled_box(const Aabb<T>& local_box, const Transform<T>& transform) {
  const Quat<T>& q = transform.rotation;
  const Mat3<T> rotation = Mat3<T>::from_quat(Quat<T>::from_components(q.w, q.x, q.y, q.z));
  const Vec3<T> center = rotation * mul(transform.scale, local_box.center()) + transform.translation;
  // (max - min) / 2 keeps its sign, so an invalid box stays invalid (negative half extents).
  return {center, mul(abs(transform.scale), local_box.half_extents()), rotation};
}

template <Real T>
CachedObb<T> CachedObb<T>::from_obb(const Obb<T>& box) {
  return {{box.center, box.half_extents, box.rotation.orthonormalized()}, length(box.half_extents)};
}

template <Real T>
bool overlap(const Sphere<T>& sphere, const CachedObb<T>& cached, ContactTolerance<T> tol) {
  // The bounding sphere is rejected only when it is clear of the sphere by a relative 2^-18 or
  // so, far above the rounding of the exact test, so that no pair the exact test would call
  // touching is ever rejected.
  const Obb<T>& box = cached.box;
  const T reach = sphere.radius + cached.circumradius + tol.at_size(max(sphere.radius, max_component(box.half_extents)));
  if (distance_squared(sphere.center, box.center) > reach * reach * (T(1) + T(64) * kEpsilon<T>)) return false;
  return overlap(sphere, box, tol);
}

#define HITSCAN_INSTANTIATE_CONTACT_SPHERE_BOX(T)                                                               \
  template bool overlap(const Sphere<T>&, const Sphere<T>&, ContactTolerance<T>);                               \
  template Contact<T> contact(const Sphere<T>&, const Sphere<T>&, T, ContactTolerance<T>);                      \
  template bool overlap(const Sphere<T>&, const Aabb<T>&, ContactTolerance<T>);                                 \
  template Contact<T> contact(const Sphere<T>&, const Aabb<T>&, T, ContactTolerance<T>);                        \
  template bool overlap(const Sphere<T>&, const Obb<T>&, ContactTolerance<T>);                                  \
  template Contact<T> contact(const Sphere<T>&, const Obb<T>&, T, ContactTolerance<T>);                         \
  template bool sphere_inside(const Sphere<T>&, const Aabb<T>&, ContactTolerance<T>);                           \
  template bool sphere_inside(const Sphere<T>&, const Obb<T>&, ContactTolerance<T>);                            \
  template Obb<T> obb_from_scaled_box(const Aabb<T>&, const Transform<T>&);                                     \
  template struct CachedObb<T>;                                                                                 \
  template bool overlap(const Sphere<T>&, const CachedObb<T>&, ContactTolerance<T>);

HITSCAN_INSTANTIATE_CONTACT_SPHERE_BOX(float)
HITSCAN_INSTANTIATE_CONTACT_SPHERE_BOX(double)
#undef HITSCAN_INSTANTIATE_CONTACT_SPHERE_BOX

}  // namespace hitscan
