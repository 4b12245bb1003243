// Tests of the ray and hit tables: .npy files built here byte by byte from the format's
// description (so the reader is checked against the format, not against our own writer), CSV
// text, the hits written back, and every malformed file rejected with a message naming it.

#include "hitscan/io/ray_file.hpp"
#include "support/scratch_directory.hpp"
#include "support/file_contents.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace hitscan::io {
namespace {

namespace fs = std::filesystem;

using test::ScratchDirectory;

using test::little_endian;
using test::read_file;
using test::write_file;

std::string f4(float value) { return little_endian(std::bit_cast<std::uint32_t>(value), 4); }
std::string f8(double value) { return little_endian(std::bit_cast<std::uint64_t>(value), 8); }

// A .npy file: the magic string, the version, the header length (2 bytes little-endian in 1.0,
// 4 in 2.0), the header text exactly as given (no padding added), then the data.
std::string npy_file(const std::string& header, const std::string& data, int major = 1, int minor = 0) {
  std::string file = "\x93NUMPY";
  file += static_cast<char>(major);
  file += static_cast<char>(minor);
  file += little_endian(header.size(), major == 1 ? 2 : 4);
  return file + header + data;
}

// The header numpy 1.x itself writes for a C-ordered array: the dict, then spaces and a newline
// up to a multiple of 64 bytes counted from the start of the file.
std::string numpy_header(const std::string& descr, std::uint64_t rows, int columns) {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                       std::to_string(columns) + "), }";
  const std::size_t unpadded = 10 + header.size() + 1;
  return header + std::string((64 - unpadded % 64) % 64, ' ') + "\n";
}

// Seeded rows of `columns` values that are exact in float, so every format gives them back exactly.
std::vector<std::vector<float>> random_rows(std::size_t rows, int columns, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-100.0f, 100.0f);
  std::vector<std::vector<float>> table(rows, std::vector<float>(static_cast<std::size_t>(columns)));
  for (auto& row : table) {
    for (float& x : row) x = value(rng);
  }
  return table;
}

void expect_rays_equal_rows(const std::vector<Rayf>& rays, const std::vector<std::vector<float>>& rows) {
  ASSERT_EQ(rays.size(), rows.size());
  for (std::size_t i = 0; i < rays.size(); ++i) {
    const std::vector<float>& r = rows[i];
    EXPECT_EQ(rays[i].origin, (Vec3f{r[0], r[1], r[2]})) << "row " << i;
    EXPECT_EQ(rays[i].dir, (Vec3f{r[3], r[4], r[5]})) << "row " << i;
    EXPECT_EQ(rays[i].tmin, r.size() == 8 ? r[6] : 0.0f) << "row " << i;
    EXPECT_EQ(rays[i].tmax, r.size() == 8 ? r[7] : kInfinity<float>) << "row " << i;
  }
}

std::vector<Rayf> read_or_die(const std::string& path) {
  Result<std::vector<Rayf>> rays = read_rays(path);
  EXPECT_TRUE(rays.ok()) << rays.status().message();
  return rays.ok() ? std::move(rays).value() : std::vector<Rayf>{};
}

// A failed read: the code, and a message that begins with the path and holds `part`.
void expect_failure(const std::string& path, StatusCode code, const std::string& part = "") {
  const Result<std::vector<Rayf>> rays = read_rays(path);
  ASSERT_FALSE(rays.ok()) << path << " read as " << rays.value().size() << " rays";
  EXPECT_EQ(rays.status().code(), code) << status_code_name(rays.status().code()) << ": " << rays.status().message();
  EXPECT_EQ(rays.status().message().rfind(path + ": ", 0), 0u) << rays.status().message();
  EXPECT_NE(rays.status().message().find(part), std::string::npos) << rays.status().message();
}

// --- .npy, built by hand --------------------------------------------------------------------------

