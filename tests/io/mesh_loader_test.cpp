#include "hitscan/io/mesh_loader.hpp"
#include "support/scratch_directory.hpp"
#include "support/file_contents.hpp"
#include "support/load_or_die.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace hitscan::io {
namespace {

namespace fs = std::filesystem;

using test::ScratchDirectory;
using Indices = TriangleMesh::Indices;

const std::string kCgalDir = HITSCAN_CGAL_MESH_DIR;
const std::string kAssimpDir = HITSCAN_ASSIMP_MODEL_DIR;

using test::read_file;
using test::load_or_die;
using test::write_file;

// A failed load: the code, and a message that begins with the path.
void expect_failure(const std::string& path, StatusCode code, const std::string& message_part = "") {
  const Result<TriangleMesh> mesh = load_mesh(path);
  ASSERT_FALSE(mesh.ok()) << path << " loaded with " << mesh.value().triangle_count() << " triangles";
  EXPECT_EQ(mesh.status().code(), code) << status_code_name(mesh.status().code()) << ": " << mesh.status().message();
  EXPECT_EQ(mesh.status().message().rfind(path + ": ", 0), 0u) << mesh.status().message();
  EXPECT_NE(mesh.status().message().find(message_part), std::string::npos) << mesh.status().message();
}

// The fan (c0, ci, ci+1) of every face of 3 or more corners, in face order.
std::vector<Indices> fan_triangles(const std::vector<std::vector<std::uint32_t>>& faces) {
  std::vector<Indices> triangles;
  for (const auto& face : faces) {
    for (std::size_t i = 1; i + 1 < face.size(); ++i) triangles.push_back({face[0], face[i], face[i + 1]});
  }
  return triangles;
}

// assimp parses numbers with its own fast routine, which may differ from strtod in the last bit.
void expect_close(Vec3f got, const std::vector<double>& expected, const std::string& where) {
  for (int k = 0; k < 3; ++k) {
    const double e = expected[static_cast<std::size_t>(k)];
    EXPECT_NEAR(got[k], e, 4e-7 * std::max(1.0, std::abs(e))) << where << " component " << k;
  }
}

// --- an independent reader for the simple OFF files of the tests (no comments) --------------------

struct OffText {
  std::size_t vertex_count = 0, face_count = 0;
  std::vector<std::vector<double>> vertices;
  std::vector<std::vector<std::uint32_t>> faces;
};

OffText read_off_text(const std::string& path) {
  std::istringstream in(read_file(path));
  OffText off;
  std::string keyword;
  std::size_t edges = 0;
  in >> keyword >> off.vertex_count >> off.face_count >> edges;
  EXPECT_EQ(keyword, "OFF") << path;
  off.vertices.assign(off.vertex_count, std::vector<double>(3));
  for (auto& v : off.vertices) in >> v[0] >> v[1] >> v[2];
  off.faces.resize(off.face_count);
  for (auto& f : off.faces) {
    std::size_t k = 0;
    in >> k;
    f.resize(k);
    for (auto& index : f) in >> index;
  }
  EXPECT_FALSE(in.fail()) << path;
  return off;
}

void expect_matches_off_text(const TriangleMesh& mesh, const OffText& off, const std::string& path) {
  ASSERT_EQ(mesh.vertex_count(), off.vertex_count) << path;
  const std::vector<Indices> expected = fan_triangles(off.faces);
  ASSERT_EQ(mesh.triangle_count(), expected.size()) << path;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(mesh.triangles()[i], expected[i]) << path << " triangle " << i;
  }
  for (std::size_t v = 0; v < off.vertex_count; ++v) {
    expect_close(mesh.positions()[v], off.vertices[v], path + " vertex " + std::to_string(v));
  }
}

// --- real files -----------------------------------------------------------------------------------

class CgalOffMesh : public ::testing::TestWithParam<const char*> {};

TEST_P(CgalOffMesh, MatchesTheHeaderCountsAndEveryFaceOfTheFileText) {
  const std::string path = kCgalDir + "/" + GetParam();
  ASSERT_TRUE(fs::exists(path)) << path << " (CGAL's demo data, unpacked at configure time)";
  const OffText off = read_off_text(path);
  MeshLoadReport report;
  const TriangleMesh mesh = load_or_die(path, {}, &report);
  EXPECT_EQ(mesh.vertex_count(), off.vertex_count);
  EXPECT_EQ(report.polygons, off.face_count);
  EXPECT_EQ(report.points + report.lines, 0u);
  EXPECT_EQ(report.parts, 1u);
  EXPECT_TRUE(mesh.normals().empty());
  expect_matches_off_text(mesh, off, path);
  EXPECT_TRUE(mesh.bounds().is_valid());
}

INSTANTIATE_TEST_SUITE_P(Meshes, CgalOffMesh,
                         ::testing::Values("armadillo.off", "bunny00.off", "elephant.off", "sphere.off"),
                         [](const auto& info) { return std::string(info.param, std::strlen(info.param) - 4); });

TEST(LoadMeshAssimpModels, WusonOffMatchesTheFileText) {
  const std::string path = kAssimpDir + "/OFF/Wuson.off";
  const OffText off = read_off_text(path);
  EXPECT_EQ(off.vertex_count, 3205u);
  EXPECT_EQ(off.face_count, 3732u);
  expect_matches_off_text(load_or_die(path), off, path);
}

// A binary STL is an 80-byte header, a 32-bit triangle count, then 50 bytes per triangle: the
// facet normal and the three corners as little-endian floats, and 2 attribute bytes.
struct StlTriangle {
  float normal[3];
  float corners[3][3];
};

std::vector<StlTriangle> read_binary_stl(const std::string& path) {
  const std::string bytes = read_file(path);
  std::uint32_t count = 0;
  EXPECT_GE(bytes.size(), 84u);
  std::memcpy(&count, bytes.data() + 80, 4);
  EXPECT_EQ(bytes.size(), 84u + 50u * count) << path;
  std::vector<StlTriangle> triangles(count);
  for (std::uint32_t i = 0; i < count; ++i) std::memcpy(&triangles[i], bytes.data() + 84 + 50 * i, sizeof(StlTriangle));
  return triangles;
}

void expect_matches_binary_stl(const std::string& path, std::size_t expected_count) {
  const std::vector<StlTriangle> stl = read_binary_stl(path);
  ASSERT_EQ(stl.size(), expected_count);
  const TriangleMesh mesh = load_or_die(path);
  ASSERT_EQ(mesh.triangle_count(), stl.size());
  EXPECT_EQ(mesh.vertex_count(), 3 * stl.size());  // assimp gives every corner its own vertex
  ASSERT_EQ(mesh.normals().size(), mesh.vertex_count());
  for (std::size_t i = 0; i < stl.size(); ++i) {
    const Trianglef t = mesh.triangle(i);
    const Vec3f corners[3] = {t.v0, t.v1, t.v2};
    for (int c = 0; c < 3; ++c) {
      // Binary floats: bit for bit.
      EXPECT_EQ(corners[c], (Vec3f{stl[i].corners[c][0], stl[i].corners[c][1], stl[i].corners[c][2]}))
          << path << " triangle " << i << " corner " << c;
    }
  }
}

