#include "tools/command_line.hpp"

#include <new>

#include <CLI/CLI.hpp>

#include "tools/bench_command.hpp"
#include "tools/cast_command.hpp"
#include "tools/command.hpp"
#include "tools/drape_command.hpp"
#include "tools/info_command.hpp"
#include "tools/render_command.hpp"

namespace hitscan::tools {

int run_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"hitscan: ray casting and geometric queries on analytic shapes and meshes", "hitscan"};
  app.require_subcommand(1);
  CommandContext context{out, err};
  add_render_command(app, context);
  add_cast_command(app, context);
  add_bench_command(app, context);
  add_drape_command(app, context);
  add_info_command(app, context);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // CLI11 reports --help as a "successful" parse error, with exit code 0.
    return app.exit(error, out, err) == 0 ? kExitSuccess : kExitUsage;
  } catch (const std::bad_alloc&) {
    err << "hitscan: out of memory\n";
    return kExitFailure;
  }
  return context.exit_code;
}

}  // namespace hitscan::tools
