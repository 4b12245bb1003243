// The .npy half of the ray and hit tables: rays read from, hits written to NumPy arrays.
//
// The format: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html. The magic
// string, two version bytes, a little-endian header length (2 bytes in 1.0, 4 in 2.0), then the
// header, an ASCII Python dict literal, then the array's bytes.

#include <bit>
#include <charconv>
#include <cstring>
#include <limits>
#include <optional>
#include <system_error>
#include <type_traits>

#include "ray_file_formats.hpp"

namespace hitscan::io::ray_file {
namespace {

constexpr std::string_view kNpyMagic{"\x93NUMPY", 6};

// A value of the header dict: a string, True/False, a tuple of non-negative integers, or a list
// (the fields of a structured data type, recognised to be refused, so its contents are skipped).
struct NpyValue {
  enum class Kind { string, boolean, tuple, list } kind = Kind::string;
  std::string text;
  bool flag = false;
  std::vector<std::uint64_t> dims;
};

// Parses the subset of Python literal syntax that numpy writes in .npy headers.
class NpyHeaderParser {
 public:
  explicit NpyHeaderParser(std::string_view text) : text_(text) {}

  // Calls on_entry(key, value) for each entry of the dict; a message on malformed syntax.
  template <class OnEntry>
  std::optional<std::string> parse_dict(OnEntry on_entry) {
    if (!consume('{')) return "the header is not a Python dict: " + quoted(text_);
    while (!consume('}')) {
      std::string key;
      NpyValue value;
      if (!parse_string(key)) return "expected a quoted key in the header " + quoted(text_);
      // Keys are the file's bytes: quoted() keeps them short and printable in messages.
      if (!consume(':')) return "expected ':' after " + quoted(std::string_view(key)) + " in the header";
      if (std::optional<std::string> error = parse_value(value)) return quoted(std::string_view(key)) + ": " + *error;
      if (std::optional<std::string> error = on_entry(key, std::move(value))) return error;
      if (!consume(',') && !peek('}')) {
        return "expected ',' or '}' after " + quoted(std::string_view(key)) + " in the header";
      }
    }
    skip_space();
    if (position_ != text_.size()) return "unexpected text after the header dict: " + quoted(text_.substr(position_));
    return std::nullopt;
  }

 private:
  void skip_space() {
    while (position_ < text_.size() && std::strchr(" \t\r\n", text_[position_]) != nullptr) ++position_;
  }
  bool peek(char c) {
    skip_space();
    return position_ < text_.size() && text_[position_] == c;
  }
  bool consume(char c) {
    if (!peek(c)) return false;
    ++position_;
    return true;
  }
  bool consume_word(std::string_view word) {
    skip_space();
    if (text_.substr(position_, word.size()) != word) return false;
    position_ += word.size();
    return true;
  }
  bool parse_string(std::string& out) {
    skip_space();
    if (position_ >= text_.size() || (text_[position_] != '\'' && text_[position_] != '"')) return false;
    const char quote = text_[position_];
    const std::size_t end = text_.find(quote, position_ + 1);
    if (end == std::string_view::npos) return false;
    out = std::string(text_.substr(position_ + 1, end - position_ - 1));
    position_ = end + 1;
    return out.find('\\') == std::string::npos;  // escapes never occur in the keys and values read here
  }
  std::optional<std::string> parse_value(NpyValue& value) {
    if (parse_string(value.text)) return std::nullopt;
    for (const bool flag : {true, false}) {
      if (consume_word(flag ? "True" : "False")) {
        value.kind = NpyValue::Kind::boolean;
        value.flag = flag;
        return std::nullopt;
      }
    }
    if (peek('[')) return skip_list(value);
    if (!consume('(')) return "expected a string, True, False, a tuple or a list";
    value.kind = NpyValue::Kind::tuple;
    while (!consume(')')) {
      skip_space();
      std::uint64_t dim = 0;
      const char* first = text_.data() + position_;
      const auto [end, error] = std::from_chars(first, text_.data() + text_.size(), dim);
      if (error == std::errc::result_out_of_range) return "a dimension is too large";
      if (error != std::errc{}) return "expected a non-negative integer in the shape";
      position_ += static_cast<std::size_t>(end - first);
      if (position_ < text_.size() && text_[position_] == 'L') ++position_;  // Python 2's long suffix
      value.dims.push_back(dim);
      if (!consume(',') && !peek(')')) return "expected ',' or ')' in the shape";
    }
    return std::nullopt;
  }

