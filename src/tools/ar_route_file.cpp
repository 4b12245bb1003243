#include "tools/ar_route_file.hpp"

#include "hitscan/io/csv_fields.hpp"
#include "io/regular_file.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <string_view>

namespace hitscan::tools {
namespace {

// A number filling the whole field (from_chars ignores the locale); NaN and infinities parse, so
// that they are reported as such rather than as text.
std::optional<double> parse_number(std::string_view field) {
  if (field.size() > 1 && field[0] == '+' && field[1] != '-' && field[1] != '+') field.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc{} || end != field.data() + field.size()) return std::nullopt;
  return value;
}

Status parse_failure(const std::string& where, const std::string& what) {
  return {StatusCode::parse_error, where + ": " + what};
}

std::string number_text(float value) {
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, error == std::errc{} ? end : buffer);
}

}  // namespace

Result<std::vector<Vec3f>> read_route_csv(const std::string& path) {
  // A device or a named pipe given as the route would never end or never open.
  const Result<std::string> read = io::detail::read_regular_file(path, "route file");
  if (!read) return read.status();
  const std::string& contents = read.value();
  std::vector<Vec3f> route;
  bool first_line = true;
  io::CsvLines lines(contents);
  std::vector<std::string_view> fields;
  std::size_t line_number = 0;
  while (lines.next(fields, line_number)) {
    const std::string where = path + ":" + std::to_string(line_number);
    std::vector<std::optional<double>> numbers;
    for (const std::string_view field : fields) numbers.push_back(parse_number(field));
    const bool any_number = std::any_of(numbers.begin(), numbers.end(), [](const auto& n) { return n.has_value(); });
    if (first_line && !any_number) {  // a header
      first_line = false;
      continue;
    }
    first_line = false;
    if (fields.size() != 3) {
      return parse_failure(where, "expected 3 comma-separated numbers x,y,z, found " + std::to_string(fields.size()) +
                                      (fields.size() == 1 ? " field" : " fields"));
    }
    double xyz[3];
    for (std::size_t i = 0; i < 3; ++i) {
      const char* axis = i == 0 ? "x" : i == 1 ? "y" : "z";
      if (!numbers[i]) {
        return parse_failure(where, std::string(axis) + " '" + std::string(fields[i]) + "' is not a number");
      }
      xyz[i] = *numbers[i];
      if (!(std::abs(xyz[i]) <= std::numeric_limits<float>::max())) {
        return parse_failure(where, std::string(axis) + " '" + std::string(fields[i]) +
                                        "' is not a finite coordinate (NaN, infinite or beyond float range)");
      }
    }
    route.push_back({static_cast<float>(xyz[0]), static_cast<float>(xyz[1]), static_cast<float>(xyz[2])});
  }
  if (route.size() < 2) {
    return Status{StatusCode::parse_error, path + ": " + std::to_string(route.size()) +
                                               (route.size() == 1 ? " route point" : " route points") +
                                               ", a route needs at least 2"};
  }
  return route;
}

const char* drape_status_name(DrapeStatus status) {
  switch (status) {
    case DrapeStatus::on_surface: return "on_surface";
    case DrapeStatus::gap_bridged: return "gap_bridged";
    case DrapeStatus::no_surface: return "no_surface";
  }
  return "no_surface";
}

std::string draped_route_csv(const DrapedRoute& route) {
  std::string text = "x,y,z,nx,ny,nz,distance,status\n";
  for (const DrapedPoint& p : route.points) {
    for (const float value : {p.position.x, p.position.y, p.position.z, p.normal.x, p.normal.y, p.normal.z,
                              p.distance_along_route}) {
      text += number_text(value);
      text += ',';
    }
    text += drape_status_name(p.status);
    text += '\n';
  }
  return text;
}

Status write_draped_route_csv(const DrapedRoute& route, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return {StatusCode::io_error, path + ": cannot create the draped route file"};
  out << draped_route_csv(route);
  out.close();
  if (!out) return {StatusCode::io_error, path + ": cannot write the draped route file"};
  return {};
}

}  // namespace hitscan::tools
