#pragma once
// import_file run in a child process (MeshLoadOptions::isolate_importer), and the answer the
// child sends back through its pipe. Private to the io layer.

#include <optional>
#include <string>

#include "mesh_import.hpp"

namespace hitscan::io::detail {

/// import_file in a child process: a crash or hang of assimp's readers ends the child, and
/// the load fails with a message that says so. Nothing when no child could be made.
std::optional<Result<Imported>> import_isolated(const std::string& path, const MeshLoadOptions& options,
                                                const std::optional<OffCounts>& off_counts, MeshLoadReport& report);

}  // namespace hitscan::io::detail
