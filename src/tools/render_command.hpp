#pragma once
/// `hitscan render`: the built-in demo scene, one ray per pixel, shaded by normal, saved as PNG.

#include <ostream>
#include <string>

#include "tools/command.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace hitscan::tools {

struct RenderOptions {
  std::string output = "out/demo.png";
  int width = 960;
  int height = 540;
};

inline RenderOptions default_render_options() { return {}; }

/// Registers `render` and its options on app. When the command line selects it, it runs
/// run_render with context's streams and stores the exit code in context, which must outlive
/// app's parse.
void add_render_command(CLI::App& app, CommandContext& context);

/// Renders and writes options.output, creating its parent directory if missing, then prints one
/// summary line to out:
///   render: <w>x<h>, <rays> rays, <n> shapes, <speed> Mrays/s, <output>
/// where the speed counts only the tracing. Returns kExitSuccess, kExitUsage for a size the camera
/// rejects, or kExitFailure (with a message on err) when the picture cannot be produced or saved.
int run_render(const RenderOptions& options, std::ostream& out, std::ostream& err);

}  // namespace hitscan::tools
