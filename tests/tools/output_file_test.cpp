// check_output_file and make_output_directory: which output paths pass before a command's work
// starts, and the messages of those that do not.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "support/file_contents.hpp"
#include "support/scratch_directory.hpp"
#include "tools/output_file.hpp"

namespace hitscan::tools {
namespace {

namespace fs = std::filesystem;

using test::ScratchDirectory;

TEST(CheckOutputFile, NewFileInAnExistingDirectoryAndAnExistingFilePass) {
  const ScratchDirectory directory;
  EXPECT_TRUE(check_output_file(directory.file("new.csv")).ok());
  test::write_file(directory.file("old.csv"), "x\n");
  EXPECT_TRUE(check_output_file(directory.file("old.csv")).ok());
  EXPECT_TRUE(check_output_file("/dev/null").ok()) << "an existing file counts, not its directory";
  EXPECT_FALSE(fs::exists(directory.file("new.csv"))) << "checking creates nothing";
}

TEST(CheckOutputFile, BareNameIsCheckedInTheWorkingDirectory) {
  const ScratchDirectory directory;
  const fs::path previous = fs::current_path();
  fs::current_path(directory.file(""));
  const Status status = check_output_file("hits.csv");
  fs::current_path(previous);
  EXPECT_TRUE(status.ok()) << status.message();
}

TEST(CheckOutputFile, MissingDirectoryFileInTheWayAndDirectoryAsOutputFailNamingPathAndReason) {
  const ScratchDirectory directory;
  const std::string missing = directory.file("missing"), blocker = directory.file("a_file");
  test::write_file(blocker, "in the way");
  const struct {
    std::string path, message;
  } cases[] = {
      {missing + "/hits.npy", "cannot write '" + missing + "/hits.npy': directory '" + missing + "' does not exist"},
      {missing + "/deeper/hits.npy",
       "cannot write '" + missing + "/deeper/hits.npy': directory '" + missing + "/deeper' does not exist"},
      {blocker + "/hits.npy", "cannot write '" + blocker + "/hits.npy': '" + blocker + "' is not a directory"},
      {directory.file("."), "cannot write '" + directory.file(".") + "': it is a directory"},
  };
  for (const auto& c : cases) {
    const Status status = check_output_file(c.path);
    EXPECT_EQ(status.code(), StatusCode::io_error) << c.path;
    EXPECT_EQ(status.message(), c.message);
  }
}

TEST(CheckOutputFile, DirectoryWithoutWritePermissionFailsWithTheErrnoText) {
  const ScratchDirectory directory;
  const std::string locked = directory.file("locked");
  fs::create_directory(locked);
  fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
  if (::access(locked.c_str(), W_OK) == 0) {
    fs::permissions(locked, fs::perms::owner_all);
    GTEST_SKIP() << "this process may write anywhere (root)";
  }
  const Status status = check_output_file(locked + "/hits.csv");
  fs::permissions(locked, fs::perms::owner_all);
  EXPECT_EQ(status.message(),
            "cannot write '" + locked + "/hits.csv': directory '" + locked + "' is not writable: Permission denied");
}

TEST(MakeOutputDirectory, CreatesMissingDirectoriesThenChecks) {
  const ScratchDirectory directory;
  const std::string nested = directory.file("a/b/picture.png");
  EXPECT_TRUE(make_output_directory(nested).ok());
  EXPECT_TRUE(fs::is_directory(directory.file("a/b")));
  EXPECT_FALSE(fs::exists(nested)) << "the directory only";

  const std::string blocker = directory.file("a_file");
  test::write_file(blocker, "in the way");
  EXPECT_EQ(make_output_directory(blocker + "/picture.png").message(),
            "cannot write '" + blocker + "/picture.png': '" + blocker + "' is not a directory");
  const Status below = make_output_directory(blocker + "/sub/picture.png");
  EXPECT_EQ(below.code(), StatusCode::io_error);
  EXPECT_EQ(below.message().rfind("cannot write '" + blocker + "/sub/picture.png': cannot create directory '" +
                                      blocker + "/sub': ",
                                  0),
            0u)
      << below.message();
}

}  // namespace
}  // namespace hitscan::tools
