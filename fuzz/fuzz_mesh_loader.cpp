// fuzz_mesh_loader: the input's first byte picks a format (its value mod 6: OBJ, PLY, STL, OFF,
// glTF, GLB) and the load options (value / 6: bit 0 drops normals, bit 1 drops node transforms);
// the rest is the file, handed to io::load_mesh through a scratch file of that extension.
// A failed load must be one of the documented errors, naming the file: a crash or hang of
// assimp's reader, which load_mesh runs in a child process, is one; a crash of hitscan's own code
// there is a failure of the target. A loaded mesh must be
// usable: its part ranges tiling it, its referenced vertices finite, and a MeshBvh built over it must answer rays from its
// centre and from outside consistently (closest hit, any hit and all hits agree; hits lie within
// the ray's interval, on a usable triangle, with barycentrics inside it).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "hitscan/executor.hpp"
#include "hitscan/geometry/ray_triangle.hpp"
#include "hitscan/io/mesh_loader.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "scratch_file.hpp"

namespace {

using hitscan::MeshBvh;
using hitscan::MeshHit;
using hitscan::Rayf;
using hitscan::StatusCode;
using hitscan::TriangleMesh;
using hitscan::Vec3f;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_mesh_loader: %s\n", what.c_str());
  std::abort();
}

void check_failure(const hitscan::Status& status, const std::string& path, const hitscan::io::MeshLoadReport& report) {
  const StatusCode code = status.code();
  if (code != StatusCode::parse_error && code != StatusCode::degenerate && code != StatusCode::invalid_argument &&
      code != StatusCode::out_of_memory && code != StatusCode::io_error) {
    fail(std::string("unexpected status ") + hitscan::status_code_name(code) + ": " + status.message());
  }
  // assimp's readers may crash in their child process, but hitscan's own code there may not.
  if (status.message().rfind(path + ": hitscan crashed", 0) == 0) fail(status.message());
  if (status.message().rfind(path + ": ", 0) != 0)
    fail("the message does not begin with the path: " + status.message());
  if (report.polygons != 0 || report.points != 0 || report.lines != 0 || report.parts != 0 ||
      !report.part_ranges.empty()) {
    fail("a failed load left counts in its report");
  }
}

// The part ranges tile the mesh in order, and each part's triangles use only its vertices.
void check_part_ranges(const TriangleMesh& mesh, const hitscan::io::MeshLoadReport& report) {
  if (report.part_ranges.size() != report.parts) fail("the report's part ranges are not one per part");
  std::size_t vertices = 0, triangles = 0;
  for (const hitscan::io::MeshPartRange& range : report.part_ranges) {
    if (range.first_vertex != vertices || range.first_triangle != triangles) fail("part ranges that do not tile");
    vertices += range.vertex_count;
    triangles += range.triangle_count;
    if (triangles > mesh.triangle_count()) fail("part ranges beyond the triangles");
    for (std::size_t t = range.first_triangle; t < triangles; ++t) {
      for (const std::uint32_t v : mesh.triangles()[t]) {
        if (v < range.first_vertex || v >= vertices) fail("a part's triangle uses another part's vertex");
      }
    }
  }
  if (vertices != mesh.vertex_count() || triangles != mesh.triangle_count()) fail("part ranges that do not cover the mesh");
}

void check_mesh(const TriangleMesh& mesh) {
  if (mesh.triangle_count() == 0) fail("a mesh without triangles loaded");
  for (const TriangleMesh::Indices& triangle : mesh.triangles()) {
    for (const std::uint32_t index : triangle) {
      if (index >= mesh.vertex_count()) fail("a triangle refers to vertex " + std::to_string(index));
      const Vec3f p = mesh.positions()[index];
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) fail("a used vertex is not finite");
    }
  }
  if (!mesh.normals().empty() && mesh.normals().size() != mesh.vertex_count()) fail("normal count != vertex count");
}

// A float exactly, for messages.
std::string hex(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%a", double(value));
  return text;
}

bool barycentrics_inside(float u, float v) {
  constexpr float kSlack = 1e-4f;
  return std::isfinite(u) && std::isfinite(v) && u >= -kSlack && v >= -kSlack && u + v <= 1 + kSlack;
}