TEST(LoadMeshAssimpModels, WusonStlMatchesTheFileTriangleForTriangle) {
  expect_matches_binary_stl(kAssimpDir + "/STL/Wuson.stl", 3732);
}

TEST(LoadMeshAssimpModels, SpiderBinaryStlMatchesTheFileTriangleForTriangle) {
  expect_matches_binary_stl(kAssimpDir + "/STL/Spider_binary.stl", 1368);
}

TEST(LoadMeshAssimpModels, AsciiStlSolidsComeInFileOrder) {
  MeshLoadReport report;
  const TriangleMesh mesh = load_or_die(kAssimpDir + "/STL/triangle_with_two_solids.stl", {}, &report);
  EXPECT_EQ(report.parts, 2u);
  ASSERT_EQ(mesh.triangle_count(), 2u);
  EXPECT_EQ(mesh.triangle(0).v0, (Vec3f{1, 1, 0}));  // solid testTriangle_1
  EXPECT_EQ(mesh.triangle(1).v0, (Vec3f{3, 3, 0}));  // solid testTriangle_2
}

TEST(LoadMeshAssimpModels, PlyCubeKeepsTheFileVerticesAndFansItsQuads) {
  const std::string path = kAssimpDir + "/PLY/cube.ply";
  const TriangleMesh mesh = load_or_die(path);
  // From the file: 8 vertices, then the quads 0 1 2 3 / 7 6 5 4 / 0 4 5 1 / 1 5 6 2 / 2 6 7 3 / 3 7 4 0.
  ASSERT_EQ(mesh.vertex_count(), 8u);
  EXPECT_EQ(mesh.positions()[1], (Vec3f{0, 0, 1}));
  EXPECT_EQ(mesh.positions()[7], (Vec3f{1, 1, 0}));
  const std::vector<Indices> expected = fan_triangles(
      {{0, 1, 2, 3}, {7, 6, 5, 4}, {0, 4, 5, 1}, {1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 4, 0}});
  ASSERT_EQ(mesh.triangle_count(), 12u);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), mesh.triangles().begin()));
  EXPECT_EQ(mesh.report().degenerate_triangles, 0u);
}

// --- an independent reader for OBJ faces: positions only, any v/vt/vn form, negative indices ------

std::vector<std::vector<std::vector<double>>> read_obj_faces(const std::string& path) {
  std::istringstream in(read_file(path));
  std::vector<std::vector<double>> vertices;
  std::vector<std::vector<std::vector<double>>> faces;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    if (kind == "v") {
      std::vector<double> v(3);
      words >> v[0] >> v[1] >> v[2];
      vertices.push_back(v);
    } else if (kind == "f") {
      std::vector<std::vector<double>> face;
      std::string corner;
      while (words >> corner) {
        const long index = std::stol(corner.substr(0, corner.find('/')));
        const long count = static_cast<long>(vertices.size());
        face.push_back(vertices[static_cast<std::size_t>(index > 0 ? index - 1 : count + index)]);
      }
      faces.push_back(face);
    }
  }
  return faces;
}

void expect_matches_obj_faces(const TriangleMesh& mesh, const std::string& path) {
  const auto faces = read_obj_faces(path);
  std::size_t t = 0;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    for (std::size_t i = 1; i + 1 < faces[f].size(); ++i, ++t) {
      ASSERT_LT(t, mesh.triangle_count()) << path;
      const Trianglef tri = mesh.triangle(t);
      const std::string where = path + " face " + std::to_string(f) + " triangle " + std::to_string(t);
      expect_close(tri.v0, faces[f][0], where);
      expect_close(tri.v1, faces[f][i], where);
      expect_close(tri.v2, faces[f][i + 1], where);
    }
  }
  EXPECT_EQ(mesh.triangle_count(), t) << path;
}

TEST(LoadMeshAssimpModels, ObjBoxFansItsQuadsInFileOrder) {
  const std::string path = kAssimpDir + "/OBJ/box.obj";
  const TriangleMesh mesh = load_or_die(path);
  EXPECT_EQ(mesh.triangle_count(), 12u);
  expect_matches_obj_faces(mesh, path);
}

TEST(LoadMeshAssimpModels, ObjSpiderOfManyGroupsAndMaterialsKeepsFileOrder) {
  const std::string path = kAssimpDir + "/OBJ/spider.obj";
  MeshLoadReport report;
  const TriangleMesh mesh = load_or_die(path, {}, &report);
  EXPECT_EQ(report.parts, 19u);
  EXPECT_EQ(mesh.normals().size(), mesh.vertex_count());
  expect_matches_obj_faces(mesh, path);
}

// --- face order on files the test writes ------------------------------------------------------------

TEST(LoadMeshFaceOrder, NodeTransformsChangeNothingForScanFormats) {
  MeshLoadOptions untransformed;
  untransformed.apply_node_transforms = false;
  for (const char* name : {"OFF/Wuson.off", "PLY/cube.ply", "STL/Spider_binary.stl", "OBJ/spider.obj"}) {
    const std::string path = kAssimpDir + "/" + name;
    const TriangleMesh placed = load_or_die(path);
    const TriangleMesh listed = load_or_die(path, untransformed);
    ASSERT_EQ(placed.triangle_count(), listed.triangle_count()) << name;
    ASSERT_EQ(placed.vertex_count(), listed.vertex_count()) << name;
    EXPECT_TRUE(std::equal(placed.triangles().begin(), placed.triangles().end(), listed.triangles().begin())) << name;
    EXPECT_TRUE(std::equal(placed.positions().begin(), placed.positions().end(), listed.positions().begin())) << name;
  }
}

TEST(LoadMeshFaceOrder, OffTrianglesQuadsAndPentagonsFanInFileOrder) {
  ScratchDirectory dir;
  const std::string path = dir.file("mixed.off");
  write_file(path,
             "OFF\n"
             "# a comment line\n"
             "8 5 0\n"
             "0 0 0\n1 0 0\n2 0 0\n2 1 0\n1 1 0\n0 1 0\n0 2 0\n1 2 0\n"
             "4 0 1 4 5\n"
             "3 1 2 3\n"
             "5 5 4 3 7 6\n"
             "3 1 3 4\n"
             "4 5 0 1 4\n");
  MeshLoadReport report;
  const TriangleMesh mesh = load_or_die(path, {}, &report);
  const std::vector<Indices> expected = {{0, 1, 4}, {0, 4, 5}, {1, 2, 3}, {5, 4, 3}, {5, 3, 7}, {5, 7, 6},
                                         {1, 3, 4}, {5, 0, 1}, {5, 1, 4}};
  ASSERT_EQ(mesh.triangle_count(), expected.size());
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), mesh.triangles().begin()));
  EXPECT_EQ(report.polygons, 5u);
  EXPECT_EQ(mesh.vertex_count(), 8u);
}

