#pragma once
/// `hitscan bench [MESH]`: how fast hitscan builds and traces a mesh on this machine, without the
/// baselines of `make bench` (Embree, Bullet), which the command line does not link.
///
/// The mesh is a file (any format assimp reads) or, without one, the generated scanned street of
/// `hitscan drape` at about 500,000 triangles. Measured: the BVH build (median of 3), the tree's
/// bytes per triangle, and three ray sets of --rays rays each, on 1 thread and on --threads:
/// coherent (a pinhole camera framing the mesh, one ray per pixel), incoherent (origins uniform
/// in the mesh's bounds, directions uniform on the sphere, seeded) and occlusion (the incoherent
/// set as any-hit queries). Each figure is the median of --rounds rounds, the sets alternating
/// within a round, so that all share the machine's drift.
///
/// Prints one line per figure:
///   bench: <mesh>, <n> triangles, build <ms> ms, <bytes> bytes/triangle
///   bench: <set> <threads> thread(s): <Mrays/s> Mrays/s, <hits> hits
/// and with --jsonl FILE appends the same figures as JSON lines
/// ({"suite": "cli", "mesh", "tris", "rays", "query", "threads", "backend": "hitscan", "metric",
/// "value"}, metric mrays_per_s, build_ms or bytes_per_tri).

#include <ostream>
#include <string>

#include "tools/command.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace hitscan::tools {

struct BenchOptions {
  /// Mesh file; empty for the generated street.
  std::string mesh;
  std::size_t rays = 1u << 18;
  unsigned threads = 0;  // 0: one per hardware thread
  int rounds = 3;
  std::string jsonl;
};

void add_bench_command(CLI::App& app, CommandContext& context);

/// Returns kExitSuccess; kExitUsage for a mesh that cannot be read or an empty mesh; kExitFailure
/// when the work fails (out of memory, the JSON lines file cannot be written: checked with
/// check_output_file before the work starts, and again when appending at its end).
int run_bench(const BenchOptions& options, std::ostream& out, std::ostream& err);

}  // namespace hitscan::tools
