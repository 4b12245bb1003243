#pragma once
/// The comma-separated lines the io layer's tables and the command line's route files share.

#include <cstddef>
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

/// The lines of a comma-separated text that hold something, in order, split into fields: a UTF-8
/// byte-order mark at the start is skipped, blank lines are passed over, and each line is counted
/// from 1 as an editor shows it (for the messages).
class CsvLines {
 public:
  explicit CsvLines(std::string_view text) : text_(text) {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") text_.remove_prefix(3);
  }

  /// The next line that is not blank: its fields into `fields` and its number into
  /// `line_number`; false when there is none left.
  bool next(std::vector<std::string_view>& fields, std::size_t& line_number) {
    while (start_ < text_.size()) {
      const std::size_t newline = text_.find('\n', start_);
      const std::string_view line = text_.substr(start_, newline - start_);  // to the end without a newline
      start_ = newline == std::string_view::npos ? text_.size() : newline + 1;
      ++line_;
      if (trim_field(line).empty()) continue;
      fields = split_fields(line);
      line_number = line_;
      return true;
    }
    return false;
  }

 private:
  std::string_view text_;
  std::size_t start_ = 0;
  std::size_t line_ = 0;
};

}  // namespace hitscan::io
