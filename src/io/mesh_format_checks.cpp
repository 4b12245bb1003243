// The format pre-checks of load_mesh(): each reads the file as one of assimp 5.2's readers would,
// and refuses what that reader would crash on, hang on, over-allocate for or silently misread.

#include "mesh_format_checks.hpp"

#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string_view>
#include <system_error>
#include <vector>

#include "mesh_load_errors.hpp"
#include "regular_file.hpp"

namespace hitscan::io::detail {
namespace {

namespace fs = std::filesystem;

// The extension of `path` in lower case, with its dot.
std::string lowercase_extension(const std::string& path) {
  std::string extension = fs::path(path).extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return extension;
}

// What the messages call the file the loader expects.
constexpr std::string_view kMeshFile = "mesh file";

// The whole file, or its first `max_bytes`, for the format checks below, which read it only once
// the format applies. check_readable has let the path through, but it may have changed since.
Result<std::string> file_text(const std::string& path,
                              std::size_t max_bytes = std::numeric_limits<std::size_t>::max()) {
  return read_regular_file(path, kMeshFile, max_bytes);
}

}  // namespace

Status check_readable(const std::string& path) { return open_regular_file(path, kMeshFile).status(); }

// ---- OFF ----------------------------------------------------------------------------------------

namespace {

// assimp's line ends, and its spaces.
bool off_line_end(char c) { return c == '\n' || c == '\r' || c == '\0' || c == '\f'; }
bool off_space(char c) { return c == ' ' || c == '\t'; }

// The vertex and face counts of an OFF file's header, read as assimp 5.2's OFF reader reads
// them, or nothing when its reader would refuse the header. The reader skips spaces, line ends
// and '#' lines between tokens; takes the leading characters "ST", 'C', 'N', '4' and 'n' of the
// first token as flags, even when no "OFF" follows (so "40 60 0" announces 0 vertices); reads a
// dimension after an 'n'; then reads the vertex, face and edge counts as the digits each token
// begins with, and begins its vertex lines where the next token begins, on the same line if the
// header line holds more.
std::optional<OffCounts> off_header_counts(std::string_view text) {
  std::size_t at = 0;
  const auto next_token = [&]() {
    for (;;) {
      while (at < text.size() && (off_space(text[at]) || (off_line_end(text[at]) && text[at] != '\0'))) ++at;
      if (at >= text.size() || text[at] != '#') return;
      while (at < text.size() && !off_line_end(text[at])) ++at;  // a comment line
    }
  };
  const auto digits = [&]() {  // assimp's strtoul10, without its 32-bit wrap: larger is refused later
    std::uint64_t value = 0;
    for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
      value = value > (std::uint64_t(1) << 40) ? value : value * 10 + std::uint64_t(text[at] - '0');
    }
    return value;
  };
  const auto has = [&](std::string_view prefix) { return text.substr(at).starts_with(prefix); };
  next_token();
  bool dimension = false;
  if (has("ST")) at += 2;
  if (has("C")) ++at;
  if (has("N")) ++at;
  if (has("4")) ++at;
  if (has("n")) ++at, dimension = true;
  if (has("OFF")) {
    at += 3;
    next_token();
  } else {
    next_token();
    if (at >= text.size() || text[at] < '0' || text[at] > '9') return std::nullopt;
  }
  if (dimension) {
    if (digits() > 3) return std::nullopt;
    next_token();
  }
  OffCounts counts;
  next_token();
  counts.vertices = digits();
  next_token();
  counts.faces = digits();
  next_token();
  digits();  // the edge count
  next_token();
  if (counts.vertices == 0 || counts.faces == 0) return std::nullopt;
  counts.body = at;
  return counts;
}

// assimp 5.2's OFF reader (GetNextLine): from `at`, the next line, ending at '\n', '\r', '\0' or
// '\f' or after 4095 characters, with the line ends after it skipped (but '\0', which ends its
// buffer); false at the end.
bool next_off_line(std::string_view text, std::size_t& at, std::string_view& line) {
  if (at >= text.size() || text[at] == '\0') return false;
  const std::size_t begin = at;
  while (at < text.size() && !off_line_end(text[at]) && at - begin < 4095) ++at;
  line = text.substr(begin, at - begin);
  while (at < text.size() && off_line_end(text[at]) && text[at] != '\0') ++at;
  return true;
}

// assimp 5.2's OFF reader takes a face line that does not begin with a corner count from 1 to 9
// as no face, lowers its face count and reads on: with more such lines than faces the count
// wraps below zero and it reads far past its face array (a crash). It reads each face line
// after skipping spaces, as the digits it begins with. So each of the faces the header
// announces must have a line that begins with a count from 1 to 9.
Status check_off_face_lines(const std::string& path, std::string_view text, const OffCounts& counts) {
  std::size_t at = counts.body;
  std::string_view line;
  for (std::uint64_t vertex = 0; vertex < counts.vertices; ++vertex) {
    if (!next_off_line(text, at, line)) return Status::success();  // assimp says the file is short
  }
  for (std::uint64_t face = 0; face < counts.faces; ++face) {
    if (!next_off_line(text, at, line)) return Status::success();  // assimp says the file is short
    std::size_t i = 0;
    while (i < line.size() && off_space(line[i])) ++i;
    std::uint64_t corners = 0;
    const std::size_t first = i;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9' && corners <= 9) corners = corners * 10 + std::uint64_t(line[i++] - '0');
    const auto where = [&] {  // counted only for the message
      return "face " + std::to_string(face) + " (line " + std::to_string(1 + std::count(text.data(), line.data(), '\n')) + ")";
    };
    if (i == first || corners == 0) {
      return fail(StatusCode::parse_error, path, where() + " does not begin with its number of corners");
    }
    if (corners > 9) {
      return fail(StatusCode::parse_error, path,
                  where() + " has " + (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])) ? "more than 9" : std::to_string(corners)) +
                      " corners; assimp reads OFF faces of at most 9");
    }
  }
  return Status::success();
}

