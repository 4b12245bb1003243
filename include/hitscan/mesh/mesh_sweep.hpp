#pragma once
/// Sweeps against a triangle mesh through its BVH: a sphere or a capsule moved along a straight
/// path, and the first triangle it meets (geometry/sweep.hpp gives the conventions and the
/// method of each triangle). The moving shape's box, moved along the path, walks the tree's node
/// boxes nearest first; each triangle of each leaf it reaches goes through the triangle kernel,
/// with the distance found so far as its limit. The shape is given in the mesh's frame.
///
/// The answer is that of the kernel run on every triangle of the mesh: the least distance, and
/// among triangles met at the same distance, the deepest start contact, then the lowest triangle
/// index. Triangles are two-sided; degenerate ones are not in the tree and never met. A shape
/// already touching triangles at the start hits the deepest of them at distance 0.

#include <cstdint>

#include "hitscan/geometry/sweep.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"

namespace hitscan {

struct MeshSweepHit {
  std::uint32_t triangle = kNoTriangle;
  SweepHitf sweep{};

  explicit operator bool() const { return sweep.hit; }
};

/// direction is expected unit length; max_distance >= 0. A miss leaves triangle = kNoTriangle.
MeshSweepHit sphere_cast(const Spheref& moving, Vec3f direction, float max_distance, const MeshBvh& mesh,
                         ContactTolerancef tol = {});
MeshSweepHit capsule_cast(const Capsulef& moving, Vec3f direction, float max_distance, const MeshBvh& mesh,
                          ContactTolerancef tol = {});

}  // namespace hitscan
