#pragma once
/// The contact record every shape-pair test returns, and the tolerance policy they share.
///
/// Convention: the pair is (A, B), the normal points from B to A (moving A along it by depth
/// separates the shapes), point_on_a is the point of A deepest inside B (or nearest to B when
/// apart), point_on_b the point of B's surface nearest to it, and
///   depth = dot(point_on_b - point_on_a, normal)
/// is positive when the shapes overlap and minus the separation distance when they are apart.

#include "hitscan/math/vec3.hpp"

namespace hitscan {

template <Real T>
struct Contact {
  /// False when the shapes are further apart than the caller's margin; the other fields are
  /// then unspecified.
  bool touching = false;
  Vec3<T> point_on_a{};
  Vec3<T> point_on_b{};
  /// Unit length, from B towards A; never a zero vector when touching is true.
  Vec3<T> normal{0, 0, 1};
  /// Penetration depth (> 0 overlapping, 0 touching, < 0 the separation distance).
  T depth = 0;
};

/// Tolerance policy: two shapes count as touching when their separation is at most
///   absolute + relative * size,
/// where size is the larger of the two shapes' characteristic sizes (radius, largest half
/// extent, ...). The relative part keeps touching shapes from flickering between frames at any
/// scale; the absolute part covers shapes of size zero. Defaults are a few ulps of T at the
/// shapes' size. float's absolute part is 1e-30, so that shapes down to 1e-9 keep a tolerance
/// of their own scale (at 1e-7, every sweep of shapes below about that size started in contact);
/// double's stays 1e-7.
template <Real T>
struct ContactTolerance {
  T absolute = sizeof(T) == 4 ? T(1e-30) : T(1e-7);
  T relative = sizeof(T) == 4 ? T(1e-5) : T(1e-12);

  constexpr T at_size(T size) const { return absolute + relative * size; }
};

using Contactf = Contact<float>;
using ContactTolerancef = ContactTolerance<float>;

}  // namespace hitscan