// The first word of the file, as `std::istream >> std::string` reads it: spaces skipped, then up
// to the next space or the end.
std::string read_first_word(std::FILE* file) {
  std::string word;
  int c = std::fgetc(file);
  while (c != EOF && std::isspace(c)) c = std::fgetc(file);
  for (; c != EOF && !std::isspace(c); c = std::fgetc(file)) word += static_cast<char>(c);
  return word;
}

}  // namespace

// assimp 5.2's OFF reader allocates what the header announces before reading anything: a 310-byte
// file announcing 10^11 vertices takes it 16 GB and half a minute to reject. So the header must
// read, and announce no more than the file can hold. Every vertex takes
// at least 5 bytes ("0 0 0") and every face 1, so a header that announces more than the file
// can hold is rejected here first. Applies to the files assimp reads as OFF: named .off, or
// beginning with the keyword. `announced` receives the counts, for check_off_face_count.
Status check_off_header(const std::string& path, std::optional<OffCounts>& announced) {
  Result<FileHandle> file = open_regular_file(path, kMeshFile);
  if (!file.ok()) return file.status();
  const std::string first_word = read_first_word(file.value().get());
  if (lowercase_extension(path) != ".off" && !(first_word.size() >= 3 && first_word.ends_with("OFF"))) {
    return Status::success();
  }
  if (first_word.empty()) return Status::success();  // assimp reports an empty file
  const Result<std::string> read = file_text(path);
  if (!read.ok()) return read.status();
  const std::string& text = read.value();
  const std::optional<OffCounts> counts = off_header_counts(text);
  if (!counts) return Status::success();  // assimp refuses the header itself
  announced = counts;
  if (counts->vertices > text.size() / 5 || counts->faces > text.size() - 5 * counts->vertices) {
    return fail(StatusCode::parse_error, path,
                "the OFF header announces " + std::to_string(counts->vertices) + " vertices and " +
                    std::to_string(counts->faces) + " faces, more than a file of " + std::to_string(text.size()) +
                    " bytes can hold (is it truncated?)");
  }
  return check_off_face_lines(path, text, *counts);
}

