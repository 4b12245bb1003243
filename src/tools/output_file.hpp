#pragma once
/// Checking, before a command starts its work, that the files it is to write can be created, so
/// that a mistyped folder fails at once rather than after minutes of loading and tracing.

#include <string>

#include "hitscan/status.hpp"

namespace hitscan::tools {

/// Succeeds when `path` can be opened for writing as far as the file system tells beforehand: an
/// existing file that is not a directory and that this process may write, or else a directory to
/// create it in (the path's parent, the working directory for a bare name) that exists and that
/// this process may write. Otherwise fails with io_error, the message naming the path and why:
///   cannot write '<path>': directory '<dir>' does not exist
///   cannot write '<path>': '<dir>' is not a directory
///   cannot write '<path>': directory '<dir>' is not writable: <errno text>
///   cannot write '<path>': it is a directory
///   cannot write '<path>': <errno text>                  (an existing file)
Status check_output_file(const std::string& path);

/// As check_output_file, after creating the path's directory and its parents when missing; fails
/// when they cannot be made:
///   cannot write '<path>': cannot create directory '<dir>': <reason>
Status make_output_directory(const std::string& path);

}  // namespace hitscan::tools
