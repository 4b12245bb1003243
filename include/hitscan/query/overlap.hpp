#pragma once
/// What the scene's overlap queries (Scene::overlap_sphere, overlap_box, overlap_capsule) report:
/// one record per collider the query shape touches.

#include <cstddef>
#include <cstdint>

#include "hitscan/geometry/contact.hpp"
#include "hitscan/query/query_hit.hpp"

namespace hitscan {

/// A collider the query shape touches: it overlaps it, or lies within the contact tolerance of it
/// (ContactTolerancef's defaults, relative to the larger of the two shapes' sizes).
struct OverlapHit {
  ColliderId collider = kNoCollider;
  std::uint64_t user_id = 0;
  /// Whether `contact` holds the contact: false unless QueryOptions::contacts was set, and false
  /// also for the pairs whose penetrating contact is not computed yet (a box or a capsule whose
  /// core overlaps a cylinder; see Scene::overlap_sphere). The hit itself is exact either way.
  bool has_contact = false;
  /// The contact in the conventions of contact.hpp with A the query shape and B the collider:
  /// normal is unit and points from the collider towards the query shape, depth > 0 overlapping
  /// (how far the query shape must move along normal to clear the collider), <= 0 touching within
  /// the tolerance; point_on_a is the query shape's deepest point, point_on_b the collider's.
  /// Open surfaces (planes, polygons, mesh triangles) are cleared by leaving them on the side of
  /// the query shape's centre.
  Contactf contact{};
  /// Mesh colliders with a contact: the deepest touching triangle (the lowest index on a tie);
  /// kNoPrimitive otherwise.
  std::uint32_t primitive = kNoPrimitive;
};

/// What an overlap query wrote into a caller's buffer.
struct OverlapCount {
  /// Hits written: the first min(total, buffer size) in collider id order.
  std::size_t written = 0;
  /// Colliders touched; total - written were dropped.
  std::size_t total = 0;
};

}  // namespace hitscan
