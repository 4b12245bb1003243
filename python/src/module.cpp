// The extension module `hitscan._hitscan` behind the `hitscan` package: the Scene class and its
// documentation.
//
// Every docstring begins with its signature in CPython's text-signature form ("name(args)\n--\n\n")
// and pybind11's generated signatures are off: CPython reads the first line as __text_signature__,
// which is what inspect.signature() and help() show for a built-in function. The arguments' types
// are in the package's stubs (__init__.pyi).

#include <cmath>
#include <limits>
#include <string>

#include "hitscan/ar/drape.hpp"
#include "mesh_io.hpp"
#include "pinhole.hpp"
#include "py_scene.hpp"

namespace hitscan::python {
namespace {

using namespace pybind11::literals;

constexpr float kInf = std::numeric_limits<float>::infinity();

// A rotation given as a 3x3 matrix (world = R @ local), checked orthonormal and right-handed.
Mat3f rotation_argument(py::handle object) {
  const FloatRows rows = float_rows(object, "rotation", 3, 2, 2);
  if (rows.rows != 3) throw py::value_error("rotation must have shape (3, 3)");
  Mat3f m = Mat3f::from_columns({rows.row(0)[0], rows.row(1)[0], rows.row(2)[0]},
                                {rows.row(0)[1], rows.row(1)[1], rows.row(2)[1]},
                                {rows.row(0)[2], rows.row(1)[2], rows.row(2)[2]});
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const float expected = i == j ? 1.0f : 0.0f;
      const float product = dot(m.col[i], m.col[j]);
      if (!(std::fabs(product - expected) <= 1e-4f)) throw py::value_error("rotation must be orthonormal");
    }
  }
  if (!(m.determinant() > 0.0f)) throw py::value_error("rotation must be a rotation (determinant +1), not a reflection");
  return m;
}

// Radii are checked here as well as by the scene, which lets an infinite one through.
float radius_argument(float radius) {
  if (!std::isfinite(radius) || radius < 0.0f) {
    throw py::value_error("radius must be finite and not negative, got " + std::to_string(radius));
  }
  return radius;
}

constexpr const char* kRaysDoc = R"(rays: float32 array of shape (..., 6), rows [ox, oy, oz, dx, dy, dz]; the
    direction need not be unit length. float64 and float16 arrays are converted to float32, as
    Open3D converts them, and so are other sequences; an array of another dtype raises TypeError,
    another shape ValueError.)";

constexpr const char* kPointsDoc = R"(query_points: float32 array of shape (..., 3) (float64 and float16 are converted); the
    results are shaped like it without its last dimension.)";

// A docstring that CPython reads the signature from (see the file comment).
std::string signed_doc(const char* signature, const std::string& text) {
  return std::string(signature) + "\n--\n\n" + text;
}

// Open3D's add_triangles(mesh): a tensor TriangleMesh, or anything with vertices and triangles
// arrays (hitscan.io.Mesh, Open3D's legacy TriangleMesh).
std::uint32_t add_mesh(PyScene& scene, py::handle mesh) {
  if (py::hasattr(mesh, "vertex") && py::hasattr(mesh, "triangle")) {  // open3d.t.geometry.TriangleMesh
    return scene.add_triangles(mesh.attr("vertex").attr("positions"), mesh.attr("triangle").attr("indices"));
  }
  if (py::hasattr(mesh, "vertices") && py::hasattr(mesh, "triangles")) {
    return scene.add_triangles(mesh.attr("vertices"), mesh.attr("triangles"));
  }
  throw py::type_error("add_triangles() takes vertex_positions and triangle_indices, or a mesh (hitscan.io.Mesh or an "
                       "Open3D TriangleMesh); got a " + py::str(py::type::of(mesh).attr("__name__")).cast<std::string>());
}

std::string rays_doc(const char* signature, const char* text) {
  return signed_doc(signature, std::string(text) + "\n\n" + kRaysDoc);
}
std::string points_doc(const char* signature, const char* text) {
  return signed_doc(signature, std::string(text) + "\n\n" + kPointsDoc);
}

}  // namespace
}  // namespace hitscan::python