void check_ray(const MeshBvh& bvh, const Rayf& ray) {
  const MeshHit hit = bvh.intersect(ray);
  if (hit.hit) {
    if (!hitscan::in_range(hit.t, ray)) fail("a hit at t = " + std::to_string(hit.t) + " outside the ray");
    if (hit.triangle >= bvh.mesh().triangle_count() || !bvh.mesh().is_usable(hit.triangle)) {
      fail("a hit on triangle " + std::to_string(hit.triangle) + ", which is not a usable one");
    }
    if (!barycentrics_inside(hit.u, hit.v)) fail("a hit with barycentrics outside its triangle");
    if (!std::isfinite(hit.normal.x) || !std::isfinite(hit.normal.y) || !std::isfinite(hit.normal.z)) {
      fail("a hit with a non-finite normal");
    }
  } else if (hit.triangle != hitscan::kNoPrimitive || hit.t != hitscan::kInfinity<float>) {
    fail("a miss that is not the documented miss");
  }
  if (bvh.occluded(ray) != hit.hit) fail("occluded() disagrees with intersect()");
  std::vector<MeshHit> all;
  bvh.intersect_all(ray, all);
  if (all.empty() != !hit.hit) fail("intersect_all() disagrees with intersect() on whether anything is hit");
  if (!all.empty() && all.front().t != hit.t)
    fail("intersect_all()'s nearest hit at t = " + hex(all.front().t) + " on triangle " +
         std::to_string(all.front().triangle) + " is not intersect()'s at t = " + hex(hit.t) + " on triangle " +
         std::to_string(hit.triangle));
  for (std::size_t i = 1; i < all.size(); ++i) {
    if (!(all[i - 1].t <= all[i].t)) fail("intersect_all() hits are not sorted by t");
  }
}

// Rays from the centre of the mesh's bounds along the axes and a diagonal, and the same
// directions from outside the bounds towards the centre.
void check_rays(const MeshBvh& bvh) {
  const hitscan::Aabbf& bounds = bvh.mesh().bounds();
  const Vec3f centre = bounds.center();
  const Vec3f extent = bounds.extent();
  const float reach = std::abs(extent.x) + std::abs(extent.y) + std::abs(extent.z) + 1;
  const Vec3f directions[] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},           {0, -1, 0},
                              {0, 0, 1}, {0, 0, -1}, {0.6f, 0.48f, 0.64f}};
  for (const Vec3f& direction : directions) {
    check_ray(bvh, Rayf{centre, direction});
    check_ray(bvh, Rayf{centre - direction * reach, direction});
  }
  const hitscan::MeshClosestPoint closest = bvh.closest_point(centre);
  if (closest.found && !(closest.distance >= 0 && closest.distance < hitscan::kInfinity<float>)) {
    fail("closest_point() found a point at distance " + std::to_string(closest.distance));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const hitscan::fuzz::ScratchFile files[] = {
      hitscan::fuzz::ScratchFile("mesh.obj"),  hitscan::fuzz::ScratchFile("mesh.ply"),
      hitscan::fuzz::ScratchFile("mesh.stl"),  hitscan::fuzz::ScratchFile("mesh.off"),
      hitscan::fuzz::ScratchFile("mesh.gltf"), hitscan::fuzz::ScratchFile("mesh.glb")};
  const int format = data[0] % 6;
  const hitscan::fuzz::ScratchFile& file = files[format];
  hitscan::io::MeshLoadOptions options;
  options.read_normals = ((data[0] / 6) & 1) == 0;
  options.apply_node_transforms = ((data[0] / 6) & 2) == 0;
  // assimp's readers run in a child process (the default), which a hang of theirs may not
  // outlast: within libFuzzer's -timeout of 10 s.
  options.time_limit_seconds = 5;
  file.write(data + 1, size - 1);

  hitscan::io::MeshLoadReport report;
  hitscan::Result<TriangleMesh> mesh = hitscan::io::load_mesh(file.path(), options, &report);
  if (!mesh) {
    check_failure(mesh.status(), file.path(), report);
    return 0;
  }
  check_mesh(mesh.value());
  if (report.polygons == 0 || report.parts == 0) fail("a loaded mesh whose report counts no polygon or part");
  check_part_ranges(mesh.value(), report);
  static hitscan::SerialExecutor serial;  // the fuzzer's one thread keeps runs reproducible
  const hitscan::Result<MeshBvh> bvh =
      MeshBvh::build(std::make_shared<const TriangleMesh>(std::move(mesh).value()), {}, &serial);
  if (!bvh) fail("MeshBvh::build failed on a loaded mesh: " + bvh.status().message());
  check_rays(bvh.value());
  return 0;
}
