#include "tools/command_line.hpp"

#include <new>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "hitscan/version.hpp"
#include "tools/bench_command.hpp"
#include "tools/cast_command.hpp"
#include "tools/command.hpp"
#include "tools/drape_command.hpp"
#include "tools/info_command.hpp"
#include "tools/render_command.hpp"

namespace hitscan::tools {
namespace {

// Every subcommand, in the order they were added (an empty filter keeps them all).
std::vector<const CLI::App*> subcommands(const CLI::App& app) { return app.get_subcommands({}); }

// The subcommands' names in the order --help lists them: "render, cast, ...".
std::string command_names(const CLI::App& app) {
  std::string names;
  for (const CLI::App* command : subcommands(app)) {
    names += (names.empty() ? "" : ", ") + command->get_name();
  }
  return names;
}

// The first argument that is not an option, when it names no subcommand. The program itself takes
// no positional arguments, so that argument can only be meant as a command; CLI11 would call it
// an unexpected extra, or report only that a subcommand is required.
const char* unknown_command(const CLI::App& app, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument.starts_with('-')) continue;
    for (const CLI::App* command : subcommands(app)) {
      if (command->get_name() == argument) return nullptr;
    }
    return argv[i];
  }
  return nullptr;
}

}  // namespace

int run_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"hitscan: ray casting and geometric queries on analytic shapes and meshes", "hitscan"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("hitscan ") + version(), "Print 'hitscan <version>' and exit");
  CommandContext context{out, err};
  add_render_command(app, context);
  add_cast_command(app, context);
  add_bench_command(app, context);
  add_drape_command(app, context);
  add_info_command(app, context);

  if (argc <= 1) {
    err << "hitscan: no command given; commands: " << command_names(app) << "\n\n" << app.help();
    return kExitUsage;
  }
  if (const char* command = unknown_command(app, argc, argv)) {
    err << "hitscan: unknown command '" << command << "'; commands: " << command_names(app)
        << " (see hitscan --help)\n";
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // CLI11 reports --help and --version as "successful" parse errors, with exit code 0.
    return app.exit(error, out, err) == 0 ? kExitSuccess : kExitUsage;
  } catch (const std::bad_alloc&) {
    err << "hitscan: out of memory\n";
    return kExitFailure;
  }
  return context.exit_code;
}

}  // namespace hitscan::tools
