#include "tools/bench_command.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "support/cube_off.hpp"
#include "support/file_contents.hpp"
#include "support/scratch_directory.hpp"
#include "tools/command.hpp"
#include "tools/command_runner.hpp"

namespace hitscan::tools {
namespace {

using test::CommandRun;
using test::run;
using test::ScratchDirectory;
using test::write_file;

using test::kUnitCubeOff;

TEST(BenchCommand, EveryRayFromInsideAClosedCubeHitsIt) {
  const ScratchDirectory directory;
  const std::string mesh = directory.file("cube.off"), jsonl = directory.file("bench.jsonl");
  write_file(mesh, kUnitCubeOff);
  const CommandRun result = run({"bench", mesh, "--rays", "1000", "--rounds", "1", "--threads", "2", "--jsonl", jsonl});
  ASSERT_EQ(result.exit_code, kExitSuccess) << result.err;
  EXPECT_EQ(result.err, "");  // not a terminal: no progress bar
  EXPECT_NE(result.out.find("bench: " + mesh + ", 12 triangles, build "), std::string::npos) << result.out;
  // The incoherent rays start inside the mesh's bounds, here the closed cube: all of them hit it,
  // as closest hits and as any-hit queries, on one thread and on two.
  for (const char* line : {"bench: incoherent 1 thread: ", "bench: incoherent 2 threads: ",
                           "bench: occlusion 1 thread: ", "bench: occlusion 2 threads: "}) {
    const std::size_t at = result.out.find(line);
    ASSERT_NE(at, std::string::npos) << line << '\n' << result.out;
    const std::string rest = result.out.substr(at, result.out.find('\n', at) - at);
    EXPECT_TRUE(std::regex_search(rest, std::regex(R"(Mrays/s, 1000 hits$)"))) << rest;
  }
  // The coherent set is a 32 x 32 camera framing the cube: some rays hit, the corners miss.
  const std::size_t at = result.out.find("bench: coherent 1 thread: ");
  ASSERT_NE(at, std::string::npos);
  std::smatch match;
  const std::string line = result.out.substr(at, result.out.find('\n', at) - at);
  ASSERT_TRUE(std::regex_search(line, match, std::regex(R"(, (\d+) hits$)"))) << line;
  EXPECT_GT(std::stoi(match[1]), 0);
  EXPECT_LT(std::stoi(match[1]), 1024);

  std::ifstream file(jsonl);
  int lines = 0;
  for (std::string json; std::getline(file, json); ++lines) {
    EXPECT_EQ(json.rfind("{\"suite\": \"cli\", \"mesh\": ", 0), 0u) << json;
    EXPECT_NE(json.find("\"backend\": \"hitscan\""), std::string::npos) << json;
  }
  EXPECT_EQ(lines, 2 + 3 * 2);  // build_ms and bytes_per_tri, then three sets on two thread counts
}

TEST(BenchCommand, BadInputIsAUsageError) {
  const ScratchDirectory directory;
  const std::string broken = directory.file("broken.off");
  write_file(broken, "OFF\n3 1 0\n0 0 0\n1 0\n");
  for (const std::string& mesh : {directory.file("absent.obj"), broken}) {
    const CommandRun result = run({"bench", mesh, "--rays", "10"});
    EXPECT_EQ(result.exit_code, kExitUsage) << mesh;
    EXPECT_NE(result.err.find(mesh), std::string::npos) << result.err;
  }
  EXPECT_EQ(run({"bench", "--rays", "0"}).exit_code, kExitUsage);
  EXPECT_EQ(run({"bench", "--rounds", "-1"}).exit_code, kExitUsage);
}

TEST(BenchCommand, JsonlInAMissingDirectoryFailsBeforeTheWorkStarts) {
  const ScratchDirectory directory;
  const std::string jsonl = directory.file("missing/bench.jsonl");
  // The mesh does not exist either: the output is checked first, so its error is the one given.
  const CommandRun result = run({"bench", directory.file("absent.obj"), "--rays", "10", "--jsonl", jsonl});
  EXPECT_EQ(result.exit_code, kExitFailure);
  EXPECT_EQ(result.err, "hitscan bench: cannot write '" + jsonl + "': directory '" + directory.file("missing") +
                            "' does not exist\n");
  EXPECT_EQ(result.out, "");
}

}  // namespace
}  // namespace hitscan::tools
