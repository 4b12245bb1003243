#include "hitscan/io/mesh_loader.hpp"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <limits>
#include <new>
#include <optional>
#include <sstream>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include "child_process.hpp"
#include "regular_file.hpp"
#include "polygon_triangulation.hpp"
#include "hitscan/math/mat3.hpp"

namespace hitscan::io {
namespace {

namespace fs = std::filesystem;

Status fail(StatusCode code, const std::string& path, const std::string& reason) {
  return Status{code, path + ": " + reason};
}

// x -> linear x + offset, in double so that a chain of node transforms adds no float rounding.
struct Affine {
  Mat3d linear = Mat3d::identity();
  Vec3d offset{};

  bool is_identity() const {
    return linear.col[0] == Vec3d{1, 0, 0} && linear.col[1] == Vec3d{0, 1, 0} && linear.col[2] == Vec3d{0, 0, 1} &&
           offset == Vec3d{};
  }
  Vec3d apply(Vec3d p) const { return linear * p + offset; }
  // The inverse transpose up to a positive factor: the cofactor matrix, whose columns are the
  // cross products of the linear part's columns, times the sign of the determinant.
  Vec3d apply_to_normal(Vec3d n) const {
    const Vec3d& c0 = linear.col[0];
    const Vec3d& c1 = linear.col[1];
    const Vec3d& c2 = linear.col[2];
    const Vec3d cofactor_n = cross(c1, c2) * n.x + cross(c2, c0) * n.y + cross(c0, c1) * n.z;
    return linear.determinant() < 0 ? -cofactor_n : cofactor_n;
  }
  // this after inner: x -> this(inner(x)).
  Affine then_inner(const Affine& inner) const { return {linear * inner.linear, linear * inner.offset + offset}; }
};

// assimp's matrices are row-major and act on column vectors; the bottom row of a node transform
// is (0, 0, 0, 1).
Affine affine_from(const aiMatrix4x4& m) {
  Affine a;
  a.linear = Mat3d::from_columns({m.a1, m.b1, m.c1}, {m.a2, m.b2, m.c2}, {m.a3, m.b3, m.c3});
  a.offset = {m.a4, m.b4, m.c4};
  return a;
}

struct Placement {
  const aiMesh* mesh = nullptr;
  Affine transform;
  const aiNode* node = nullptr;  // none without node transforms
};

// Parts in the order described in the header: a depth-first, pre-order walk of the node graph,
// or the scene's own list. An explicit stack keeps a deep graph from exhausting the call stack.
Result<std::vector<Placement>> place_parts(const aiScene& scene, bool apply_node_transforms, const std::string& path) {
  std::vector<Placement> placements;
  if (!apply_node_transforms) {
    for (unsigned int i = 0; i < scene.mNumMeshes; ++i) placements.push_back({scene.mMeshes[i], Affine{}, nullptr});
    return placements;
  }
  if (scene.mRootNode == nullptr) return placements;
  std::vector<std::pair<const aiNode*, Affine>> stack;
  stack.emplace_back(scene.mRootNode, affine_from(scene.mRootNode->mTransformation));
  while (!stack.empty()) {
    const auto [node, transform] = stack.back();
    stack.pop_back();
    for (unsigned int i = 0; i < node->mNumMeshes; ++i) {
      const unsigned int index = node->mMeshes[i];
      if (index >= scene.mNumMeshes) {
        return fail(StatusCode::parse_error, path, "a scene node refers to mesh " + std::to_string(index) +
                                                       " but the file has " + std::to_string(scene.mNumMeshes));
      }
      placements.push_back({scene.mMeshes[index], transform, node});
    }
    // Pushed in reverse so that the first child is visited first.
    for (unsigned int i = node->mNumChildren; i-- > 0;) {
      const aiNode* child = node->mChildren[i];
      if (child != nullptr) stack.emplace_back(child, transform.then_inner(affine_from(child->mTransformation)));
    }
  }
  return placements;
}

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
  return detail::read_regular_file(path, kMeshFile, max_bytes);
}

struct OffCounts {
  std::uint64_t vertices = 0;
  std::uint64_t faces = 0;
  std::size_t body = 0;  // the byte where assimp begins reading vertex lines
};

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

// assimp 5.2's OFF reader allocates what the header announces before reading anything: a 310-byte
// file announcing 10^11 vertices takes it 16 GB and half a minute to reject. So the header must
// read, and announce no more than the file can hold. Every vertex takes
// at least 5 bytes ("0 0 0") and every face 1, so a header that announces more than the file
// can hold is rejected here first. Applies to the files assimp reads as OFF: named .off, or
// beginning with the keyword. `announced` receives the counts, for check_off_face_count.
Status check_off_header(const std::string& path, std::optional<OffCounts>& announced) {
  Result<detail::FileHandle> file = detail::open_regular_file(path, kMeshFile);
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

// assimp 5.2 allocates the room a binary glTF (GLB) file announces for its JSON and binary chunks
// before it reads them: 4 GB for an 882-byte file whose JSON chunk claims 0xfffc02a4 bytes. The
// announced sizes are checked against the file first, for every file that begins with "glTF"
// (whatever its name). GLB 2.0 is a 12-byte header (magic, version, total length) and chunks of
// (length, type, data); glTF 1.0's binary form has a 20-byte header whose last two words are the
// JSON's length and format.
Status check_glb_header(const std::string& path) {
  const Result<detail::FileHandle> opened = detail::open_regular_file(path, kMeshFile);
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

// Before anything reads the file: a device, named pipe or socket is refused here, at once.
Status check_readable(const std::string& path) { return detail::open_regular_file(path, kMeshFile).status(); }

// What the first pass over the parts found.
struct PartTotals {
  std::uint64_t vertices = 0;
  std::size_t triangles = 0;
  bool all_have_normals = true;
};

// Checks every face of every part (corners present, indices within the part) and counts, so
// that the second pass can allocate once and trust the data; the counts go into the report, part
// by part.
Result<PartTotals> check_parts(const std::vector<Placement>& placements, const std::string& path,
                               MeshLoadReport& report) {
  PartTotals totals;
  std::size_t face_number = 0;  // in the order of the result, for messages
  report.part_ranges.reserve(placements.size());
  for (const Placement& part : placements) {
    const aiMesh& mesh = *part.mesh;
    if ((mesh.mNumVertices > 0 && mesh.mVertices == nullptr) || (mesh.mNumFaces > 0 && mesh.mFaces == nullptr)) {
      return fail(StatusCode::parse_error, path, "assimp returned a mesh without its vertices or faces");
    }
    MeshPartRange& range = report.part_ranges.emplace_back();
    range.name = mesh.mName.C_Str();
    if (part.node != nullptr) range.node_name = part.node->mName.C_Str();
    range.first_vertex = static_cast<std::size_t>(totals.vertices);
    range.vertex_count = mesh.mNumVertices;
    range.first_triangle = totals.triangles;
    totals.vertices += mesh.mNumVertices;
    totals.all_have_normals = totals.all_have_normals && mesh.mNormals != nullptr;
    for (unsigned int f = 0; f < mesh.mNumFaces; ++f, ++face_number) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices == 0 || face.mIndices == nullptr) {
        return fail(StatusCode::parse_error, path,
                    "face " + std::to_string(face_number) + " has no corners (is the file truncated?)");
      }
      for (unsigned int c = 0; c < face.mNumIndices; ++c) {
        if (face.mIndices[c] >= mesh.mNumVertices) {
          return fail(StatusCode::parse_error, path,
                      "face " + std::to_string(face_number) + " refers to vertex " +
                          std::to_string(face.mIndices[c]) + " but its part has " +
                          std::to_string(mesh.mNumVertices) + " vertices");
        }
      }
      if (face.mNumIndices == 1) {
        ++range.points;
      } else if (face.mNumIndices == 2) {
        ++range.lines;
      } else {
        ++range.polygons;
        range.triangle_count += face.mNumIndices - 2;
      }
    }
    totals.triangles += range.triangle_count;
    report.points += range.points;
    report.lines += range.lines;
    report.polygons += range.polygons;
  }
  return totals;
}

// Reused from face to face and part to part, so that faces allocate only while they grow.
struct FaceScratch {
  std::vector<Vec3d> corners;
  std::vector<detail::PolygonTriangle> triangles;
  detail::PolygonScratch polygon;
};

// Appends one checked part: its vertices (transformed unless the transform is the identity, so
// that untransformed coordinates stay bit for bit the file's) and the triangles of its polygons.
// A face is triangulated in the part's own coordinates, so every placement of a part gets the
// same triangles.
void append_part(const Placement& part, bool with_normals, std::vector<Vec3f>& positions, std::vector<Vec3f>& normals,
                 std::vector<TriangleMesh::Indices>& triangles, FaceScratch& scratch) {
  const aiMesh& mesh = *part.mesh;
  const auto base = static_cast<std::uint32_t>(positions.size());
  const bool identity = part.transform.is_identity();
  for (unsigned int v = 0; v < mesh.mNumVertices; ++v) {
    const aiVector3D& p = mesh.mVertices[v];
    positions.push_back(identity ? Vec3f{p.x, p.y, p.z} : vec3_cast<float>(part.transform.apply({p.x, p.y, p.z})));
    if (with_normals) {
      const aiVector3D& n = mesh.mNormals[v];
      normals.push_back(identity ? Vec3f{n.x, n.y, n.z}
                                 : vec3_cast<float>(part.transform.apply_to_normal({n.x, n.y, n.z})));
    }
  }
  const bool mirrored = part.transform.linear.determinant() < 0;
  for (unsigned int f = 0; f < mesh.mNumFaces; ++f) {
    const aiFace& face = mesh.mFaces[f];
    if (face.mNumIndices < 3) continue;
    scratch.corners.clear();
    for (unsigned int c = 0; c < face.mNumIndices; ++c) {
      const aiVector3D& p = mesh.mVertices[face.mIndices[c]];
      scratch.corners.push_back({p.x, p.y, p.z});
    }
    scratch.triangles.resize(face.mNumIndices - 2);
    detail::triangulate_polygon(scratch.corners, scratch.triangles, scratch.polygon);
    for (const detail::PolygonTriangle& corner : scratch.triangles) {
      const std::uint32_t c0 = base + face.mIndices[corner[0]];
      const std::uint32_t ci = base + face.mIndices[corner[1]];
      const std::uint32_t cj = base + face.mIndices[corner[2]];
      triangles.push_back(mirrored ? TriangleMesh::Indices{c0, cj, ci} : TriangleMesh::Indices{c0, ci, cj});
    }
  }
}

// What the importer read, as load_mesh hands it to TriangleMesh::make.
struct Imported {
  std::vector<Vec3f> positions;
  std::vector<Vec3f> normals;
  std::vector<TriangleMesh::Indices> triangles;
};

// assimp's reading of the file and the parts it gives, made into one mesh's arrays. `on_read`
// runs once assimp's reader has returned.
Result<Imported> import_file(const std::string& path, const MeshLoadOptions& options,
                             const std::optional<OffCounts>& off_counts, MeshLoadReport& report,
                             const std::function<void()>& on_read) {
  Assimp::Importer importer;
  // Formats with a skeleton but no mesh (BVH, some MD5) would otherwise get a made-up mesh of bones.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  const aiScene* scene = importer.ReadFile(path, 0u);
  on_read();
  if (scene == nullptr) {
    const std::string reason = importer.GetErrorString();
    return fail(StatusCode::parse_error, path,
                "cannot read the file: " + (reason.empty() ? std::string("unknown assimp failure") : reason));
  }
  for (unsigned int i = 0; i < scene->mNumMeshes; ++i) {
    if (scene->mMeshes == nullptr || scene->mMeshes[i] == nullptr) {
      return fail(StatusCode::parse_error, path, "assimp returned a scene with a missing mesh");
    }
  }
  if (Status status = check_off_face_count(*scene, path, off_counts); !status.ok()) return status;

  const Result<std::vector<Placement>> placed = place_parts(*scene, options.apply_node_transforms, path);
  if (!placed.ok()) return placed.status();
  const std::vector<Placement>& placements = placed.value();
  report.parts = placements.size();
  const Result<PartTotals> checked = check_parts(placements, path, report);
  if (!checked.ok()) return checked.status();
  const PartTotals& totals = checked.value();
  if (totals.vertices > std::numeric_limits<std::uint32_t>::max()) {
    return fail(StatusCode::invalid_argument, path,
                std::to_string(totals.vertices) + " vertices are more than 32-bit indices can address");
  }
  if (totals.triangles == 0) {
    return fail(StatusCode::degenerate, path,
                "the file holds no triangles (points: " + std::to_string(report.points) +
                    ", line segments: " + std::to_string(report.lines) +
                    ", parts: " + std::to_string(placements.size()) + ")");
  }

  const bool with_normals = options.read_normals && totals.all_have_normals;
  Imported out;
  out.positions.reserve(static_cast<std::size_t>(totals.vertices));
  if (with_normals) out.normals.reserve(static_cast<std::size_t>(totals.vertices));
  out.triangles.reserve(totals.triangles);
  FaceScratch scratch;
  for (const Placement& part : placements) {
    append_part(part, with_normals, out.positions, out.normals, out.triangles, scratch);
  }
  return out;
}

// f(), with any exception it lets out turned into an error naming the file: assimp reports
// through ReadFile's return value, but its readers may still throw (an allocation failure at
// least), and no exception crosses load_mesh or leaves a loading child.
template <class F>
auto guarded(const std::string& path, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return fail(StatusCode::out_of_memory, path, "out of memory while loading the mesh");
  } catch (const std::exception& e) {
    return fail(StatusCode::parse_error, path, std::string("cannot read the file: ") + e.what());
  } catch (...) {
    return fail(StatusCode::parse_error, path, "cannot read the file: unknown failure");
  }
}