TEST(LoadMeshFaceOrder, ObjQuadsAndPentagonsFanInFileOrder) {
  ScratchDirectory dir;
  const std::string path = dir.file("mixed.obj");
  write_file(path,
             "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 0\nv 0 1 0\nv 0 2 0\nv 1 2 0\n"
             "f 1 2 5 6\n"
             "f 2/1 3/1 4/1\n"
             "f 6 5 4 8 7\n"
             "f -7 -5 -4\n"
             "f 6//1 1//1 2//1 5//1\n"
             "vt 0 0\nvn 0 0 1\n");
  const TriangleMesh mesh = load_or_die(path);
  EXPECT_EQ(mesh.triangle_count(), 9u);
  expect_matches_obj_faces(mesh, path);
}

TEST(LoadMeshFaceOrder, ObjFacesInterleavingTwoMaterialsKeepFileOrder) {
  ScratchDirectory dir;
  write_file(dir.file("two.mtl"), "newmtl red\nKd 1 0 0\nnewmtl blue\nKd 0 0 1\n");
  const std::string path = dir.file("interleaved.obj");
  // Each face has a distinct first corner, so the order is visible in the positions.
  write_file(path,
             "mtllib two.mtl\n"
             "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\nv 2 1 0\nv 3 0 0\n"
             "usemtl red\nf 1 2 3\n"
             "usemtl blue\nf 2 5 6 3\n"
             "usemtl red\nf 3 4 1\nf 4 1 2 3\n"
             "usemtl blue\nf 5 7 6\n"
             "usemtl red\nf 6 3 2 5\n");
  MeshLoadReport report;
  const TriangleMesh mesh = load_or_die(path, {}, &report);
  EXPECT_EQ(report.parts, 5u);  // one per material run, in file order
  EXPECT_EQ(mesh.triangle_count(), 9u);
  expect_matches_obj_faces(mesh, path);
}

TEST(LoadMeshFaceOrder, ObjGroupsThatRecurKeepFileOrder) {
  ScratchDirectory dir;
  const std::string path = dir.file("groups.obj");
  write_file(path,
             "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
             "g a\nf 1 2 3\n"
             "g b\nf 1 3 4\n"
             "g a\nf 2 3 4\n"
             "o thing\nf 4 3 2 1\n"
             "g b\nf 1 2 4\n");
  const TriangleMesh mesh = load_or_die(path);
  EXPECT_EQ(mesh.triangle_count(), 6u);
  expect_matches_obj_faces(mesh, path);
}

TEST(LoadMeshFaceOrder, ObjPointsAndLinesAreSkippedAndCounted) {
  ScratchDirectory dir;
  const std::string path = dir.file("mixed_primitives.obj");
  write_file(path,
             "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
             "p 1\n"
             "f 1 2 3\n"
             "l 1 2 3\n"
             "f 1 3 4\n"
             "p 2 3\n"
             "f 2 3 4 1\n");
  MeshLoadReport report;
  const TriangleMesh mesh = load_or_die(path, {}, &report);
  EXPECT_EQ(report.points, 3u);
  EXPECT_EQ(report.lines, 2u);  // a polyline of 3 points is 2 segments
  EXPECT_EQ(report.polygons, 3u);
  EXPECT_EQ(mesh.triangle_count(), 4u);
  expect_matches_obj_faces(mesh, path);
}

TEST(LoadMeshFaceOrder, OffFaceOfMoreThanNineCornersIsAnErrorNotASilentShift) {
  // assimp 5.2 drops such a face (and then reads past its face array); the loader rejects it first.
  ScratchDirectory dir;
  const std::string path = dir.file("dodecagon.off");
  std::string text = "OFF\n12 3 0\n";
  for (int i = 0; i < 12; ++i) {
    text += std::to_string(std::cos(i * 3.14159265 / 6)) + " " + std::to_string(std::sin(i * 3.14159265 / 6)) + " 0\n";
  }
  text += "3 0 1 2\n12 0 1 2 3 4 5 6 7 8 9 10 11\n3 3 4 5\n";
  write_file(path, text);
  expect_failure(path, StatusCode::parse_error, "face 1 (line 16) has 12 corners");
}

TEST(LoadMeshNormals, NoffNormalsAreReadAndNormalisedUnlessNotWanted) {
  ScratchDirectory dir;
  const std::string path = dir.file("normals.off");
  write_file(path, "NOFF\n4 2 0\n0 0 0 0 0 2\n1 0 0 0 0 1\n1 1 0 3 0 4\n0 1 0 0 0 0\n3 0 1 2\n3 0 2 3\n");
  const TriangleMesh mesh = load_or_die(path);
  ASSERT_EQ(mesh.normals().size(), 4u);
  EXPECT_EQ(mesh.normals()[0], (Vec3f{0, 0, 1}));
  EXPECT_NEAR(mesh.normals()[2].x, 0.6f, 1e-7f);
  EXPECT_NEAR(mesh.normals()[2].z, 0.8f, 1e-7f);
  EXPECT_EQ(mesh.normals()[3], (Vec3f{0, 0, 0}));
  MeshLoadOptions options;
  options.read_normals = false;
  EXPECT_TRUE(load_or_die(path, options).normals().empty());
}

// --- glTF: node transforms, instancing and mirroring -----------------------------------------------

std::string base64(const std::string& bytes) {
  static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t chunk = static_cast<std::uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) chunk |= static_cast<std::uint8_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) chunk |= static_cast<std::uint8_t>(bytes[i + 2]);
    out += alphabet[(chunk >> 18) & 63];
    out += alphabet[(chunk >> 12) & 63];
    out += i + 1 < bytes.size() ? alphabet[(chunk >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? alphabet[chunk & 63] : '=';
  }
  return out;
}