// assimp 5.2's OFF reader drops a face of more than 9 corners (or of none) and only logs it,
// which would shift every later triangle. check_off_face_lines rejects such faces beforehand;
// this second line of defence compares the header's face count with what assimp read.
Status check_off_face_count(const aiScene& scene, const std::string& path, const std::optional<OffCounts>& announced) {
  // The OFF reader names its root node so; no other reader does.
  if (scene.mRootNode == nullptr || std::string_view(scene.mRootNode->mName.C_Str()) != "<OFFRoot>") {
    return Status::success();
  }
  std::uint64_t read = 0;
  for (unsigned int i = 0; i < scene.mNumMeshes; ++i) read += scene.mMeshes[i]->mNumFaces;
  if (announced && read < announced->faces) {
    return fail(StatusCode::parse_error, path,
                "the OFF header announces " + std::to_string(announced->faces) + " faces but assimp read " +
                    std::to_string(read) + " (it drops faces of more than 9 corners or of none)");
  }
  return Status::success();
}

// ---- PLY ----------------------------------------------------------------------------------------

namespace {


// assimp 5.2's PLY reader is unsafe on two kinds of header, which are checked here first, line by
// line up to end_header (where the reader stops too), for the files it will read as PLY (by
// their extension, or by the "ply" that begins every PLY file). Without an end_header line (a
// file cut inside its header) it never returns: it keeps reading at the end of the file. With an
// element declared twice ("element vertex" twice, say) it writes the elements of both into room
// for the first: a heap overflow.
// assimp 5.2 also allocates what a PLY file announces before reading it: each element's count,
// and each list's number of entries. The counts are checked against the bytes after the header
// first: an element instance takes at least a byte per property, and a list entry at least one.
// A PLY value type: its size in binary files and how assimp reads it in ASCII ones (strtoul10,
// strtol10 or fast_atoreal_move).
enum class PlyKind { none, unsigned_int, signed_int, real };
struct PlyType {
  int size = 0;  // 0: not a type assimp reads
  PlyKind kind = PlyKind::none;
};
struct PlyProperty {
  PlyType count;  // a list's count; size 0 for a scalar property
  PlyType item;   // the value, or each list entry
  bool is_list() const { return count.size > 0; }
};
struct PlyElement {
  std::string name;
  std::uint64_t count = 0;
  std::vector<PlyProperty> properties;
};

// The type names assimp 5.2 reads (PLY::Property::ParseDataType).
PlyType ply_type(std::string_view name) {
  using K = PlyKind;
  if (name == "char" || name == "int8") return {1, K::signed_int};
  if (name == "uchar" || name == "uint8") return {1, K::unsigned_int};
  if (name == "short" || name == "int16") return {2, K::signed_int};
  if (name == "ushort" || name == "uint16") return {2, K::unsigned_int};
  if (name == "int" || name == "int32") return {4, K::signed_int};
  if (name == "uint" || name == "uint32") return {4, K::unsigned_int};
  if (name == "float" || name == "float32") return {4, K::real};
  if (name == "double" || name == "float64" || name == "double64") return {8, K::real};
  return {};
}

// A count as assimp reads it from a PLY word: the digits it begins with, after a sign (0 when there
// are none). A negative count, which assimp turns into an unsigned one near 2^32, and one beyond
// 2^64 come out as the largest count.
std::uint64_t ply_count(std::string_view word) {
  const std::size_t at = word.empty() || (word[0] != '-' && word[0] != '+') ? 0 : 1;
  const bool negative = at == 1 && word[0] == '-';
  std::uint64_t count = 0;
  const std::string_view digits = word.substr(at);
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
  if (error == std::errc::result_out_of_range || (negative && count != 0)) return std::numeric_limits<std::uint64_t>::max();
  return error == std::errc() ? count : 0;
}

// The lines of a PLY file as assimp 5.2 reads them (IOStreamBuffer::getNextLine): a line ends at
// '\n', '\r', '\0' or '\f', and where a line would begin with one of these, everything up to
// and including the next '\n' is skipped first ("\r\n" ends one line; of two empty lines in a
// row, the first is skipped). Its words are separated by spaces and tabs, as assimp's are.
class PlyLines {
 public:
  explicit PlyLines(std::string_view text) : text_(text) {}
  // The next line, or false at the end of the text.
  bool next(std::string_view& line) {
    if (at_ < text_.size() && ends_line(text_[at_])) {
      const std::size_t newline = text_.find('\n', at_);
      if (newline == std::string_view::npos) return false;
      at_ = newline + 1;
    }
    if (at_ >= text_.size()) return false;
    const std::size_t begin = at_;
    while (at_ < text_.size() && !ends_line(text_[at_])) ++at_;
    line = text_.substr(begin, at_ - begin);
    terminated_ = at_ < text_.size();
    ++at_;  // past the line's end
    return true;
  }
  // Whether the last line read ended with a line end, not with the file.
  bool terminated() const { return terminated_; }
  // Where the next line begins (for the binary body after the header).
  std::size_t position() const { return std::min(at_, text_.size()); }

