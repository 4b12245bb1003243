// The format pre-checks of load_mesh(), called one at a time: each applies to the files its
// format's assimp reader would read (by name or by their first bytes) and lets every other file
// through, and refuses what it refuses with a parse_error whose message begins with the path.
// The loader's own tests (mesh_loader_test.cpp, mesh_loader_stl_test.cpp) pin the same refusals
// through load_mesh.

#include "io/mesh_format_checks.hpp"
#include "support/file_contents.hpp"
#include "support/scratch_directory.hpp"

#include <gtest/gtest.h>

#include <assimp/scene.h>

#include <cstdint>
#include <optional>
#include <string>

namespace hitscan::io::detail {
namespace {

using test::ScratchDirectory;
using test::write_file;

std::string le32(std::uint32_t bits) { return test::little_endian(bits, 4); }

void expect_parse_error(const Status& status, const std::string& path, const std::string& reason) {
  EXPECT_EQ(status.code(), StatusCode::parse_error) << status.message();
  EXPECT_EQ(status.message(), path + ": " + reason);
}

// --- check_readable ---------------------------------------------------------------------------------

TEST(CheckReadable, ADeviceIsRefusedAsNoMeshFile) {
  const Status status = check_readable("/dev/null");
  EXPECT_EQ(status.code(), StatusCode::io_error);
  EXPECT_EQ(status.message(), "/dev/null: is a character device, not a mesh file (only regular files are read)");
}

// --- OFF ----------------------------------------------------------------------------------------------

const std::string kTriangleOff = "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n";

TEST(CheckOffHeader, GivesTheHeaderCountsAndWhereTheVertexLinesBegin) {
  const ScratchDirectory directory;
  const std::string path = directory.file("triangle.off");
  write_file(path, kTriangleOff + "3 0 1 2\n");
  std::optional<OffCounts> counts;
  ASSERT_TRUE(check_off_header(path, counts).ok());
  ASSERT_TRUE(counts.has_value());
  EXPECT_EQ(counts->vertices, 3u);
  EXPECT_EQ(counts->faces, 1u);
  EXPECT_EQ(counts->body, std::string("OFF\n3 1 0\n").size());
}

TEST(CheckOffHeader, AppliesByTheKeywordWhateverTheName) {
  const ScratchDirectory directory;
  const std::string path = directory.file("triangle.txt");
  write_file(path, "OFF\n1000 1 0\n0 0 0\n");
  std::optional<OffCounts> counts;
  expect_parse_error(check_off_header(path, counts), path,
                     "the OFF header announces 1000 vertices and 1 faces, more than a file of 19 bytes can hold "
                     "(is it truncated?)");

  write_file(path, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");  // no OFF, by name or keyword
  counts.reset();
  EXPECT_TRUE(check_off_header(path, counts).ok());
  EXPECT_FALSE(counts.has_value());
}

TEST(CheckOffHeader, FaceLinesMustBeginWithACornerCountFromOneToNine) {
  const ScratchDirectory directory;
  const std::string path = directory.file("faces.off");
  std::optional<OffCounts> counts;
  write_file(path, kTriangleOff + "12 0 1 2 0 1 2 0 1 2 0 1 2\n");
  expect_parse_error(check_off_header(path, counts), path,
                     "face 0 (line 6) has 12 corners; assimp reads OFF faces of at most 9");
  write_file(path, kTriangleOff + "123 0 1 2\n");
  expect_parse_error(check_off_header(path, counts), path,
                     "face 0 (line 6) has more than 9 corners; assimp reads OFF faces of at most 9");
  write_file(path, kTriangleOff + "{\"faces\": []}\n");
  expect_parse_error(check_off_header(path, counts), path, "face 0 (line 6) does not begin with its number of corners");
}

TEST(CheckOffHeader, AHeaderAssimpRefusesIsLeftToAssimp) {
  const ScratchDirectory directory;
  const std::string path = directory.file("flags.off");
  // "4" is read as a flag, so this header announces 0 vertices: assimp refuses it itself.
  write_file(path, "40 60 0\n");
  std::optional<OffCounts> counts;
  EXPECT_TRUE(check_off_header(path, counts).ok());
  EXPECT_FALSE(counts.has_value());
}

// A scene as assimp's readers leave it: a root node of that name and meshes of these face counts.
void fill_scene(aiScene& scene, const char* root_name, std::initializer_list<unsigned int> face_counts) {
  scene.mRootNode = new aiNode(root_name);
  scene.mNumMeshes = static_cast<unsigned int>(face_counts.size());
  scene.mMeshes = new aiMesh*[face_counts.size()];
  unsigned int i = 0;
  for (const unsigned int faces : face_counts) {
    scene.mMeshes[i] = new aiMesh;
    scene.mMeshes[i]->mNumFaces = faces;  // only counted: mFaces stays null
    ++i;
  }
}

TEST(CheckOffFaceCount, FewerFacesThanTheHeaderAnnouncesIsAParseError) {
  aiScene scene;
  fill_scene(scene, "<OFFRoot>", {2, 3});
  const OffCounts announced{10, 6, 0};
  expect_parse_error(check_off_face_count(scene, "cube.off", announced), "cube.off",
                     "the OFF header announces 6 faces but assimp read 5 (it drops faces of more than 9 corners or "
                     "of none)");
  EXPECT_TRUE(check_off_face_count(scene, "cube.off", OffCounts{10, 5, 0}).ok());
  EXPECT_TRUE(check_off_face_count(scene, "cube.off", std::nullopt).ok());
}

TEST(CheckOffFaceCount, OnlyTheOffReadersScenesAreCounted) {
  aiScene scene;
  fill_scene(scene, "cube.obj", {1});
  EXPECT_TRUE(check_off_face_count(scene, "cube.obj", OffCounts{10, 6, 0}).ok());
}

// --- PLY ----------------------------------------------------------------------------------------------

TEST(CheckPly, AppliesByTheFirstLineWhateverTheName) {
  const ScratchDirectory directory;
  const std::string path = directory.file("cut.dat");
  write_file(path, "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n");
  expect_parse_error(check_ply(path), path, "the PLY header has no end_header line (is the file truncated?)");
  write_file(path, "plx\nformat ascii 1.0\nelement vertex 1\nproperty float x\n");
  EXPECT_TRUE(check_ply(path).ok());
}

TEST(CheckPly, AnEndHeaderThatEndsTheFileIsNoEndHeader) {
  const ScratchDirectory directory;
  const std::string path = directory.file("empty.ply");
  write_file(path, "ply\nformat ascii 1.0\nelement vertex 0\nend_header");
  expect_parse_error(check_ply(path), path, "the PLY header has no end_header line (is the file truncated?)");
  write_file(path, "ply\nformat ascii 1.0\nelement vertex 0\nend_header\n");
  EXPECT_TRUE(check_ply(path).ok());
}

TEST(CheckPly, AnElementDeclaredTwiceIsNamedPrintably) {
  const ScratchDirectory directory;
  const std::string path = directory.file("twice.ply");
  write_file(path, "ply\nformat ascii 1.0\nelement \x01part 0\nelement \x01part 0\nend_header\n");
  expect_parse_error(check_ply(path), path,
                     "the PLY header declares element '?part' twice, which assimp cannot read safely");
}

TEST(CheckPly, AsciiLinesHoldExactlyTheirValues) {
  const ScratchDirectory directory;
  const std::string path = directory.file("values.ply");
  const std::string header = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n";
  write_file(path, header + "1.5\n");
  EXPECT_TRUE(check_ply(path).ok());
  write_file(path, header + "1.5 2\n");
  expect_parse_error(check_ply(path), path, "PLY vertex 0 (line 6) holds 2 values, more than its properties take (1)");
  write_file(path, header + "1.5x\n");
  expect_parse_error(check_ply(path), path, "PLY vertex 0 (line 6) holds a value that is not a number of its type");
}

TEST(CheckPly, ABinaryListLongerThanTheBytesLeftIsAParseError) {
  const ScratchDirectory directory;
  const std::string path = directory.file("list.ply");
  const std::string header =
      "ply\nformat binary_little_endian 1.0\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n";
  write_file(path, header + "\x01" + le32(7));
  EXPECT_TRUE(check_ply(path).ok());
  write_file(path, header + "\xff" + le32(7));
  expect_parse_error(check_ply(path), path,
                     "PLY face 0 announces a list of 255 entries, more than the 4 bytes left in the file hold");
}

// --- GLB ----------------------------------------------------------------------------------------------

// A GLB header (magic, version, total length) and chunks of (length, type, data).
std::string glb(std::uint32_t version, std::uint32_t length) { return "glTF" + le32(version) + le32(length); }
std::string chunk(std::uint32_t length, const std::string& type, const std::string& data) {
  return le32(length) + type + data;
}

TEST(CheckGlbHeader, ATotalLengthPastTheFileIsAParseErrorWhateverTheName) {
  const ScratchDirectory directory;
  const std::string path = directory.file("model.bin");
  write_file(path, glb(2, 1000));
  expect_parse_error(check_glb_header(path), path,
                     "the GLB header announces 1000 bytes but the file has 12 (is it truncated?)");
  write_file(path, "glTf" + le32(2) + le32(1000));  // not a GLB: left to assimp
  EXPECT_TRUE(check_glb_header(path).ok());
}

TEST(CheckGlbHeader, EveryGlb2ChunkButOnlyTheGltf1JsonIsChecked) {
  const ScratchDirectory directory;
  const std::string path = directory.file("model.glb");
  const std::string chunks = chunk(4, "JSON", "{}  ") + chunk(500, std::string("BIN\0", 4), std::string(1, '\0'));
  const auto length = static_cast<std::uint32_t>(12 + chunks.size());
  write_file(path, glb(2, length) + chunks);
  expect_parse_error(check_glb_header(path), path,
                     "GLB chunk 1 announces 500 bytes, past the file's length of " + std::to_string(length));
  write_file(path, glb(1, length) + chunks);
  EXPECT_TRUE(check_glb_header(path).ok());
  write_file(path, glb(1, 20) + chunk(9, "JSON", ""));
  expect_parse_error(check_glb_header(path), path, "GLB chunk 0 announces 9 bytes, past the file's length of 20");
}

// --- STL ----------------------------------------------------------------------------------------------

// A binary STL's header and triangle count, and `body` bytes after them.
std::string binary_stl(std::uint32_t count, std::size_t body) {
  return "binary" + std::string(74, '\0') + le32(count) + std::string(body, '\0');
}

TEST(CheckStlSize, ABinaryFileNamedStlMustHoldWhatItsCountAnnounces) {
  const ScratchDirectory directory;
  const std::string path = directory.file("part.STL");
  write_file(path, binary_stl(2, 100));
  EXPECT_TRUE(check_stl_size(path).ok());
  write_file(path, binary_stl(2, 99));
  expect_parse_error(check_stl_size(path), path,
                     "truncated binary STL: the header announces 2 triangles, which take 184 bytes (84 + 50 per "
                     "triangle), but the file has 183");
  write_file(path, binary_stl(2, 0).substr(0, 10));
  expect_parse_error(check_stl_size(path), path,
                     "truncated binary STL: the file has 10 bytes, fewer than the 84 of the header and triangle count");
}

TEST(CheckStlSize, TextAndFilesNotNamedStlAreLeftToAssimp) {
  const ScratchDirectory directory;
  const std::string other = directory.file("part.obj");
  write_file(other, binary_stl(2, 99));
  EXPECT_TRUE(check_stl_size(other).ok());
  const std::string text = directory.file("text.stl");
  write_file(text, "solid s\nendsolid s\n" + std::string(80, ' '));  // bytes 80 to 83 are no count
  EXPECT_TRUE(check_stl_size(text).ok());
}

}  // namespace
}  // namespace hitscan::io::detail