TEST(ReadRaysNpy, HandBuiltFloat32SixColumnsGiveTheRaysWithTheDefaultInterval) {
  const ScratchDirectory directory;
  const std::string path = directory.file("rays.npy");
  // Exactly what np.save writes for np.array([[1, 2, 3, 0, 0, -1], [-0.5, 0.25, 8, 1, 1, 0]], '<f4'):
  // 10 bytes of magic, version and length, a 118-byte header, 128 in all.
  const std::string header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 6), }" + std::string(58, ' ') + "\n";
  ASSERT_EQ(10 + header.size(), 128u);
  std::string data;
  for (const float x : {1.0f, 2.0f, 3.0f, 0.0f, 0.0f, -1.0f, -0.5f, 0.25f, 8.0f, 1.0f, 1.0f, 0.0f}) data += f4(x);
  write_file(path, std::string("\x93NUMPY\x01\x00\x76\x00", 10) + header + data);

  const std::vector<Rayf> rays = read_or_die(path);
  expect_rays_equal_rows(rays, {{1, 2, 3, 0, 0, -1}, {-0.5f, 0.25f, 8, 1, 1, 0}});
}

TEST(ReadRaysNpy, RoundTripsFloat32AndFloat64WithSixAndEightColumns) {
  const ScratchDirectory directory;
  for (const char* descr : {"<f4", "<f8"}) {
    for (const int columns : {6, 8}) {
      const std::vector<std::vector<float>> rows = random_rows(257, columns, 17u + static_cast<std::uint32_t>(columns));
      std::string data;
      for (const auto& row : rows) {
        for (const float x : row) data += descr[2] == '4' ? f4(x) : f8(x);
      }
      const std::string path =
          directory.file(std::string("rays_") + (descr + 1) + "_" + std::to_string(columns) + ".npy");
      write_file(path, npy_file(numpy_header(descr, rows.size(), columns), data));
      SCOPED_TRACE(path);
      expect_rays_equal_rows(read_or_die(path), rows);
    }
  }
}

TEST(ReadRaysNpy, Version2HeaderWithAFourByteLength) {
  const ScratchDirectory directory;
  const std::string path = directory.file("v2.npy");
  std::string data;
  for (const double x : {0.0, 0.0, -5.0, 0.0, 0.0, 1.0, 0.5, 9.0}) data += f8(x);
  write_file(path, npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 8), }\n", data, 2));
  expect_rays_equal_rows(read_or_die(path), {{0, 0, -5, 0, 0, 1, 0.5f, 9}});
}

TEST(ReadRaysNpy, AcceptsEveryWayOfWritingALittleEndianHeader) {
  const ScratchDirectory directory;
  const std::string row = f8(1) + f8(2) + f8(3) + f8(4) + f8(5) + f8(6);
  const std::vector<std::string> headers{
      "{'descr': '|f8', 'fortran_order': False, 'shape': (1, 6), }",  // '|': not applicable
      "{'descr': '=f8', 'fortran_order': False, 'shape': (1, 6), }",  // '=': native (little here)
      "{'descr': 'f8', 'fortran_order': False, 'shape': (1, 6)}",     // no mark, no trailing comma
      "{\"shape\": (1, 6), \"fortran_order\": False, \"descr\": \"<f8\"}",  // other order and quotes
      "{'descr':'<f8','fortran_order':False,'shape':(1L,6L),}\n",     // Python 2's long integers
      "  { 'descr' : '<f8' ,\n 'fortran_order' : False , 'shape' : ( 1 , 6 , ) }  \n",
  };
  for (std::size_t i = 0; i < headers.size(); ++i) {
    const std::string path = directory.file("header" + std::to_string(i) + ".npy");
    write_file(path, npy_file(headers[i], row));
    SCOPED_TRACE(headers[i]);
    expect_rays_equal_rows(read_or_die(path), {{1, 2, 3, 4, 5, 6}});
  }
}

TEST(ReadRaysNpy, ZeroRowsIsAnEmptyTable) {
  const ScratchDirectory directory;
  const std::string path = directory.file("empty.npy");
  write_file(path, npy_file(numpy_header("<f4", 0, 6), ""));
  EXPECT_TRUE(read_or_die(path).empty());
}

