#pragma once
/// Sweeps against a triangle mesh through its BVH: a sphere or a capsule (or, with convex_cast,
/// any convex shape) moved along a straight path, and the first triangle it meets
/// (geometry/sweep.hpp gives the conventions and the method of each triangle). The moving shape's
/// box, moved along the path, walks the tree's node boxes nearest first; each triangle of each
/// leaf it reaches goes through the triangle kernel, with the distance found so far as its limit.
/// Spheres and capsules are given in the mesh's frame, convex shapes in the world.
///
/// The answer is that of the kernel run on every triangle of the mesh: the least distance, and
/// among triangles met at the same distance, the deepest start contact, then the lowest triangle
/// index. Triangles are two-sided; degenerate ones are not in the tree and never met. A shape
/// already touching triangles at the start hits the deepest of them at distance 0.

#include <cstdint>

#include "hitscan/geometry/gjk_epa.hpp"
#include "hitscan/geometry/sweep.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"

namespace hitscan {

struct MeshSweepHit {
  std::uint32_t triangle = kNoPrimitive;
  SweepHitf sweep{};

  explicit operator bool() const { return sweep.hit; }
};

/// direction is expected unit length; max_distance >= 0. A miss leaves triangle = kNoPrimitive.
MeshSweepHit sphere_cast(const Spheref& moving, Vec3f direction, float max_distance, const MeshBvh& mesh,
                         ContactTolerancef tol = {});
MeshSweepHit capsule_cast(const Capsulef& moving, Vec3f direction, float max_distance, const MeshBvh& mesh,
                          ContactTolerancef tol = {});

/// Any convex shape of geometry/gjk_epa.hpp (an oriented box, a convex hull, ...) moved in the
/// world against a mesh placed by its instance's transform, any invertible one (non-uniform and
/// mirroring scale included): the shape's world box, taken into the mesh's frame, walks the tree as
/// above, and each triangle it reaches is carried to the world and goes through convex_cast
/// (gjk_epa.hpp), so that distance, point and normal are world ones, exact to that kernel's
/// conventions. The same order of answers and the same start in contact. direction is expected
/// unit length; an invalid shape, a null mesh or a transform that is not invertible misses.
MeshSweepHit convex_cast(const ConvexShapef& moving, Vec3f direction, float max_distance, const MeshInstance& mesh,
                         ContactTolerancef tol = {});

}  // namespace hitscan