  // The words of `line` into `out` (cleared first; reused from line to line).
  static void words(std::string_view line, std::vector<std::string_view>& out) {
    out.clear();
    for (std::size_t at = 0; at < line.size();) {
      while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
      const std::size_t begin = at;
      while (at < line.size() && line[at] != ' ' && line[at] != '\t') ++at;
      if (at > begin) out.push_back(line.substr(begin, at - begin));
    }
  }

 private:
  static bool ends_line(char c) { return c == '\n' || c == '\r' || c == '\0' || c == '\f'; }
  std::string_view text_;
  std::size_t at_ = 0;
  bool terminated_ = false;
};

// Whether assimp 5.2 reads all of `word` as one value of this kind. Its readers take the longest
// prefix they can and leave the rest for the next value (a digit string too long for its 64-bit
// reader is not taken at all), which would shift every later value of the line and, once the
// line's words run out, go on into bytes its line buffer kept from earlier lines.
bool whole_ply_value(std::string_view word, PlyKind kind) {
  std::size_t at = 0;
  const auto digits = [&]() {
    const std::size_t begin = at;
    while (at < word.size() && word[at] >= '0' && word[at] <= '9') ++at;
    return at - begin;
  };
  const auto sign = [&]() {
    if (at < word.size() && (word[at] == '+' || word[at] == '-')) ++at;
  };
  const auto next_is = [&](std::string_view text) {  // case-insensitively
    if (word.size() - at < text.size()) return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (std::tolower(static_cast<unsigned char>(word[at + i])) != text[i]) return false;
    }
    return true;
  };
  constexpr std::size_t kMostDigits = 19;  // below 2^64, so the 64-bit reader takes them
  switch (kind) {
    case PlyKind::none: return false;
    case PlyKind::unsigned_int: return digits() > 0 && at == word.size();
    case PlyKind::signed_int: sign(); return digits() > 0 && at == word.size();
    case PlyKind::real: break;
  }
  sign();
  if (next_is("nan")) return word.size() - at == 3;
  if (next_is("inf")) {
    at += 3;
    return at == word.size() || (next_is("inity") && word.size() - at == 5);
  }
  const std::size_t whole = digits();
  if (whole > kMostDigits) return false;
  const bool point = at + 1 < word.size() && (word[at] == '.' || word[at] == ',') && std::isdigit(static_cast<unsigned char>(word[at + 1]));
  if (whole == 0 && !point) return false;
  if (point) {
    ++at;
    digits();
  }
  if (at < word.size() && (word[at] == 'e' || word[at] == 'E')) {
    ++at;
    sign();
    const std::size_t exponent = digits();
    if (exponent == 0 || exponent > kMostDigits) return false;
  }
  return at == word.size();
}

