#pragma once
/// `hitscan cast MESH RAYS -o HITS`: the closest hit (or whether any hit) of every ray of a table
/// against a mesh file, written as a table of hits.

#include <ostream>
#include <span>
#include <string>

#include "hitscan/io/ray_file.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "tools/command.hpp"
#include "tools/progress.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace hitscan::tools {

struct CastSettings {
  /// Which faces count as hits.
  FaceMode faces = FaceMode::both;
  /// Only whether each ray hits anything: t is 1 for a hit, the other columns those of a miss.
  bool any_hit = false;
  /// Threads the rays are split over, in contiguous chunks; at least 1.
  unsigned threads = 1;
};

struct CastOptions {
  std::string mesh;
  std::string rays;
  std::string output;
  CastSettings settings;
  /// Print one JSON line of figures to out.
  bool stats = false;
};

/// Defaults: both faces, closest hits, as many threads as the machine has cores, no stats.
CastOptions default_cast_options();

/// Writes every row of `rows` (as many as rays, else a contract violation), row i for ray i: the
/// closest hit accepted by settings.faces within the ray's [tmin, tmax] (t, the triangle's index,
/// u, v and its unit normal as wound), or with settings.any_hit t = 1 when anything is hit. An
/// invalid ray (NaN, infinite, zero direction, empty interval) and a ray that hits nothing give
/// the miss row, io::HitRow{}. The rows do not depend on settings.threads (a pool of that many
/// threads runs MeshBvh's batch queries). Allocates only small per-slice buffers: the caller owns
/// the table, and so chooses when its pages are first touched.
void cast_rays(const MeshBvh& mesh, std::span<const Rayf> rays, std::span<io::HitRow> rows,
               const CastSettings& settings, Progress* progress = nullptr);

/// Registers `cast` and its options on app. When the command line selects it, it runs run_cast
/// with context's streams and stores the exit code in context, which must outlive app's parse.
void add_cast_command(CLI::App& app, CommandContext& context);

/// Checks that options.output can be written (check_output_file), loads the mesh (io::load_mesh)
/// and the rays (io::read_rays), builds a MeshBvh, casts, and writes options.output
/// (io::write_hits). With options.stats it then prints one line to out:
///   {"triangles": <n>, "build_ms": <ms>, "trace_ms": <ms>, "total_ms": <ms>, "mrays_per_s": <speed>, "hits": <n>}
/// where build_ms times building the BVH, trace_ms casting the rays alone (the output table is
/// allocated and filled before), total_ms the whole command up to the written output (reading
/// both files, building, casting, writing), and mrays_per_s counts the rays over trace_ms;
/// otherwise it prints nothing. Returns kExitSuccess; kExitUsage (message on err) for an output
/// name that is neither .npy nor .csv or a mesh or rays file that cannot be read; kExitFailure
/// (message on err) when memory runs out, or the output cannot be written, which is checked
/// before any file is read.
int run_cast(const CastOptions& options, std::ostream& out, std::ostream& err);

}  // namespace hitscan::tools
