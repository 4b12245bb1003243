#pragma once
/// Distance, penetration and shape casts between any two convex shapes, by their support
/// functions: GJK for the distance and closest points (Gilbert, Johnson, Keerthi 1988), EPA for
/// the penetration depth and normal of overlapping shapes (van den Bergen, "Proximity Queries and
/// Penetration Depth Computation on 3D Game Objects", GDC 2001), and conservative advancement on
/// the GJK distance for casts (Mirtich 1996; as in geometry/sweep.hpp).
///
/// The shapes: Sphere, Aabb, Obb, Capsule, Cylinder, Triangle (its flat solid), ConvexPolygon (its
/// flat solid) and ConvexHull. Spheres and capsules are handled as a core (a point, a segment)
/// grown by a radius, so their roundness is exact: the walk runs between the cores and the radii
/// are added at the end. Everything runs in double whatever T is; the answers are rounded to T.
///
/// Where the pairs also have an analytic kernel (contact_sphere_box.hpp, contact_round.hpp,
/// contact_box_box.hpp) these agree with it (gjk_epa_test.cpp measures how closely); use the
/// analytic kernel where there is one: it is faster and exact. These are for the pairs without one
/// (hulls, cylinders, a box against a triangle, ...). GJK and EPA converge slowly on curved
/// surfaces without a radius (a cylinder's rim): there distances are good to about 1e-6 and
/// normals to about 1e-3 radians of the shapes' size.

#include <type_traits>
#include <variant>

#include "hitscan/geometry/contact.hpp"
#include "hitscan/geometry/convex_hull.hpp"
#include "hitscan/geometry/shapes.hpp"
#include "hitscan/geometry/sweep.hpp"

namespace hitscan {

/// Any one of the convex shapes, taken by value, or by reference for the two that own vertex
/// lists (ConvexPolygon, ConvexHull: those must outlive the ConvexShape). Converts implicitly, so
/// gjk_distance(sphere, hull) reads as it should.
template <Real T>
class ConvexShape {
 public:
  using Variant = std::variant<Sphere<T>, Aabb<T>, Obb<T>, Capsule<T>, Cylinder<T>, Triangle<T>,
                               const ConvexPolygon<T>*, const ConvexHull<T>*>;
  ConvexShape(const Sphere<T>& s) : shape_(s) {}                 // NOLINT: implicit by design
  ConvexShape(const Aabb<T>& b) : shape_(b) {}                   // NOLINT
  ConvexShape(const Obb<T>& b) : shape_(b) {}                    // NOLINT
  ConvexShape(const Capsule<T>& c) : shape_(c) {}                // NOLINT
  ConvexShape(const Cylinder<T>& c) : shape_(c) {}               // NOLINT
  ConvexShape(const Triangle<T>& t) : shape_(t) {}               // NOLINT
  ConvexShape(const ConvexPolygon<T>& p) : shape_(&p) {}         // NOLINT
  ConvexShape(const ConvexHull<T>& h) : shape_(&h) {}            // NOLINT

  const Variant& shape() const { return shape_; }

 private:
  Variant shape_;
};

using ConvexShapef = ConvexShape<float>;
using ConvexShaped = ConvexShape<double>;

template <Real T>
struct ConvexDistance {
  /// The Euclidean distance between the solids; 0 when they overlap or touch.
  T distance = 0;
  /// The closest points of A and of B; when overlapping, a point of the overlap for both (the
  /// deepest point is penetration()'s job).
  Vec3<T> point_a{}, point_b{};
  /// The solids share a point (their distance is 0 to the walk's precision, about 1e-12 of the
  /// shapes' size).
  bool overlapping = false;
};

/// GJK distance between A and B. A NaN or infinite coordinate, a negative or NaN radius or half
/// extent, or a cylinder with a == b gives distance NaN and overlapping = false.
ConvexDistance<float> gjk_distance(const ConvexShape<float>& a, const ConvexShape<float>& b);
ConvexDistance<double> gjk_distance(const ConvexShape<double>& a, const ConvexShape<double>& b);

/// The contact of A and B with the conventions of contact.hpp: touching when their separation is
/// at most tol.at_size(size) (size: the larger of the two characteristic sizes, shape_size.hpp,
/// convex_hull.hpp); the normal from B to A; depth > 0 overlapping (the penetration depth: the
/// shortest translation of A that separates them is normal * depth), < 0 minus the separation.
/// Apart: GJK's closest points. Overlapping: EPA on the Minkowski difference of the cores, to a
/// relative precision of about 1e-10 for polytopes, plus the radii. On a curved surface without a
/// radius (a cylinder) EPA stops after 128 expansions: the depth is then the extent of the overlap
/// along the normal it reached, which that normal realises (moving A by normal * depth separates
/// the shapes) and which exceeds the least depth by EPA's remaining error there; point_on_a is A's deepest point
/// into B, point_on_b B's deepest into A, dot(point_on_b - point_on_a, normal) = depth. Cores
/// whose difference is flat (two crossing segments, coplanar triangles) meet in a plane: the
/// normal is that plane's (towards A's side), the depth the radii. Cores that meet in a point or
/// a segment (a sphere's centre on a capsule's axis) have no direction to choose from: a fixed one
/// perpendicular to the segment (+z for two points). Invalid input (as for gjk_distance) gives
/// touching = false.
Contact<float> penetration(const ConvexShape<float>& a, const ConvexShape<float>& b, ContactTolerance<float> tol = {});
Contact<double> penetration(const ConvexShape<double>& a, const ConvexShape<double>& b,
                            ContactTolerance<double> tol = {});

/// The first contact of `moving` travelling as moving + s * direction, s in [0, max_distance],
/// with target: the SweepHit of sweep.hpp, with its conventions. Starting in contact (separation
/// at most the tolerance) gives distance 0, started_in_contact, and penetration()'s normal and
/// depth (point on the target: its point_on_b). Otherwise conservative advancement on the GJK
/// distance, in double, which stops within the tolerance of the first contact and never past it
/// (to rounding); the point is the target's closest point there and the normal the direction
/// between the closest points. After 64 steps without converging (paths that graze the target)
/// it reports a hit at the last step, short of the target. Invalid input, a zero or non-finite
/// direction, or a negative or NaN max_distance is a miss.
SweepHit<float> convex_cast(const ConvexShape<float>& moving, Vec3f direction, float max_distance,
                            const ConvexShape<float>& target, ContactTolerance<float> tol = {});
SweepHit<double> convex_cast(const ConvexShape<double>& moving, Vec3d direction, double max_distance,
                             const ConvexShape<double>& target, ContactTolerance<double> tol = {});

/// A box cast: convex_cast with an oriented box moving.
template <Real T>
SweepHit<T> box_cast(const Obb<T>& moving, Vec3<T> direction, T max_distance,
                     const std::type_identity_t<ConvexShape<T>>& target, ContactTolerance<T> tol = {}) {
  return convex_cast(ConvexShape<T>(moving), direction, max_distance, target, tol);
}

}  // namespace hitscan
