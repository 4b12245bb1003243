#pragma once
/// Overlap and contact of a sphere, a capsule or an oriented box (A) with a triangle mesh (B)
/// through its BVH: the shape's bounding box, grown by the margin and the tolerance, walks the
/// tree's node boxes, and each triangle of each leaf it reaches goes through the pair kernel of
/// contact_triangle.hpp (whose conventions hold: normals from the triangle towards the shape,
/// depth > 0 overlapping). The shape is given in the mesh's frame, in float like the mesh.
///
/// The answers are those of the pair kernel run on every triangle of the mesh: the same set of
/// touching triangles, the same contacts, the same deepest one. Degenerate (zero-area)
/// triangles are not in the tree (TriangleMesh::is_usable) and are never reported. A shape with
/// a NaN coordinate, or a negative or NaN radius or half extent, touches nothing.

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "hitscan/geometry/contact.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"

namespace hitscan {

/// A touching triangle of the mesh and the shape's contact with it.
struct MeshContact {
  std::uint32_t triangle = kNoPrimitive;
  Contactf contact{};

  explicit operator bool() const { return contact.touching; }
};

/// Whether the shape touches any triangle within the tolerance (overlap() of the pair kernel);
/// stops at the first one found.
bool overlap(const Spheref& a, const MeshBvh& b, ContactTolerancef tol = {});
bool overlap(const Capsulef& a, const MeshBvh& b, ContactTolerancef tol = {});
bool overlap(const Obbf& a, const MeshBvh& b, ContactTolerancef tol = {});

/// The deepest contact (largest depth; the lowest triangle index on a tie) among the triangles
/// within max(margin, 0) + tolerance of the shape. None: touching = false, triangle = kNoPrimitive.
MeshContact contact(const Spheref& a, const MeshBvh& b, float margin = 0, ContactTolerancef tol = {});
MeshContact contact(const Capsulef& a, const MeshBvh& b, float margin = 0, ContactTolerancef tol = {});
MeshContact contact(const Obbf& a, const MeshBvh& b, float margin = 0, ContactTolerancef tol = {});

/// Every triangle within max(margin, 0) + tolerance of the shape, into `out` (cleared first),
/// deepest first (then by triangle index). Returns the count.
std::size_t contact_all(const Spheref& a, const MeshBvh& b, std::vector<MeshContact>& out, float margin = 0,
                        ContactTolerancef tol = {});
std::size_t contact_all(const Capsulef& a, const MeshBvh& b, std::vector<MeshContact>& out, float margin = 0,
                        ContactTolerancef tol = {});
std::size_t contact_all(const Obbf& a, const MeshBvh& b, std::vector<MeshContact>& out, float margin = 0,
                        ContactTolerancef tol = {});

/// The same into a caller's buffer, without allocating: writes the deepest min(total,
/// buffer.size()) contacts in the order above (the leading part of what the vector form gives)
/// and returns how many it wrote; `total`, when given, receives how many triangles touch.
std::size_t contact_all(const Spheref& a, const MeshBvh& b, std::span<MeshContact> buffer, float margin = 0,
                        ContactTolerancef tol = {}, std::size_t* total = nullptr);
std::size_t contact_all(const Capsulef& a, const MeshBvh& b, std::span<MeshContact> buffer, float margin = 0,
                        ContactTolerancef tol = {}, std::size_t* total = nullptr);
std::size_t contact_all(const Obbf& a, const MeshBvh& b, std::span<MeshContact> buffer, float margin = 0,
                        ContactTolerancef tol = {}, std::size_t* total = nullptr);

}  // namespace hitscan
