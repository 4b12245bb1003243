#pragma once
/// Overlap and contact of a capsule with an oriented box.
///
/// Apart: the closest points of the capsule's segment and the solid box, found exactly in the
/// box's frame (the rotation's transpose, no inverse). The squared distance from the point
/// a + t (b - a) to the box is a convex, piecewise quadratic function of t whose pieces join
/// where the segment crosses one of the six face planes; on each piece (at most seven) its
/// minimum is the clamped vertex of a parabola, and the least of those is the answer. Where the
/// minimum is flat (a segment parallel to a face), the middle of the flat piece is taken, so a
/// capsule lying on a box touches it half-way along the part above the face. The normal is the
/// direction from the box's point to the segment's, depth = radius - distance.
///
/// Segment touching or inside the box: the separating axis test over the 6 axes of the
/// Minkowski difference of segment and box (the box's 3 face normals and the cross products of
/// the segment with them), which gives the exact penetration depth of the segment; the capsule's
/// depth is that plus its radius. A cross-product axis replaces a face axis only when it is
/// shallower by more than the tolerance (no flicker between nearly equal axes); the cross
/// product with a box axis the segment is within sqrt(epsilon) of parallel to is skipped (it
/// repeats the face axes). point_on_a is the capsule's deepest
/// point along -normal (on a tie, the segment parallel to the chosen face, the middle of its part
/// inside the box), point_on_b = point_on_a + normal * depth, on the box's supporting plane.
///
/// Tolerance: size = the larger of the capsule's radius plus half its length and the box's
/// largest half extent; overlap() is true within tol.at_size(size), contact() reports touching
/// within max(margin, 0) + tol.at_size(size). Conventions of contact.hpp; the normal points from
/// the box to the capsule.
///
/// Degenerate input: a capsule with a == b is a sphere (the answer sphere vs box gives: the
/// nearest face when the centre is inside); a radius of 0 (a segment) and half extents of 0 (a
/// flat box, a line, a point) are valid; a negative or NaN radius or half extent touches
/// nothing. The box's rotation is expected orthonormal (Mat3::orthonormalized repairs drift).
/// A NaN coordinate gives touching = false; infinite ones never trap but give an unspecified
/// answer.

#include <type_traits>

#include "hitscan/geometry/contact.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

/// Whether the capsule and the box are within tolerance of each other.
template <Real T>
bool overlap(const Capsule<T>& a, const Obb<T>& b, ContactTolerance<T> tol = {});

/// Contact of capsule A with box B; touching = false beyond max(margin, 0) + tolerance.
template <Real T>
Contact<T> contact(const Capsule<T>& a, const Obb<T>& b, std::type_identity_t<T> margin = 0,
                   ContactTolerance<T> tol = {});

}  // namespace hitscan
