#pragma once
/// The comma-separated lines the io layer's tables and the command line's route files share.

#include <string_view>
#include <vector>

namespace hitscan::io {

/// text without its leading and trailing spaces, tabs and carriage returns.
inline std::string_view trim_field(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

/// The comma-separated fields of one line, each trimmed; an empty line is one empty field.
inline std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  for (std::size_t start = 0;;) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(trim_field(line.substr(start, comma - start)));  // to the end when there is no comma
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

}  // namespace hitscan::io
