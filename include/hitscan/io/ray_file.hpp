#pragma once
/// Ray and hit tables on disk: reading rays from, and writing hits to, NumPy `.npy` files and
/// comma-separated `.csv` files, one ray or hit per row.

#include <span>
#include <string>
#include <vector>

#include "hitscan/geometry/ray.hpp"
#include "hitscan/status.hpp"

namespace hitscan::io {

/// The table formats, chosen by a path's extension: `.npy` or `.csv`, in any letter case.
enum class TableFormat { npy, csv };

/// The format of `path` by its extension; invalid_argument, naming the path, for any other.
Result<TableFormat> table_format(const std::string& path);

/// One row of a hits table: the closest hit of one ray. A miss is t = +inf, prim = -1 and zero
/// in the other columns, which is what a default HitRow holds.
struct HitRow {
  double t = kInfinity<double>;
  /// Index of the triangle hit, in the mesh file's face order; -1 for a miss.
  double prim = -1;
  /// Barycentrics of the hit: point = (1 - u - v) v0 + u v1 + v v2.
  double u = 0, v = 0;
  /// Unit normal (v1 - v0) x (v2 - v0) of the triangle as wound, not flipped toward the ray.
  double nx = 0, ny = 0, nz = 0;
};

/// Reads a table of rays, one per row: 6 columns `ox, oy, oz, dx, dy, dz` (then tmin = 0 and
/// tmax = +inf), or 8 adding `tmin, tmax`. Values are converted to float (a double beyond float's
/// range becomes an infinity). Rows are returned as written, whatever their values: a ray with NaN,
/// an infinity or a zero direction is not rejected here, since every kernel reports it as a miss.
///
/// `.npy`: format version 1.0 or 2.0; 'descr' '<f4' or '<f8' ('|', '=' or no byte-order mark
/// mean the machine's order, so are accepted on a little-endian machine; big-endian data is
/// rejected, and so are structured data types, whose 'descr' is a list of fields); 'fortran_order'
/// False; 'shape' (N, 6) or (N, 8). The header is checked, not trusted: the file must hold exactly
/// N rows of data, no more and no fewer.
///
/// `.csv`: comma-separated decimal numbers, one row per line, every row with the same count of 6
/// or 8 columns. A comment line, whose first character other than a space or tab is `#`, is
/// skipped wherever it is (a `#` later in a line is no comment). The first other line, when it
/// holds no number at all, is a header and is skipped (a first line mixing numbers and text is an
/// error). `inf`, `-inf`, `infinity` and `nan` are numbers, in any letter case; spaces and tabs
/// around a field, blank lines, a leading UTF-8 byte order mark and CRLF line ends are allowed. An
/// empty file, or one with a header and comments only, holds no rays.
///
/// Errors begin with `path` and a colon. invalid_argument for an extension other than `.npy` or
/// `.csv`; io_error when the file does not exist, cannot be read, or is not a regular file (a
/// directory, a device such as /dev/zero, a named pipe or a socket: refused at once, never
/// read; a symbolic link to a regular file is read); parse_error for malformed
/// contents, naming the line and column of a CSV field that is not a number or the line of a row
/// with the wrong column count; out_of_memory when the rays do not fit in memory. Nothing is
/// thrown or printed.
Result<std::vector<Rayf>> read_rays(const std::string& path);

/// Writes `rows` to `path` as a table of 7 columns `t, prim, u, v, nx, ny, nz`, replacing any
/// file there. `.npy`: format version 1.0, '<f8', shape (N, 7). `.csv`: the header line
/// `t,prim,u,v,nx,ny,nz`, then one line per row, each number in the shortest form that reads
/// back as the same double (`inf`, `-inf` and `nan` as spelled).
///
/// Errors name the path: invalid_argument for an unknown extension, io_error when the file cannot
/// be created or fully written (a partly written regular file is removed then), out_of_memory.
Status write_hits(const std::string& path, std::span<const HitRow> rows);

}  // namespace hitscan::io