// An ASCII PLY body, as assimp 5.2 reads it: a line per element instance (PlyLines), its values
// in the order of the element's properties. assimp reads a line that holds fewer values on into
// bytes its line buffer kept from earlier lines, reads the last line again for instances the file
// has no lines for, and takes values of a word it cannot read whole from the next word: a list's
// count read that way asked for 26 GB. So every line of the elements assimp reads (vertex, face,
// tristrips, edge, material) must hold exactly its values, each read whole, and every element
// must have its lines; a list then holds no more entries than its line.
Status check_ply_ascii_body(const std::string& path, PlyLines lines, std::size_t line_number,
                            const std::vector<PlyElement>& elements) {
  std::string_view line;
  std::vector<std::string_view> words;
  for (const PlyElement& element : elements) {
    const bool read = !element.properties.empty() && (element.name == "vertex" || element.name == "face" ||
                                                      element.name == "tristrips" || element.name == "edge" ||
                                                      element.name == "material");
    const std::string name = element.name.substr(0, 40);
    for (std::uint64_t i = 0; i < element.count; ++i) {
      if (!lines.next(line)) {
        return fail(StatusCode::parse_error, path,
                    "the PLY file ends before " + name + " " + std::to_string(i) + " of its " +
                        std::to_string(element.count) + " (is it truncated?)");
      }
      ++line_number;
      if (!read) continue;  // assimp skips the line
      PlyLines::words(line, words);
      const std::string where = "PLY " + name + " " + std::to_string(i) + " (line " + std::to_string(line_number) + ")";
      const auto held = [&] { return where + " holds " + std::to_string(words.size()) + " values, "; };
      std::size_t w = 0;  // the next word
      for (const PlyProperty& p : element.properties) {
        std::uint64_t values = 1;
        if (p.is_list()) {
          if (w == words.size()) return fail(StatusCode::parse_error, path, held() + "fewer than its properties take");
          const std::string_view count = words[w++];
          if (!whole_ply_value(count, p.count.kind) || count[0] == '-') {
            return fail(StatusCode::parse_error, path, where + " has a list length that is not a count");
          }
          values = ply_count(count);
          if (values > words.size() - w) {
            return fail(StatusCode::parse_error, path,
                        where + " announces a list of " +
                            (values == std::numeric_limits<std::uint64_t>::max() ? std::string("more than 2^64")
                                                                                 : std::to_string(values)) +
                            " entries but its line holds " + std::to_string(words.size() - w) + " more values");
          }
        }
        for (std::uint64_t k = 0; k < values; ++k) {
          if (w == words.size()) return fail(StatusCode::parse_error, path, held() + "fewer than its properties take");
          if (!whole_ply_value(words[w++], p.item.kind)) {
            return fail(StatusCode::parse_error, path, where + " holds a value that is not a number of its type");
          }
        }
      }
      if (w != words.size()) {
        return fail(StatusCode::parse_error, path, held() + "more than its properties take (" + std::to_string(w) + ")");
      }
    }
  }
  return Status::success();
}

// The list lengths of a binary PLY body, each checked against the bytes left after it.
Status check_ply_binary_lists(const std::string& path, std::string_view body, const std::vector<PlyElement>& elements,
                              bool big_endian) {
  std::size_t at = 0;  // the next unread byte of the body
  for (const PlyElement& element : elements) {
    if (std::none_of(element.properties.begin(), element.properties.end(),
                     [](const PlyProperty& p) { return p.is_list(); })) {  // fixed size: skip it whole
      std::uint64_t size = 0;
      for (const PlyProperty& p : element.properties) size += static_cast<std::uint64_t>(p.item.size);
      if (size * element.count > body.size() - at) return Status::success();
      at += static_cast<std::size_t>(size * element.count);
      continue;
    }
    for (std::uint64_t i = 0; i < element.count; ++i) {
      for (const PlyProperty& p : element.properties) {
        const int size = p.is_list() ? p.count.size : p.item.size;
        if (static_cast<std::size_t>(size) > body.size() - at) return Status::success();  // truncated
        if (!p.is_list()) {
          at += static_cast<std::size_t>(size);
          continue;
        }
        std::uint64_t entries = 0;
        for (int b = 0; b < size; ++b) {
          const auto byte = static_cast<unsigned char>(body[at + static_cast<std::size_t>(big_endian ? b : size - 1 - b)]);
          entries = entries << 8 | byte;
        }
        at += static_cast<std::size_t>(size);
        const std::uint64_t left = body.size() - at;
        if (entries > left / static_cast<std::uint64_t>(p.item.size)) {
          return fail(StatusCode::parse_error, path,
                      "PLY " + element.name.substr(0, 40) + " " + std::to_string(i) + " announces a list of " +
                          std::to_string(entries) + " entries, more than the " + std::to_string(left) +
                          " bytes left in the file hold");
        }
        at += static_cast<std::size_t>(entries * static_cast<std::uint64_t>(p.item.size));
      }
    }
  }
  return Status::success();
}

}  // namespace

