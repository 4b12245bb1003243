#pragma once
/// Overlap and contact of a sphere, a capsule or an oriented box (A) with a triangle (B).
///
/// A triangle is a surface with no inside, so "depth" is how far A must move to clear it. The
/// normal points from the triangle towards A (contact.hpp's B to A):
/// - while A's core (the sphere's centre, the capsule's segment) stays off the triangle, it is the
///   direction from the triangle's nearest point to the core's nearest point, and
///   depth = radius - distance; a centre whose nearest point lies inside the face gets exactly
///   the face normal, either side;
/// - when the core meets the triangle (the centre lies on it, the segment pierces it or lies on
///   it), it is the face normal (v1 - v0) x (v2 - v0), normalised and oriented towards the side
///   that holds the core's centre (the front when the centre lies in the plane), and depth is how
///   far A must move along it to leave the plane entirely: radius plus the distance of the core's
///   lowest end below the plane;
/// - a box uses the separating axis test (below), whose face-normal axis follows the same rule.
///
/// Tolerance: size = the larger of A's characteristic size (sphere radius; capsule radius plus
/// half its length; box largest half extent) and the triangle's (half its longest edge).
/// overlap() is true within tol.at_size(size), contact() reports touching within max(margin, 0)
/// + tol.at_size(size). A segment counts as piercing when it crosses the plane within
/// tol.at_size(size) of the triangle, so that a capsule through a shared edge of a mesh gets the
/// face-normal answer from both triangles.
///
/// Degenerate input: a triangle too thin to carry a plane (zero area, collinear corners, or the
/// sin² of its angle at v0 below epsilon, as closest_point_on_triangle decides) is the union of
/// its edges (a segment, or a point). Where a sphere's centre touches such a triangle exactly,
/// the normal is a fixed unit vector perpendicular to its longest edge (+z for a point); a
/// capsule's segment through it gives the normal of the plane of segment and edge, or a fixed
/// vector perpendicular to the segment when they are parallel. A capsule with a == b is a
/// sphere. Radii and half extents of 0 are valid; a negative or NaN one touches nothing. Normals
/// of touching contacts are never zero or NaN. A NaN coordinate gives touching = false; infinite
/// ones never trap but give an unspecified answer.

#include <type_traits>

#include "hitscan/geometry/contact.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

/// Whether the sphere and the triangle are within tolerance of each other.
template <Real T>
bool overlap(const Sphere<T>& a, const Triangle<T>& b, ContactTolerance<T> tol = {});

/// Contact of sphere A with triangle B: the centre against its closest point of the triangle
/// (closest_point_on_triangle). touching = false beyond max(margin, 0) + tolerance.
template <Real T>
Contact<T> contact(const Sphere<T>& a, const Triangle<T>& b, std::type_identity_t<T> margin = 0,
                   ContactTolerance<T> tol = {});

/// Whether the capsule and the triangle are within tolerance of each other.
template <Real T>
bool overlap(const Capsule<T>& a, const Triangle<T>& b, ContactTolerance<T> tol = {});

/// Contact of capsule A with triangle B. Unless the segment pierces the triangle, the closest
/// points of segment and triangle are the nearest of five feature pairs (each segment end against
/// the triangle, the segment against each edge), which is exact for a segment that does not meet
/// the triangle's interior; the normal comes from that pair as for sphere vs triangle and
/// capsule vs capsule. Piercing: the face-normal rule above, point_on_b the crossing point,
/// point_on_a the lowest end's deepest point. touching = false beyond max(margin, 0) + tolerance.
template <Real T>
Contact<T> contact(const Capsule<T>& a, const Triangle<T>& b, std::type_identity_t<T> margin = 0,
                   ContactTolerance<T> tol = {});

/// Whether the box and the triangle are within tolerance of each other: the separating axis test
/// (below), and where it separates them by no more than the tolerance, their exact distance.
template <Real T>
bool overlap(const Obb<T>& a, const Triangle<T>& b, ContactTolerance<T> tol = {});

/// Contact of box A with triangle B by the separating axis test over 13 axes (Akenine-Möller,
/// "Fast 3D Triangle-Box Overlap Testing", 2001; Ericson 5.2.9): the triangle's normal, the
/// box's 3 axes and the 9 cross products of box axes with triangle edges, which are the face
/// normals of the Minkowski difference, so the shallowest axis gives the exact penetration depth.
/// The triangle's normal and the box axes are preferred over a cross-product axis that is
/// shallower by no more than the tolerance; cross products within sqrt(epsilon) of parallel are
/// skipped. Contact points: along the triangle's normal, the box's supporting point (the middle
/// of its supporting face or edge) moved onto the triangle; along a box axis, the triangle's
/// supporting corner (or the middle of its supporting edge); along a cross product, the closest
/// points of the supporting box edge and triangle edge. Apart, the exact closest points: the
/// nearest of the triangle's edges against the box (as in capsule vs box) and the box's corners
/// against the triangle. touching = false beyond max(margin, 0) + tolerance.
template <Real T>
Contact<T> contact(const Obb<T>& a, const Triangle<T>& b, std::type_identity_t<T> margin = 0,
                   ContactTolerance<T> tol = {});

}  // namespace hitscan
