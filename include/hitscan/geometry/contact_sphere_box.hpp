#pragma once
/// Overlap and contact of a sphere with a sphere, an axis-aligned box and an oriented box, by the
/// closest-point method (Ericson, Real-Time Collision Detection, 2005, 5.2.5 and 5.2.6): the
/// sphere's centre is clamped to the box in the box's own frame (the rotation's transpose, no
/// inverse) and the squared distance to the clamped point is compared with the squared radius.
/// overlap() takes no square root; contact() takes one, for the distance it reports.
///
/// Conventions (contact.hpp): the sphere is A, the second shape B; the normal points from B to A;
/// depth > 0 overlapping, < 0 minus the separation.
///
/// Tolerance policy. A pair touches when its separation is at most tol.at_size(size), size being
/// the larger characteristic size of the two (a sphere's radius, a box's largest half extent), so
/// that shapes resting on each other do not flicker with the rounding of their coordinates.
/// contact() reports touching when the separation is at most max(margin, 0) + tol.at_size(size);
/// with margin 0 its flag equals overlap()'s bit for bit. The policy is relative to the shapes'
/// size, not to their distance from the origin: coordinates far larger than the shapes carry
/// their own rounding (ulp of the coordinate), which the caller should keep below the tolerance
/// (use double, or coordinates relative to a nearby origin).
///
/// Degenerate input. A radius of 0 (a point) and half extents of 0 (flat boxes, segments, points)
/// are valid. A negative or NaN radius or half extent, and an invalid Aabb (min > max on an axis,
/// e.g. Aabb::empty(), or NaN), touch nothing: overlap is false and contact().touching is false.
/// Other non-finite coordinates never trap; they give false or an unspecified contact.
///
/// Obb rotations are taken as given: their columns are expected orthonormal. A rotation updated
/// incrementally drifts, and the transpose is then no inverse: axes grown 9 % too long turn an
/// overlap of 0.1 into a reported gap of 0.11 (DriftedRotationNeedsReorthonormalising in
/// contact_sphere_box_test.cpp). CachedObb::from_obb re-orthonormalises once per box.

#include <type_traits>

#include "hitscan/geometry/contact.hpp"
#include "hitscan/geometry/shapes.hpp"
#include "hitscan/math/transform.hpp"

namespace hitscan {

/// True when the spheres' centres are at most ra + rb + tol.at_size(max(ra, rb)) apart.
template <Real T>
bool overlap(const Sphere<T>& a, const Sphere<T>& b, ContactTolerance<T> tol = {});

/// Contact of two spheres along the line of centres: point_on_a = a.center - normal a.radius,
/// point_on_b = b.center + normal b.radius, depth = ra + rb - distance. Coincident centres have no
/// line: the normal is then +z (any direction is as good), depth ra + rb.
template <Real T>
Contact<T> contact(const Sphere<T>& a, const Sphere<T>& b, std::type_identity_t<T> margin = 0,
                   ContactTolerance<T> tol = {});

/// True when the sphere and the solid box are within tolerance: the squared distance from the
/// centre to the box (per axis, how far it lies beyond the nearer face) against the squared
/// radius plus tolerance. Exact arithmetic on min and max, no centre or extent is formed.
template <Real T>
bool overlap(const Sphere<T>& sphere, const Aabb<T>& box, ContactTolerance<T> tol = {});

/// Contact of the sphere with the solid box. Centre outside: the normal runs from the closest
/// point of the box (point_on_b) to the centre, depth = radius - distance. Centre inside or on
/// the surface: the normal is the outward normal of the nearest face (ties: the lowest axis, then
/// the max face), point_on_b is the centre projected onto that face and depth = radius + the
/// distance to it, the true depth, never a zero normal. point_on_a = center - normal radius.
template <Real T>
Contact<T> contact(const Sphere<T>& sphere, const Aabb<T>& box, std::type_identity_t<T> margin = 0,
                   ContactTolerance<T> tol = {});

/// overlap() for an oriented box: the centre goes into the box's frame by the rotation's
/// transpose, then as for an Aabb centred at the origin.
template <Real T>
bool overlap(const Sphere<T>& sphere, const Obb<T>& box, ContactTolerance<T> tol = {});

/// contact() for an oriented box, with the conventions of the Aabb version; normals and points
/// are brought back to the world by the rotation.
template <Real T>
Contact<T> contact(const Sphere<T>& sphere, const Obb<T>& box, std::type_identity_t<T> margin = 0,
                   ContactTolerance<T> tol = {});

/// True when the whole sphere lies in the closed box, allowing it to stick out by up to
/// tol.at_size(size) (so a sphere inscribed in the box counts at any scale). A point sphere
/// (radius 0) is inside when its centre is.
template <Real T>
bool sphere_inside(const Sphere<T>& sphere, const Aabb<T>& box, ContactTolerance<T> tol = {});

/// sphere_inside() for an oriented box.
template <Real T>
bool sphere_inside(const Sphere<T>& sphere, const Obb<T>& box, ContactTolerance<T> tol = {});

/// Non-uniform scale. The world box of `local_box`, a box in a body's frame, placed by a Transform
/// with any scale (x' = R (S x) + t). Scaling a box along its own axes keeps it a box, so this is
/// exact: centre R (S c) + t, half extents |s_i| h_i (a negative scale mirrors the box onto
/// itself; a zero scale flattens it), rotation from the transform's quaternion normalised.
///
/// Why not take the sphere into the box's local frame instead: there it becomes the ellipsoid
/// sum_i s_i² (x_i - c_i)² <= r² (c the sphere's centre in local coordinates). Whether it meets the
/// local box is the same answer, since the map is affine, but distances, normals and depths measured
/// in that frame are stretched by S and mean nothing in world units. Testing the world sphere
/// against the box returned here gives the same overlap and a contact in world units.
/// An invalid local_box (min > max) gives negative half extents, which touch nothing.
template <Real T>
Obb<T> obb_from_scaled_box(const Aabb<T>& local_box, const Transform<T>& transform);

/// An oriented box prepared for many tests: its rotation re-orthonormalised
/// (Mat3::orthonormalized; every kernel assumes orthonormal axes, and a rotation updated
/// incrementally drifts) and its circumradius |half_extents| cached for the bounding-sphere
/// rejection of the two-stage tests.
template <Real T>
struct CachedObb {
  Obb<T> box{};
  /// The radius of the sphere about box.center that holds the box.
  T circumradius = 0;

  static CachedObb from_obb(const Obb<T>& box);
};

/// Two-stage test: the sphere against the box's bounding sphere first (the box lies within
/// circumradius of its centre), and only when that does not reject, the exact overlap() of the
/// sphere and cached.box. The rejection is conservative by a few ulps, so the answer equals
/// overlap(sphere, cached.box, tol) exactly.
template <Real T>
bool overlap(const Sphere<T>& sphere, const CachedObb<T>& cached, ContactTolerance<T> tol = {});

}  // namespace hitscan
