// load_mesh(): the format pre-checks (mesh_format_checks), assimp's import (mesh_import), in a
// child process unless the options say otherwise (isolated_import), then TriangleMesh::make.

#include "hitscan/io/mesh_loader.hpp"

#include <optional>
#include <utility>

#include "isolated_import.hpp"
#include "mesh_format_checks.hpp"
#include "mesh_import.hpp"
#include "mesh_load_errors.hpp"

namespace hitscan::io {
namespace detail {
namespace {

Result<TriangleMesh> load_mesh_unguarded(const std::string& path, const MeshLoadOptions& options,
                                         MeshLoadReport& report) {
  if (Status status = check_readable(path); !status.ok()) return status;
  if (Status status = check_ply(path); !status.ok()) return status;
  std::optional<OffCounts> off_counts;
  if (Status status = check_off_header(path, off_counts); !status.ok()) return status;
  if (Status status = check_glb_header(path); !status.ok()) return status;
  if (Status status = check_stl_size(path); !status.ok()) return status;

  std::optional<Result<Imported>> imported;
  if (options.isolate_importer) imported = import_isolated(path, options, off_counts, report);
  if (!imported) imported = import_file(path, options, off_counts, report, [] {});  // load_mesh guards it
  if (!imported->ok()) return imported->status();
  Imported& parts = imported->value();
  Result<TriangleMesh> mesh =
      TriangleMesh::make(std::move(parts.positions), std::move(parts.triangles), std::move(parts.normals));
  if (!mesh.ok()) {
    const Status& status = mesh.status();
    // A file's bad coordinates are malformed contents, not a caller's bad argument.
    return fail(status.code() == StatusCode::out_of_memory ? StatusCode::out_of_memory : StatusCode::parse_error,
                path, status.message());
  }
  return mesh;
}

}  // namespace
}  // namespace detail

Result<TriangleMesh> load_mesh(const std::string& path, const MeshLoadOptions& options, MeshLoadReport* report) {
  MeshLoadReport local;
  MeshLoadReport& counts = report != nullptr ? *report : local;
  counts = {};
  Result<TriangleMesh> mesh =
      detail::guarded(path, [&] { return detail::load_mesh_unguarded(path, options, counts); });
  if (!mesh.ok()) counts = {};
  return mesh;
}

}  // namespace hitscan::io
