#pragma once
/// Sweeps against a plane of the shapes whose casts are otherwise GJK's (gjk_epa.hpp's box_cast
/// and convex_cast take bounded targets only): an oriented box or a convex hull moved along a
/// straight path, and its first contact with the plane, exactly.
///
/// The conventions of geometry/sweep.hpp: the moving shape M travels as M + s * direction for s
/// in [0, max_distance]; direction is expected unit length (another length works, with distances
/// then in units of it) and max_distance may be +inf. The plane is a two-sided surface, met from
/// either side. M's extent along the plane's unit normal moves linearly along the path, so the
/// first contact is where the end of that extent facing the plane reaches it.
///
/// Started in contact: when M lies within tol.at_size(size_of(M)) of the plane, or across it, at
/// s = 0, the sweep reports distance 0, started_in_contact, the normal on the side of the middle
/// of M's extent along the plane's normal (the front when the middle is in the plane), depth how
/// far M must move along that normal to clear the plane (>= 0), and the point: M's point nearest
/// the plane on that side, projected onto it.
///
/// Otherwise, when M approaches the plane, the point is where M's point nearest the plane meets
/// it: for a box the middle of the face or edge that lies flat across the normal (within the same
/// tolerance), else the corner; for a hull its support point. The normal is the plane's unit
/// normal on M's side.
///
/// A NaN or infinite input (other than max_distance = +inf), a zero direction, negative half
/// extents, a plane whose normal is zero or too small to normalise, or a negative or NaN
/// max_distance is a miss; so is a path along the plane or away from it, and a contact beyond
/// max_distance or beyond the largest finite distance. Kernels never allocate and never throw.

#include "hitscan/geometry/contact.hpp"
#include "hitscan/geometry/convex_hull.hpp"
#include "hitscan/geometry/shapes.hpp"
#include "hitscan/geometry/sweep.hpp"

namespace hitscan {

template <Real T>
SweepHit<T> box_cast(const Obb<T>& moving, Vec3<T> direction, T max_distance, const Plane<T>& target,
                     ContactTolerance<T> tol = {});
template <Real T>
SweepHit<T> convex_cast(const ConvexHull<T>& moving, Vec3<T> direction, T max_distance, const Plane<T>& target,
                        ContactTolerance<T> tol = {});

}  // namespace hitscan