template <class T>
void append_bytes(std::string& bytes, std::initializer_list<T> values) {
  for (const T v : values) bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// Mesh 0: the triangle (0,0,0) (1,0,0) (0,1,0) with vertex normals (1,1,1). Mesh 1: the unit quad
// at z = 5 as two indexed triangles, with +z normals only if `quad_normals`. Node 0 places mesh 1
// moved by (10, 0, 0) and has node 2 as child, which places mesh 0 scaled by (2, 4, 1); node 1
// places mesh 0 mirrored in x. The scene lists nodes 0 and 1.
std::string write_gltf(const ScratchDirectory& dir, bool quad_normals) {
  std::string buffer;
  append_bytes<float>(buffer, {0, 0, 0, 1, 0, 0, 0, 1, 0});              // 0: 36 bytes
  append_bytes<float>(buffer, {1, 1, 1, 1, 1, 1, 1, 1, 1});              // 36: 36 bytes
  append_bytes<float>(buffer, {0, 0, 5, 1, 0, 5, 1, 1, 5, 0, 1, 5});     // 72: 48 bytes
  append_bytes<std::uint16_t>(buffer, {0, 1, 2, 0, 2, 3});               // 120: 12 bytes
  append_bytes<float>(buffer, {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1});     // 132: 48 bytes
  const std::string quad_attributes =
      quad_normals ? R"("POSITION": 2, "NORMAL": 4)" : R"("POSITION": 2)";
  const std::string json = R"({
  "asset": {"version": "2.0"},
  "buffers": [{"byteLength": )" + std::to_string(buffer.size()) +
                           R"(, "uri": "data:application/octet-stream;base64,)" + base64(buffer) + R"("}],
  "bufferViews": [
    {"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 36},
    {"buffer": 0, "byteOffset": 72, "byteLength": 48}, {"buffer": 0, "byteOffset": 120, "byteLength": 12},
    {"buffer": 0, "byteOffset": 132, "byteLength": 48}],
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
    {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3"},
    {"bufferView": 2, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 5], "max": [1, 1, 5]},
    {"bufferView": 3, "componentType": 5123, "count": 6, "type": "SCALAR"},
    {"bufferView": 4, "componentType": 5126, "count": 4, "type": "VEC3"}],
  "meshes": [
    {"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}}]},
    {"primitives": [{"attributes": {)" + quad_attributes + R"(}, "indices": 3}]}],
  "nodes": [
    {"mesh": 1, "translation": [10, 0, 0], "children": [2]},
    {"mesh": 0, "scale": [-1, 1, 1]},
    {"mesh": 0, "scale": [2, 4, 1]}],
  "scenes": [{"nodes": [0, 1]}],
  "scene": 0
})";
  const std::string path = dir.file(quad_normals ? "scene_normals.gltf" : "scene.gltf");
  write_file(path, json);
  return path;
}

Vec3f unit_normal(const Trianglef& t) { return normalize(cross(t.v1 - t.v0, t.v2 - t.v0)); }

TEST(LoadMeshGltf, NodeTransformsPlaceEveryInstanceInDepthFirstOrder) {
  ScratchDirectory dir;
  MeshLoadReport report;
  const TriangleMesh mesh = load_or_die(write_gltf(dir, true), {}, &report);
  EXPECT_EQ(report.parts, 3u);
  ASSERT_EQ(mesh.triangle_count(), 4u);
  ASSERT_EQ(mesh.vertex_count(), 10u);
  // Node 0: the quad moved by 10 in x.
  EXPECT_EQ(mesh.triangle(0).v0, (Vec3f{10, 0, 5}));
  EXPECT_EQ(mesh.triangle(0).v1, (Vec3f{11, 0, 5}));
  EXPECT_EQ(mesh.triangle(1).v2, (Vec3f{10, 1, 5}));
  // Node 2, child of node 0: the triangle scaled by (2, 4, 1), then moved by 10.
  EXPECT_EQ(mesh.triangle(2).v0, (Vec3f{10, 0, 0}));
  EXPECT_EQ(mesh.triangle(2).v1, (Vec3f{12, 0, 0}));
  EXPECT_EQ(mesh.triangle(2).v2, (Vec3f{10, 4, 0}));
  // Node 1: the triangle mirrored in x; its last two corners swap so that it still faces +z.
  EXPECT_EQ(mesh.triangle(3).v0, (Vec3f{0, 0, 0}));
  EXPECT_EQ(mesh.triangle(3).v1, (Vec3f{0, 1, 0}));
  EXPECT_EQ(mesh.triangle(3).v2, (Vec3f{-1, 0, 0}));
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(unit_normal(mesh.triangle(i)), (Vec3f{0, 0, 1})) << i;
  // Normals follow the transforms by the inverse transpose: the quad's stay +z, node 2's
  // (1, 1, 1) becomes (1/2, 1/4, 1) and node 1's (-1, 1, 1), each normalised.
  ASSERT_EQ(mesh.normals().size(), 10u);
  for (std::size_t v = 0; v < 4; ++v) EXPECT_EQ(mesh.normals()[v], (Vec3f{0, 0, 1})) << v;
  const Vec3f scaled = normalize(Vec3f{0.5f, 0.25f, 1});
  const Vec3f mirrored = normalize(Vec3f{-1, 1, 1});
  for (std::size_t v = 4; v < 10; ++v) {
    const Vec3f expected = v < 7 ? scaled : mirrored;
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(mesh.normals()[v][k], expected[k], 1e-6f) << v;
  }
}

TEST(LoadMeshGltf, WithoutNodeTransformsEveryMeshComesOnceInFileOrder) {
  ScratchDirectory dir;
  MeshLoadOptions options;
  options.apply_node_transforms = false;
  MeshLoadReport report;
  const TriangleMesh mesh = load_or_die(write_gltf(dir, true), options, &report);
  EXPECT_EQ(report.parts, 2u);
  ASSERT_EQ(mesh.triangle_count(), 3u);
  EXPECT_EQ(mesh.triangles()[0], (Indices{0, 1, 2}));
  EXPECT_EQ(mesh.triangle(0).v1, (Vec3f{1, 0, 0}));
  EXPECT_EQ(mesh.triangles()[1], (Indices{3, 4, 5}));
  EXPECT_EQ(mesh.triangles()[2], (Indices{3, 5, 6}));
  EXPECT_EQ(mesh.triangle(2).v2, (Vec3f{0, 1, 5}));
}

TEST(LoadMeshGltf, NormalsAreDroppedWhenSomePartLacksThem) {
  ScratchDirectory dir;
  const TriangleMesh mesh = load_or_die(write_gltf(dir, false));
  EXPECT_EQ(mesh.triangle_count(), 4u);
  EXPECT_TRUE(mesh.normals().empty());
}

// --- malformed, missing and empty inputs ----------------------------------------------------------

TEST(LoadMeshErrors, MissingFileIsAnIoError) {
  ScratchDirectory dir;
  expect_failure(dir.file("no_such_mesh.obj"), StatusCode::io_error, "no such file");
  expect_failure("", StatusCode::io_error);
}

TEST(LoadMeshErrors, DirectoryIsAnIoError) {
  ScratchDirectory dir;
  fs::create_directory(dir.file("meshes.off"));
  expect_failure(dir.file("meshes.off"), StatusCode::io_error, "is a directory");
}

TEST(LoadMeshErrors, UnreadableFileIsAnIoError) {
  ScratchDirectory dir;
  const std::string path = dir.file("locked.off");
  write_file(path, "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");
  fs::permissions(path, fs::perms::none);
  if (std::FILE* probe = std::fopen(path.c_str(), "rb")) {
    std::fclose(probe);
    GTEST_SKIP() << "running with privileges that read any file";
  }
  expect_failure(path, StatusCode::io_error, "cannot open");
}

TEST(LoadMeshErrors, EmptyFilesAreParseErrors) {
  ScratchDirectory dir;
  for (const char* name : {"empty.obj", "empty.off", "empty.stl", "empty.ply", "empty"}) {
    write_file(dir.file(name), "");
    expect_failure(dir.file(name), StatusCode::parse_error, "cannot read the file");
  }
}

TEST(LoadMeshErrors, GarbageBytesAreRejected) {
  ScratchDirectory dir;
  std::string garbage;
  std::uint32_t state = 12345;
  for (int i = 0; i < 4096; ++i) {
    state = state * 1664525u + 1013904223u;
    garbage += static_cast<char>(state >> 24);
  }
  for (const char* name : {"garbage.bin", "garbage.off", "garbage.ply", "garbage.stl", "garbage.glb"}) {
    write_file(dir.file(name), garbage);
    expect_failure(dir.file(name), StatusCode::parse_error);
  }
  // assimp's OBJ reader skips lines it does not know, so garbage reads as a file without faces.
  write_file(dir.file("garbage.obj"), garbage);
  expect_failure(dir.file("garbage.obj"), StatusCode::degenerate, "no triangles");
}

TEST(LoadMeshErrors, TruncatedOffFaceListIsAParseError) {
  ScratchDirectory dir;
  const std::string path = dir.file("truncated.off");
  write_file(path, "OFF\n4 3 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n3 0 1 2\n3 0 2 3\n");
  expect_failure(path, StatusCode::parse_error, "face 2 has no corners");
}

TEST(LoadMeshErrors, OffCutInTheMiddleIsAParseError) {
  ScratchDirectory dir;
  const std::string whole = read_file(kAssimpDir + "/OFF/Wuson.off");
  // Inside a vertex line, inside a face line halfway, and after a whole face line near the end.
  // (A cut inside the very last face line goes unnoticed: see the header's known limits.)
  std::size_t near_end = whole.size() - 1;
  for (int lines = 0; lines < 5; ++lines) near_end = whole.rfind('\n', near_end - 1);
  for (const std::size_t size : {std::size_t{300}, whole.size() / 2, near_end + 1}) {
    const std::string path = dir.file("cut" + std::to_string(size) + ".off");
    write_file(path, whole.substr(0, size));
    expect_failure(path, StatusCode::parse_error);
  }
}

// Found by fuzz_mesh_loader (fuzz/regressions/fuzz_mesh_loader/ply_header_cut_before_end_header):
// assimp 5.2's PLY reader never returns on a header without end_header.
TEST(LoadMeshErrors, PlyHeaderCutBeforeEndHeaderIsAParseErrorNotAHang) {
  ScratchDirectory dir;
  const std::string header = "ply\nformat ascii 1.0\nelement vertex 8\nproperty float x\nproperty f";
  for (const std::size_t size : {std::size_t{4}, std::size_t{21}, header.size()}) {
    const std::string path = dir.file("cut" + std::to_string(size) + ".ply");
    write_file(path, header.substr(0, size));
    expect_failure(path, StatusCode::parse_error, "end_header");
  }
  // Read as PLY by its first line whatever its name, and an end_header inside a comment is none.
  const std::string path = dir.file("cut.mesh");
  write_file(path, "ply\nformat ascii 1.0\ncomment end_header\n");
  expect_failure(path, StatusCode::parse_error, "end_header");
  // (fuzz/regressions/fuzz_mesh_loader/ply_end_header_ending_the_file_after_a_longer_line) assimp
  // 5.2 does not see an end_header that ends the file after a longer line, and reads on forever.
  write_file(path, "ply\nformat ascii 1.0\nproperty float x\nend_header");
  expect_failure(path, StatusCode::parse_error, "the PLY header has no end_header line");
}

// Found by fuzz_mesh_loader (fuzz/regressions/fuzz_mesh_loader/off_header_announcing_353535235358_vertices,
// which is assimp's invalid/OutOfMemory.off): assimp 5.2 allocates what an OFF header announces,
// 16 GB for this 310-byte file, before finding that the file holds none of it.
TEST(LoadMeshErrors, OffHeaderAnnouncingMoreThanTheFileHoldsIsAParseErrorWithoutAllocating) {
  ScratchDirectory dir;
  const std::string out_of_memory = dir.file("OutOfMemory.off");
  write_file(out_of_memory, read_file(kAssimpDir + "/invalid/OutOfMemory.off"));
  expect_failure(out_of_memory, StatusCode::parse_error, "353535235358 vertices");
  // The same with the keyword and the counts split over lines and comments, and by the keyword
  // alone, whatever the name.
  const std::string commented = dir.file("commented.mesh");
  write_file(commented, "NOFF # normals\n# counts follow\n4\n2000 0\n0 0 0 0 0 1\n");
  expect_failure(commented, StatusCode::parse_error, "announces 4 vertices and 2000 faces");
}

// Found by fuzz_mesh_loader (fuzz/regressions/fuzz_mesh_loader/ply_header_declaring_vertices_twice):
// assimp 5.2's PLY reader writes both vertex elements into room for the first, a heap overflow.
TEST(LoadMeshErrors, PlyHeaderDeclaringVerticesTwiceIsAParseErrorNotAnOverflow) {
  ScratchDirectory dir;
  const std::string path = dir.file("twice.ply");
  std::string ply = "ply\nformat ascii 1.0\n";
  for (const int count : {4, 8}) {
    ply += "element vertex " + std::to_string(count) + "\nproperty float x\nproperty float y\nproperty float z\n";
  }
  ply += "end_header\n";
  for (int i = 0; i < 12; ++i) ply += "0 0 " + std::to_string(i) + "\n";
  write_file(path, ply);
  expect_failure(path, StatusCode::parse_error, "element 'vertex' twice");
}

// An ASCII PLY of one triangle, whose header and vertex lines the PLY tests below edit.
const std::string kPlyTriangleHeader =
    "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
    "element face 1\nproperty list uchar int vertex_indices\nend_header\n";
const std::string kPlyTriangleVertices = "0 0 0\n1 0 0\n0 1 0\n";

// assimp 5.2 allocates what a PLY announces before reading it.
TEST(LoadMeshErrors, PlyCountsBeyondWhatTheFileHoldsAreParseErrorsWithoutAllocating) {
  ScratchDirectory dir;
  const std::string header = kPlyTriangleHeader, vertices = kPlyTriangleVertices;
  const std::string whole = dir.file("whole.ply");
  write_file(whole, header + vertices + "3 0 1 2\n");
  EXPECT_EQ(load_or_die(whole).triangle_count(), 1u);
  const std::string huge = dir.file("huge.ply");
  write_file(huge, header + vertices + std::string(50, '1') + " 0 1 2\n");
  expect_failure(huge, StatusCode::parse_error,
                 "PLY face 0 (line 13) announces a list of more than 2^64 entries but its line holds 3 more values");
  write_file(huge, header + vertices + "1000 0 1 2\n");
  expect_failure(huge, StatusCode::parse_error, "PLY face 0 (line 13) announces a list of 1000 entries but its line holds 3");
  // An element count the file cannot hold, and a binary list count of 2^32 - 1.
  std::string many = header;
  many.replace(many.find("vertex 3"), 8, "vertex 4000000000");
  write_file(huge, many + vertices + "3 0 1 2\n");
  expect_failure(huge, StatusCode::parse_error, "announces 4000000000 vertex elements, more than the 26 bytes");
  std::string binary = "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                       "property float z\nelement face 1\nproperty list uint int vertex_indices\nend_header\n";
  const float corners[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  binary.append(reinterpret_cast<const char*>(corners), sizeof corners);
  const std::uint32_t face[4] = {3, 0, 1, 2};
  write_file(whole, binary + std::string(reinterpret_cast<const char*>(face), sizeof face));
  EXPECT_EQ(load_or_die(whole).triangle_count(), 1u);
  const std::uint32_t bad_face[4] = {0xffffffffu, 0, 1, 2};
  write_file(huge, binary + std::string(reinterpret_cast<const char*>(bad_face), sizeof bad_face));
  expect_failure(huge, StatusCode::parse_error, "PLY face 0 announces a list of 4294967295 entries, more than the 12 bytes");
}

// assimp 5.2 reads an ASCII PLY instance from a line of its own, and reads on into stale bytes of
// earlier lines when a line holds too few values, or takes a value it cannot read whole from the
// next word: its list counts then come from anywhere (fuzz/regressions/fuzz_mesh_loader/ply_*:
// 26 GB each). So each line must hold exactly its values.
TEST(LoadMeshErrors, PlyAsciiLinesMustHoldExactlyTheirValues) {
  ScratchDirectory dir;
  const std::string header = kPlyTriangleHeader, vertices = kPlyTriangleVertices;
  const auto edited = [](std::string text, const std::string& from, const std::string& to) {
    return text.replace(text.find(from), from.size(), to);
  };
  const std::string whole = dir.file("whole.ply"), bad = dir.file("bad.ply");
  const auto expect_loaded = [&](const std::string& text) {
    write_file(whole, text);
    return load_or_die(whole);
  };
  const auto expect_refused = [&](const std::string& text, const std::string& message) {
    write_file(bad, text);
    expect_failure(bad, StatusCode::parse_error, message);
  };
  EXPECT_EQ(expect_loaded(header + vertices + "3 0 1 2\n").triangle_count(), 1u);
  // Lines end at '\r', '\0' and '\f' too, as assimp's do; CRLF ends one line.
  const char other_ends[] = "0 0 0\0001 0 0\r\n0 1 0\f3 0 1 2\r\n";
  EXPECT_EQ(expect_loaded(header + std::string(other_ends, sizeof other_ends - 1)).triangle_count(), 1u);
  expect_refused(header + "0 0 0 0 0 1 1\n1 0 0\n0 1 0\n3 0 1 2\n",
                 "PLY vertex 0 (line 10) holds 7 values, more than its properties take (3)");
  expect_refused(header + "0 0\n1 0 0\n0 1 0\n3 0 1 2\n", "PLY vertex 0 (line 10) holds 2 values, fewer than");
  expect_refused(header + vertices + "3 0 1\n", "PLY face 0 (line 13) announces a list of 3 entries but its line holds 2");
  expect_refused(header + vertices, "the PLY file ends before face 0 of its 1 (is it truncated?)");
  // Values read whole: no trailing bytes, no integer part longer than assimp's 64-bit reader
  // takes, no negative list length of a signed type (assimp makes it nearly 2^32).
  expect_refused(header + "0 0 0\n1.5x 0 0\n0 1 0\n3 0 1 2\n", "PLY vertex 1 (line 11) holds a value that is not");
  expect_refused(header + vertices + std::string(20, '3') + ".0 0 1 2\n", "PLY face 0 (line 13) has a list length");
  expect_refused(header + "0 0 0\n" + std::string(20, '1') + " 0 0\n0 1 0\n3 0 1 2\n", "PLY vertex 1 (line 11)");
  EXPECT_EQ(expect_loaded(header + "0 0 0\n1e3 0 0\n-.5 1,5 +2E-3\n3 0 1 2\n").bounds().max.x, 1000.0f);
  expect_refused(edited(header, "list uchar", "list int") + vertices + "-1 0 1 2\n",
                 "PLY face 0 (line 13) has a list length that is not a count");
  // A property line assimp cannot read ends the element's properties: this vertex has x and y
  // only, and "property float z" belongs to nothing.
  const std::string cut_short = edited(header, "property float z", "property flo?t w\nproperty float z");
  EXPECT_EQ(expect_loaded(cut_short + "0 0\n1 0\n0 1\n3 0 1 2\n").bounds().max.z, 0.0f);
  expect_refused(cut_short + vertices + "3 0 1 2\n", "PLY vertex 0 (line 11) holds 3 values, more than its properties take (2)");
}

// Found by fuzz_mesh_loader (fuzz/regressions/fuzz_mesh_loader/glb_json_chunk_longer_than_the_file):
// assimp 5.2 allocates what a GLB announces for a chunk before reading it, 4 GB for that file.
TEST(LoadMeshErrors, GlbChunkLongerThanTheFileIsAParseErrorWithoutAllocating) {
  ScratchDirectory dir;
  // Little-endian 32-bit words of the header: 8 is the total length, 12 the first chunk's length.
  const auto with_word = [](std::string bytes, std::size_t at, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<char>(value >> (8 * i));
    return bytes;
  };
  const auto word = [](const std::string& bytes, std::size_t at) {
    std::uint32_t value = 0;
    for (int i = 3; i >= 0; --i) value = value << 8 | static_cast<unsigned char>(bytes[at + i]);
    return value;
  };
  const std::string glb = read_file(kAssimpDir + "/glTF2/BoxTextured-glTF-Binary/BoxTextured.glb");
  ASSERT_EQ(word(glb, 4), 2u);
  ASSERT_EQ(word(glb, 8), glb.size());
  const std::string box = dir.file("box.glb");
  write_file(box, glb);
  EXPECT_EQ(load_or_die(box).triangle_count(), 12u);  // the checks let a whole file through

  const std::string json = dir.file("json.glb");  // the fuzzer's chunk length
  write_file(json, with_word(glb, 12, 0xfffc02a4u));
  expect_failure(json, StatusCode::parse_error,
                 "GLB chunk 0 announces 4294705828 bytes, past the file's length of " + std::to_string(glb.size()));
  write_file(json, with_word(glb, 12, static_cast<std::uint32_t>(glb.size() - 20 + 1)));  // one byte too many
  expect_failure(json, StatusCode::parse_error, "GLB chunk 0 announces");
  const std::size_t bin = 20 + word(glb, 12);  // the binary chunk's (length, type) pair
  const std::string binary = dir.file("binary.glb");
  write_file(binary, with_word(glb, bin, static_cast<std::uint32_t>(glb.size() - bin - 8 + 1)));
  expect_failure(binary, StatusCode::parse_error, "GLB chunk 1 announces");

  const std::string cut = dir.file("cut.mesh");  // checked by its magic, whatever its name
  write_file(cut, glb.substr(0, glb.size() / 2));
  expect_failure(cut, StatusCode::parse_error,
                 "the GLB header announces " + std::to_string(glb.size()) + " bytes but the file has " +
                     std::to_string(glb.size() / 2) + " (is it truncated?)");
  // assimp's own glTF 1.0 sample announces 33 bytes more than it has (and assimp 5.2 as Debian
  // builds it has no glTF 1.0 reader).
  const std::string version1 = dir.file("box1.glb");
  write_file(version1, read_file(kAssimpDir + "/glTF/BoxTextured-glTF-Binary/BoxTextured.glb"));
  expect_failure(version1, StatusCode::parse_error, "the GLB header announces 17754 bytes but the file has 17721");
}

// Found by fuzz_mesh_loader (fuzz/regressions/fuzz_mesh_loader/off_face_lines_of_json_text): assimp
// 5.2 drops face lines without a corner count and, when it drops many, reads past its face array.
TEST(LoadMeshErrors, OffFaceLinesWithoutACornerCountAreAParseErrorNotAnOverread) {
  ScratchDirectory dir;
  const std::string path = dir.file("json.off");
  write_file(path, "8 6 0\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n{\nx\n0\n]\n}\n]\n}\n");
  expect_failure(path, StatusCode::parse_error, "face 0 (line 11) does not begin with its number of corners");
  const std::string zero = dir.file("zero.off");
  write_file(zero, "OFF # a comment\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 # a face\n0\n");
  expect_failure(zero, StatusCode::parse_error, "face 1 (line 7) does not begin with its number of corners");
  // The header is read as assimp reads it (fuzz/regressions/fuzz_mesh_loader/
  // off_keyword_fused_with_the_vertex_count): "OFF3" is the keyword and 3 vertices.
  const std::string fused = dir.file("fused.off");
  write_file(fused, "OFF3\n 1 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n12 0 1 2 3 0 1 2 3 0 1 2 3\n");
  expect_failure(fused, StatusCode::parse_error, "face 0 (line 6) does not begin with its number of corners");
  // (fuzz/regressions/fuzz_mesh_loader/off_leading_4_read_as_a_flag_then_too_few_faces, a crash)
  // Without the keyword, assimp still takes a leading '4' as the homogeneous flag: "4 1 2 3 40"
  // announces 1 vertex and 2 faces, and the vertex line begins at "40", on the header line.
  const std::string flag = dir.file("flag.off");
  write_file(flag, "4 1 2 3 40 0 0\n1 0 0\n0 0 0\n140 0 0\n0 1 1\n");
  expect_failure(flag, StatusCode::parse_error, "face 1 (line 3) does not begin with its number of corners");
  write_file(flag, "40 60 0\n");  // 0 vertices: assimp's own error
  expect_failure(flag, StatusCode::parse_error, "no valid vertices");
}

TEST(LoadMeshErrors, TruncatedBinaryFilesAreParseErrors) {
  ScratchDirectory dir;
  const std::string stl = read_file(kAssimpDir + "/STL/Spider_binary.stl");
  write_file(dir.file("cut.stl"), stl.substr(0, 20000));
  expect_failure(dir.file("cut.stl"), StatusCode::parse_error);
  const std::string ply = read_file(kAssimpDir + "/PLY/cube_binary.ply");
  write_file(dir.file("cut.ply"), ply.substr(0, 300));
  expect_failure(dir.file("cut.ply"), StatusCode::parse_error);
}

TEST(LoadMeshErrors, ObjOutOfRangeIndexIsAParseError) {
  ScratchDirectory dir;
  write_file(dir.file("beyond.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 7\n");
  expect_failure(dir.file("beyond.obj"), StatusCode::parse_error, "out of range");
  write_file(dir.file("before.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -7\n");
  expect_failure(dir.file("before.obj"), StatusCode::parse_error);
  write_file(dir.file("zero.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n");
  expect_failure(dir.file("zero.obj"), StatusCode::parse_error);
}

TEST(LoadMeshErrors, PlyOutOfRangeIndexIsAParseErrorThatNamesTheFace) {
  // assimp's PLY reader passes the index through; the loader catches it.
  ScratchDirectory dir;
  const std::string path = dir.file("beyond.ply");
  write_file(path,
             "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
             "element face 2\nproperty list uchar int vertex_indices\nend_header\n"
             "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 0 1 9\n");
  expect_failure(path, StatusCode::parse_error, "face 1 refers to vertex 9 but its part has 3 vertices");
}

TEST(LoadMeshErrors, NanInAReferencedVertexIsAParseErrorAndInAnUnusedOneIsFine) {
  ScratchDirectory dir;
  write_file(dir.file("nan.off"), "OFF\n4 2 0\n0 0 0\n1 0 0\n0 1 0\nnan 0 0\n3 0 1 2\n3 2 1 3\n");
  expect_failure(dir.file("nan.off"), StatusCode::parse_error, "triangle 1 refers to vertex 3, which is not finite");
  write_file(dir.file("nan_unused.off"), "OFF\n4 1 0\n0 0 0\n1 0 0\n0 1 0\nnan 0 0\n3 0 1 2\n");
  const TriangleMesh mesh = load_or_die(dir.file("nan_unused.off"));
  EXPECT_EQ(mesh.triangle_count(), 1u);
  EXPECT_EQ(mesh.report().unreferenced_vertices, 1u);
  write_file(dir.file("inf.obj"), "v 0 0 0\nv 1e39 0 0\nv 0 1 0\nf 1 2 3\n");
  expect_failure(dir.file("inf.obj"), StatusCode::parse_error, "not finite");
}

TEST(LoadMeshErrors, FilesWithoutTrianglesAreDegenerate) {
  ScratchDirectory dir;
  // assimp reads a PLY point cloud as vertices without faces.
  expect_failure(kAssimpDir + "/PLY/points.ply", StatusCode::degenerate, "no triangles (points: 0, line segments: 0");
  expect_failure(kAssimpDir + "/OBJ/testline.obj", StatusCode::degenerate, "line segments: 18");
  write_file(dir.file("vertices_only.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\n");
  expect_failure(dir.file("vertices_only.obj"), StatusCode::degenerate, "no triangles");
}

TEST(LoadMeshFaceOrder, DegenerateFacesAreKeptInPlaceAndCounted) {
  ScratchDirectory dir;
  const std::string path = dir.file("flat.off");
  write_file(path, "OFF\n4 3 0\n0 0 0\n1 0 0\n2 0 0\n0 1 0\n3 0 1 2\n3 0 1 3\n3 3 3 1\n");
  const TriangleMesh mesh = load_or_die(path);
  EXPECT_EQ(mesh.triangle_count(), 3u);
  EXPECT_EQ(mesh.report().degenerate_triangles, 2u);
  EXPECT_TRUE(mesh.is_usable(1));
}

TEST(LoadMeshReport, IsResetOnEveryCall) {
  MeshLoadReport report;
  report.points = 99;
  load_or_die(kAssimpDir + "/OBJ/box.obj", {}, &report);
  EXPECT_EQ(report.points, 0u);
  EXPECT_EQ(report.polygons, 6u);
  EXPECT_FALSE(load_mesh(kAssimpDir + "/OBJ/testline.obj", {}, &report).ok());
  EXPECT_EQ(report.lines, 0u);  // zero after a failure
  EXPECT_EQ(report.parts, 0u);
}

// --- assimp's reader in a child process (MeshLoadOptions::isolate_importer) ---------------------

MeshLoadOptions in_process(MeshLoadOptions options = {}) {
  options.isolate_importer = false;
  return options;
}

// The file of a fuzz_mesh_loader regression input: its first byte picks the format, the rest is the file.
std::string fuzz_regression_file(const std::string& name) {
  return read_file(std::string(HITSCAN_FUZZ_REGRESSIONS_DIR) + "/fuzz_mesh_loader/" + name).substr(1);
}

TEST(LoadMeshIsolation, AReaderThatCrashesFailsTheLoadAndNotTheCaller) {
  ScratchDirectory dir;
  // assimp 5.2's glTF 2 reader reads through a null pointer on this GLB (found by the fuzzer); in
  // the caller's process it is a segmentation fault.
  const std::string path = dir.file("crashes_assimp.glb");
  write_file(path, fuzz_regression_file("glb_that_crashes_assimps_gltf2_reader_on_a_null_pointer"));
  MeshLoadReport report;
  report.parts = 7;
  const Result<TriangleMesh> mesh = load_mesh(path, {}, &report);
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.status().code(), StatusCode::parse_error);
  EXPECT_EQ(mesh.status().message().rfind(path + ": assimp's reader crashed on the file (", 0), 0u)
      << mesh.status().message();
  EXPECT_EQ(report.parts, 0u);
  // The process goes on loading: the next file loads.
  EXPECT_EQ(load_or_die(kAssimpDir + "/OBJ/box.obj").triangle_count(), 12u);
}

bool same_bits(std::span<const Vec3f> a, std::span<const Vec3f> b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}

TEST(LoadMeshIsolation, TheChildGivesWhatAnInProcessLoadGivesBitForBit) {
  const std::string files[] = {kCgalDir + "/armadillo.off", kAssimpDir + "/OBJ/spider.obj",
                               kAssimpDir + "/PLY/cube.ply", kAssimpDir + "/STL/Spider_binary.stl",
                               kAssimpDir + "/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb",
                               kAssimpDir + "/glTF2/BoxTextured-glTF/BoxTextured.gltf"};
  for (const std::string& path : files) {
    for (const bool normals : {true, false}) {
      MeshLoadOptions options;
      options.read_normals = normals;
      MeshLoadReport isolated_report, local_report;
      const TriangleMesh isolated = load_or_die(path, options, &isolated_report);
      const TriangleMesh local = load_or_die(path, in_process(options), &local_report);
      SCOPED_TRACE(path + (normals ? " with normals" : " without normals"));
      EXPECT_GT(isolated.triangle_count(), 0u);
      ASSERT_EQ(isolated.vertex_count(), local.vertex_count());
      ASSERT_EQ(isolated.triangle_count(), local.triangle_count());
      EXPECT_TRUE(same_bits(isolated.positions(), local.positions()));
      EXPECT_TRUE(std::equal(isolated.triangles().begin(), isolated.triangles().end(), local.triangles().begin()));
      EXPECT_TRUE(same_bits(isolated.normals(), local.normals()));
      EXPECT_EQ(isolated_report.polygons, local_report.polygons);
      EXPECT_EQ(isolated_report.points, local_report.points);
      EXPECT_EQ(isolated_report.lines, local_report.lines);
      EXPECT_EQ(isolated_report.parts, local_report.parts);
    }
  }
}

TEST(LoadMeshIsolation, ErrorsFoundInTheChildComeBackWithTheirCodeAndMessage) {
  ScratchDirectory dir;
  write_file(dir.file("out_of_range.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n");
  write_file(dir.file("lines.obj"), "v 0 0 0\nv 1 0 0\nl 1 2\n");
  write_file(dir.file("nan.off"), "OFF\n3 1 0\n0 0 0\n1 nan 0\n0 1 0\n3 0 1 2\n");
  // (A failed read of assimp's own, such as a broken STL, leaks assimp's memory in-process.)
  for (const std::string& path : {dir.file("out_of_range.obj"), dir.file("lines.obj"), dir.file("nan.off")}) {
    const Result<TriangleMesh> isolated = load_mesh(path);
    const Result<TriangleMesh> local = load_mesh(path, in_process());
    ASSERT_FALSE(isolated.ok()) << path;
    ASSERT_FALSE(local.ok()) << path;
    EXPECT_EQ(isolated.status().code(), local.status().code()) << path;
    EXPECT_EQ(isolated.status().message(), local.status().message());
  }
}

TEST(LoadMeshIsolation, AReaderStillRunningAtTheTimeLimitIsStoppedWithAnIoError) {
  // The armadillo (52k triangles) takes assimp tens of milliseconds; a millisecond is too little.
  MeshLoadOptions options;
  options.time_limit_seconds = 0.001;
  const std::string path = kCgalDir + "/armadillo.off";
  const Result<TriangleMesh> mesh = load_mesh(path, options);
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.status().code(), StatusCode::io_error);
  EXPECT_EQ(mesh.status().message(), path + ": assimp's reader did not finish within 0.001 s and was stopped");
  options.time_limit_seconds = 60;
  EXPECT_GT(load_or_die(path, options).triangle_count(), 50000u);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizedAllocator = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitizedAllocator = true;
#else
constexpr bool kSanitizedAllocator = false;
#endif
#else
constexpr bool kSanitizedAllocator = false;
#endif

TEST(LoadMeshIsolation, LoadsFromManyThreadsAtOnceEachGetTheirOwnMesh) {
  // Children forked at the same time must not hold each other's pipes open, nor mix answers.
  if (kSanitizedAllocator) {
    // The sanitizers' allocators (GCC 12, clang 14) are not locked across fork: a child forked
    // while another thread allocates can wait forever on the allocator's lock (seen here).
    // glibc's malloc is.
    GTEST_SKIP() << "fork while other threads allocate deadlocks under the sanitizers' allocators";
  }
  const std::string files[] = {kAssimpDir + "/OBJ/spider.obj", kAssimpDir + "/STL/Wuson.stl",
                               kAssimpDir + "/PLY/cube.ply", kAssimpDir + "/OFF/Wuson.off"};
  std::vector<std::size_t> expected;
  for (const std::string& path : files) expected.push_back(load_or_die(path, in_process()).triangle_count());
  std::vector<std::vector<std::size_t>> got(8);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < got.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round) {
        const std::string& path = files[(t + std::size_t(round)) % std::size(files)];
        const Result<TriangleMesh> mesh = load_mesh(path);
        got[t].push_back(mesh.ok() ? mesh.value().triangle_count() : 0);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (std::size_t t = 0; t < got.size(); ++t) {
    for (int round = 0; round < 3; ++round) {
      EXPECT_EQ(got[t][std::size_t(round)], expected[(t + std::size_t(round)) % std::size(files)]) << t << " " << round;
    }
  }
}

}  // namespace
}  // namespace hitscan::io
