// The .csv half of the ray and hit tables: rays read from, hits written to comma-separated text.

#include <charconv>
#include <optional>
#include <system_error>

#include "hitscan/io/csv_fields.hpp"
#include "ray_file_formats.hpp"

namespace hitscan::io::ray_file {
namespace {

// A decimal number, an infinity or a NaN filling the whole field (from_chars ignores the locale);
// what is wrong with it otherwise.
struct NumberField {
  std::optional<double> value;
  const char* problem = "is not a number";
};

NumberField parse_number(std::string_view field) {
  if (field.size() > 1 && field[0] == '+' && field[1] != '-' && field[1] != '+') field.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error == std::errc::result_out_of_range) return {std::nullopt, "is beyond the range of a double"};
  if (error != std::errc{} || end != field.data() + field.size()) return {};
  return {value};
}

std::string column_count_error(const std::string& where, std::size_t count) {
  return where + " has " + std::to_string(count) + (count == 1 ? " column" : " columns") +
         ": expected 6 (ox, oy, oz, dx, dy, dz) or 8 (adding tmin, tmax)";
}

}  // namespace

Result<std::vector<Rayf>> parse_csv(const std::string& path, std::string_view file) {
  std::vector<Rayf> rays;
  std::size_t columns = 0, columns_line = 0, header_columns = 0;
  bool first_line = true;
  CsvLines lines(file);
  std::vector<std::string_view> fields;
  std::size_t line_number = 0;
  while (lines.next(fields, line_number)) {
    if (fields.front().starts_with('#')) continue;  // a comment line (fields are trimmed)
    const std::string where = "line " + std::to_string(line_number);
    double row[8];
    std::size_t numbers = 0;
    std::optional<std::size_t> first_bad;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const std::optional<double> value = parse_number(fields[i]).value;
      if (value && i < 8) row[i] = *value;
      if (value) ++numbers;
      if (!value && !first_bad) first_bad = i;
    }
    if (first_line && numbers == 0) {  // a header
      first_line = false;
      if (!is_ray_column_count(fields.size())) {
        return fail(StatusCode::parse_error, path, column_count_error(where, fields.size()));
      }
      header_columns = fields.size();
      continue;
    }
    first_line = false;
    if (first_bad) {
      const std::string_view field = fields[*first_bad];
      return fail(StatusCode::parse_error, path,
                  where + ", column " + std::to_string(*first_bad + 1) + ": " +
                      (field.empty() ? std::string("empty field")
                                     : quoted(field) + " " + parse_number(field).problem));
    }
    if (columns == 0) {
      if (!is_ray_column_count(fields.size())) {
        return fail(StatusCode::parse_error, path, column_count_error(where, fields.size()));
      }
      if (header_columns != 0 && header_columns != fields.size()) {
        return fail(StatusCode::parse_error, path,
                    "the header has " + std::to_string(header_columns) + " columns, " + where + " has " +
                        std::to_string(fields.size()));
      }
      columns = fields.size();
      columns_line = line_number;
    } else if (fields.size() != columns) {
      return fail(StatusCode::parse_error, path,
                  where + " has " + std::to_string(fields.size()) + " columns, line " + std::to_string(columns_line) +
                      " has " + std::to_string(columns));
    }
    rays.push_back(ray_from_row(row, columns));
  }
  return rays;
}

namespace {

void append_number(std::string& out, double value) {
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, error == std::errc{} ? end : buffer);
}

}  // namespace

std::string csv_bytes(std::span<const HitRow> rows) {
  std::string text = "t,prim,u,v,nx,ny,nz\n";
  text.reserve(text.size() + rows.size() * 64);
  for (const HitRow& row : rows) {
    const double values[] = {row.t, row.prim, row.u, row.v, row.nx, row.ny, row.nz};
    for (std::size_t i = 0; i < 7; ++i) {
      if (i != 0) text += ',';
      append_number(text, values[i]);
    }
    text += '\n';
  }
  return text;
}

}  // namespace hitscan::io::ray_file