TEST(ReadRaysNpy, DoublesBeyondFloatRangeBecomeInfinitiesAndNaNStaysARay) {
  const ScratchDirectory directory;
  const std::string path = directory.file("extreme.npy");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::string data = f8(1e300) + f8(-1e300) + f8(nan) + f8(0) + f8(0) + f8(0) + f8(1e-300) + f8(-1e39);
  write_file(path, npy_file(numpy_header("<f8", 1, 8), data));
  const std::vector<Rayf> rays = read_or_die(path);
  ASSERT_EQ(rays.size(), 1u);
  EXPECT_EQ(rays[0].origin.x, kInfinity<float>);
  EXPECT_EQ(rays[0].origin.y, -kInfinity<float>);
  EXPECT_TRUE(std::isnan(rays[0].origin.z));
  EXPECT_EQ(rays[0].dir, (Vec3f{0, 0, 0}));
  EXPECT_EQ(rays[0].tmin, 0.0f);
  EXPECT_EQ(rays[0].tmax, -kInfinity<float>);
  EXPECT_FALSE(is_valid(rays[0]));
}

TEST(ReadRaysNpy, MalformedFilesAreParseErrorsNamingTheFile) {
  const ScratchDirectory directory;
  const std::string row6 = std::string(6 * 8, '\0');
  struct Case {
    std::string name;
    std::string contents;
    std::string part;  // of the message
  };
  const std::string good_header = numpy_header("<f8", 1, 6);
  const std::vector<Case> cases{
      {"empty", "", "magic"},
      {"not_npy", "ox,oy,oz,dx,dy,dz\n", "magic"},
      {"magic_only", "\x93NUMPY", "truncated"},
      {"version_3", npy_file(good_header, row6, 3), "version 3.0"},
      {"version_1_1", npy_file(good_header, row6, 1, 1), "version 1.1"},
      {"length_cut", std::string("\x93NUMPY\x02\x00\x10", 9), "truncated"},
      {"header_longer_than_file", std::string("\x93NUMPY\x01\x00\xff\x00{'descr'", 18), "truncated"},
      {"not_a_dict", npy_file("['<f8', False, (1, 6)]", row6), "dict"},
      {"unterminated_string", npy_file("{'descr: '<f8', 'fortran_order': False, 'shape': (1, 6)}", row6), ""},
      {"no_shape", npy_file("{'descr': '<f8', 'fortran_order': False}", row6), "shape"},
      {"extra_key", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 6), 'x': 1}", row6), "'x'"},
      {"twice", npy_file("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (1, 6)}", row6), "twice"},
      {"text_after", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 6)} junk", row6), "junk"},
      {"no_comma", npy_file("{'descr': '<f8' 'fortran_order': False, 'shape': (1, 6)}", row6), "','"},
      {"big_endian", npy_file(numpy_header(">f8", 1, 6), row6), "big-endian"},
      {"int32", npy_file(numpy_header("<i4", 1, 6), std::string(24, '\0')), "'<i4'"},
      {"float16", npy_file(numpy_header("<f2", 1, 6), std::string(12, '\0')), "'<f2'"},
      {"structured", npy_file("{'descr': [('x', '<f8')], 'fortran_order': False, 'shape': (1, 6)}", row6),
       "structured data types (a 'descr' list of named fields) are not supported: the rays must be a plain "
       "float32 ('<f4') or float64 ('<f8') array of shape (N, 6) or (N, 8)"},
      {"structured_nested",
       npy_file("{'descr': [('origin', '<f4', (3,)), ('dir', [('x', '<f4'), ('y', '<f4'), ('z', '<f4')])], "
                "'fortran_order': False, 'shape': (1,), }",
                std::string(24, '\0')),
       "structured data types"},
      {"unterminated_list", npy_file("{'descr': [('x', '<f8'), 'fortran_order': False, 'shape': (1, 6)}", row6),
       "a list that does not end"},
      {"fortran", npy_file("{'descr': '<f8', 'fortran_order': True, 'shape': (1, 6), }", row6), "Fortran"},
      {"fortran_as_text", npy_file("{'descr': '<f8', 'fortran_order': 'False', 'shape': (1, 6)}", row6), "type"},
      {"one_dimension", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (6,), }", row6), "(6,)"},
      {"seven_columns", npy_file(numpy_header("<f8", 1, 7), std::string(56, '\0')), "(1, 7)"},
      {"three_dimensions", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 6, 1)}", row6), "(1, 6, 1)"},
      {"scalar", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': ()}", f8(1)), "()"},
      {"negative", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (-1, 6)}", row6), "non-negative"},
      {"huge_digit_string",
       npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (123456789012345678901234567890, 6)}", row6),
       "too large"},
      {"rows_times_bytes_overflow", npy_file(numpy_header("<f8", std::uint64_t{1} << 62, 8), row6), "2^64"},
      {"max_rows", npy_file(numpy_header("<f4", std::numeric_limits<std::uint64_t>::max(), 6), row6), "truncated"},
      {"absurd_rows", npy_file(numpy_header("<f8", std::uint64_t{1} << 40, 6), row6), "truncated"},
      {"one_byte_short", npy_file(good_header, row6.substr(1)), "truncated"},
      {"second_row_missing", npy_file(numpy_header("<f8", 2, 6), row6), "truncated"},
      {"one_byte_extra", npy_file(good_header, row6 + "x"), "mismatch"},
  };
  for (const Case& c : cases) {
    const std::string path = directory.file(c.name + ".npy");
    write_file(path, c.contents);
    SCOPED_TRACE(c.name);
    expect_failure(path, StatusCode::parse_error, c.part);
  }
}

