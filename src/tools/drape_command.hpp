#pragma once
/// `hitscan drape [MESH ROUTE.csv]`: the AR scenario (tools/ar_scenario.hpp) on the built-in
/// scanned street, or on a user's mesh and route — route draped, arrows and signs placed,
/// occlusion against the camera's depth — as a picture, a draped route table and stage timings.

#include <ostream>
#include <string>

#include "tools/command.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace hitscan::tools {

struct DrapeOptions {
  /// Mesh file (any format assimp reads) and route file (x,y,z per line, see read_route_csv); both
  /// empty for the built-in street (make_street_scene()), its route, signs and camera.
  std::string mesh;
  std::string route;
  /// PNG to write, and the draped route as CSV (empty: not written).
  std::string output = "out/demo.png";
  std::string route_output = "out/route.csv";
  /// Frames run; the timings are medians over them, the picture and the table the last frame's.
  int frames = 10;
  int width = 640;
  int height = 480;
  /// The mesh's up axis, "x", "y" or "z" (gravity along its negative); the street's is z.
  std::string up = "z";
};

inline DrapeOptions default_drape_options() { return {}; }

/// Registers `drape` and its options on app. When the command line selects it, it runs run_drape
/// with context's streams and stores the exit code in context, which must outlive app's parse.
void add_drape_command(CLI::App& app, CommandContext& context);

/// Makes sure, before anything else, that options.output and options.route_output (when not empty)
/// can be written (make_output_directory: their directories are created if missing), runs the
/// scenario, writes options.output (PNG) and options.route_output (CSV with the header
/// `x,y,z,nx,ny,nz,distance,status`), then prints to out one line per stage, in the order a frame
/// runs them, and a summary line:
///   stage chunk_update: median <ms> ms over <frames> frames
///   stage depth_map: median <ms> ms over <frames> frames
///   stage drape: median <ms> ms over <frames> frames
///   stage occlusion: median <ms> ms over <frames> frames
///   stage render: median <ms> ms over <frames> frames
///   drape: <subject>, <t> triangles, route <L> m, <n> points (<on> on surface, <b> bridged,
///     <g> no surface), <k> signs, <png>[, <csv>]
/// (the summary on one line; plurals even for 1, so that the lines parse alike), with ms to 2
/// decimals and L to 1; <subject> is `street <length> m` for the built-in street and `mesh <MESH>`
/// otherwise; <n> and the counts are those of the last frame's draped route; <k> counts the sign
/// boards in view; <csv> is left out when --route-out is empty.
///
/// The built-in street: every frame rescans one chunk, in turn, with fresh noise (the street
/// generated again with seed 1 + frame + 1 for that chunk), keeping the vertices of the seams it
/// shares with its neighbours, so that no crack opens between chunks. A mesh: one chunk, submitted again
/// unchanged each frame (a refit); the camera stands behind the route's start
/// (camera_behind_route_start); no signs. --width and --height set the picture's size; the
/// street's camera keeps its 60 degree horizontal field of view.
///
/// Returns kExitSuccess; kExitUsage (message on err, naming the file and, for a bad route line,
/// the line) for a MESH without a ROUTE, a mesh or route file that cannot be read or used, a
/// route line that is not three finite numbers, or fewer than 2 route points; kExitFailure
/// (message on err) when memory runs out or an output cannot be written.
int run_drape(const DrapeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace hitscan::tools
