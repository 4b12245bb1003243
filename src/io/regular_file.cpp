#include "regular_file.hpp"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <system_error>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#define HITSCAN_HAS_POSIX_OPEN 1
#endif

namespace hitscan::io::detail {
namespace {

namespace fs = std::filesystem;

Status fail(const std::string& path, const std::string& reason) { return {StatusCode::io_error, path + ": " + reason}; }

Status fail_errno(const std::string& path, const std::string& what, int error_number) {
  return fail(path, error_number != 0 ? what + ": " + std::generic_category().message(error_number) : what);
}

// The error for anything at `path` but a regular file; success for a regular file.
Status check_type(const std::string& path, fs::file_type type, std::string_view what) {
  const auto is_a = [&](const char* kind, bool special) {
    return fail(path, std::string("is a ") + kind + ", not a " + std::string(what) +
                          (special ? " (only regular files are read)" : ""));
  };
  switch (type) {
    case fs::file_type::regular: return Status::success();
    case fs::file_type::not_found: return fail(path, "no such file");
    case fs::file_type::directory: return is_a("directory", false);
    case fs::file_type::fifo: return is_a("named pipe (FIFO)", true);
    case fs::file_type::socket: return is_a("socket", true);
    case fs::file_type::character: return is_a("character device", true);
    case fs::file_type::block: return is_a("block device", true);
    default: return is_a("file of unknown type", true);
  }
}

#if defined(HITSCAN_HAS_POSIX_OPEN)
fs::file_type file_type_of(mode_t mode) {
  if (S_ISREG(mode)) return fs::file_type::regular;
  if (S_ISDIR(mode)) return fs::file_type::directory;
  if (S_ISFIFO(mode)) return fs::file_type::fifo;
  if (S_ISSOCK(mode)) return fs::file_type::socket;
  if (S_ISCHR(mode)) return fs::file_type::character;
  if (S_ISBLK(mode)) return fs::file_type::block;
  return fs::file_type::unknown;
}
#endif

}  // namespace

Result<FileHandle> open_regular_file(const std::string& path, std::string_view what) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() != fs::file_type::not_found && error) return fail(path, "cannot open: " + error.message());
  if (Status checked = check_type(path, status.type(), what); !checked.ok()) return checked;
#if defined(HITSCAN_HAS_POSIX_OPEN)
  // O_NONBLOCK: should a named pipe have taken the file's place since the check above, open()
  // returns at once instead of waiting for a writer, and fstat() below rejects it.
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (descriptor < 0) return fail_errno(path, "cannot open", errno);
  struct stat opened {};
  Status checked = ::fstat(descriptor, &opened) != 0 ? fail_errno(path, "cannot open", errno)
                                                     : check_type(path, file_type_of(opened.st_mode), what);
  const int flags = checked.ok() ? ::fcntl(descriptor, F_GETFL) : -1;
  if (checked.ok() && (flags < 0 || ::fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) != 0)) {
    checked = fail_errno(path, "cannot open", errno);
  }
  std::FILE* file = checked.ok() ? ::fdopen(descriptor, "rb") : nullptr;
  if (checked.ok() && file == nullptr) checked = fail_errno(path, "cannot open", errno);
  if (!checked.ok()) {
    ::close(descriptor);
    return checked;
  }
#else
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return fail_errno(path, "cannot open", errno);
#endif
  return FileHandle(file);
}

Result<std::string> read_regular_file(const std::string& path, std::string_view what, std::size_t max_bytes) {
  Result<FileHandle> file = open_regular_file(path, what);
  if (!file.ok()) return file.status();
  std::string contents;
  char buffer[1 << 16];
  while (contents.size() < max_bytes) {
    const std::size_t wanted = std::min(sizeof buffer, max_bytes - contents.size());
    const std::size_t got = std::fread(buffer, 1, wanted, file.value().get());
    contents.append(buffer, got);
    if (got < wanted) break;
  }
  if (std::ferror(file.value().get()) != 0) return fail_errno(path, "cannot read", errno);
  return contents;
}

}  // namespace hitscan::io::detail
