#pragma once
// The `io` submodule of hitscan._hitscan: meshes read from files by hitscan::io::load_mesh.

#include <pybind11/pybind11.h>

namespace hitscan::python {

/// Adds the submodule `io` (load_mesh and its Mesh) to `module`.
void bind_mesh_io(pybind11::module_& module);

}  // namespace hitscan::python
