#pragma once
/// `hitscan info MESH`: what a mesh file holds — its size, bounds, degenerate triangles, and whether
/// it is a closed surface — as `key: value` lines.

#include <cstddef>
#include <ostream>
#include <span>
#include <string>

#include "hitscan/mesh/triangle_mesh.hpp"
#include "tools/command.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace hitscan::tools {

/// How a mesh's triangles meet along their edges. Vertices at exactly the same position (equal
/// coordinates, -0 equal to +0) count as one: OBJ and STL files give every face corner a vertex of
/// its own, and their edges would otherwise all be boundaries. Degenerate (zero-area) triangles
/// are left out, as the BVH leaves them out; after welding, every other triangle has three
/// distinct corners.
struct MeshTopology {
  /// Distinct positions among the vertices that triangles refer to.
  std::size_t welded_vertices = 0;
  /// Distinct unordered pairs of welded vertices that are a side of a non-degenerate triangle.
  std::size_t edges = 0;
  /// Edges of exactly one triangle.
  std::size_t boundary_edges = 0;
  /// Edges of three or more triangles.
  std::size_t non_manifold_edges = 0;
  /// Edges of exactly two triangles that run along it the same way, so that the two disagree on
  /// which side is the front.
  std::size_t misoriented_edges = 0;

  /// At least one non-degenerate triangle, no boundary and no non-manifold edge (orientation is
  /// reported apart: a closed surface may be wound inconsistently).
  bool closed() const { return edges > 0 && boundary_edges == 0 && non_manifold_edges == 0; }
  bool consistently_oriented() const { return misoriented_edges == 0; }
};

/// Counts as MeshTopology describes, in time linear in the triangle count (hashing). Fails only
/// with out_of_memory.
Result<MeshTopology> mesh_topology(const TriangleMesh& mesh);

struct InfoOptions {
  std::string mesh;
  /// With --bvh-boxes: an OBJ file to write the BVH's node boxes to, as a wireframe (8 vertices
  /// and 12 line elements a box), the boxes of the children bvh_depth levels below the root
  /// (MeshBvh::node_boxes); one more line is then printed:  bvh boxes: <n> at depth <d>, <file>
  std::string bvh_boxes;
  int bvh_depth = 2;
};

/// Writes `boxes` to `path` as a wireframe OBJ. Fails with io_error naming the file and why:
///   cannot write '<path>': <errno text>                (e.g. No space left on device)
Status write_box_wireframe(const std::string& path, std::span<const Aabbf> boxes);

/// Registers `info` on app; when the command line selects it, it runs run_info with context's
/// streams and stores the exit code in context, which must outlive app's parse.
void add_info_command(CLI::App& app, CommandContext& context);

/// Loads options.mesh with io::load_mesh and prints, in this order, one line each:
///   file: <path as given>
///   triangles: <n>                   (polygons fanned into triangles)
///   vertices: <n>                    (as loaded: OBJ and STL have one per face corner)
///   welded vertices: <n>             (MeshTopology::welded_vertices)
///   unreferenced vertices: <n>
///   degenerate triangles: <n>        (zero area, exactly: TriangleMesh's test)
///   bounds min: <x> <y> <z>          (of the vertices triangles refer to; each number the
///   bounds max: <x> <y> <z>           shortest text that reads back as the same float)
///   edges: <n>
///   boundary edges: <n>
///   non-manifold edges: <n>
///   closed: yes|no
///   consistently oriented: yes|no
///   bvh nodes: <n>                   (MeshBvh with the default build settings)
///   bvh bytes per triangle: <x.y>    (MeshBvh::memory_bytes over the triangle count)
/// Returns kExitSuccess; kExitUsage (the message on err names the file) when the file is missing,
/// unreadable or not a mesh; kExitFailure when memory runs out, the tree cannot be built, or the
/// --bvh-boxes file cannot be written, which is checked (check_output_file) before the mesh is
/// loaded.
int run_info(const InfoOptions& options, std::ostream& out, std::ostream& err);

}  // namespace hitscan::tools
