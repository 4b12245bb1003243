#include "hitscan/io/mesh_loader.hpp"
#include "support/file_contents.hpp"
#include "support/load_or_die.hpp"
#include "support/scratch_directory.hpp"

#include <gtest/gtest.h>

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <cstring>
#include <string>
#include <vector>

namespace hitscan::io {
namespace {

using test::ScratchDirectory;
using test::load_or_die;
using test::write_file;
using Indices = TriangleMesh::Indices;

const std::string kAssimpDir = HITSCAN_ASSIMP_MODEL_DIR;

MeshLoadOptions with(bool apply_node_transforms, bool isolate_importer) {
  MeshLoadOptions options;
  options.apply_node_transforms = apply_node_transforms;
  options.isolate_importer = isolate_importer;
  return options;
}

// The ranges tile the mesh: each begins where the one before ends, the last ends at the end, and
// the report's counts are their sums.
void expect_ranges_tile(const TriangleMesh& mesh, const MeshLoadReport& report) {
  ASSERT_EQ(report.part_ranges.size(), report.parts);
  std::size_t vertices = 0, triangles = 0, polygons = 0, points = 0, lines = 0;
  for (const MeshPartRange& range : report.part_ranges) {
    SCOPED_TRACE(range.name);
    EXPECT_EQ(range.first_vertex, vertices);
    EXPECT_EQ(range.first_triangle, triangles);
    for (std::size_t t = range.first_triangle; t < range.first_triangle + range.triangle_count; ++t) {
      for (const std::uint32_t v : mesh.triangles()[t]) {
        ASSERT_GE(v, range.first_vertex) << "triangle " << t;
        ASSERT_LT(v, range.first_vertex + range.vertex_count) << "triangle " << t;
      }
    }
    vertices += range.vertex_count;
    triangles += range.triangle_count;
    polygons += range.polygons;
    points += range.points;
    lines += range.lines;
  }
  EXPECT_EQ(vertices, mesh.vertex_count());
  EXPECT_EQ(triangles, mesh.triangle_count());
  EXPECT_EQ(polygons, report.polygons);
  EXPECT_EQ(points, report.points);
  EXPECT_EQ(lines, report.lines);
}

// --- an OBJ of two objects written by the test -------------------------------------------------------

// "first": a quad and a triangle (7 corners, 3 triangles); "second": a triangle, a line and a
// point (6 corners, 1 triangle). assimp's OBJ reader gives every corner a vertex.
const std::string kFirstObject = "o first\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\nf 1 3 2\n";
const std::string kSecondObject = "o second\nv 0 0 1\nv 2 0 1\nv 0 2 1\nf -3 -2 -1\nl -3 -2\np -1\n";

void expect_range(const MeshPartRange& range, const std::string& name, const std::string& node_name,
                  std::size_t first_vertex, std::size_t vertex_count, std::size_t first_triangle,
                  std::size_t triangle_count) {
  EXPECT_EQ(range.name, name);
  EXPECT_EQ(range.node_name, node_name);
  EXPECT_EQ(range.first_vertex, first_vertex) << name;
  EXPECT_EQ(range.vertex_count, vertex_count) << name;
  EXPECT_EQ(range.first_triangle, first_triangle) << name;
  EXPECT_EQ(range.triangle_count, triangle_count) << name;
}

TEST(LoadMeshPartRanges, ObjObjectsGiveOneRangeEachWithTheirNamesAndCounts) {
  ScratchDirectory dir;
  const std::string path = dir.file("two_objects.obj");
  write_file(path, kFirstObject + kSecondObject);
  for (const bool transforms : {true, false}) {
    for (const bool isolated : {true, false}) {
      SCOPED_TRACE(std::string(transforms ? "node transforms" : "no node transforms") +
                   (isolated ? ", isolated" : ", in process"));
      MeshLoadReport report;
      const TriangleMesh mesh = load_or_die(path, with(transforms, isolated), &report);
      ASSERT_EQ(report.part_ranges.size(), 2u);
      expect_range(report.part_ranges[0], "first", transforms ? "first" : "", 0, 7, 0, 3);
      expect_range(report.part_ranges[1], "second", transforms ? "second" : "", 7, 6, 3, 1);
      EXPECT_EQ(report.part_ranges[0].polygons, 2u);
      EXPECT_EQ(report.part_ranges[0].points + report.part_ranges[0].lines, 0u);
      EXPECT_EQ(report.part_ranges[1].polygons, 1u);
      EXPECT_EQ(report.part_ranges[1].lines, 1u);
      EXPECT_EQ(report.part_ranges[1].points, 1u);
      expect_ranges_tile(mesh, report);
    }
  }
}

TEST(LoadMeshPartRanges, EachRangeRebasedIsThePartLoadedAlone) {
  ScratchDirectory dir;
  const std::string path = dir.file("two_objects.obj");
  write_file(path, kFirstObject + kSecondObject);
  const std::string alone[] = {dir.file("first.obj"), dir.file("second.obj")};
  write_file(alone[0], kFirstObject);
  write_file(alone[1], kSecondObject);
  MeshLoadReport report;
  const TriangleMesh mesh = load_or_die(path, {}, &report);
  ASSERT_EQ(report.part_ranges.size(), 2u);
  for (std::size_t p = 0; p < 2; ++p) {
    const MeshPartRange& range = report.part_ranges[p];
    const TriangleMesh part = load_or_die(alone[p]);
    SCOPED_TRACE(range.name);
    ASSERT_EQ(part.vertex_count(), range.vertex_count);
    ASSERT_EQ(part.triangle_count(), range.triangle_count);
    EXPECT_EQ(std::memcmp(part.positions().data(), mesh.positions().data() + range.first_vertex,
                          range.vertex_count * sizeof(Vec3f)),
              0);
    for (std::size_t t = 0; t < range.triangle_count; ++t) {
      const Indices& whole = mesh.triangles()[range.first_triangle + t];
      const auto base = static_cast<std::uint32_t>(range.first_vertex);
      EXPECT_EQ(part.triangles()[t], (Indices{whole[0] - base, whole[1] - base, whole[2] - base})) << t;
    }
  }
}

// --- against assimp's own scene --------------------------------------------------------------------

// What assimp's scene says a part is: its mesh's name and vertex count, its node's name, and the
// triangles of its faces of 3 or more corners.
struct AssimpPart {
  std::string name, node_name;
  std::size_t vertices = 0, triangles = 0;
};

AssimpPart assimp_part(const aiMesh& mesh, const aiNode* node) {
  AssimpPart part{mesh.mName.C_Str(), node != nullptr ? node->mName.C_Str() : "", mesh.mNumVertices, 0};
  for (unsigned int f = 0; f < mesh.mNumFaces; ++f) {
    if (mesh.mFaces[f].mNumIndices >= 3) part.triangles += mesh.mFaces[f].mNumIndices - 2;
  }
  return part;
}

// The scene's parts in the header's order, by recursion (the loader walks with a stack).
void walk(const aiScene& scene, const aiNode& node, std::vector<AssimpPart>& parts) {
  for (unsigned int i = 0; i < node.mNumMeshes; ++i) parts.push_back(assimp_part(*scene.mMeshes[node.mMeshes[i]], &node));
  for (unsigned int i = 0; i < node.mNumChildren; ++i) walk(scene, *node.mChildren[i], parts);
}

std::vector<AssimpPart> assimp_parts(const std::string& path, bool apply_node_transforms) {
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(path, 0u);
  EXPECT_NE(scene, nullptr) << path << ": " << importer.GetErrorString();
  std::vector<AssimpPart> parts;
  if (scene == nullptr) return parts;
  if (apply_node_transforms) {
    walk(*scene, *scene->mRootNode, parts);
  } else {
    for (unsigned int i = 0; i < scene->mNumMeshes; ++i) parts.push_back(assimp_part(*scene->mMeshes[i], nullptr));
  }
  return parts;
}

TEST(LoadMeshPartRanges, MultiPartModelsGiveAssimpsPartsInOrderTheSameInAChildAndInProcess) {
  const std::string files[] = {kAssimpDir + "/OBJ/spider.obj", kAssimpDir + "/STL/triangle_with_two_solids.stl",
                               kAssimpDir + "/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb"};
  for (const std::string& path : files) {
    for (const bool transforms : {true, false}) {
      SCOPED_TRACE(path + (transforms ? " with node transforms" : " without node transforms"));
      MeshLoadReport report, in_process;
      const TriangleMesh mesh = load_or_die(path, with(transforms, true), &report);
      load_or_die(path, with(transforms, false), &in_process);
      EXPECT_TRUE(report.part_ranges == in_process.part_ranges);
      const std::vector<AssimpPart> expected = assimp_parts(path, transforms);
      EXPECT_GT(expected.size(), 1u);
      ASSERT_EQ(report.part_ranges.size(), expected.size());
      for (std::size_t p = 0; p < expected.size(); ++p) {
        const MeshPartRange& range = report.part_ranges[p];
        EXPECT_EQ(range.name, expected[p].name) << p;
        EXPECT_EQ(range.node_name, expected[p].node_name) << p;
        EXPECT_EQ(range.vertex_count, expected[p].vertices) << p;
        EXPECT_EQ(range.triangle_count, expected[p].triangles) << p;
      }
      expect_ranges_tile(mesh, report);
    }
  }
}

TEST(LoadMeshPartRanges, AreEmptyAfterAFailedLoad) {
  ScratchDirectory dir;
  const std::string lines_only = dir.file("lines.obj");
  write_file(lines_only, "o wire\nv 0 0 0\nv 1 0 0\nl 1 2\n");
  for (const bool isolated : {true, false}) {
    MeshLoadReport report;
    load_or_die(kAssimpDir + "/OBJ/spider.obj", with(true, isolated), &report);
    ASSERT_FALSE(report.part_ranges.empty());
    EXPECT_FALSE(load_mesh(lines_only, with(true, isolated), &report).ok());
    EXPECT_TRUE(report.part_ranges.empty()) << (isolated ? "isolated" : "in process");
  }
}

}  // namespace
}  // namespace hitscan::io
