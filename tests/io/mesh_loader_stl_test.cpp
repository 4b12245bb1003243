// STL files cut short: a binary STL whose triangle count needs more bytes than the file holds is
// refused with a message saying so, whether or not its header begins with "solid", while ASCII
// STLs (whatever their bytes 80 to 83 would announce) and every STL model assimp ships load as
// they did.

#include "hitscan/io/mesh_loader.hpp"
#include "support/file_contents.hpp"
#include "support/scratch_directory.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <filesystem>
#include <string>

namespace hitscan::io {
namespace {

namespace fs = std::filesystem;

using test::little_endian;
using test::read_file;
using test::ScratchDirectory;
using test::write_file;

// A binary STL of `count` triangles, (i, 0, 0), (i + 1, 0, 0), (i, 1, 0), under an 80-byte header
// that begins with `header` and is padded with NULs.
std::string binary_stl(const std::string& header, std::uint32_t count) {
  std::string file = header + std::string(80 - header.size(), '\0') + little_endian(count, 4);
  for (std::uint32_t i = 0; i < count; ++i) {
    const float values[12] = {0, 0, 1, float(i), 0, 0, float(i) + 1, 0, 0, float(i), 1, 0};
    for (const float value : values) file += little_endian(std::bit_cast<std::uint32_t>(value), 4);
    file += std::string(2, '\0');  // the attribute byte count
  }
  return file;
}

void expect_parse_error(const std::string& path, const std::string& part) {
  const Result<TriangleMesh> mesh = load_mesh(path);
  ASSERT_FALSE(mesh.ok()) << path << " loaded with " << mesh.value().triangle_count() << " triangles";
  EXPECT_EQ(mesh.status().code(), StatusCode::parse_error) << mesh.status().message();
  EXPECT_EQ(mesh.status().message().rfind(path + ": ", 0), 0u) << mesh.status().message();
  EXPECT_NE(mesh.status().message().find(part), std::string::npos) << mesh.status().message();
}

TEST(LoadMeshStl, TruncatedBinaryStlNamesTheBytesExpectedAndFound) {
  const ScratchDirectory directory;
  // Some exporters begin a binary header with "solid", as an ASCII STL begins.
  for (const std::string header : {"binary STL from a test", "solid cut_short"}) {
    SCOPED_TRACE(header);
    const std::string whole = binary_stl(header, 3);
    ASSERT_EQ(whole.size(), 84u + 150u);
    const std::string path = directory.file("part.stl");
    write_file(path, whole);
    const Result<TriangleMesh> mesh = load_mesh(path);
    ASSERT_TRUE(mesh.ok()) << mesh.status().message();
    EXPECT_EQ(mesh.value().triangle_count(), 3u);

    write_file(path, whole.substr(0, whole.size() - 1));
    expect_parse_error(path, "truncated binary STL: the header announces 3 triangles, which take 234 bytes "
                             "(84 + 50 per triangle), but the file has 233");
    write_file(path, whole.substr(0, 100));
    expect_parse_error(path, "truncated binary STL: the header announces 3 triangles, which take 234 bytes "
                             "(84 + 50 per triangle), but the file has 100");
  }
}

TEST(LoadMeshStl, BinaryStlShorterThanItsHeaderIsTruncated) {
  const ScratchDirectory directory;
  const std::string path = directory.file("header_only.STL");
  write_file(path, binary_stl("solid", 1).substr(0, 60));
  expect_parse_error(path, "truncated binary STL: the file has 60 bytes, fewer than the 84 of the header and triangle count");
}

TEST(LoadMeshStl, AsciiStlIsNotTakenForBinary) {
  const ScratchDirectory directory;
  // Longer than 84 bytes, so bytes 80 to 83 read as a count would announce far more triangles
  // than the file holds; the name's UTF-8 bytes are above 127.
  const std::string path = directory.file("w\xc3\xbcrfel.stl");
  write_file(path,
             "solid W\xc3\xbcrfel \xe2\x80\x94 a single facet, named at some length to pass byte 84\n"
             "  facet normal 0 0 1\n    outer loop\n      vertex 0 0 0\n      vertex 1 0 0\n"
             "      vertex 0 1 0\n    endloop\n  endfacet\nendsolid W\xc3\xbcrfel\n");
  const Result<TriangleMesh> mesh = load_mesh(path);
  ASSERT_TRUE(mesh.ok()) << mesh.status().message();
  EXPECT_EQ(mesh.value().triangle_count(), 1u);
}

TEST(LoadMeshStl, EveryStlModelOfAssimpStillLoads) {
  std::size_t models = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(std::string(HITSCAN_ASSIMP_MODEL_DIR) + "/STL")) {
    if (!entry.is_regular_file()) continue;
    const std::string path = entry.path().string();
    SCOPED_TRACE(path);
    ++models;
    const Result<TriangleMesh> mesh = load_mesh(path);
    ASSERT_TRUE(mesh.ok()) << mesh.status().message();
    const std::string bytes = read_file(path);
    ASSERT_GE(bytes.size(), 84u);
    const std::uint32_t count = std::uint32_t(std::uint8_t(bytes[80])) | std::uint32_t(std::uint8_t(bytes[81])) << 8 |
                                std::uint32_t(std::uint8_t(bytes[82])) << 16 | std::uint32_t(std::uint8_t(bytes[83])) << 24;
    if (84 + 50 * std::uint64_t{count} == bytes.size()) {
      EXPECT_EQ(mesh.value().triangle_count(), count);
    }
  }
  EXPECT_GE(models, 9u);
}

}  // namespace
}  // namespace hitscan::io