// Found by fuzz_ray_file (fuzz/regressions/fuzz_ray_file/npy_header_key_with_a_tab_and_a_nul):
// the header's keys are the file's bytes, and were copied into messages whole.
TEST(ReadRaysNpy, NpyHeaderKeyWithATabAndANulIsQuotedShortAndPrintable) {
  const ScratchDirectory directory;
  const std::string row6 = std::string(6 * 8, '\0');
  const std::string long_key(5000, 'k');
  const std::vector<std::string> headers{
      std::string("{'descr': '<f8', 'fo\t\0ran_order': False, 'shape': (1, 6)}", 57),
      "{'" + long_key + "': False, 'descr': '<f8', 'fortran_order': False, 'shape': (1, 6)}",
      "{'" + long_key + "' 'descr': '<f8'}",
      "{'" + long_key + "': 'x' 'descr': '<f8'}",
      "{'" + long_key + "': [1]}",
  };
  for (const std::string& header : headers) {
    const std::string path = directory.file("key.npy");
    write_file(path, npy_file(header, row6));
    const Result<std::vector<Rayf>> rays = read_rays(path);
    ASSERT_FALSE(rays.ok());
    EXPECT_EQ(rays.status().code(), StatusCode::parse_error);
    const std::string message = rays.status().message();
    EXPECT_LT(message.size(), path.size() + 200) << message.substr(0, 300);
    EXPECT_TRUE(std::all_of(message.begin(), message.end(), [](char c) { return c >= 0x20 && c < 0x7f; })) << message;
  }
}

TEST(ReadRaysNpy, EveryTruncationAndHeaderCorruptionFailsCleanly) {
  // Every prefix of a valid file, and seeded byte flips in its header: an error or (for flips
  // that keep the header meaningful) a table, never a crash. Run under the sanitizers by
  // `make test-sanitize`.
  const ScratchDirectory directory;
  std::string data;
  for (const auto& row : random_rows(3, 8, 5)) {
    for (const float x : row) data += f4(x);
  }
  const std::string file = npy_file(numpy_header("<f4", 3, 8), data);
  const std::string path = directory.file("cut.npy");
  for (std::size_t length = 0; length < file.size(); ++length) {
    write_file(path, file.substr(0, length));
    EXPECT_FALSE(read_rays(path).ok()) << "cut at " << length;
  }
  std::mt19937 rng(99);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string corrupt = file;
    const std::size_t at = std::uniform_int_distribution<std::size_t>(0, 127)(rng);
    corrupt[at] = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
    write_file(path, corrupt);
    const Result<std::vector<Rayf>> rays = read_rays(path);
    if (rays.ok()) {
      EXPECT_LE(rays.value().size(), 3u);
    }
  }
}

// --- .csv -----------------------------------------------------------------------------------------

TEST(ReadRaysCsv, RoundTripsSixAndEightColumnsWithAndWithoutAHeader) {
  const ScratchDirectory directory;
  for (const int columns : {6, 8}) {
    for (const bool header : {false, true}) {
      const std::vector<std::vector<float>> rows = random_rows(100, columns, 40u + static_cast<std::uint32_t>(columns));
      std::string text = header ? (columns == 6 ? "ox,oy,oz,dx,dy,dz\n" : "ox,oy,oz,dx,dy,dz,tmin,tmax\n") : "";
      for (const auto& row : rows) {
        for (std::size_t i = 0; i < row.size(); ++i) {
          char buffer[32];
          text.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, row[i]).ptr);
          text += i + 1 < row.size() ? "," : "\n";
        }
      }
      const std::string path = directory.file("rays" + std::to_string(columns) + (header ? "h" : "") + ".csv");
      write_file(path, text);
      SCOPED_TRACE(path);
      expect_rays_equal_rows(read_or_die(path), rows);
    }
  }
}

