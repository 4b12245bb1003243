#pragma once
/// `hitscan render [MESH]`: a mesh file, or the built-in demo scene, one ray per pixel, shaded by
/// normal, saved as PNG or JPEG.

#include <ostream>
#include <string>

#include "tools/command.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace hitscan::tools {

struct RenderOptions {
  /// Mesh file to render; empty for the built-in demo scene.
  std::string mesh;
  std::string output = "out/demo.png";
  int width = 960;
  int height = 540;
  /// Beside the shaded picture (the image twice as wide), each pixel's traversal cost as a heat
  /// map (tools/heatmap.hpp) with its scale, and one more line printed:
  ///   heatmap: cost = nodes + triangles a ray, 0 (dark blue) .. <max> (red), mean <n> nodes and <t> triangles
  /// A mesh only.
  bool heatmap = false;
};

inline RenderOptions default_render_options() { return {}; }

/// Registers `render` and its options on app. When the command line selects it, it runs
/// run_render with context's streams and stores the exit code in context, which must outlive
/// app's parse.
void add_render_command(CLI::App& app, CommandContext& context);

/// Before rendering, checks that options.output names an image format (io::image_format: .png,
/// or .jpg and .jpeg, any case) and that it can be written (make_output_directory: its directory
/// is created if missing). Then renders, writes it (PNG, or JPEG of quality 90) and prints one
/// summary line to out:
///   render: <w>x<h>, <rays> rays, <n> shapes, <speed> Mrays/s, <output>
/// where the speed counts only the tracing; for a mesh, "<n> triangles" stands for "<n> shapes".
/// A mesh is loaded with io::load_mesh and seen from the direction (1, 0.6, 1.4) (y up), its
/// bounding sphere just fitting the picture (frame_bounds), every face shaded by its shading
/// normal, back faces flipped. Returns kExitSuccess; kExitUsage for an output with another
/// extension, a size the camera rejects or a mesh file that cannot be read; kExitFailure (with a
/// message on err) when the picture cannot be produced or saved.
int run_render(const RenderOptions& options, std::ostream& out, std::ostream& err);

}  // namespace hitscan::tools
