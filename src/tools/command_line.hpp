#pragma once
/// The hitscan program's command line: its subcommands, parsing, and the exit code.

#include <ostream>

namespace hitscan::tools {

/// Parses argv (argv[0] is the program name), runs the chosen subcommand and returns the exit
/// code: kExitSuccess (also for --help), kExitFailure when the work failed, kExitUsage for a
/// command line that does not parse (the error and a hint go to err). Exactly one subcommand is
/// required.
int run_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace hitscan::tools
