#pragma once
/// Overlap and contact of the round shapes: sphere vs capsule and capsule vs capsule (sphere vs
/// sphere is in contact_sphere_box.hpp).
///
/// A capsule is the set of points within its radius of its core segment, a sphere of its core
/// point, so each pair is the distance between the two cores minus the two radii: the normal runs
/// from B's core point to A's, point_on_a = A's core point - normal * radius_a, point_on_b = B's
/// core point + normal * radius_b and depth = radius_a + radius_b - core distance. That is the
/// exact minimum translation distance also when the shapes overlap, cores included.
///
/// Tolerance: overlap() is true when the separation is at most tol.at_size(size), size being the
/// larger of the two characteristic sizes (a sphere's radius, a capsule's radius plus half its
/// segment's length); contact() reports touching when it is at most max(margin, 0) +
/// tol.at_size(size), so that with margin 0 its flag equals overlap()'s.
///
/// Degenerate input: a capsule with a == b is a sphere; a radius of 0 is valid (the core
/// itself); a negative or NaN radius touches nothing. When the cores meet, the normal is never
/// zero: crossing capsule segments give the unit normal of the plane they span, oriented from
/// B's segment centre towards A's where that decides; a sphere centre on a capsule's segment, or
/// parallel overlapping segments, give a fixed unit vector perpendicular to B's segment (A's when
/// B's is a point); two coincident points give +z. A NaN coordinate gives touching = false;
/// infinite ones never trap but give an unspecified answer.

#include <type_traits>

#include "hitscan/geometry/contact.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

/// Whether the sphere and the capsule are within tolerance of each other.
template <Real T>
bool overlap(const Sphere<T>& a, const Capsule<T>& b, ContactTolerance<T> tol = {});

/// Contact of sphere A with capsule B: the centre against its nearest point of the segment.
/// touching = false when they are further apart than max(margin, 0) + tolerance.
template <Real T>
Contact<T> contact(const Sphere<T>& a, const Capsule<T>& b, std::type_identity_t<T> margin = 0,
                   ContactTolerance<T> tol = {});

/// Whether the two capsules are within tolerance of each other.
template <Real T>
bool overlap(const Capsule<T>& a, const Capsule<T>& b, ContactTolerance<T> tol = {});

/// Contact of capsule A with capsule B from the closest points of their segments
/// (closest_points_between_segments). Where those points are interior to both segments their
/// difference is perpendicular to both, so the normal is taken from the cross product of the
/// segments whenever that is the more accurate of the two (the points nearly meet): crossing
/// capsules keep an exact normal however close their axes pass. Parallel segments give one of
/// the equally close pairs. touching = false beyond max(margin, 0) + tolerance.
template <Real T>
Contact<T> contact(const Capsule<T>& a, const Capsule<T>& b, std::type_identity_t<T> margin = 0,
                   ContactTolerance<T> tol = {});

}  // namespace hitscan
