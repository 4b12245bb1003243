// hitscan.io.load_mesh: hitscan::io::load_mesh from Python, its mesh as numpy arrays.

#include "mesh_io.hpp"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "hitscan/io/mesh_loader.hpp"

namespace hitscan::python {
namespace {

using namespace pybind11::literals;

// A loaded mesh, the file's or one part of it: its arrays and what the loader reported of it.
// Read-only; `vertices` and `triangles` are the names add_triangles(mesh) looks for.
struct LoadedMesh {
  py::array vertices, triangles, normals;
  io::MeshLoadReport report;
  std::string name, node_name;  // a part's; empty for the whole file
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

// The whole file's mesh.
LoadedMesh whole_mesh(const TriangleMesh& loaded, io::MeshLoadReport report) {
  LoadedMesh out;
  out.vertices = rows_of_three<float>(loaded.positions().data(), loaded.vertex_count());
  out.triangles = rows_of_three<std::uint32_t>(loaded.triangles().data(), loaded.triangle_count());
  out.normals = rows_of_three<float>(loaded.normals().data(), loaded.normals().size());
  out.report = std::move(report);
  return out;
}

// One part as a mesh of its own: its vertices, and its triangles indexing them from 0.
LoadedMesh part_mesh(const TriangleMesh& loaded, const io::MeshPartRange& range) {
  LoadedMesh out;
  out.vertices = rows_of_three<float>(loaded.positions().data() + range.first_vertex, range.vertex_count);
  out.normals = rows_of_three<float>(loaded.normals().empty() ? nullptr : loaded.normals().data() + range.first_vertex,
                                     loaded.normals().empty() ? 0 : range.vertex_count);
  py::array_t<std::uint32_t> triangles({static_cast<py::ssize_t>(range.triangle_count), py::ssize_t{3}});
  const auto base = static_cast<std::uint32_t>(range.first_vertex);
  std::uint32_t* row = triangles.mutable_data();
  for (std::size_t t = range.first_triangle; t < range.first_triangle + range.triangle_count; ++t) {
    for (const std::uint32_t v : loaded.triangles()[t]) *row++ = v - base;
  }
  out.triangles = std::move(triangles);
  io::MeshPartRange own = range;
  own.first_vertex = 0;
  own.first_triangle = 0;
  out.report = {range.polygons, range.points, range.lines, 1, {own}};
  out.name = range.name;
  out.node_name = range.node_name;
  return out;
}

py::object load(py::handle path_arg, bool read_normals, bool apply_node_transforms, bool isolate_importer,
                double time_limit_seconds, bool split_parts) {
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
  if (!split_parts) return py::cast(whole_mesh(loaded, std::move(report)));
  py::list parts;
  for (const io::MeshPartRange& range : report.part_ranges) parts.append(part_mesh(loaded, range));
  return parts;
}

}  // namespace

void bind_mesh_io(py::module_& module) {
  py::module_ io = module.def_submodule("io", "Meshes read from files.");
  py::class_<io::MeshPartRange> range(io, "PartRange", R"(Where one part of a file lies in the Mesh load_mesh() read.

Its vertices are mesh.vertices[first_vertex:first_vertex + vertex_count], its triangles
mesh.triangles[first_triangle:first_triangle + triangle_count], which use only its vertices.
name: the part's own name in the file (OBJ object, STL solid, glTF mesh; may be empty or repeated);
node_name: the scene node that placed it (empty with apply_node_transforms=False). polygons,
points, lines: the part's share of the Mesh's counts.)");
  range.attr("__module__") = "hitscan.io";
  range.def_readonly("name", &io::MeshPartRange::name, "The part's name in the file (assimp's mesh name).");
  range.def_readonly("node_name", &io::MeshPartRange::node_name,
                     "The name of the scene node that placed the part; empty without node transforms.");
  range.def_readonly("first_vertex", &io::MeshPartRange::first_vertex, "Index of the part's first vertex.");
  range.def_readonly("vertex_count", &io::MeshPartRange::vertex_count, "Number of the part's vertices.");
  range.def_readonly("first_triangle", &io::MeshPartRange::first_triangle, "Index of the part's first triangle.");
  range.def_readonly("triangle_count", &io::MeshPartRange::triangle_count, "Number of the part's triangles.");
  range.def_readonly("polygons", &io::MeshPartRange::polygons, "The part's faces of 3 or more corners.");
  range.def_readonly("points", &io::MeshPartRange::points, "The part's faces of one corner, skipped.");
  range.def_readonly("lines", &io::MeshPartRange::lines, "The part's faces of two corners, skipped.");
  range.def("__repr__", [](const io::MeshPartRange& r) {
    return "<hitscan.io.PartRange '" + r.name + "' vertices " + std::to_string(r.first_vertex) + "+" +
           std::to_string(r.vertex_count) + ", triangles " + std::to_string(r.first_triangle) + "+" +
           std::to_string(r.triangle_count) + ">";
  });

  py::class_<LoadedMesh> mesh(io, "Mesh", R"(A triangle mesh read by load_mesh(), ready for Scene.add_triangles(mesh).

vertices: float32 (V, 3); triangles: uint32 (F, 3), in the file's face order; normals: float32
(V, 3) unit per-vertex normals (zero where the file's is zero or invalid), or (0, 3) when the file
has none or read_normals was False. polygons, points, lines, parts: the loader's counts of faces
of 3 or more corners, of skipped point and line faces, and of the parts concatenated;
part_ranges: a PartRange per part, in order. name, node_name: a part's (split_parts=True), empty
for a whole file.)");
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
  mesh.def_property_readonly(
      "part_ranges",
      [](const LoadedMesh& m) {
        py::list ranges;
        for (const io::MeshPartRange& r : m.report.part_ranges) ranges.append(r);
        return ranges;
      },
      "A PartRange per part, in the order the parts are concatenated: where each lies in the arrays.");
  mesh.def_readonly("name", &LoadedMesh::name, "The part's name in the file (split_parts=True); empty for a whole file.");
  mesh.def_readonly("node_name", &LoadedMesh::node_name,
                    "The name of the scene node that placed the part (split_parts=True with node transforms); else empty.");
  mesh.def("__repr__", [](const LoadedMesh& m) {
    return "<hitscan.io.Mesh " + (m.name.empty() ? std::string() : "'" + m.name + "' ") + std::to_string(m.vertices.shape(0)) + " vertices, " +
           std::to_string(m.triangles.shape(0)) + " triangles, " + std::to_string(m.report.parts) + " parts>";
  });

  io.def("load_mesh", &load, "path"_a, py::kw_only(), "read_normals"_a = true, "apply_node_transforms"_a = true,
         "isolate_importer"_a = true, "time_limit_seconds"_a = 0.0, "split_parts"_a = false,
         R"(load_mesh(path, *, read_normals=True, apply_node_transforms=True, isolate_importer=True, time_limit_seconds=0.0, split_parts=False)
--

Reads the triangle mesh in the file at path (str or os.PathLike) with assimp, exactly as the C++
hitscan::io::load_mesh: OBJ, PLY, STL, OFF, glTF/GLB and every other format assimp imports.
Returns a hitscan.io.Mesh, which Scene.add_triangles(mesh) takes as it is; with split_parts=True,
a list of Meshes, one per part of the file in the order below, each with its own vertices (its
triangles indexing them from 0) and its name.

The triangles keep the file's face order; a face of k corners gives k - 2 triangles (concave
faces are ear clipped); points and lines are skipped and counted. A file of several parts gives
them one after the other in one mesh, whose part_ranges say where each lies (OBJ objects, groups
and material runs, STL solids, glTF primitives, in the file's order; with node transforms, in a
depth-first walk of the scene graph, once per placement). read_normals: read the file's
per-vertex normals when every part has them. apply_node_transforms: place each part where the
file's scene graph puts it (False: each part once, in its own coordinates). isolate_importer: run assimp's reader in a child process,
so that a reader crashing on a damaged file raises ValueError instead of ending Python.
time_limit_seconds: with isolate_importer, stop a reader still running after this long (0: no
limit). split_parts: return the parts as separate meshes, which concatenated (their vertices, and
their triangles offset by the vertices before them) are the mesh split_parts=False gives; a part
of points or lines only holds no triangle.

Raises OSError when the file cannot be opened or is not a regular file, ValueError when it cannot
be read as a mesh or holds no triangle, MemoryError when memory runs out; the message is the C++
loader's, beginning with the path. The GIL is released while the file is read.)");
}

}  // namespace hitscan::python
