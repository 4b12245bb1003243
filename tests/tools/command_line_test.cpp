// The hitscan program's front door: --version, and what it says without a command or with one it
// does not know. The versions are compared with HITSCAN_PROJECT_VERSION, which the build gives
// the tests from CMake's project(), not with the generated header.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hitscan/version.hpp"
#include "tools/command.hpp"
#include "tools/command_runner.hpp"

namespace hitscan::tools {
namespace {

using test::CommandRun;
using test::run;

constexpr const char* kCommands = "commands: render, cast, bench, drape, info";

TEST(Version, LibraryAndHeaderNumbersAreTheProjectVersion) {
  EXPECT_STREQ(hitscan::version(), HITSCAN_PROJECT_VERSION);
  const std::string numbers =
      std::to_string(version_major) + "." + std::to_string(version_minor) + "." + std::to_string(version_patch);
  EXPECT_EQ(numbers, HITSCAN_PROJECT_VERSION);
}

TEST(Version, FlagPrintsTheProgramAndItsVersionAndExitsWithCodeZero) {
  const CommandRun result = run({"--version"});
  EXPECT_EQ(result.exit_code, kExitSuccess);
  EXPECT_EQ(result.out, std::string("hitscan ") + HITSCAN_PROJECT_VERSION + "\n");
  EXPECT_EQ(result.err, "");
  EXPECT_NE(run({"--help"}).out.find("--version"), std::string::npos);
}

TEST(CommandLine, UnknownCommandIsNamedWithTheCommandsThatExist) {
  for (const auto& args : {std::vector<std::string>{"frobnicate"}, {"frobnicate", "mesh.obj", "-o", "x.png"}}) {
    const CommandRun result = run(args);
    EXPECT_EQ(result.exit_code, kExitUsage) << ::testing::PrintToString(args);
    EXPECT_EQ(result.err, std::string("hitscan: unknown command 'frobnicate'; ") + kCommands + " (see hitscan --help)\n")
        << ::testing::PrintToString(args);
    EXPECT_EQ(result.out, "");
  }
}

TEST(CommandLine, NoArgumentsPrintsTheUsageUnderAClearLine) {
  const CommandRun result = run({});
  EXPECT_EQ(result.exit_code, kExitUsage);
  EXPECT_EQ(result.err.rfind(std::string("hitscan: no command given; ") + kCommands + "\n\n", 0), 0u) << result.err;
  EXPECT_NE(result.err.find("Usage: hitscan"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("Subcommands:"), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");
}

TEST(CommandLine, AKnownCommandStillGetsItsOwnErrors) {
  const CommandRun result = run({"cast"});
  EXPECT_EQ(result.exit_code, kExitUsage);
  EXPECT_EQ(result.err.find("unknown command"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("mesh"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace hitscan::tools
