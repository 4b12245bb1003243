#pragma once
/// The hitscan program's command line: its subcommands, parsing, and the exit code.

#include <ostream>

namespace hitscan::tools {

/// Parses argv (argv[0] is the program name), runs the chosen subcommand and returns the exit
/// code: kExitSuccess (also for --help, and for --version, which prints `hitscan <version>` to
/// out), kExitFailure when the work failed, kExitUsage for a command line that does not parse (the
/// error and a hint go to err). Exactly one subcommand is required: without any argument err gets
///   hitscan: no command given; commands: <names>
/// and the usage; a first non-option argument that names no subcommand gets
///   hitscan: unknown command '<argument>'; commands: <names> (see hitscan --help)
/// where <names> lists the subcommands, comma-separated, as --help does.
int run_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace hitscan::tools
