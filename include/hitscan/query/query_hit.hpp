#pragma once
/// The one hit record of every scene query, the options every query takes, and its statistics.

#include <cstdint>
#include <limits>

#include "hitscan/math/vec3.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "hitscan/query/collider.hpp"

namespace hitscan {

/// One hit. On a miss `hit` is false, distance is +inf and collider is kNoCollider.
struct QueryHit {
  bool hit = false;
  /// HitFlags: kHitStartedInside (the query started inside a solid or, for sweeps and overlaps,
  /// already in contact), kHitBackFace, kHitExit.
  std::uint8_t flags = 0;
  /// Where on the primitive: triangles report an edge or a vertex when the hit's barycentrics
  /// put it exactly there; analytic shapes report face.
  Feature feature = Feature::face;
  /// World distance along the query's (normalised) direction; for closest_point, the distance
  /// from the query point.
  float distance = std::numeric_limits<float>::infinity();
  /// World point of the hit.
  Vec3f point{};
  /// Unit contact normal, facing the query: against the ray or sweep direction (towards the query
  /// point for closest_point). The normal to push or bounce with.
  Vec3f normal{};
  /// Unit normal of the surface itself: outward for solids, the front side for open surfaces
  /// (for triangles (v1 - v0) x (v2 - v0) as wound, carried to the world), whichever side was hit.
  Vec3f face_normal{};
  ColliderId collider = kNoCollider;
  std::uint64_t user_id = 0;
  /// Mesh colliders: the triangle's index in the mesh; kNoPrimitive for analytic shapes.
  std::uint32_t primitive = kNoPrimitive;
  /// Mesh colliders: barycentrics, point = (1 - u - v) v0 + u v1 + v v2.
  float u = 0, v = 0;
  /// Sweeps that start in contact (kHitStartedInside): how deep the shapes overlap at the
  /// start, along normal; 0 otherwise.
  float depth = 0;

  explicit operator bool() const { return hit; }
  bool started_inside() const { return (flags & kHitStartedInside) != 0; }
  bool back_face() const { return (flags & kHitBackFace) != 0; }
};

/// Decides per collider whether a query sees it (after the layer mask). Plain function and
/// context, so that the C API can pass its callbacks straight through; it is called from the
/// querying thread and must be safe to call from several at once when queries run in parallel.
struct QueryFilter {
  bool (*accept)(ColliderId collider, std::uint64_t user_id, std::uint32_t layer, void* context) = nullptr;
  void* context = nullptr;
};

struct QueryOptions {
  /// Bit i set: colliders on layer i are seen.
  std::uint32_t layer_mask = kAllLayers;
  /// World distance limit of rays and sweeps, and search radius of closest_point.
  float max_distance = std::numeric_limits<float>::infinity();
  /// Which faces of open surfaces (triangles, planes, polygons) count.
  FaceMode faces = FaceMode::both;
  /// Solids are solid: a ray starting inside one hits at distance 0 (kHitStartedInside).
  /// false: solids are shells, and such a ray hits where it leaves (kHitExit).
  bool solid = true;
  QueryFilter filter{};
  /// Overlap queries: also compute each touching collider's contact (OverlapHit::contact). Off by
  /// default: deciding touch alone is cheaper. Other queries ignore it.
  bool contacts = false;
};

/// What a query did, counted; filled only when the caller passes a QueryStats.
struct QueryStats {
  /// Nodes of the scene's top-level tree visited.
  std::uint64_t tree_nodes = 0;
  /// Colliders whose shape or mesh was tested (after the layer mask and filter).
  std::uint64_t shapes_tested = 0;
};

/// A ray as scene queries take it: any non-zero direction (normalised inside), and a world
/// distance limit on top of QueryOptions::max_distance.
struct QueryRay {
  Vec3f origin{};
  Vec3f direction{0, 0, 1};
  float max_distance = std::numeric_limits<float>::infinity();
};

/// A sphere cast: the sphere moved along any non-zero direction (normalised inside), as far as
/// max_distance and QueryOptions::max_distance allow.
struct SphereSweep {
  Spheref sphere{};
  Vec3f direction{0, 0, 1};
  float max_distance = std::numeric_limits<float>::infinity();
};

/// A capsule cast, in the same way.
struct CapsuleSweep {
  Capsulef capsule{};
  Vec3f direction{0, 0, 1};
  float max_distance = std::numeric_limits<float>::infinity();
};

/// A box cast: the oriented box (its rotation expected orthonormal) moved in the same way.
struct BoxSweep {
  Obbf box{};
  Vec3f direction{0, 0, 1};
  float max_distance = std::numeric_limits<float>::infinity();
};

/// A convex cast: a convex hull, in world coordinates where the sweep starts, moved in the same
/// way. The hull is the caller's: it must outlive the query; a null hull is a miss.
struct ConvexSweep {
  const ConvexHullf* hull = nullptr;
  Vec3f direction{0, 0, 1};
  float max_distance = std::numeric_limits<float>::infinity();
};

}  // namespace hitscan