  // From a '[' past its matching ']', over nested brackets and quoted strings.
  std::optional<std::string> skip_list(NpyValue& value) {
    value.kind = NpyValue::Kind::list;
    std::size_t depth = 0;
    for (; position_ < text_.size(); ++position_) {
      const char c = text_[position_];
      if (c == '\'' || c == '"') {
        const std::size_t end = text_.find(c, position_ + 1);
        if (end == std::string_view::npos) break;
        position_ = end;
      } else if (c == '[' || c == '(') {
        ++depth;
      } else if ((c == ']' || c == ')') && --depth == 0) {
        ++position_;
        return std::nullopt;
      }
    }
    return "a list that does not end";
  }

  std::string_view text_;
  std::size_t position_ = 0;
};

std::string shape_text(const std::vector<std::uint64_t>& dims) {
  std::string text = "(";
  for (std::size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + (dims.size() == 1 ? ",)" : ")");
}

template <class T>
T load_little_endian(const unsigned char* bytes) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  Bits bits = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) bits |= Bits{bytes[i]} << (8 * i);
  return std::bit_cast<T>(bits);
}

}  // namespace

Result<std::vector<Rayf>> parse_npy(const std::string& path, std::string_view file) {
  if (file.substr(0, kNpyMagic.size()) != kNpyMagic) {
    return fail(StatusCode::parse_error, path, "not a .npy file (no \\x93NUMPY magic string)");
  }
  if (file.size() < 8) return fail(StatusCode::parse_error, path, "truncated .npy header");
  const auto* bytes = reinterpret_cast<const unsigned char*>(file.data());
  const unsigned major = bytes[6], minor = bytes[7];
  if ((major != 1 && major != 2) || minor != 0) {
    return fail(StatusCode::parse_error, path,
                "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                    " (1.0 and 2.0 are read)");
  }
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  if (file.size() < 8 + length_bytes) return fail(StatusCode::parse_error, path, "truncated .npy header");
  std::uint64_t header_length = 0;
  for (std::size_t i = 0; i < length_bytes; ++i) header_length |= std::uint64_t{bytes[8 + i]} << (8 * i);
  const std::size_t header_start = 8 + length_bytes;
  if (header_length > file.size() - header_start) {
    return fail(StatusCode::parse_error, path,
                "truncated .npy header: it announces " + std::to_string(header_length) + " bytes, the file holds " +
                    std::to_string(file.size() - header_start));
  }
  const std::size_t data_start = header_start + static_cast<std::size_t>(header_length);

  std::optional<std::string> descr;
  std::optional<bool> fortran_order;
  std::optional<std::vector<std::uint64_t>> shape;
  NpyHeaderParser parser(file.substr(header_start, static_cast<std::size_t>(header_length)));
  const std::optional<std::string> syntax_error = parser.parse_dict(
      [&](const std::string& key, NpyValue value) -> std::optional<std::string> {
        const bool duplicate = (key == "descr" && descr) || (key == "fortran_order" && fortran_order) ||
                               (key == "shape" && shape);
        if (duplicate) return "the header has '" + key + "' twice";
        if (key == "descr" && value.kind == NpyValue::Kind::list) {
          return "structured data types (a 'descr' list of named fields) are not supported: the rays must be "
                 "a plain float32 ('<f4') or float64 ('<f8') array of shape (N, 6) or (N, 8)";
        }
        if (key == "descr" && value.kind == NpyValue::Kind::string) {
          descr = value.text;
        } else if (key == "fortran_order" && value.kind == NpyValue::Kind::boolean) {
          fortran_order = value.flag;
        } else if (key == "shape" && value.kind == NpyValue::Kind::tuple) {
          shape = value.dims;
        } else if (key == "descr" || key == "fortran_order" || key == "shape") {
          return "'" + key + "' has a value of the wrong type";
        } else {
          return "unexpected key " + quoted(std::string_view(key)) + " in the header";
        }
        return std::nullopt;
      });
  if (syntax_error) return fail(StatusCode::parse_error, path, *syntax_error);
  if (!descr || !fortran_order || !shape) {
    return fail(StatusCode::parse_error, path, "the header lacks 'descr', 'fortran_order' or 'shape'");
  }

  // The byte-order mark: '<' little, '>' big, '=' and '|' (and none) the machine's own.
  const std::string_view type = *descr;
  const bool has_mark = !type.empty() && std::strchr("<>=|", type[0]) != nullptr;
  const std::string_view kind = has_mark ? type.substr(1) : type;
  const bool big_endian = has_mark ? type[0] == '>' || (type[0] != '<' && std::endian::native == std::endian::big)
                                   : std::endian::native == std::endian::big;
  if (kind != "f4" && kind != "f8") {
    return fail(StatusCode::parse_error, path,
                "data type " + quoted(type) + " is not supported: the rays must be float32 ('<f4') or float64 ('<f8')");
  }
  if (big_endian) {
    return fail(StatusCode::parse_error, path,
                "big-endian data (" + quoted(type) + ") is not supported: save the rays as little-endian");
  }
  if (*fortran_order) {
    return fail(StatusCode::parse_error, path,
                "Fortran-ordered (column-major) arrays are not supported: save a C-ordered array");
  }
  if (shape->size() != 2 || !is_ray_column_count((*shape)[1])) {
    return fail(StatusCode::parse_error, path,
                "shape " + shape_text(*shape) + " is not (N, 6) or (N, 8): one ray per row, origin, direction "
                "and optionally tmin, tmax");
  }

  const std::uint64_t rows = (*shape)[0];
  const std::size_t columns = static_cast<std::size_t>((*shape)[1]);
  const std::size_t item_size = kind == "f4" ? 4 : 8;
  const std::uint64_t row_bytes = columns * item_size;
  const std::uint64_t data_bytes = file.size() - data_start;
  const std::uint64_t max_rows = std::numeric_limits<std::uint64_t>::max() / row_bytes;
  if (rows > max_rows || rows * row_bytes != data_bytes) {
    const std::string needed = rows > max_rows ? "more than 2^64" : std::to_string(rows * row_bytes);
    return fail(StatusCode::parse_error, path,
                std::string(rows > data_bytes / row_bytes ? "truncated" : "size mismatch") + ": the shape " +
                    shape_text(*shape) + " of " + std::string(type) + " needs " + needed +
                    " bytes of data, the file holds " + std::to_string(data_bytes));
  }

  std::vector<Rayf> rays(static_cast<std::size_t>(rows));
  const unsigned char* data = bytes + data_start;
  double row[8];
  for (std::size_t r = 0; r < rays.size(); ++r) {
    for (std::size_t c = 0; c < columns; ++c) {
      const unsigned char* item = data + (r * columns + c) * item_size;
      row[c] = item_size == 4 ? double{load_little_endian<float>(item)} : load_little_endian<double>(item);
    }
    rays[r] = ray_from_row(row, columns);
  }
  return rays;
}

std::string npy_bytes(std::span<const HitRow> rows) {
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(rows.size()) + ", 7), }";
  // numpy pads the header with spaces and a newline so that the data starts 64-byte aligned.
  const std::size_t unpadded = kNpyMagic.size() + 4 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string bytes(kNpyMagic);
  bytes += {'\x01', '\x00', static_cast<char>(header.size() & 0xFF), static_cast<char>(header.size() >> 8)};
  bytes += header;
  bytes.reserve(bytes.size() + rows.size() * 7 * 8);
  for (const HitRow& row : rows) {
    for (const double value : {row.t, row.prim, row.u, row.v, row.nx, row.ny, row.nz}) {
      const auto bits = std::bit_cast<std::uint64_t>(value);
      for (int i = 0; i < 8; ++i) bytes += static_cast<char>((bits >> (8 * i)) & 0xFF);
    }
  }
  return bytes;
}

}  // namespace hitscan::io::ray_file
