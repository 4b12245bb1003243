#pragma once
// Opening an input file only when it is a regular file. A device, named pipe or socket is no
// mesh or table: /dev/zero never ends, so reading it whole grows memory until the process is
// killed, and opening a named pipe waits for a writer forever. Private to the io layer.

#include <cstddef>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "hitscan/status.hpp"

namespace hitscan::io::detail {

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using FileHandle = std::unique_ptr<std::FILE, FileCloser>;

/// `path` opened for binary reading when it is a regular file or a symbolic link to one.
/// Otherwise io_error, naming the path and what is there: "no such file", "is a directory, not a
/// <what>", "is a named pipe (FIFO), not a <what> (only regular files are read)" (and so for a
/// character or block device and a socket), or "cannot open: <reason>". Never blocks: the type
/// is checked before opening, and again on the opened file, in case the path changed between.
Result<FileHandle> open_regular_file(const std::string& path, std::string_view what);

/// The first `max_bytes` bytes (all of them by default) of the regular file at `path`, with the
/// errors of open_regular_file and "cannot read: <reason>".
Result<std::string> read_regular_file(const std::string& path, std::string_view what,
                                      std::size_t max_bytes = std::numeric_limits<std::size_t>::max());

}  // namespace hitscan::io::detail
