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
#include <new>
#include <system_error>

#include "ray_file_formats.hpp"
#include "regular_file.hpp"

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
    const Result<std::string> file = detail::read_regular_file(path, "ray file");
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