TEST(ReadRaysCsv, InfinitiesNaNSpacesSignsBomCrlfAndBlankLinesAreAccepted) {
  const ScratchDirectory directory;
  const std::string path = directory.file("RAYS.CSV");
  write_file(path,
             "\xEF\xBB\xBF"
             "origin x, origin y, origin z, dir x, dir y, dir z, tmin, tmax\r\n"
             "\r\n"
             " 1 ,+2,\t-3e0 , 0.5, -0.25 ,1E1, 0, inf\r\n"
             "   \n"
             "-INF,nan,Infinity,1,0,0,-inf,1.5\n"
             "0,0,0,0,0,1,2,3");  // no newline at the end
  const std::vector<Rayf> rays = read_or_die(path);
  ASSERT_EQ(rays.size(), 3u);
  EXPECT_EQ(rays[0].origin, (Vec3f{1, 2, -3}));
  EXPECT_EQ(rays[0].dir, (Vec3f{0.5f, -0.25f, 10}));
  EXPECT_EQ(rays[0].tmax, kInfinity<float>);
  EXPECT_EQ(rays[1].origin.x, -kInfinity<float>);
  EXPECT_TRUE(std::isnan(rays[1].origin.y));
  EXPECT_EQ(rays[1].origin.z, kInfinity<float>);
  EXPECT_EQ(rays[1].tmin, -kInfinity<float>);
  EXPECT_EQ(rays[2].tmin, 2.0f);
  EXPECT_EQ(rays[2].tmax, 3.0f);
}

TEST(ReadRaysCsv, CommentLinesAreSkippedBeforeAndAfterTheHeader) {
  const ScratchDirectory directory;
  const std::string path = directory.file("commented.csv");
  write_file(path,
             "# rays from the survey, 2 of them\n"
             "\n"
             "  \t# indented, with, commas\n"
             "ox,oy,oz,dx,dy,dz\n"
             "#0,0,0,0,0,1\n"
             "1,2,3,0,0,1\n"
             "# between rows\r\n"
             "4,5,6,0,1,0\n"
             "#");
  const std::vector<Rayf> rays = read_or_die(path);
  ASSERT_EQ(rays.size(), 2u);
  EXPECT_EQ(rays[0].origin, (Vec3f{1, 2, 3}));
  EXPECT_EQ(rays[1].origin, (Vec3f{4, 5, 6}));

  write_file(directory.file("comments_only.csv"), "# nothing yet\n#\n");
  EXPECT_TRUE(read_or_die(directory.file("comments_only.csv")).empty());
}

TEST(ReadRaysCsv, HashAfterTheStartOfALineIsNoComment) {
  const ScratchDirectory directory;
  const std::string path = directory.file("trailing.csv");
  write_file(path, "# a comment\n1,2,3,0,0,1 # not one\n");
  expect_failure(path, StatusCode::parse_error, "line 2, column 6: '1 # not one' is not a number");
}

TEST(ReadRaysCsv, EmptyFileAndHeaderOnlyHoldNoRays) {
  const ScratchDirectory directory;
  write_file(directory.file("empty.csv"), "");
  write_file(directory.file("header.csv"), "ox,oy,oz,dx,dy,dz\n");
  EXPECT_TRUE(read_or_die(directory.file("empty.csv")).empty());
  EXPECT_TRUE(read_or_die(directory.file("header.csv")).empty());
}

