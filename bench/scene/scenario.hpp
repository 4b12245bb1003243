#pragma once
// The scenario of the scene suite: n colliders of five kinds in a cube, the queries asked of them
// and the moves applied to them. Every backend (hitscan's Scene, Bullet's btCollisionWorld, brute
// force) is built from the same description, so that all answer the same question.
//
// Colliders, drawn from a seeded generator: 25% spheres (radius 0.3-1.2), 20% boxes (half extents
// 0.3-1.2, rotated), 15% capsules (radius 0.2-0.6, half height of the core 0.3-1.2), 15% cylinders
// (radius 0.3-1.0, half height 0.3-1.2), 25% instances of one shared torus mesh (256 triangles,
// radii 0.8 and 0.3, uniform scale 0.6-1.6). Capsules and cylinders lie along their local y axis
// (Bullet's btCapsuleShape and btCylinderShape convention), every collider is rotated by a random
// rotation and placed uniformly in a cube whose side grows as the cube root of n (kSidePerCbrt),
// so the density, and with it the work per query, stays the same at every size.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "hitscan/math/quat.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "hitscan/query/query_hit.hpp"

namespace hitscan::bench {

/// Cube side over the cube root of the collider count: about 64 units of volume per collider.
inline constexpr float kSidePerCbrt = 4.0f;

enum class ShapeKind : std::uint8_t { sphere, box, capsule, cylinder, mesh };
inline constexpr int kShapeKinds = 5;
const char* shape_kind_name(ShapeKind kind);

/// One collider in its frame: a sphere's radius is size.x; a box's half extents are size; a
/// capsule's or cylinder's radius is size.x and the half length of its axis (along local y) size.y;
/// a mesh instance's uniform scale is size.x.
struct SceneCollider {
  ShapeKind kind = ShapeKind::sphere;
  Vec3f size{};
  Quatf rotation{};
  Vec3f position{};
};

struct Scenario {
  float side = 0;
  /// The mesh every instance shares, with its tree.
  std::shared_ptr<const TriangleMesh> mesh;
  std::shared_ptr<const MeshBvh> mesh_bvh;
  /// The radius of a ball about the mesh's origin that holds it (before the instance's scale).
  float mesh_radius = 0;
  std::vector<SceneCollider> colliders;
};

/// n colliders from `seed`. Deterministic.
Scenario make_scenario(std::size_t n, std::uint64_t seed);

/// The collider as hitscan describes it, user_id = its index in the scenario.
ColliderDesc to_collider_desc(const Scenario& scenario, std::size_t index);

/// Tells whether a sphere touches any collider (used to keep query starts outside them).
using TouchesAnything = bool (*)(const void* context, const Spheref& sphere);

/// A capsule cast, with the rotation that takes the +y axis to the capsule's axis (for the
/// libraries whose capsules lie along y) and the half length of its axis segment.
struct CapsuleCast {
  CapsuleSweep sweep;
  Quatf rotation;
  float half_length = 0;
};

/// The queries of one size, the same for every backend.
struct QuerySet {
  /// Closest-hit rays: origins uniform in the cube and outside every collider, directions uniform
  /// on the sphere, max_distance side / 4.
  std::vector<QueryRay> rays;
  /// Overlap queries: spheres of radius 0.5-2 centred uniformly in the cube.
  std::vector<Spheref> spheres;
  /// Sphere casts: spheres of radius 0.2-0.6 starting clear of every collider, directions uniform,
  /// max_distance side / 8.
  std::vector<SphereSweep> sweeps;
  /// Capsule casts: capsules of radius 0.2-0.5 and half length 0.3-1, turned at random, starting
  /// clear of every collider, directions uniform, max_distance side / 8.
  std::vector<CapsuleCast> capsule_sweeps;
};

/// How many queries of each kind make_queries makes.
struct QueryCounts {
  std::size_t rays = 0, spheres = 0, sweeps = 0, capsule_sweeps = 0;
};

QuerySet make_queries(const Scenario& scenario, const QueryCounts& counts, std::uint64_t seed, TouchesAnything touches,
                      const void* context);

/// A move: collider `index` gets a new position and rotation (kind and size stay).
struct Move {
  std::uint32_t index = 0;
  Vec3f position{};
  Quatf rotation{};
};

/// Moves of `count` distinct colliders to new random places in the cube, from `seed`, and the
/// moves that put them back (`back`).
void make_moves(const Scenario& scenario, std::size_t count, std::uint64_t seed, std::vector<Move>& out,
                std::vector<Move>& back);

/// Frames of steady motion: `count` distinct colliders, each going along its own random direction
/// by `step` per frame for `frames` frames and then back the same way, rotations kept: 2 * frames
/// batches, after the last of which every collider is where it started.
std::vector<std::vector<Move>> make_drift(const Scenario& scenario, std::size_t count, int frames, float step,
                                          std::uint64_t seed);

}  // namespace hitscan::bench
