// Ray and hit tables on disk: the file handling and the choice of format by name. The formats
// themselves are in ray_file_npy.cpp and ray_file_csv.cpp.

#include "hitscan/io/ray_file.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <new>
#include <system_error>

#include "ray_file_formats.hpp"

namespace hitscan::io {
namespace ray_file {

namespace fs = std::filesystem;

Status fail(StatusCode code, const std::string& path, const std::string& reason) {
  return {code, path + ": " + reason};
}

std::string quoted(std::string_view text) {
  constexpr std::size_t kMaxShown = 40;
  std::string shown(text.substr(0, kMaxShown));
  for (char& c : shown) {
    if (!std::isprint(static_cast<unsigned char>(c))) c = '?';
  }
  return "'" + shown + (text.size() > kMaxShown ? "...'" : "'");
}

namespace {

Status fail_errno(const std::string& path, const std::string& what, int error_number) {
  return fail(StatusCode::io_error, path,
              error_number != 0 ? what + ": " + std::generic_category().message(error_number) : what);
}

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

Result<std::string> read_file(const std::string& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found) return fail(StatusCode::io_error, path, "no such file");
  if (error) return fail(StatusCode::io_error, path, "cannot open: " + error.message());
  if (fs::is_directory(status)) return fail(StatusCode::io_error, path, "is a directory, not a ray file");

  errno = 0;
  // Closed however this returns: appending to `contents` may throw bad_alloc.
  const std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (file == nullptr) return fail_errno(path, "cannot open", errno);
  std::string contents;
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) contents.append(buffer, got);
  if (std::ferror(file.get()) != 0) return fail_errno(path, "cannot read", errno);
  return contents;
}

// Replaces the file at `path` with `bytes`. A partly written regular file is removed; a device,
// pipe or symbolic link at `path` is not this function's to remove.
Status write_file(const std::string& path, std::string_view bytes) {
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return fail_errno(path, "cannot open for writing", errno);
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  const int write_errno = errno;
  const bool closed = std::fclose(file) == 0;
  const int close_errno = errno;
  if (written && closed) return Status::success();
  std::error_code ignored;
  if (fs::is_regular_file(fs::symlink_status(path, ignored))) fs::remove(path, ignored);
  return fail_errno(path, "cannot write", written ? close_errno : write_errno);
}

// Beyond float's range is an infinity, as IEEE rounding would give; a plain cast would be
// undefined behaviour there.
float to_float(double value) {
  if (std::abs(value) > double{std::numeric_limits<float>::max()}) {
    return value > 0 ? kInfinity<float> : -kInfinity<float>;
  }
  return static_cast<float>(value);
}

}  // namespace

Rayf ray_from_row(const double* row, std::size_t columns) {
  Rayf ray{{to_float(row[0]), to_float(row[1]), to_float(row[2])},
           {to_float(row[3]), to_float(row[4]), to_float(row[5])}};
  if (columns == 8) {
    ray.tmin = to_float(row[6]);
    ray.tmax = to_float(row[7]);
  }
  return ray;
}

}  // namespace ray_file

using ray_file::fail;
namespace fs = std::filesystem;

Result<TableFormat> table_format(const std::string& path) {
  std::string extension = fs::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".npy") return TableFormat::npy;
  if (extension == ".csv") return TableFormat::csv;
  return fail(StatusCode::invalid_argument, path, "unknown table format: the name must end in .npy or .csv");
}

Result<std::vector<Rayf>> read_rays(const std::string& path) {
  try {
    const Result<TableFormat> format = table_format(path);
    if (!format) return format.status();
    const Result<std::string> file = ray_file::read_file(path);
    if (!file) return file.status();
    return format.value() == TableFormat::npy ? ray_file::parse_npy(path, file.value())
                                              : ray_file::parse_csv(path, file.value());
  } catch (const std::bad_alloc&) {
    return fail(StatusCode::out_of_memory, path, "out of memory reading the rays");
  }
}

Status write_hits(const std::string& path, std::span<const HitRow> rows) {
  try {
    const Result<TableFormat> format = table_format(path);
    if (!format) return format.status();
    return ray_file::write_file(
        path, format.value() == TableFormat::npy ? ray_file::npy_bytes(rows) : ray_file::csv_bytes(rows));
  } catch (const std::bad_alloc&) {
    return fail(StatusCode::out_of_memory, path, "out of memory writing the hits");
  }
}

}  // namespace hitscan::io