TEST(ReadRaysCsv, MalformedFilesNameTheLineAndColumn) {
  const ScratchDirectory directory;
  struct Case {
    std::string name;
    std::string contents;
    std::string part;
  };
  const std::vector<Case> cases{
      {"word", "ox,oy,oz,dx,dy,dz\n0,0,0,0,0,1\n0,zero,0,0,0,1\n", "line 3, column 2: 'zero' is not a number"},
      {"empty_field", "0,0,0,0,0,1\n0,0,,0,0,1\n", "line 2, column 3: empty field"},
      {"two_points", "0,0,0,0,0,1.0.0\n", "line 1, column 6: '1.0.0'"},
      {"hex", "0,0,0,0,0,0x1p3\n", "column 6"},
      {"number_then_text", "0,0,0,0,0,1 m\n", "'1 m'"},
      {"mixed_first_line", "ox,1,oz,dx,dy,dz\n0,0,0,0,0,1\n", "line 1, column 1"},
      {"overflow", "0,0,0,0,0,1e999\n", "'1e999' is beyond the range of a double"},
      {"five_columns", "0,0,0,0,1\n", "line 1 has 5 columns"},
      {"seven_columns", "\n0,0,0,0,0,1,0\n", "line 2 has 7 columns"},
      {"trailing_comma", "0,0,0,0,0,1,\n", "line 1, column 7: empty field"},
      {"ragged", "0,0,0,0,0,1\n0,0,0,0,0,1,0,5\n", "line 2 has 8 columns, line 1 has 6"},
      {"header_mismatch", "ox,oy,oz,dx,dy,dz\n0,0,0,0,0,1,0,5\n", "the header has 6 columns, line 2 has 8"},
      {"semicolons", "0;0;0;0;0;1\n", "line 1 has 1 column:"},
      {"binary", std::string("\x93NUMPY\x01\x00v\x00{'descr'", 16), ""},
  };
  for (const Case& c : cases) {
    const std::string path = directory.file(c.name + ".csv");
    write_file(path, c.contents);
    SCOPED_TRACE(c.name);
    expect_failure(path, StatusCode::parse_error, c.part);
  }
}

// --- files that cannot be read --------------------------------------------------------------------

TEST(ReadRays, MissingDirectoryAndUnknownExtensionAreErrorsNamingThePath) {
  const ScratchDirectory directory;
  expect_failure(directory.file("absent.npy"), StatusCode::io_error, "no such file");
  fs::create_directory(directory.file("folder.csv"));
  expect_failure(directory.file("folder.csv"), StatusCode::io_error, "directory");
  write_file(directory.file("rays.txt"), "0,0,0,0,0,1\n");
  expect_failure(directory.file("rays.txt"), StatusCode::invalid_argument, ".npy or .csv");
  expect_failure(directory.file("npy"), StatusCode::invalid_argument, ".npy or .csv");
}

TEST(TableFormat, ChosenByTheExtensionInAnyCase) {
  EXPECT_EQ(table_format("a/b.npy").value(), TableFormat::npy);
  EXPECT_EQ(table_format("B.NPY").value(), TableFormat::npy);
  EXPECT_EQ(table_format("hits.Csv").value(), TableFormat::csv);
  EXPECT_FALSE(table_format("hits.csv.gz").ok());
  EXPECT_FALSE(table_format("hits").ok());
  EXPECT_EQ(table_format("hits.json").status().code(), StatusCode::invalid_argument);
}

// --- hits -----------------------------------------------------------------------------------------

std::vector<HitRow> sample_hits() {
  std::vector<HitRow> rows(3);
  rows[0] = {2.5, 7, 0.25, 0.5, 0, 0, 1};
  rows[1] = {};  // a miss
  rows[2] = {0.1, 4294967294.0, 1.0 / 3.0, 1e-310, -0.6, 0.8, -0.0};
  return rows;
}

std::vector<double> columns_of(const std::vector<HitRow>& rows) {
  std::vector<double> values;
  for (const HitRow& r : rows) values.insert(values.end(), {r.t, r.prim, r.u, r.v, r.nx, r.ny, r.nz});
  return values;
}

TEST(WriteHits, NpyIsVersion1Float64WithNumpysPaddedHeader) {
  const ScratchDirectory directory;
  const std::string path = directory.file("hits.npy");
  const std::vector<HitRow> rows = sample_hits();
  ASSERT_TRUE(write_hits(path, rows).ok());

  const std::string file = read_file(path);
  const std::string header = numpy_header("<f8", 3, 7);
  ASSERT_EQ(file.size(), 10 + header.size() + 3 * 7 * 8);
  EXPECT_EQ(file.substr(0, 10), std::string("\x93NUMPY\x01\x00", 8) + little_endian(header.size(), 2));
  EXPECT_EQ(file.substr(10, header.size()), header);
  EXPECT_EQ((10 + header.size()) % 64, 0u);
  std::string data;
  for (const double x : columns_of(rows)) data += f8(x);
  EXPECT_EQ(file.substr(10 + header.size()), data) << "every double bit for bit, little-endian, row by row";
}

