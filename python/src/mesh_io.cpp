// hitscan.io.load_mesh: hitscan::io::load_mesh from Python, its mesh as numpy arrays.

#include "mesh_io.hpp"

#include <cstring>
#include <optional>
#include <string>

#include "arrays.hpp"
#include "hitscan/io/mesh_loader.hpp"

namespace hitscan::python {
namespace {

using namespace pybind11::literals;

// A loaded mesh: its arrays and what the loader reported. Read-only; `vertices` and `triangles`
// are the names add_triangles(mesh) looks for.
struct LoadedMesh {
  py::array vertices, triangles, normals;
  io::MeshLoadReport report;
};

// An array of `rows` rows of 3 values copied from `data`.
template <class T, class Row>
py::array_t<T> rows_of_three(const Row* data, std::size_t rows) {
  static_assert(sizeof(Row) == 3 * sizeof(T));
  py::array_t<T> out({static_cast<py::ssize_t>(rows), py::ssize_t{3}});
  if (rows != 0) std::memcpy(out.mutable_data(), data, rows * sizeof(Row));
  return out;
}

// The loader's failure as the Python exception of its kind, with the loader's message (which
// begins with the path).
[[noreturn]] void raise_load_error(const Status& status) {
  PyObject* type = status.code() == StatusCode::io_error        ? PyExc_OSError
                   : status.code() == StatusCode::out_of_memory ? PyExc_MemoryError
                                                                : PyExc_ValueError;
  PyErr_SetString(type, status.message().c_str());
  throw py::error_already_set();
}

// A str or os.PathLike path (TypeError for anything else, bytes included).
std::string path_argument(py::handle path) {
  py::object text = py::module_::import("os").attr("fspath")(path);
  if (!py::isinstance<py::str>(text)) throw py::type_error("path must be a str or an os.PathLike of str");
  return text.cast<std::string>();
}

LoadedMesh load(py::handle path_arg, bool read_normals, bool apply_node_transforms, bool isolate_importer,
                double time_limit_seconds) {
  if (!(time_limit_seconds >= 0.0)) throw py::value_error("time_limit_seconds must be 0 (no limit) or positive");
  const std::string path = path_argument(path_arg);
  io::MeshLoadOptions options;
  options.read_normals = read_normals;
  options.apply_node_transforms = apply_node_transforms;
  options.isolate_importer = isolate_importer;
  options.time_limit_seconds = time_limit_seconds;
  io::MeshLoadReport report;
  std::optional<Result<TriangleMesh>> mesh;
  {
    py::gil_scoped_release release;
    mesh.emplace(io::load_mesh(path, options, &report));
  }
  if (!mesh->ok()) raise_load_error(mesh->status());
  const TriangleMesh& loaded = mesh->value();
  LoadedMesh out;
  out.vertices = rows_of_three<float>(loaded.positions().data(), loaded.vertex_count());
  out.triangles = rows_of_three<std::uint32_t>(loaded.triangles().data(), loaded.triangle_count());
  out.normals = rows_of_three<float>(loaded.normals().data(), loaded.normals().size());
  out.report = report;
  return out;
}

}  // namespace

void bind_mesh_io(py::module_& module) {
  py::module_ io = module.def_submodule("io", "Meshes read from files.");
  py::class_<LoadedMesh> mesh(io, "Mesh", R"(A triangle mesh read by load_mesh(), ready for Scene.add_triangles(mesh).

vertices: float32 (V, 3); triangles: uint32 (F, 3), in the file's face order; normals: float32
(V, 3) unit per-vertex normals (zero where the file's is zero or invalid), or (0, 3) when the file
has none or read_normals was False. polygons, points, lines, parts: the loader's counts of faces
of 3 or more corners, of skipped point and line faces, and of the parts concatenated.)");
  mesh.attr("__module__") = "hitscan.io";
  mesh.def_readonly("vertices", &LoadedMesh::vertices, "float32 (V, 3): vertex positions.");
  mesh.def_readonly("triangles", &LoadedMesh::triangles, "uint32 (F, 3): vertex indices of each triangle.");
  mesh.def_readonly("normals", &LoadedMesh::normals, "float32 (V, 3) per-vertex normals, or (0, 3) without normals.");
  mesh.def_property_readonly("polygons", [](const LoadedMesh& m) { return m.report.polygons; },
                             "Faces of 3 or more corners; one of k corners gave k - 2 triangles.");
  mesh.def_property_readonly("points", [](const LoadedMesh& m) { return m.report.points; },
                             "Faces of one corner, skipped.");
  mesh.def_property_readonly("lines", [](const LoadedMesh& m) { return m.report.lines; },
                             "Faces of two corners (line segments), skipped.");
  mesh.def_property_readonly("parts", [](const LoadedMesh& m) { return m.report.parts; },
                             "Parts of the file concatenated (objects, groups, solids, primitives, placements).");
  mesh.def("__repr__", [](const LoadedMesh& m) {
    return "<hitscan.io.Mesh " + std::to_string(m.vertices.shape(0)) + " vertices, " +
           std::to_string(m.triangles.shape(0)) + " triangles, " + std::to_string(m.report.parts) + " parts>";
  });

  io.def("load_mesh", &load, "path"_a, py::kw_only(), "read_normals"_a = true, "apply_node_transforms"_a = true,
         "isolate_importer"_a = true, "time_limit_seconds"_a = 0.0,
         R"(load_mesh(path, *, read_normals=True, apply_node_transforms=True, isolate_importer=True, time_limit_seconds=0.0)
--

Reads the triangle mesh in the file at path (str or os.PathLike) with assimp, exactly as the C++
hitscan::io::load_mesh: OBJ, PLY, STL, OFF, glTF/GLB and every other format assimp imports.
Returns a hitscan.io.Mesh, which Scene.add_triangles(mesh) takes as it is.

The triangles keep the file's face order; a face of k corners gives k - 2 triangles (concave
faces are ear clipped); points and lines are skipped and counted. A file of several parts gives
them one after the other in one mesh. read_normals: read the file's per-vertex normals when every
part has them. apply_node_transforms: place each part where the file's scene graph puts it (False:
each part once, in its own coordinates). isolate_importer: run assimp's reader in a child process,
so that a reader crashing on a damaged file raises ValueError instead of ending Python.
time_limit_seconds: with isolate_importer, stop a reader still running after this long (0: no
limit).

Raises OSError when the file cannot be opened or is not a regular file, ValueError when it cannot
be read as a mesh or holds no triangle, MemoryError when memory runs out; the message is the C++
loader's, beginning with the path. The GIL is released while the file is read.)");
}

}  // namespace hitscan::python
