#pragma once
/// Overlap and contact of two axis-aligned boxes and of two oriented boxes.
///
/// Conventions and the tolerance policy are those of contact_sphere_box.hpp: A is the first box,
/// B the second, the normal points from B to A, depth > 0 overlapping and < 0 minus the
/// separation; a box's characteristic size is its largest half extent and the pair touches when
/// its separation is at most tol.at_size(larger size) (plus max(margin, 0) for contact(), whose
/// flag equals overlap()'s bit for bit when margin is 0). Separations are true Euclidean
/// distances between the solids. Half extents of 0 (flat boxes) are valid; negative or NaN half
/// extents, or an invalid Aabb (min > max, NaN), touch nothing. Rotations are expected orthonormal
/// (CachedObb repairs drift).

#include <type_traits>

#include "hitscan/geometry/contact.hpp"
#include "hitscan/geometry/contact_sphere_box.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

/// True when the boxes are within tolerance: the squared distance, summed from the gaps between
/// the boxes' intervals on the three axes, against the squared tolerance. No square root.
template <Real T>
bool overlap(const Aabb<T>& a, const Aabb<T>& b, ContactTolerance<T> tol = {});

/// Contact of two axis-aligned boxes. Overlapping: the axis and direction of least penetration
/// (of the six ways to push A out; ties: the lowest axis, then +), the points on A's face and B's
/// opposite face at the centre of the overlap across the other two axes. Apart: the closest
/// points (the centre of the overlap on axes where the intervals overlap), the normal from B's to
/// A's, depth = minus their distance.
template <Real T>
Contact<T> contact(const Aabb<T>& a, const Aabb<T>& b, std::type_identity_t<T> margin = 0,
                   ContactTolerance<T> tol = {});

/// True when the oriented boxes are within tolerance. The separating axis test of Gottschalk,
/// Lin and Manocha ("OBBTree", SIGGRAPH 1996; Ericson 4.4.1) on all 15 axes: the 3 + 3 face
/// normals and the 9 cross products of an edge of A with an edge of B, in A's frame.
///
/// Parallel edges. A cross product of parallel edges is the zero vector and tests nothing; those
/// shorter than epsilon(T) (edges parallel to within epsilon radians) are skipped, since the
/// separation such an axis could add to the others' is at most its length times the boxes' size.
/// Ericson instead adds epsilon to |R|, because his closed forms for B's projected radius assume
/// exactly orthonormal axes, which rounding breaks exactly when edges are nearly parallel; here
/// B's radius is projected explicitly on each computed axis, which is correct for that axis
/// whatever its length, so the remaining nearly parallel axes are used as they are.
///
/// Every axis is compared without a square root (gap² against tolerance² |L|²). A pair that no
/// axis separates by more than the tolerance but one separates by a positive gap lies within
/// the tolerance of touching; there the exact distance decides (vertices against the other box,
/// edges against edges), so that touching means separation <= tolerance exactly, as for the
/// other pairs, not the axis test's lower bound on it.
template <Real T>
bool overlap(const Obb<T>& a, const Obb<T>& b, ContactTolerance<T> tol = {});

/// Contact of two oriented boxes.
///
/// Overlapping: the normal is the axis of least penetration among the 15 (normalised, oriented
/// from B to A) and depth the penetration along it. Face axes are preferred: the axes are taken
/// in order (faces of A, faces of B, edge pairs) and a later one replaces the best so far only
/// when it is shallower by more than tol.at_size(size), so a box resting on a face gets that
/// face's normal in every frame, and depth exceeds the minimum by at most that much. The points
/// lie each on its own box and realise the depth, dot(point_on_b - point_on_a, normal) = depth
/// (to within the tolerance where a flat face is taken at its centre):
/// - a face of B: point_on_a is A's support point along -normal (its deepest point into B); on
///   an axis of A whose face or edge is flat across the normal (varying by at most the
///   tolerance), it is centred in the overlap of A's extent with B's shadow on that axis, so a box
///   lying on a face gets the centre of the contact patch, not a corner. point_on_b is the point
///   of B's face nearest to it (straight above it, unless A's deepest corner hangs past the face).
/// - a face of A: the same with the roles swapped (B's support point along +normal, then A's face).
/// - an edge of A with an edge of B: the closest points of A's deepest edge and B's.
/// Apart (within margin + tolerance): the exact closest points of the two solids, normal along
/// their difference, depth = minus their distance (vertex-box and edge-edge enumeration, about a
/// hundred times the cost of the axis test; only pairs within reach pay it).
template <Real T>
Contact<T> contact(const Obb<T>& a, const Obb<T>& b, std::type_identity_t<T> margin = 0,
                   ContactTolerance<T> tol = {});

/// Two-stage test: the bounding spheres first (centres further apart than the two circumradii
/// plus the tolerance cannot touch), then the exact overlap() of a.box and b.box. The rejection is
/// conservative by a few ulps: the answer equals overlap(a.box, b.box, tol) exactly.
template <Real T>
bool overlap(const CachedObb<T>& a, const CachedObb<T>& b, ContactTolerance<T> tol = {});

}  // namespace hitscan
