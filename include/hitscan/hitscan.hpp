/// hitscan: the whole C++ API of the hitscan::hitscan library in one header, for programs that
/// would rather not pick headers one by one. Each header it includes also compiles on its own.
///
/// Not included: the AR layer (`hitscan/ar/*.hpp`: route draping, placement, smoothing, occlusion),
/// which is the separate hitscan::ar library; the io layer (`hitscan/io/*.hpp`: mesh files through
/// assimp, ray tables, images), which is the separate hitscan::io library; and the C API
/// (`hitscan/hitscan.h`).
#pragma once

#include "hitscan/assert.hpp"
#include "hitscan/executor.hpp"
#include "hitscan/status.hpp"
#include "hitscan/version.hpp"

// Math: vectors, rotations, transforms, boxes.
#include "hitscan/math/aabb.hpp"
#include "hitscan/math/mat3.hpp"
#include "hitscan/math/quat.hpp"
#include "hitscan/math/transform.hpp"
#include "hitscan/math/vec3.hpp"

// Geometry: the analytic shapes and their kernels.
#include "hitscan/geometry/closest_point.hpp"
#include "hitscan/geometry/contact.hpp"
#include "hitscan/geometry/contact_box_box.hpp"
#include "hitscan/geometry/contact_box_pack.hpp"
#include "hitscan/geometry/contact_capsule_box.hpp"
#include "hitscan/geometry/contact_round.hpp"
#include "hitscan/geometry/contact_sphere_box.hpp"
#include "hitscan/geometry/contact_triangle.hpp"
#include "hitscan/geometry/convex_hull.hpp"
#include "hitscan/geometry/gjk_epa.hpp"
#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/ray_aabb.hpp"
#include "hitscan/geometry/ray_capsule.hpp"
#include "hitscan/geometry/ray_cylinder.hpp"
#include "hitscan/geometry/ray_obb.hpp"
#include "hitscan/geometry/ray_plane.hpp"
#include "hitscan/geometry/ray_polygon.hpp"
#include "hitscan/geometry/ray_sphere.hpp"
#include "hitscan/geometry/ray_transformed.hpp"
#include "hitscan/geometry/ray_triangle.hpp"
#include "hitscan/geometry/shapes.hpp"
#include "hitscan/geometry/sweep.hpp"
#include "hitscan/geometry/sweep_plane.hpp"

// Broadphases and trees over boxes.
#include "hitscan/bvh/broad_phase.hpp"
#include "hitscan/bvh/build.hpp"
#include "hitscan/bvh/dynamic_tree.hpp"
#include "hitscan/bvh/octree.hpp"
#include "hitscan/bvh/uniform_grid.hpp"

// Triangle meshes.
#include "hitscan/mesh/mesh_bvh.hpp"
#include "hitscan/mesh/mesh_contact.hpp"
#include "hitscan/mesh/mesh_sweep.hpp"
#include "hitscan/mesh/triangle_mesh.hpp"
#include "hitscan/mesh/winding_number.hpp"

// The scene and its queries.
#include "hitscan/query/async_batch.hpp"
#include "hitscan/query/collider.hpp"
#include "hitscan/query/overlap.hpp"
#include "hitscan/query/query_hit.hpp"
#include "hitscan/query/scene.hpp"
