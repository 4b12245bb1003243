#pragma once
// Running the hitscan command line in the test process, as main() would, with its output captured.

#include <sstream>
#include <string>
#include <vector>

#include "tools/command_line.hpp"

namespace hitscan::test {

struct CommandRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `hitscan <args...>` through tools::run_command_line.
inline CommandRun run(std::vector<std::string> args) {
  args.insert(args.begin(), "hitscan");
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  std::ostringstream out, err;
  CommandRun result;
  result.exit_code = tools::run_command_line(static_cast<int>(argv.size()), argv.data(), out, err);
  result.out = out.str();
  result.err = err.str();
  return result;
}

}  // namespace hitscan::test
