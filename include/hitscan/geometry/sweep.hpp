#pragma once
/// Sweeps (shape casts): a sphere or a capsule moved along a straight path, and the first contact
/// with another shape on the way.
///
/// The moving shape M travels as M + s * direction for s in [0, max_distance]; direction is
/// expected unit length (the scene normalises it; another length works, with distances then in
/// units of it) and max_distance may be +inf (no limit). The answer is the smallest such s at
/// which M touches the target (within the contact tolerance of geometry/contact.hpp), the point
/// where they touch and the normal there.
///
/// Started in contact: when M already touches the target at s = 0 (its separation is at most
/// tol.at_size(size), size as in the pair's contact kernel), the sweep reports distance 0,
/// started_in_contact, and the contact at the start: normal from the target towards M (the
/// direction that separates them) and depth, the penetration (>= 0), point on the target. It does
/// not look for a later contact: a sweep starting in contact is blocked at once, as a character
/// controller expects. Those come from the contact kernels where one exists (contact_round.hpp,
/// contact_sphere_box.hpp, contact_capsule_box.hpp, contact_triangle.hpp: their normal and depth
/// rules hold, the face-normal rule for a core through a triangle included); otherwise:
/// - sphere against cylinder: the centre's nearest point of the solid, or from inside the nearest
///   point of the boundary (the side winning ties with a cap), depth = radius -+ that distance;
/// - sphere or capsule against a plane: the plane's normal on the side of the centre (of the
///   segment's centre; the front when it lies in the plane), depth = radius minus the height of
///   the lower end above the plane (plus its depth below it);
/// - sphere or capsule against a polygon: the deepest of the contacts with the triangles of its
///   fan (v0, vi, vi+1), which is the nearest point, or the face-normal rule when the core meets it;
/// - capsule against cylinder: the GJK closest points of segment and cylinder while the segment
///   stays outside the cylinder; once the segment enters it there is no shortest way out to read,
///   and the contact is the way back along the path: normal -direction, depth how far M must move
///   back to just touch (which separates them, but may exceed the smallest such translation).
///
/// Targets. Solids (sphere, capsule, box, cylinder) are solid; planes, triangles and convex
/// polygons are two-sided surfaces (a sweep meets them from either side). The method of each pair:
/// - sphere against sphere, capsule, box, plane, triangle, polygon: a ray from the centre against
///   the target grown by the sphere's radius (the Minkowski sum), exact. The rounded box: the box
///   grown by r on every side, whose entry is the answer when it falls in a face's region, else
///   the first of the 12 edge capsules. A triangle or polygon: the slab of its plane offset by
///   +-r over the face, else the first of its edge capsules; the slab test comes first, so a path
///   that never reaches the plane within max_distance costs a few dot products. A sphere of
///   radius 0 against a target of no thickness (a sphere or capsule of radius 0) never hits it
///   after the start (a path through a point or a segment has measure zero);
/// - capsule against a plane: exact (its lower end); against a sphere: a ray from the sphere's
///   centre along -direction against the capsule grown by the sphere's radius, exact;
/// - capsule against a capsule: exact, the first of an end of either segment reaching the other
///   grown by both radii (rays) and the insides of the segments meeting (their lines r1 + r2
///   apart, the closest points within both);
/// - capsule against a triangle or polygon: exact, the first of the features of their sum: an
///   end of the segment onto the face (the slab offset by +-r), an end onto an edge (a ray against
///   the edge's capsule), a corner onto the segment (a ray from the corner along -direction
///   against the capsule) and the segment's inside across an edge's inside (their lines r apart,
///   the closest points within both). A capsule that stays farther than r from the plane must
///   approach it in time, and when its lower end lands on the face that is the answer: a mesh's
///   triangles that face away or lie beyond max_distance cost a few dot products;
/// - everything else (sphere against cylinder, capsule against box and cylinder):
///   conservative advancement on the GJK distance, in double, which stops within the
///   contact tolerance of the first contact, never past it (to rounding). The point is the
///   target's closest point and the normal the direction between the closest points there. After
///   64 steps without converging (only paths that graze the target within a few tolerances come
///   near that) it reports a hit at the last step, short of the target. GJK's closest points on a
///   cylinder's rim converge slowly: there the normal is good to about 1e-3 radians and the
///   distance to about 1e-6 of the shapes' size.
///
/// A NaN or infinite input (other than max_distance = +inf), a zero direction, a negative radius,
/// negative half extents, a cylinder with a == b, or a negative or NaN max_distance is a miss.
/// Kernels never allocate and never throw.

#include <limits>

#include "hitscan/geometry/contact.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

template <Real T>
struct SweepHit {
  bool hit = false;
  /// The shapes touched at the start (distance 0; depth and normal describe that contact).
  bool started_in_contact = false;
  /// How far M travelled along direction before the contact; +inf on a miss.
  T distance = std::numeric_limits<T>::infinity();
  /// The contact point, on the target's surface, at that distance.
  Vec3<T> point{};
  /// Unit normal of the contact, from the target towards M (against the motion, for a contact
  /// that is not a start in contact).
  Vec3<T> normal{};
  /// Penetration depth at the start (>= 0) when started_in_contact; 0 otherwise.
  T depth = 0;

  explicit operator bool() const { return hit; }
};

using SweepHitf = SweepHit<float>;

template <Real T>
SweepHit<T> sphere_cast(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const Sphere<T>& target,
                        ContactTolerance<T> tol = {});
template <Real T>
SweepHit<T> sphere_cast(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const Capsule<T>& target,
                        ContactTolerance<T> tol = {});
template <Real T>
SweepHit<T> sphere_cast(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const Obb<T>& target,
                        ContactTolerance<T> tol = {});
template <Real T>
SweepHit<T> sphere_cast(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const Cylinder<T>& target,
                        ContactTolerance<T> tol = {});
template <Real T>
SweepHit<T> sphere_cast(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const Plane<T>& target,
                        ContactTolerance<T> tol = {});
template <Real T>
SweepHit<T> sphere_cast(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const Triangle<T>& target,
                        ContactTolerance<T> tol = {});
template <Real T>
SweepHit<T> sphere_cast(const Sphere<T>& moving, Vec3<T> direction, T max_distance, const ConvexPolygon<T>& target,
                        ContactTolerance<T> tol = {});

template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Sphere<T>& target,
                         ContactTolerance<T> tol = {});
template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Capsule<T>& target,
                         ContactTolerance<T> tol = {});
template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Obb<T>& target,
                         ContactTolerance<T> tol = {});
template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Cylinder<T>& target,
                         ContactTolerance<T> tol = {});
template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Plane<T>& target,
                         ContactTolerance<T> tol = {});
template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const Triangle<T>& target,
                         ContactTolerance<T> tol = {});
template <Real T>
SweepHit<T> capsule_cast(const Capsule<T>& moving, Vec3<T> direction, T max_distance, const ConvexPolygon<T>& target,
                         ContactTolerance<T> tol = {});

}  // namespace hitscan