// Both checks of PLY files, over one reading of the header, whose lines are split as assimp
// splits them.
Status check_ply(const std::string& path) {
  std::string_view line;
  if (lowercase_extension(path) != ".ply") {  // a PLY by its first line: read the file only then
    const Result<std::string> start = file_text(path, 4096);
    if (!start.ok()) return start.status();
    PlyLines head(start.value());
    if (!head.next(line) || !line.starts_with("ply")) return Status::success();
  }
  const Result<std::string> read = file_text(path);
  if (!read.ok()) return read.status();
  const std::string& text = read.value();
  PlyLines lines(text);
  if (!lines.next(line)) return Status::success();  // empty: assimp reports it
  std::string_view format;
  std::vector<PlyElement> elements;
  // As assimp reads a header: an element's properties are the property lines right after it
  // (comments aside), up to the first line that is not a property it can read; property lines
  // after that belong to nothing.
  bool taking = false;
  bool ended = false;
  std::size_t header_lines = 1;
  std::vector<std::string_view> words;
  while (lines.next(line)) {
    ++header_lines;
    PlyLines::words(line, words);
    const std::string_view keyword = words.empty() ? std::string_view() : words[0];
    const auto word = [&](std::size_t i) { return i < words.size() ? words[i] : std::string_view(); };
    if (keyword == "end_header") {
      // assimp 5.2 may not see an end_header that ends the file (it then reads on forever).
      ended = lines.terminated();
      break;
    }
    if (keyword == "comment") continue;
    const bool after_element = taking;
    taking = false;
    if (keyword == "format") {
      format = word(1);
    } else if (keyword == "element") {
      const std::string name(word(1));
      if (std::any_of(elements.begin(), elements.end(), [&](const PlyElement& e) { return e.name == name; })) {
        std::string shown = name.substr(0, 40);  // the file's bytes: short and printable in the message
        for (char& c : shown) c = std::isprint(static_cast<unsigned char>(c)) ? c : '?';
        return fail(StatusCode::parse_error, path,
                    "the PLY header declares element '" + shown + "' twice, which assimp cannot read safely");
      }
      elements.push_back(PlyElement{name, ply_count(word(2)), {}});
      taking = true;
    } else if (keyword == "property" && after_element) {
      PlyProperty property;
      const bool list = word(1) == "list";
      if (list) {
        property.count = ply_type(word(2));
        property.item = ply_type(word(3));
      } else {
        property.item = ply_type(word(1));
      }
      // A type assimp cannot read, or no name, ends the element's properties.
      taking = property.item.size > 0 && (!list || property.count.size > 0) && !word(list ? 4 : 2).empty();
      if (taking) elements.back().properties.push_back(property);
    }
  }
  if (!ended) return fail(StatusCode::parse_error, path, "the PLY header has no end_header line (is the file truncated?)");
  const std::string_view body = std::string_view(text).substr(lines.position());
  for (const PlyElement& element : elements) {
    const std::uint64_t least = std::max<std::uint64_t>(element.properties.size(), 1);
    if (element.count > body.size() / least) {
      return fail(StatusCode::parse_error, path,
                  "the PLY header announces " + std::to_string(element.count) + " " + element.name.substr(0, 40) +
                      " elements, more than the " + std::to_string(body.size()) + " bytes after it hold");
    }
  }
  if (format == "ascii") return check_ply_ascii_body(path, lines, header_lines, elements);
  if (format == "binary_big_endian" || format == "binary_little_endian") {
    return check_ply_binary_lists(path, body, elements, format == "binary_big_endian");
  }
  return Status::success();
}

// ---- GLB ----------------------------------------------------------------------------------------