TEST(WriteHits, CsvHasAHeaderAndNumbersThatReadBackExactly) {
  const ScratchDirectory directory;
  const std::string path = directory.file("hits.csv");
  const std::vector<HitRow> rows = sample_hits();
  ASSERT_TRUE(write_hits(path, rows).ok());

  const std::string text = read_file(path);
  ASSERT_EQ(text.substr(0, 20), "t,prim,u,v,nx,ny,nz\n");
  EXPECT_NE(text.find("\n2.5,7,0.25,0.5,0,0,1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\ninf,-1,0,0,0,0,0\n"), std::string::npos) << text;
  std::vector<double> values;
  std::size_t lines = 0;
  for (std::size_t start = 20; start < text.size(); ++lines) {
    const std::size_t end = text.find('\n', start);
    ASSERT_NE(end, std::string::npos) << "every line ends in a newline";
    for (std::size_t field = start; field <= end;) {
      const std::size_t stop = std::min(text.find(',', field), end);
      double value = 0;
      const auto parsed = std::from_chars(text.data() + field, text.data() + stop, value);
      EXPECT_EQ(parsed.ptr, text.data() + stop) << text.substr(field, stop - field);
      values.push_back(value);
      field = stop + 1;
    }
    start = end + 1;
  }
  EXPECT_EQ(lines, rows.size());
  const std::vector<double> expected = columns_of(rows);
  ASSERT_EQ(values.size(), expected.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(values[i]), std::bit_cast<std::uint64_t>(expected[i])) << "value " << i;
  }
}

TEST(WriteHits, NoRowsGiveAnEmptyTable) {
  const ScratchDirectory directory;
  ASSERT_TRUE(write_hits(directory.file("none.npy"), {}).ok());
  ASSERT_TRUE(write_hits(directory.file("none.csv"), {}).ok());
  EXPECT_EQ(read_file(directory.file("none.npy")).substr(10), numpy_header("<f8", 0, 7));
  EXPECT_EQ(read_file(directory.file("none.csv")), "t,prim,u,v,nx,ny,nz\n");
}

TEST(WriteHits, FailuresNameThePathAndLeaveNoFile) {
  const ScratchDirectory directory;
  const std::vector<HitRow> rows = sample_hits();
  const std::string unknown = directory.file("hits.txt");
  const Status bad_extension = write_hits(unknown, rows);
  EXPECT_EQ(bad_extension.code(), StatusCode::invalid_argument);
  EXPECT_EQ(bad_extension.message().rfind(unknown + ": ", 0), 0u) << bad_extension.message();
  EXPECT_FALSE(fs::exists(unknown));

  const std::string no_directory = directory.file("missing/hits.csv");
  const Status missing = write_hits(no_directory, rows);
  EXPECT_EQ(missing.code(), StatusCode::io_error);
  EXPECT_EQ(missing.message().rfind(no_directory + ": ", 0), 0u) << missing.message();

  const std::string folder = directory.file("folder.npy");
  fs::create_directory(folder);
  const Status is_directory = write_hits(folder, rows);
  EXPECT_EQ(is_directory.code(), StatusCode::io_error);
  EXPECT_EQ(is_directory.message().rfind(folder + ": ", 0), 0u) << is_directory.message();

  if (fs::exists("/dev/full")) {
    // A device that takes no bytes: the short write is reported, and the link is left alone.
    const std::string link = directory.file("full.csv");
    fs::create_symlink("/dev/full", link);
    const Status full = write_hits(link, rows);
    EXPECT_EQ(full.code(), StatusCode::io_error);
    EXPECT_EQ(full.message().rfind(link + ": ", 0), 0u) << full.message();
    EXPECT_TRUE(fs::is_symlink(link));
  }
}

}  // namespace
}  // namespace hitscan::io
