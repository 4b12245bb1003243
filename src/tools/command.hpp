#pragma once
/// What every subcommand of the hitscan program shares: its exit codes, and the context it runs in.

#include <ostream>

namespace hitscan::tools {

inline constexpr int kExitSuccess = 0;
/// The arguments were fine but the work failed (a file could not be written, ...).
inline constexpr int kExitFailure = 1;
/// The command line could not be parsed or a value is out of range.
inline constexpr int kExitUsage = 2;

/// Where a subcommand prints (results to out, diagnostics to err) and leaves its exit code.
struct CommandContext {
  std::ostream& out;
  std::ostream& err;
  int exit_code = kExitSuccess;
};

}  // namespace hitscan::tools