// assimp 5.2 allocates the room a binary glTF (GLB) file announces for its JSON and binary chunks
// before it reads them: 4 GB for an 882-byte file whose JSON chunk claims 0xfffc02a4 bytes. The
// announced sizes are checked against the file first, for every file that begins with "glTF"
// (whatever its name). GLB 2.0 is a 12-byte header (magic, version, total length) and chunks of
// (length, type, data); glTF 1.0's binary form has a 20-byte header whose last two words are the
// JSON's length and format.
Status check_glb_header(const std::string& path) {
  const Result<FileHandle> opened = open_regular_file(path, kMeshFile);
  if (!opened.ok()) return opened.status();
  std::FILE* file = opened.value().get();
  unsigned char bytes[12];
  if (std::fread(bytes, 1, sizeof bytes, file) != sizeof bytes || std::memcmp(bytes, "glTF", 4) != 0) {
    return Status::success();
  }
  const auto word = [](const unsigned char* p) {
    return std::uint64_t{p[0]} | std::uint64_t{p[1]} << 8 | std::uint64_t{p[2]} << 16 | std::uint64_t{p[3]} << 24;
  };
  std::error_code error;
  const std::uint64_t size = fs::file_size(path, error);
  if (error) return Status::success();  // check_readable has let it through; assimp reports it
  const std::uint64_t version = word(bytes + 4);
  const std::uint64_t length = word(bytes + 8);
  if (length > size) {
    return fail(StatusCode::parse_error, path,
                "the GLB header announces " + std::to_string(length) + " bytes but the file has " +
                    std::to_string(size) + " (is it truncated?)");
  }
  // Both versions put a (length, type) pair at byte 12 and the JSON after it; GLB 2.0 chains
  // further chunks the same way, glTF 1.0 follows the JSON with the binary body.
  for (std::uint64_t offset = 12, chunk = 0; offset + 8 <= length; ++chunk) {
    unsigned char pair[8];
    if (offset > static_cast<std::uint64_t>(std::numeric_limits<long>::max()) ||
        std::fseek(file, static_cast<long>(offset), SEEK_SET) != 0 || std::fread(pair, 1, sizeof pair, file) != sizeof pair) {
      break;
    }
    const std::uint64_t end = offset + 8 + word(pair);
    if (end > length) {
      return fail(StatusCode::parse_error, path,
                  "GLB chunk " + std::to_string(chunk) + " announces " + std::to_string(word(pair)) +
                      " bytes, past the file's length of " + std::to_string(length));
    }
    if (version == 1) break;
    offset = end;
  }
  return Status::success();
}

// ---- STL ----------------------------------------------------------------------------------------

// A binary STL is an 80-byte header, a 4-byte little-endian triangle count n and 50 bytes per
// triangle. assimp 5.2 reads an STL as binary only when it is exactly 84 + 50 n bytes long; any
// other it reads as ASCII if it begins with "solid" (as some binary headers do), or else rejects
// with "Failed to determine STL storage representation". So a binary STL cut short fails with
// that riddle, or is read as text into nonsense. A file named .stl whose first bytes hold a
// control character (NULs pad binary headers, and counts and floats hold them; text never does)
// is binary, and is checked here to hold what its count announces. Text is left to assimp's
// ASCII reader whatever it begins with; bytes above 127 are UTF-8 text, as in a solid's name.
Status check_stl_size(const std::string& path) {
  if (lowercase_extension(path) != ".stl") return Status::success();
  constexpr std::size_t kHeader = 84, kTriangle = 50;
  const Result<std::string> head = file_text(path, 512);
  if (!head.ok()) return head.status();
  const std::string& bytes = head.value();
  const bool text = std::none_of(bytes.begin(), bytes.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && std::string_view("\t\n\v\f\r").find(c) == std::string_view::npos) || byte == 0x7f;
  });
  if (bytes.empty() || text) return Status::success();
  std::error_code error;
  const std::uint64_t size = fs::file_size(path, error);
  if (error) return Status::success();  // assimp reports it
  if (size < kHeader) {
    return fail(StatusCode::parse_error, path,
                "truncated binary STL: the file has " + std::to_string(size) + " bytes, fewer than the " +
                    std::to_string(kHeader) + " of the header and triangle count");
  }
  if (bytes.size() < kHeader) return Status::success();  // shortened since: assimp reports it
  std::uint64_t triangles = 0;
  for (std::size_t i = 0; i < 4; ++i) triangles |= std::uint64_t{static_cast<unsigned char>(bytes[80 + i])} << (8 * i);
  const std::uint64_t expected = kHeader + kTriangle * triangles;
  if (expected > size) {
    return fail(StatusCode::parse_error, path,
                "truncated binary STL: the header announces " + std::to_string(triangles) + " triangles, which take " +
                    std::to_string(expected) + " bytes (84 + 50 per triangle), but the file has " +
                    std::to_string(size));
  }
  return Status::success();
}

}  // namespace hitscan::io::detail