PYBIND11_MODULE(_hitscan, m) {
  using namespace hitscan;
  using namespace hitscan::python;
  using namespace pybind11::literals;
  py::options options;
  options.disable_function_signatures();
  m.doc() = "The compiled core of the hitscan package; import hitscan instead.";
  m.attr("INVALID_ID") = py::int_(kInvalidId);
  m.attr("DRAPE_ON_SURFACE") = py::int_(static_cast<int>(DrapeStatus::on_surface));
  m.attr("DRAPE_GAP_BRIDGED") = py::int_(static_cast<int>(DrapeStatus::gap_bridged));
  m.attr("DRAPE_NO_SURFACE") = py::int_(static_cast<int>(DrapeStatus::no_surface));
  m.attr("__version__") = HITSCAN_PYTHON_VERSION;

  py::class_<PyScene> scene(m, "Scene", R"(A scene of triangle meshes and analytic shapes.

Geometries are numbered 0, 1, 2, ... in the order they are added (the geometry ids of every
result). Additions take effect at commit(), which every query calls first when something was
added. Queries are safe from several Python threads at once; each sees one committed state.
Ctrl-C stops a long query with KeyboardInterrupt.)");
  scene.attr("__module__") = "hitscan";
  scene.def(py::init<int>(), "nthreads"_a = 0,
            signed_doc("__init__(self, nthreads=0)",
                       "Creates an empty scene. nthreads: threads for building mesh trees (0: all cores).").c_str());
  scene.def_property_readonly_static("INVALID_ID", [](py::object) { return kInvalidId; },
                                     "The geometry and primitive id of a miss: 4294967295, as in Open3D.");
  scene.def_property_readonly("geometry_count", &PyScene::geometry_count, "Geometries added so far.");

  scene.def("add_triangles", [](PyScene& self, py::object vertex_positions, py::object triangle_indices, py::object mesh) {
    if (!mesh.is_none()) {
      if (!vertex_positions.is_none() || !triangle_indices.is_none()) {
        throw py::type_error("add_triangles() takes vertex_positions and triangle_indices, or mesh, not both");
      }
      return add_mesh(self, mesh);
    }
    if (triangle_indices.is_none()) return add_mesh(self, vertex_positions);  // add_triangles(mesh), positionally
    if (vertex_positions.is_none()) throw py::type_error("add_triangles() is missing vertex_positions");
    return self.add_triangles(vertex_positions, triangle_indices);
  }, "vertex_positions"_a = py::none(), "triangle_indices"_a = py::none(), "mesh"_a = py::none(),
     signed_doc("add_triangles(self, vertex_positions=None, triangle_indices=None, mesh=None)",
                R"(Adds a triangle mesh; returns its geometry id. Open3D's two forms:

add_triangles(vertex_positions, triangle_indices): vertex_positions float32 (V, 3) (float64 and
float16 are converted); triangle_indices integer (F, 3) (uint32 as in Open3D, or any integer
dtype), counter-clockwise seen from outside for the winding-number sign.
add_triangles(mesh): an Open3D TriangleMesh (tensor or legacy) or a hitscan.io.Mesh, by position
or by keyword.

Indices out of range, or a NaN or infinite coordinate in a vertex that a triangle uses, raise
ValueError. Zero-area triangles are kept (their indices stay valid) but never hit. An empty mesh is
allowed.)").c_str());
  scene.def("add_sphere", [](PyScene& self, py::handle center, float radius) {
    return self.add_shape(Spheref{vec3_argument(center, "center"), radius_argument(radius)}, kLayerSolid, "add_sphere");
  }, "center"_a, "radius"_a, signed_doc("add_sphere(self, center, radius)",
     "Adds a solid sphere; returns its geometry id. ValueError for a negative, NaN or infinite radius.").c_str());
  scene.def("add_box", [](PyScene& self, py::handle center, py::handle half_extents, py::handle rotation) {
    const Mat3f r = rotation.is_none() ? Mat3f::identity() : rotation_argument(rotation);
    return self.add_shape(Obbf{vec3_argument(center, "center"), vec3_argument(half_extents, "half_extents"), r},
                          kLayerSolid, "add_box");
  }, "center"_a, "half_extents"_a, "rotation"_a = py::none(), signed_doc("add_box(self, center, half_extents, rotation=None)",
     "Adds a solid box; rotation (3, 3) maps box axes to the world (world = rotation @ local). Returns its id.").c_str());
  scene.def("add_capsule", [](PyScene& self, py::handle a, py::handle b, float radius) {
    return self.add_shape(Capsulef{vec3_argument(a, "a"), vec3_argument(b, "b"), radius_argument(radius)}, kLayerSolid, "add_capsule");
  }, "a"_a, "b"_a, "radius"_a, signed_doc("add_capsule(self, a, b, radius)",
     "Adds a solid capsule (points within radius of segment a-b); returns its id.").c_str());
  scene.def("add_cylinder", [](PyScene& self, py::handle a, py::handle b, float radius) {
    return self.add_shape(Cylinderf{vec3_argument(a, "a"), vec3_argument(b, "b"), radius_argument(radius)}, kLayerSolid, "add_cylinder");
  }, "a"_a, "b"_a, "radius"_a, signed_doc("add_cylinder(self, a, b, radius)",
     "Adds a solid capped cylinder with axis a-b; returns its id.").c_str());
  scene.def("add_plane", [](PyScene& self, py::handle point, py::handle normal) {
    const Vec3f n = vec3_argument(normal, "normal");
    if (!is_finite(n) || !(length(n) > 0.0f)) throw py::value_error("normal must be finite and non-zero");
    return self.add_shape(Planef::from_point_normal(vec3_argument(point, "point"), n), kLayerSurface, "add_plane");
  }, "point"_a, "normal"_a, signed_doc("add_plane(self, point, normal)",
     "Adds an infinite two-sided plane through point; returns its id.").c_str());
  // Two overloads, as Open3D's: CPython reads the signature of the first; help() shows both.
  scene.def_static("create_rays_pinhole", py::overload_cast<py::handle, py::handle, int, int>(&create_rays_pinhole),
                   "intrinsic_matrix"_a, "extrinsic_matrix"_a, "width_px"_a, "height_px"_a,
                   signed_doc("create_rays_pinhole(intrinsic_matrix, extrinsic_matrix, width_px, height_px)",
                              R"(Rays (height_px, width_px, 6) float32 through the pixel centres (x + 0.5, y + 0.5) of a camera
with intrinsic matrix K (3, 3) and extrinsic matrix (4, 4, world to camera), as Open3D's: origins at
the camera centre, directions R^T K^-1 (x + 0.5, y + 0.5, 1), not normalised.)").c_str());
  scene.def_static("create_rays_pinhole",
                   py::overload_cast<double, py::handle, py::handle, py::handle, int, int>(&create_rays_pinhole),
                   "fov_deg"_a, "center"_a, "eye"_a, "up"_a, "width_px"_a, "height_px"_a,
                   R"(
create_rays_pinhole(fov_deg, center, eye, up, width_px, height_px)

Rays (height_px, width_px, 6) float32 of a pinhole camera at eye looking at center, with a
horizontal field of view of fov_deg degrees: exactly Open3D's RaycastingScene.create_rays_pinhole.)");
  scene.def("commit", &PyScene::commit, signed_doc("commit(self)",
            "Makes the geometry added so far visible to queries (queries do it when due).").c_str());

  scene.def("cast_rays", &PyScene::cast_rays, "rays"_a, "nthreads"_a = 0, rays_doc("cast_rays(self, rays, nthreads=0)", R"(The first hit of each ray.

Returns a dict of numpy arrays, shaped like rays without its last dimension:
  t_hit (float32): distance to the hit in units of the direction's length (origin + t_hit * d is
    the hit point); inf on a miss.
  geometry_ids (uint32): INVALID_ID on a miss.
  primitive_ids (uint32): the triangle's index in its mesh (0 for analytic shapes); INVALID_ID on
    a miss.
  primitive_uvs (float32, (..., 2)): barycentrics u, v with point = (1-u-v) v0 + u v1 + v v2;
    0 on a miss and on analytic shapes.
  primitive_normals (float32, (..., 3)): unit normal of the surface hit, for triangles
    (v1-v0) x (v2-v0) as wound whichever side was hit, outward for solids; 0 on a miss.
Triangles are hit from both sides by a watertight test: a ray through a shared edge or vertex hits
one triangle, never none. A ray with a zero, NaN or infinite direction or origin misses. A ray
starting inside a solid shape hits it at t = 0.)").c_str());
  // 1e309 is how a text signature spells inf: CPython evaluates it as a literal, which overflows.
  scene.def("test_occlusions", &PyScene::test_occlusions, "rays"_a, "tnear"_a = 0.0f, "tfar"_a = kInf, "nthreads"_a = 0,
            rays_doc("test_occlusions(self, rays, tnear=0.0, tfar=1e309, nthreads=0)",
                     R"(Whether anything is hit with t in [tnear, tfar] (in units of the direction's length).

Returns a bool array shaped like rays without its last dimension. tfar < tnear sees nothing;
NaN tnear or tfar raise ValueError; degenerate rays are not occluded.)").c_str());
  scene.def("count_intersections", &PyScene::count_intersections, "rays"_a, "nthreads"_a = 0,
            rays_doc("count_intersections(self, rays, nthreads=0)",
                     R"(How many surfaces each ray crosses (int32, shaped like rays without the last dimension).

Every crossing counts exactly once: a ray through an edge or vertex shared by consistently wound
triangles counts one crossing, so a ray from inside a closed mesh always counts an odd number.
Solid shapes count their entry and exit; a ray starting inside one counts only its exit.)").c_str());
  scene.def("list_intersections", &PyScene::list_intersections, "rays"_a, "nthreads"_a = 0,
            rays_doc("list_intersections(self, rays, nthreads=0)", R"(Every crossing of every ray (the ones count_intersections counts).

Returns a dict of flat arrays over all K crossings, as Open3D's:
  ray_splits (uint32, (N+1,)): the crossings of ray i are [ray_splits[i], ray_splits[i+1]), with N
    the number of rays (rays flattened);
  ray_ids (uint32, (K,)), geometry_ids (uint32), primitive_ids (uint32), primitive_uvs (float32,
    (K, 2)), t_hit (float32, in units of the direction's length).
Unlike Open3D's, each ray's crossings are sorted by t (then geometry and primitive).)").c_str());

  scene.def("compute_closest_points", &PyScene::compute_closest_points, "query_points"_a, "nthreads"_a = 0,
            points_doc("compute_closest_points(self, query_points, nthreads=0)", R"(The nearest surface point of the scene to each query point.

Returns a dict shaped like query_points without the last dimension: points (float32, (..., 3)),
geometry_ids (uint32), primitive_ids (uint32, the triangle index, 0 for analytic shapes),
primitive_uvs (float32, (..., 2), barycentrics of the point), primitive_normals (float32,
(..., 3), the unit normal of the triangle as wound). Solid shapes count by their surface. For an
empty scene or a NaN or infinite query point: points NaN, ids INVALID_ID, uvs and normals 0.)").c_str());
  scene.def("compute_distance", &PyScene::compute_distance, "query_points"_a, "nthreads"_a = 0,
            points_doc("compute_distance(self, query_points, nthreads=0)",
                       R"(Distance from each query point to the nearest surface (float32). inf for an empty scene,
NaN for a NaN or infinite query point.)").c_str());
  scene.def("compute_signed_distance", [](PyScene& self, py::handle points, int nthreads, int nsamples) {
    if (nsamples < 1) throw py::value_error("nsamples must be positive");
    return self.compute_signed_distance(points, nthreads);
  }, "query_points"_a, "nthreads"_a = 0, "nsamples"_a = 1,
     points_doc("compute_signed_distance(self, query_points, nthreads=0, nsamples=1)",
                R"(Distance to the nearest surface, negative inside.

Inside is decided by the generalised winding number (Jacobson et al. 2013, evaluated fast after
Barill et al. 2018), not by ray parity as in Open3D: the winding numbers of all mesh geometries
are summed, plus 1 for each solid shape containing the point, and the point is inside where the
sum is at least 0.5. On a closed mesh this is exact inside/outside; on a mesh that is not watertight
(holes, gaps, flipped patches, several overlapping shells) it stays right where ray parity flips
at every hole. nsamples is accepted for Open3D compatibility and ignored (the winding number
needs no random rays). NaN for a NaN or infinite query point.)").c_str());
  scene.def("compute_occupancy", [](PyScene& self, py::handle points, int nthreads, int nsamples) {
    if (nsamples < 1) throw py::value_error("nsamples must be positive");
    return self.compute_occupancy(points, nthreads);
  }, "query_points"_a, "nthreads"_a = 0, "nsamples"_a = 1,
     points_doc("compute_occupancy(self, query_points, nthreads=0, nsamples=1)",
                R"(1.0 inside, 0.0 outside (float32, as Open3D's).

Inside is decided by the generalised winding number, summed over all mesh geometries plus 1 for
each solid shape containing the point, thresholded at 0.5 -- not by ray parity, so the answer stays
right on meshes that are not watertight. nsamples is accepted for Open3D compatibility and ignored.
NaN for a NaN or infinite query point.)").c_str());
  scene.def("compute_winding_number", &PyScene::winding_number, "query_points"_a, "nthreads"_a = 0,
            points_doc("compute_winding_number(self, query_points, nthreads=0)",
                       R"(The generalised winding number at each query point (float32): the sum over mesh geometries,
plus 1 for each solid shape containing the point. 1 inside a closed outward-wound mesh, 0 outside,
fractional near holes. Accurate to about 1e-3 (Barill et al.'s beta = 2).)").c_str());

  scene.def("sphere_cast", &PyScene::sphere_cast, "origins"_a, "directions"_a, "radius"_a, "max_distance"_a = kInf,
            "nthreads"_a = 0, signed_doc("sphere_cast(self, origins, directions, radius, max_distance=1e309, nthreads=0)",
                                         R"(Moves spheres along directions and reports their first contact.

origins, directions: float32 (..., 3) of the same shape (float64 and float16 are converted),
directions of any non-zero length; radius: a number, or a float array shaped like origins without
its last dimension; max_distance: how far the spheres travel, in world units. Returns a dict of
arrays shaped like origins without its last dimension:
  distance (float32): world distance travelled to the contact, inf on a miss;
  points, normals (float32, (..., 3)): contact point, and contact normal pointing from the
    geometry towards the sphere; 0 on a miss;
  geometry_ids, primitive_ids (uint32): INVALID_ID on a miss (primitive 0 for analytic shapes);
  started_inside (bool): the sphere already touched something at its start (distance 0);
  depth (float32): how deep it was at the start, 0 otherwise.
A zero, NaN or infinite direction, a non-finite origin or a negative or NaN radius is a miss.)").c_str());
  scene.def("overlap_sphere", &PyScene::overlap_sphere, "center"_a, "radius"_a,
            signed_doc("overlap_sphere(self, center, radius)",
                       R"(Geometry ids (uint32 array, ascending) of everything the sphere touches. Meshes are surfaces:
a sphere wholly inside a closed mesh touches none of its triangles. A NaN center or a negative or
NaN radius touches nothing.)").c_str());
  scene.def("drape", &PyScene::drape, "route"_a, "gravity"_a = py::make_tuple(0.0f, 0.0f, -1.0f),
            "camera"_a = py::none(), "nthreads"_a = 0,
            signed_doc("drape(self, route, gravity=(0.0, 0.0, -1.0), camera=None, nthreads=0, **settings)",
                       R"(Lays a route (a 3D polyline) onto the surfaces below it.

route: float32 (N, 3), N >= 2 (float64 and float16 are converted). gravity: the down direction
(any length). camera: the camera's position (default: the route's first point): sampling is finer
near it. Keyword settings, as hitscan::DrapeSettings: near_spacing, far_spacing, near_distance,
far_distance, cast_height, max_cast_depth, refine_height, refine_angle, min_refine_spacing,
max_gap (floats), gap_mode ('interpolate' or 'hold_last'), max_points (int). Returns a dict:
  points, normals, route_points (float32, (M, 3)): draped point, unit normal facing up, and the
    route point it was cast from;
  distance (float32, (M,)): arc length along the route;
  status (uint8, (M,)): DRAPE_ON_SURFACE, DRAPE_GAP_BRIDGED or DRAPE_NO_SURFACE;
  geometry_ids (uint32, (M,)): the geometry hit, INVALID_ID where none was;
  gaps (float32, (G, 2)): start and end distance of each run without surface; gaps_bridged (bool, (G,));
  route_length (float).
ValueError for fewer than 2 points, NaN or infinite coordinates, a zero gravity or settings out of
their domain; TypeError for an unknown setting.)").c_str());

  bind_mesh_io(m);
}
