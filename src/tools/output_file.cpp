#include "tools/output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

namespace hitscan::tools {
namespace {

namespace fs = std::filesystem;

fs::path directory_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

Status cannot_write(const std::string& path, const std::string& reason) {
  return {StatusCode::io_error, "cannot write '" + path + "': " + reason};
}

// Appended rather than prepended to: GCC 12 warns falsely (-Wrestrict, bug 105651) on a string
// literal + std::string.
std::string quoted(const fs::path& path) {
  std::string text(1, '\'');
  text += path.string();
  text += '\'';
  return text;
}

std::string errno_text(int error_number) { return std::generic_category().message(error_number); }

}  // namespace

Status check_output_file(const std::string& path) {
  std::error_code error;
  const fs::file_status file = fs::status(path, error);
  if (fs::is_directory(file)) return cannot_write(path, "it is a directory");
  if (fs::exists(file)) {
    // An existing file is opened as it is (truncated or appended to): its own permission is what
    // counts, not its directory's (/dev/null, a file in a read-only directory).
    if (::access(path.c_str(), W_OK) != 0) return cannot_write(path, errno_text(errno));
    return Status::success();
  }
  const fs::path directory = directory_of(path);
  const fs::file_status status = fs::status(directory, error);
  if (!fs::exists(status)) return cannot_write(path, "directory " + quoted(directory) + " does not exist");
  if (!fs::is_directory(status)) return cannot_write(path, quoted(directory) + " is not a directory");
  // Creating a file takes write and search permission on its directory.
  if (::access(directory.c_str(), W_OK | X_OK) != 0) {
    return cannot_write(path, "directory " + quoted(directory) + " is not writable: " + errno_text(errno));
  }
  return Status::success();
}

Status make_output_directory(const std::string& path) {
  const fs::path directory = directory_of(path);
  std::error_code error;
  if (!fs::exists(directory, error)) {
    fs::create_directories(directory, error);
    if (error) {
      return cannot_write(path, "cannot create directory " + quoted(directory) + ": " + error.message());
    }
  }
  return check_output_file(path);
}

}  // namespace hitscan::tools
