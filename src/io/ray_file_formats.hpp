#pragma once
// The per-format halves of ray_file.cpp: the .npy reader and writer (ray_file_npy.cpp), the .csv
// reader and writer (ray_file_csv.cpp), and what they share. Private to the io layer.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hitscan/io/ray_file.hpp"

namespace hitscan::io::ray_file {

Status fail(StatusCode code, const std::string& path, const std::string& reason);

// A field or header quoted in a message, cut short so that a binary file read as text cannot
// flood the message.
std::string quoted(std::string_view text);

// The ray of a row of 6 (origin, direction) or 8 (adding tmin, tmax) numbers.
Rayf ray_from_row(const double* row, std::size_t columns);

inline bool is_ray_column_count(std::uint64_t columns) { return columns == 6 || columns == 8; }

// The rays of a .npy file's bytes; a parse_error naming `path` if they are not (N, 6) or (N, 8) floats.
Result<std::vector<Rayf>> parse_npy(const std::string& path, std::string_view file);
// The bytes of a .npy file of the hits, an (N, 7) float64 array.
std::string npy_bytes(std::span<const HitRow> rows);

// The rays of a .csv file's text; a parse_error naming `path` and the line if it has a bad row.
Result<std::vector<Rayf>> parse_csv(const std::string& path, std::string_view file);
// The text of a .csv file of the hits, with a header line.
std::string csv_bytes(std::span<const HitRow> rows);

}  // namespace hitscan::io::ray_file
