#pragma once
// Quake 3 levels (IBSP version 46, as id Tech 3 and OpenArena write them) as triangle meshes: what
// a shooter's rays meet. Faces of type 1 (polygons) and 3 (meshes) give the triangles their mesh
// vertices list; type 2 faces, biquadratic Bezier patches, are tessellated into a fixed grid per 3x3
// block of control points; billboards (type 4) are dropped, and so is every face whose shader is
// a sky (its name holds "sky", or its surface flags SURF_SKY), since shots leave the level there.
// Each triangle is wound counter-clockwise seen from the side the file's vertex normals point
// to, the side a player sees, so that a floor's geometric normal points up (+z, Quake's up).
// Units are Quake's (a player stands 56 tall).

#include <string>

#include "hitscan/mesh/triangle_mesh.hpp"

namespace hitscan::bench {

/// Segments along each side of a patch's 3x3 block: (4 + 1)^2 vertices and 32 triangles per block,
/// about what Quake 3's renderer makes at its default r_subdivisions.
inline constexpr int kPatchTessellation = 4;

/// Reads the .bsp file at `path`; throws std::runtime_error with the reason when it cannot.
TriangleMesh load_quake3_level(const std::string& path);

}  // namespace hitscan::bench