// The child's answer: kRead once assimp's reader has returned, then kError (code, message) or
// kMesh (the report, then the three arrays), in the machine's own byte order. An array or string
// goes as its length, then its elements; the report as its counts, then its part ranges (an
// array of ranges, each its name, node name and counts).
constexpr char kRead = 'R', kError = 'E', kMesh = 'M';

// Calls f on each count of `report` (a MeshLoadReport or a MeshPartRange, const or not), in the
// order the answer carries them.
template <class Report, class F>
void for_each_count(Report& report, F&& f) {
  if constexpr (std::is_same_v<std::remove_const_t<Report>, MeshLoadReport>) {
    for (auto* count : {&report.polygons, &report.points, &report.lines, &report.parts}) f(*count);
  } else {
    for (auto* count : {&report.first_vertex, &report.vertex_count, &report.first_triangle, &report.triangle_count,
                        &report.polygons, &report.points, &report.lines}) {
      f(*count);
    }
  }
}

template <class T>
void send_value(const detail::ChildSend& send, const T& value) {
  send(std::string_view(reinterpret_cast<const char*>(&value), sizeof value));
}
template <class Array>  // std::vector or std::string
void send_array(const detail::ChildSend& send, const Array& values) {
  using T = typename Array::value_type;
  send_value(send, static_cast<std::uint64_t>(values.size()));
  send(std::string_view(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
}
void send_report(const detail::ChildSend& send, const MeshLoadReport& report) {
  for_each_count(report, [&](const std::size_t& count) { send_value(send, count); });
  send_value(send, static_cast<std::uint64_t>(report.part_ranges.size()));
  for (const MeshPartRange& range : report.part_ranges) {
    send_array(send, range.name);
    send_array(send, range.node_name);
    for_each_count(range, [&](const std::size_t& count) { send_value(send, count); });
  }
}

// Reads the child's answer back.
class Answer {
 public:
  explicit Answer(std::string_view bytes) : rest_(bytes) {}
  template <class T>
  bool value(T& out) {
    if (rest_.size() < sizeof out) return false;
    std::memcpy(&out, rest_.data(), sizeof out);
    rest_.remove_prefix(sizeof out);
    return true;
  }
  template <class Array>  // std::vector or std::string
  bool array(Array& out) {
    using T = typename Array::value_type;
    std::uint64_t count = 0;
    if (!value(count) || count > rest_.size() / sizeof(T)) return false;
    out.resize(static_cast<std::size_t>(count));
    if (count != 0) std::memcpy(out.data(), rest_.data(), out.size() * sizeof(T));
    rest_.remove_prefix(out.size() * sizeof(T));
    return true;
  }
  bool report(MeshLoadReport& out) {
    bool complete = true;
    const auto read_count = [&](std::size_t& count) { complete = complete && value(count); };
    for_each_count(out, read_count);
    std::uint64_t ranges = 0;
    // Every range takes at least its two string lengths: a bound before anything is allocated.
    if (!complete || !value(ranges) || ranges > rest_.size() / (2 * sizeof(std::uint64_t))) return false;
    out.part_ranges.resize(static_cast<std::size_t>(ranges));
    for (MeshPartRange& range : out.part_ranges) {
      if (!array(range.name) || !array(range.node_name)) return false;
      for_each_count(range, read_count);
    }
    return complete;
  }
  std::string_view rest() const { return rest_; }

 private:
  std::string_view rest_;
};

// import_file in a child process: a crash or hang of assimp's readers ends the child, and
// the load fails with a message that says so. Nothing when no child could be made.
std::optional<Result<Imported>> import_isolated(const std::string& path, const MeshLoadOptions& options,
                                                const std::optional<OffCounts>& off_counts, MeshLoadReport& report) {
  const detail::ChildRun run = detail::run_in_child(
      [&](const detail::ChildSend& send, const std::function<void()>& restore_handlers) {
        MeshLoadReport counts;
        // guarded: no exception may leave the child.
        const Result<Imported> imported = guarded(path, [&] {
          return import_file(path, options, off_counts, counts, [&] {
            send(std::string_view(&kRead, 1));
            restore_handlers();  // from here on the code is hitscan's own
          });
        });
        if (!imported.ok()) {
          send(std::string_view(&kError, 1));
          send_value(send, static_cast<std::int32_t>(imported.status().code()));
          send(imported.status().message());
          return;
        }
        send(std::string_view(&kMesh, 1));
        send_report(send, counts);
        send_array(send, imported.value().positions);
        send_array(send, imported.value().normals);
        send_array(send, imported.value().triangles);
      },
      options.time_limit_seconds);
  const bool read = !run.output.empty() && run.output[0] == kRead;
  switch (run.end) {
    case detail::ChildEnd::not_started:
      return std::nullopt;
    case detail::ChildEnd::timed_out: {
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g", options.time_limit_seconds);
      return fail(StatusCode::io_error, path,
                  std::string(read ? "turning assimp's scene into a mesh" : "assimp's reader") + " did not finish within " +
                      limit + " s and was stopped");
    }
    case detail::ChildEnd::crashed:
      if (!read) return fail(StatusCode::parse_error, path, "assimp's reader crashed on the file (" + run.how + ")");
      return fail(StatusCode::parse_error, path,
                  "hitscan crashed turning assimp's scene into a mesh (" + run.how + "): a bug, please report it");
    case detail::ChildEnd::finished:
      break;
  }
  Answer answer(std::string_view(run.output).substr(read ? 1 : 0));
  char kind = 0;
  const auto malformed = [&] {
    return fail(StatusCode::parse_error, path, "the loading process gave a malformed answer");
  };
  if (!read || !answer.value(kind)) return malformed();
  if (kind == kError) {
    std::int32_t code = 0;
    if (!answer.value(code)) return malformed();
    return Status{static_cast<StatusCode>(code), std::string(answer.rest())};
  }
  Imported imported;
  MeshLoadReport counts;
  if (kind != kMesh || !answer.report(counts) || !answer.array(imported.positions) || !answer.array(imported.normals) ||
      !answer.array(imported.triangles) || !answer.rest().empty()) {
    return malformed();
  }
  report = std::move(counts);
  return imported;
}

Result<TriangleMesh> load_mesh_unguarded(const std::string& path, const MeshLoadOptions& options,
                                         MeshLoadReport& report) {
  if (Status status = check_readable(path); !status.ok()) return status;
  if (Status status = check_ply(path); !status.ok()) return status;
  std::optional<OffCounts> off_counts;
  if (Status status = check_off_header(path, off_counts); !status.ok()) return status;
  if (Status status = check_glb_header(path); !status.ok()) return status;
  if (Status status = check_stl_size(path); !status.ok()) return status;

  std::optional<Result<Imported>> imported;
  if (options.isolate_importer) imported = import_isolated(path, options, off_counts, report);
  if (!imported) imported = import_file(path, options, off_counts, report, [] {});  // load_mesh guards it
  if (!imported->ok()) return imported->status();
  Imported& parts = imported->value();
  Result<TriangleMesh> mesh =
      TriangleMesh::make(std::move(parts.positions), std::move(parts.triangles), std::move(parts.normals));
  if (!mesh.ok()) {
    const Status& status = mesh.status();
    // A file's bad coordinates are malformed contents, not a caller's bad argument.
    return fail(status.code() == StatusCode::out_of_memory ? StatusCode::out_of_memory : StatusCode::parse_error,
                path, status.message());
  }
  return mesh;
}

}  // namespace

Result<TriangleMesh> load_mesh(const std::string& path, const MeshLoadOptions& options, MeshLoadReport* report) {
  MeshLoadReport local;
  MeshLoadReport& counts = report != nullptr ? *report : local;
  counts = {};
  Result<TriangleMesh> mesh = guarded(path, [&] { return load_mesh_unguarded(path, options, counts); });
  if (!mesh.ok()) counts = {};
  return mesh;
}

}  // namespace hitscan::io
