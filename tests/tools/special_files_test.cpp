// The command line given a path that is not a regular file: /dev/zero, a named pipe. The io
// layer refuses both at once, so the command ends with the usage exit code and a message
// naming the path, instead of growing memory until it is killed or waiting for a writer forever.

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
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

void expect_refused(const CommandRun& result, const std::string& path, const std::string& reason) {
  EXPECT_EQ(result.exit_code, kExitUsage) << result.err;
  EXPECT_NE(result.err.find(path + ": " + reason), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");
}

TEST(SpecialFiles, InfoOnDevZeroEndsAtOnceNamingIt) {
  expect_refused(run({"info", "/dev/zero"}), "/dev/zero", "is a character device, not a mesh file");
}

TEST(SpecialFiles, InfoOnANamedPipeEndsAtOnceNamingIt) {
  const ScratchDirectory directory;
  const std::string pipe = directory.file("mesh.obj");
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0) << std::strerror(errno);
  expect_refused(run({"info", pipe}), pipe, "is a named pipe (FIFO), not a mesh file");
}

TEST(SpecialFiles, CastWithRaysFromANamedPipeOrDevZeroEndsAtOnceNamingThem) {
  const ScratchDirectory directory;
  const std::string mesh = directory.file("cube.off");
  test::write_file(mesh, test::kUnitCubeOff);
  const std::string pipe = directory.file("rays.csv");
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0) << std::strerror(errno);
  expect_refused(run({"cast", mesh, pipe, "-o", directory.file("hits.npy")}), pipe,
                 "is a named pipe (FIFO), not a ray file");
  const std::string zero = directory.file("rays.npy");
  std::filesystem::create_symlink("/dev/zero", zero);
  expect_refused(run({"cast", mesh, zero, "-o", directory.file("hits.npy")}), zero,
                 "is a character device, not a ray file");
}

TEST(SpecialFiles, DrapeWithARouteFromANamedPipeOrDevZeroEndsAtOnceNamingIt) {
  const ScratchDirectory directory;
  const std::string mesh = directory.file("cube.off");
  test::write_file(mesh, test::kUnitCubeOff);
  const std::string pipe = directory.file("route.csv");
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0) << std::strerror(errno);
  expect_refused(run({"drape", mesh, pipe, "-o", directory.file("drape.png")}), pipe,
                 "is a named pipe (FIFO), not a route file");
  expect_refused(run({"drape", mesh, "/dev/zero", "-o", directory.file("drape.png")}), "/dev/zero",
                 "is a character device, not a route file");
}

}  // namespace
}  // namespace hitscan::tools
