#include "tools/info_command.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <memory>
#include <new>
#include <string>
#include <system_error>
#include <unordered_map>
#include <vector>

#include <CLI/CLI.hpp>

#include "hitscan/io/mesh_loader.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "tools/output_file.hpp"

namespace hitscan::tools {
namespace {

std::string errno_text(int error_number) { return std::generic_category().message(error_number); }

// A position as a hash key: its three coordinates' bits, -0 turned into +0 (x + 0 does that, and
// changes nothing else) so that the two zeros weld like the equal values they are.
struct PositionKey {
  std::uint32_t x, y, z;
  bool operator==(const PositionKey&) const = default;
};

PositionKey position_key(Vec3f p) {
  return {std::bit_cast<std::uint32_t>(p.x + 0.0f), std::bit_cast<std::uint32_t>(p.y + 0.0f),
          std::bit_cast<std::uint32_t>(p.z + 0.0f)};
}

struct PositionKeyHash {
  std::size_t operator()(const PositionKey& k) const {
    std::uint64_t h = k.x * 0x9E3779B97F4A7C15ull;
    h = (h ^ k.y) * 0xC2B2AE3D27D4EB4Full;
    h = (h ^ k.z) * 0x165667B19E3779F9ull;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

// How the triangles use one edge: how many, and how many run along it from its lower welded
// vertex to its higher one.
struct EdgeUse {
  std::uint32_t faces = 0;
  std::uint32_t ascending = 0;
};

std::string format_float(float value) {
  char buffer[32];
  const std::to_chars_result end = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end.ptr);
}

std::string format_point(Vec3f p) { return format_float(p.x) + ' ' + format_float(p.y) + ' ' + format_float(p.z); }

const char* yes_no(bool value) { return value ? "yes" : "no"; }

}  // namespace

Result<MeshTopology> mesh_topology(const TriangleMesh& mesh) try {
  MeshTopology topology;
  const std::span<const Vec3f> positions = mesh.positions();
  // welded[v]: the welded index of vertex v, for the vertices triangles refer to.
  std::vector<std::uint32_t> welded(positions.size(), 0);
  std::vector<std::uint8_t> seen(positions.size(), 0);
  std::unordered_map<PositionKey, std::uint32_t, PositionKeyHash> first_at;
  first_at.reserve(positions.size());
  for (const TriangleMesh::Indices& triangle : mesh.triangles()) {
    for (const std::uint32_t v : triangle) {
      if (seen[v]) continue;
      seen[v] = 1;
      const auto [it, inserted] =
          first_at.try_emplace(position_key(positions[v]), static_cast<std::uint32_t>(first_at.size()));
      welded[v] = it->second;
    }
  }
  topology.welded_vertices = first_at.size();

  std::unordered_map<std::uint64_t, EdgeUse> edges;
  edges.reserve(mesh.triangle_count() * 2);
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    if (!mesh.is_usable(i)) continue;
    const TriangleMesh::Indices& triangle = mesh.triangles()[i];
    for (int corner = 0; corner < 3; ++corner) {
      const std::uint32_t from = welded[triangle[corner]], to = welded[triangle[(corner + 1) % 3]];
      const std::uint64_t low = std::min(from, to), high = std::max(from, to);
      EdgeUse& use = edges[low << 32 | high];
      ++use.faces;
      if (from < to) ++use.ascending;
    }
  }
  topology.edges = edges.size();
  for (const auto& [key, use] : edges) {
    if (use.faces == 1) ++topology.boundary_edges;
    if (use.faces > 2) ++topology.non_manifold_edges;
    if (use.faces == 2 && use.ascending != 1) ++topology.misoriented_edges;
  }
  return topology;
} catch (const std::bad_alloc&) {
  return Status{StatusCode::out_of_memory, "out of memory counting the mesh's edges"};
}

void add_info_command(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<InfoOptions>();
  CLI::App* command = app.add_subcommand(
      "info",
      "Describe a mesh file, one 'key: value' per line: triangles, vertices, degenerate triangles, bounds, "
      "boundary and non-manifold edges (vertices at the same position welded), whether it is closed and "
      "consistently oriented, and the size of its BVH");
  command->add_option("mesh", options->mesh, "Mesh file (any format assimp reads)")->required();
  command->add_option("--bvh-boxes", options->bvh_boxes,
                      "Write the BVH's node boxes at --bvh-depth as a wireframe OBJ to open in any viewer");
  command->add_option("--bvh-depth", options->bvh_depth, "Levels below the root of the boxes --bvh-boxes writes")
      ->capture_default_str()
      ->check(CLI::Range(0, 64));
  command->callback([options, &context] { context.exit_code = run_info(*options, context.out, context.err); });
}

int run_info(const InfoOptions& options, std::ostream& out, std::ostream& err) {
  if (!options.bvh_boxes.empty()) {
    if (const Status status = check_output_file(options.bvh_boxes); !status.ok()) {
      err << "hitscan info: " << status.message() << '\n';
      return kExitFailure;
    }
  }
  Result<TriangleMesh> loaded = io::load_mesh(options.mesh);
  if (!loaded) {
    err << "hitscan info: " << loaded.status().message() << '\n';
    return loaded.status().code() == StatusCode::out_of_memory ? kExitFailure : kExitUsage;
  }
  auto mesh = std::make_shared<const TriangleMesh>(std::move(loaded).value());
  const Result<MeshTopology> topology = mesh_topology(*mesh);
  if (!topology) {
    err << "hitscan info: " << options.mesh << ": " << topology.status().message() << '\n';
    return kExitFailure;
  }
  const Result<MeshBvh> bvh = MeshBvh::build(mesh);
  if (!bvh) {
    err << "hitscan info: " << options.mesh << ": " << bvh.status().message() << '\n';
    return kExitFailure;
  }

  const MeshTopology& t = topology.value();
  const double bytes_per_triangle =
      static_cast<double>(bvh.value().memory_bytes()) / static_cast<double>(mesh->triangle_count());
  out << "file: " << options.mesh << '\n'
      << "triangles: " << mesh->triangle_count() << '\n'
      << "vertices: " << mesh->vertex_count() << '\n'
      << "welded vertices: " << t.welded_vertices << '\n'
      << "unreferenced vertices: " << mesh->report().unreferenced_vertices << '\n'
      << "degenerate triangles: " << mesh->report().degenerate_triangles << '\n'
      << "bounds min: " << format_point(mesh->bounds().min) << '\n'
      << "bounds max: " << format_point(mesh->bounds().max) << '\n'
      << "edges: " << t.edges << '\n'
      << "boundary edges: " << t.boundary_edges << '\n'
      << "non-manifold edges: " << t.non_manifold_edges << '\n'
      << "closed: " << yes_no(t.closed()) << '\n'
      << "consistently oriented: " << yes_no(t.consistently_oriented()) << '\n'
      << "bvh nodes: " << bvh.value().node_count() << '\n'
      << "bvh bytes per triangle: " << std::fixed << std::setprecision(1) << bytes_per_triangle << '\n';
  if (!options.bvh_boxes.empty()) {
    const std::vector<Aabbf> boxes = bvh.value().node_boxes(options.bvh_depth);
    if (const Status written = write_box_wireframe(options.bvh_boxes, boxes); !written.ok()) {
      err << "hitscan info: " << written.message() << '\n';
      return kExitFailure;
    }
    out << "bvh boxes: " << boxes.size() << " at depth " << options.bvh_depth << ", " << options.bvh_boxes << '\n';
  }
  return kExitSuccess;
}

Status write_box_wireframe(const std::string& path, std::span<const Aabbf> boxes) {
  // Through stdio, whose failures set errno, so that the message can say why a write failed.
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) return Status{StatusCode::io_error, "cannot write '" + path + "': " + errno_text(errno)};
  int error_number = 0;  // the first failure's
  const auto check = [&](int result) {
    if (result < 0 && error_number == 0) error_number = errno != 0 ? errno : EIO;
  };
  check(std::fprintf(file, "# hitscan BVH node boxes: %zu boxes, 8 vertices and 12 edges each\n", boxes.size()));
  std::size_t first = 1;  // OBJ indices start at 1
  for (const Aabbf& box : boxes) {
    for (int k = 0; k < 8; ++k) {
      // 9 significant digits read back as the same float.
      check(std::fprintf(file, "v %.9g %.9g %.9g\n", static_cast<double>((k & 1) ? box.max.x : box.min.x),
                         static_cast<double>((k & 2) ? box.max.y : box.min.y),
                         static_cast<double>((k & 4) ? box.max.z : box.min.z)));
    }
    // The 12 edges join corners that differ in one bit.
    for (std::size_t k = 0; k < 8; ++k) {
      for (std::size_t bit = 1; bit < 8; bit <<= 1) {
        if ((k & bit) == 0) check(std::fprintf(file, "l %zu %zu\n", first + k, first + (k | bit)));
      }
    }
    first += 8;
  }
  errno = 0;
  if (std::fclose(file) != 0) check(-1);
  if (error_number != 0) return Status{StatusCode::io_error, "cannot write '" + path + "': " + errno_text(error_number)};
  return Status::success();
}

}  // namespace hitscan::tools
