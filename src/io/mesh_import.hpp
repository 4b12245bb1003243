#pragma once
// assimp's import of a mesh file: the reader run, the scene's parts placed, checked and
// triangulated into one mesh's arrays. Private to the io layer.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hitscan/io/mesh_loader.hpp"
#include "mesh_format_checks.hpp"

namespace hitscan::io::detail {

/// What the importer read, as load_mesh hands it to TriangleMesh::make.
struct Imported {
  std::vector<Vec3f> positions;
  std::vector<Vec3f> normals;
  std::vector<TriangleMesh::Indices> triangles;
};

/// assimp's reading of the file and the parts it gives, made into one mesh's arrays, in the order
/// and with the errors load_mesh() describes; `report` receives the counts. `off_counts` are
/// check_off_header's, for check_off_face_count. `on_read` runs once assimp's reader has
/// returned. Exceptions are let out (see guarded).
Result<Imported> import_file(const std::string& path, const MeshLoadOptions& options,
                             const std::optional<OffCounts>& off_counts, MeshLoadReport& report,
                             const std::function<void()>& on_read);

}  // namespace hitscan::io::detail
