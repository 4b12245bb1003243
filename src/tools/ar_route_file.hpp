#pragma once
/// Route files of `hitscan drape`: reading the route to drape (x,y,z per line) and writing the
/// draped route (x,y,z,nx,ny,nz,distance,status per line).

#include <string>
#include <vector>

#include "hitscan/ar/drape.hpp"
#include "hitscan/math/vec3.hpp"
#include "hitscan/status.hpp"

namespace hitscan::tools {

/// Reads a route: one point per line as three comma-separated numbers `x,y,z` (spaces around the
/// numbers allowed, a UTF-8 byte order mark and CR line ends ignored). The first non-blank line is
/// a header, and skipped, when none of its fields is a number (`x,y,z`, say). Blank lines are
/// skipped. Fails, with a message that starts with `path` and, for a bad line, `path:<line>:`,
/// with io_error when the file cannot be read, and with parse_error for a line that is not
/// exactly three numbers, a NaN or infinite coordinate, or fewer than 2 points in all.
Result<std::vector<Vec3f>> read_route_csv(const std::string& path);

/// The draped route as CSV text: the header `x,y,z,nx,ny,nz,distance,status`, then one line per
/// draped point (position, normal, distance along the input route) with status on_surface,
/// gap_bridged or no_surface; numbers in the shortest form that reads back to the same float.
std::string draped_route_csv(const DrapedRoute& route);

/// The name of a status as the CSV writes it.
const char* drape_status_name(DrapeStatus status);

/// Writes draped_route_csv(route) to `path`, replacing any file there; io_error naming the path
/// when it cannot be written.
Status write_draped_route_csv(const DrapedRoute& route, const std::string& path);

}  // namespace hitscan::tools
