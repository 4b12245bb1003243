#pragma once
/// Colliders: what a Scene holds. A collider is a shape in its own local frame, a transform that
/// places it in the world, a layer and a user id.
///
/// Scale. Meshes, planes, convex polygons, convex hulls and boxes whose local rotation is the
/// identity take any invertible transform, non-uniform and mirroring scale included (an affine map
/// keeps them what they are). Spheres, capsules, cylinders and rotated boxes need a uniform scale (equal in
/// magnitude on the three axes): a sphere scaled unevenly is an ellipsoid, which the kernels do
/// not know; such a collider is rejected with invalid_argument rather than approximated. A scale
/// below kMinColliderScale in magnitude on any axis is rejected too: queries go into a mesh's
/// frame by the inverse transform, and coordinates divided by so small a scale overflow float's
/// range there (a mesh scaled by 1e-30 made every contact with it infinitely deep).

#include <cstdint>
#include <memory>
#include <variant>

#include "hitscan/geometry/convex_hull.hpp"
#include "hitscan/geometry/shapes.hpp"
#include "hitscan/math/transform.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"

namespace hitscan {

/// Names a collider of a Scene: a slot index in the low 24 bits and, above it, a generation that
/// changes when the slot is reused, so that a stale id is an error rather than another collider.
using ColliderId = std::uint32_t;
inline constexpr ColliderId kNoCollider = 0xFFFFFFFFu;

/// The most colliders a scene holds at once (24-bit slot indices).
inline constexpr std::uint32_t kMaxColliders = 1u << 24;

/// Layers are 0..31; a query's layer mask has bit `layer` set for each layer it sees.
inline constexpr std::uint32_t kLayerCount = 32;
inline constexpr std::uint32_t kAllLayers = 0xFFFFFFFFu;

/// A triangle mesh with its BVH, shared by every collider (and thread) that uses it.
using MeshShape = std::shared_ptr<const MeshBvh>;

/// A convex hull (geometry/convex_hull.hpp), a solid, shared by every collider that uses it.
using HullShape = std::shared_ptr<const ConvexHullf>;

/// Shape of a collider, in its local frame.
using ColliderShape = std::variant<Spheref, Obbf, Capsulef, Cylinderf, Planef, ConvexPolygonf, MeshShape, HullShape>;

/// Everything that describes a collider; ColliderDesc{shape} is a valid description.
struct ColliderDesc {
  ColliderShape shape;
  /// Local to world.
  Transformf transform{};
  /// 0..31.
  std::uint32_t layer = 0;
  /// Returned in every hit on the collider; the library never looks at it.
  std::uint64_t user_id = 0;
};

/// A mesh placed in the world: the shared tree stays in the mesh's frame, rays go into it.
using WorldMesh = MeshInstance;

/// A convex hull placed in the world: the hull carried there (ConvexHull::transformed, vertices
/// moved and planes recomputed, no rebuild), so that every query runs on world planes and vertices
/// whatever the scale. That happens when the collider is described (add, set_shape,
/// set_transform, ...), never in a query: linear in the hull's size, 65-90 times faster than a
/// Quickhull rebuild from the moved vertices for a hull of 100 vertices (measured: about 6 µs
/// against 0.5 ms). Under the identity transform the hull itself is shared.
using WorldHull = std::shared_ptr<const ConvexHullf>;

/// The shape of a collider in world coordinates, as the queries test it.
using WorldShape = std::variant<Spheref, Obbf, Capsulef, Cylinderf, Planef, ConvexPolygonf, WorldMesh, WorldHull>;

/// The smallest magnitude of a collider's scale on any axis (see the file comment).
inline constexpr float kMinColliderScale = 1e-15f;

/// The world form of a local shape under `transform`, into `out`. Fails with invalid_argument
/// (leaving `out` as it was) for a transform that is not invertible or scales an axis by less
/// than kMinColliderScale, a shape whose world box (a plane: its offset) reaches beyond
/// ±kMaxCoordinate, a scale the shape cannot take
/// (see the file comment), a null mesh or hull, a hull not finite once transformed, non-finite
/// shape parameters or a negative radius. On success, `bounds` (when given) receives
/// world_bounds(out), which the check has computed anyway.
Status to_world(const ColliderShape& shape, const Transformf& transform, WorldShape& out, Aabbf* bounds = nullptr);

/// The world box of a world shape; planes are unbounded (the box from -inf to +inf).
Aabbf world_bounds(const WorldShape& shape);

/// Whether the shape has an inside (spheres, boxes, capsules, cylinders, convex hulls).
bool is_solid(const WorldShape& shape);

}  // namespace hitscan
