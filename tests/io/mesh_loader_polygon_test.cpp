#include "hitscan/io/mesh_loader.hpp"
#include "io/child_process.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "support/file_contents.hpp"
#include "support/plane_polygon.hpp"
#include "support/scratch_directory.hpp"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace hitscan::io {
namespace {

namespace fs = std::filesystem;

const std::string kAssimpDir = HITSCAN_ASSIMP_MODEL_DIR;

using test::inside_polygon;
using test::inside_triangle;
using test::orient;
using test::Point2;
using test::Polygon2;

// Two edges that cross each other, neither touching nor overlapping (touching is how a face
// bridges to a hole, as assimp's concave_polygon.obj does): the outline then encloses parts of
// the plane in opposite senses, and the even-odd rule no longer says what the face covers.
bool crosses_itself(const Polygon2& polygon) {
  const std::size_t k = polygon.size();
  const auto sign = [](double x) { return (x > 0) - (x < 0); };
  for (std::size_t i = 0; i < k; ++i) {
    const Point2 a = polygon[i], b = polygon[(i + 1) % k];
    for (std::size_t j = i + 2; j < k; ++j) {
      if (i == 0 && j + 1 == k) continue;  // neighbours across corner 0
      const Point2 c = polygon[j], d = polygon[(j + 1) % k];
      if (sign(orient(a, b, c)) * sign(orient(a, b, d)) < 0 && sign(orient(c, d, a)) * sign(orient(c, d, b)) < 0) {
        return true;
      }
    }
  }
  return false;
}

TEST(LoadMeshPolygons, ConcaveArrowIsNotHitBetweenItsBarbs) {
  test::ScratchDirectory dir;
  const std::string path = dir.file("arrow.obj");
  test::write_file(path, "v 0 0 0\nv 2 1 0\nv 0 2 0\nv 1 1 0\nf 1 2 3 4\n");
  const Result<TriangleMesh> loaded = load_mesh(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ASSERT_EQ(loaded.value().triangle_count(), 2u);
  const Result<MeshBvh> bvh = MeshBvh::build(std::make_shared<TriangleMesh>(loaded.value()));
  ASSERT_TRUE(bvh.ok()) << bvh.status().message();
  const auto down_at = [&](float x, float y) { return bvh.value().intersect(Rayf{{x, y, 1}, {0, 0, -1}}); };
  EXPECT_FALSE(down_at(0.3f, 1.0f)) << "hit outside the outline";
  EXPECT_FALSE(down_at(0.9f, 1.0f)) << "hit outside the outline";
  for (const auto& [x, y] : {std::pair{1.5f, 1.0f}, {0.5f, 0.4f}, {0.5f, 1.6f}, {1.2f, 1.0f}}) {
    const MeshHit hit = down_at(x, y);
    EXPECT_TRUE(hit) << "missed inside the outline at " << x << ", " << y;
    // The face runs counter-clockwise seen from +z.
    EXPECT_GT(hit.normal.z, 0.0f) << "wound against the face at " << x << ", " << y;
  }
}

// What the comparison with assimp's own polygons checked.
struct PolygonCounts {
  std::size_t files = 0, polygons = 0, sampled_polygons = 0, not_simple = 0, points = 0;
};

// Meshes larger than this (a few subdivided ones, made from files of a few kilobytes) are left
// out: they take most of the time and add no kind of polygon the others lack.
constexpr std::size_t kMaxTriangles = 50'000;

// The files among `paths` that the loader reads into a mesh of at most kMaxTriangles, with the
// options the comparison uses. They are loaded in child processes, so that a reader that
// crashes or hangs on a file ends a child, not the test: the loader's checks stop the files
// assimp hangs on before assimp reads them, and a crash ends the child, so the test reads in its
// own process only files known to load.
std::vector<std::string> files_the_loader_reads(const std::vector<std::string>& paths, const MeshLoadOptions& options) {
  std::vector<std::string> readable;
  std::size_t next = 0;
  while (next < paths.size()) {
    const detail::ChildRun run = detail::run_in_child(
        [&](const detail::ChildSend& send, const std::function<void()>&) {
          for (std::size_t i = next; i < paths.size(); ++i) {
            const Result<TriangleMesh> mesh = load_mesh(paths[i], options);
            send(mesh.ok() && mesh.value().triangle_count() <= kMaxTriangles ? "1" : "0");
          }
        },
        60);
    if (run.end == detail::ChildEnd::not_started) break;
    for (std::size_t i = 0; i < run.output.size(); ++i) {
      if (run.output[i] == '1') readable.push_back(paths[next + i]);
    }
    next += run.output.size() + (run.end == detail::ChildEnd::finished ? 0 : 1);  // past the file that ended it
  }
  return readable;
}

// The loader's options for the comparison: with apply_node_transforms off its parts are assimp's
// meshes in their order and its positions their own coordinates.
MeshLoadOptions comparison_options() {
  MeshLoadOptions options;
  options.apply_node_transforms = false;
  options.read_normals = false;
  options.isolate_importer = false;  // files_the_loader_reads has loaded the file in a child already
  return options;
}

// Compares the loader's triangles of one file with the polygons assimp reads from it (see
// comparison_options). Each polygon of k corners must have the next k - 2 triangles,
// made of its own corners, and sample points in its plane must be inside one of them exactly
// when they are inside the polygon by the even-odd rule. Returns whether the file was checked.
bool compare_with_assimp(const std::string& path, std::mt19937& random, PolygonCounts& counts,
                         std::vector<std::string>& files_with_concave_polygons) {
  const Result<TriangleMesh> loaded = load_mesh(path, comparison_options());
  if (!loaded.ok()) {
    ADD_FAILURE() << path << ": loaded in a child but not here: " << loaded.status().message();
    return false;
  }
  const TriangleMesh& mesh = loaded.value();
  Assimp::Importer importer;
  importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  const aiScene* scene = importer.ReadFile(path, 0u);
  if (scene == nullptr) {
    ADD_FAILURE() << path << ": assimp read it for the loader but not a second time";
    return false;
  }
  constexpr std::size_t kPolygonsPerFile = 1000;  // the first of each file, so the test takes seconds
  constexpr int kPointsPerPolygon = 16;
  std::size_t triangle = 0, vertex_base = 0, checked = 0;
  bool has_concave = false;
  for (unsigned int m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh& part = *scene->mMeshes[m];
    for (unsigned int f = 0; f < part.mNumFaces; ++f) {
      const aiFace& face = part.mFaces[f];
      if (face.mNumIndices < 3) continue;
      const std::size_t first = triangle;
      triangle += face.mNumIndices - 2;
      if (triangle > mesh.triangle_count()) {
        ADD_FAILURE() << path << ": fewer triangles than assimp's polygons need";
        return true;
      }
      if (checked == kPolygonsPerFile) continue;
      ++checked;
      ++counts.polygons;
      // The triangles use the face's corners and no others.
      std::vector<std::uint32_t> corners;
      for (unsigned int c = 0; c < face.mNumIndices; ++c) {
        corners.push_back(static_cast<std::uint32_t>(vertex_base + face.mIndices[c]));
      }
      for (std::size_t t = first; t < triangle; ++t) {
        for (std::uint32_t corner : mesh.triangles()[t]) {
          EXPECT_NE(std::find(corners.begin(), corners.end(), corner), corners.end())
              << path << ": triangle " << t << " uses vertex " << corner << ", not a corner of its face";
        }
      }
      if (face.mNumIndices == 3 || face.mNumIndices > 4000) continue;  // a triangle is its own cover
      // The face in its plane: the Newell normal (each axis from the projections on the other
      // two), and axes u, v across it.
      Vec3d normal{};
      for (unsigned int c = 0; c < face.mNumIndices; ++c) {
        const aiVector3D& a = part.mVertices[face.mIndices[c]];
        const aiVector3D& b = part.mVertices[face.mIndices[(c + 1) % face.mNumIndices]];
        normal.x += (double(a.y) - b.y) * (double(a.z) + b.z);
        normal.y += (double(a.z) - b.z) * (double(a.x) + b.x);
        normal.z += (double(a.x) - b.x) * (double(a.y) + b.y);
      }
      const Vec3d w = normalize(normal);
      if (w == Vec3d{}) continue;  // no area: nothing to cover
      const Vec3d u = normalize(cross(w, std::abs(w.x) < 0.6 ? Vec3d{1, 0, 0} : Vec3d{0, 1, 0}));
      const Vec3d v = cross(w, u);
      const auto in_plane = [&](Vec3d p) { return Point2{dot(p, u), dot(p, v)}; };
      Polygon2 polygon;
      for (std::uint32_t corner : corners) polygon.push_back(in_plane(vec3_cast<double>(mesh.positions()[corner])));
      double min_x = polygon[0].x, max_x = min_x, min_y = polygon[0].y, max_y = min_y;
      for (const Point2& p : polygon) {
        min_x = std::min(min_x, p.x), max_x = std::max(max_x, p.x);
        min_y = std::min(min_y, p.y), max_y = std::max(max_y, p.y);
      }
      const double extent = std::max(max_x - min_x, max_y - min_y);
      // An outline that crosses itself, or winds twice around some sample point (assimp's
      // box_longline.obj goes around its square hundreds of times), is counted and skipped.
      if (crosses_itself(polygon)) {
        ++counts.not_simple;
        continue;
      }
      std::uniform_real_distribution<double> along_x(min_x, max_x), along_y(min_y, max_y);
      std::vector<Point2> samples;
      for (int sample = 0; sample < kPointsPerPolygon; ++sample) {
        const Point2 p{along_x(random), along_y(random)};
        // Float corners may put a point this near the outline on either side.
        if (!test::near_outline(polygon, p, 1e-5 * extent)) samples.push_back(p);
      }
      const auto winds_twice = [&](Point2 p) { return std::abs(test::winding_number(polygon, p)) > 1; };
      if (std::any_of(samples.begin(), samples.end(), winds_twice)) {
        ++counts.not_simple;
        continue;
      }
      ++counts.sampled_polygons;
      for (std::size_t i = 0; i < polygon.size() && !has_concave; ++i) {
        const Point2& a = polygon[(i + polygon.size() - 1) % polygon.size()];
        has_concave = orient(a, polygon[i], polygon[(i + 1) % polygon.size()]) < -1e-6 * extent * extent;
      }
      for (const Point2& p : samples) {
        bool in_a_triangle = false;
        for (std::size_t t = first; t < triangle && !in_a_triangle; ++t) {
          const TriangleMesh::Indices& corner = mesh.triangles()[t];
          in_a_triangle = inside_triangle(in_plane(vec3_cast<double>(mesh.positions()[corner[0]])),
                                          in_plane(vec3_cast<double>(mesh.positions()[corner[1]])),
                                          in_plane(vec3_cast<double>(mesh.positions()[corner[2]])), p, 1e-7 * extent);
        }
        ++counts.points;
        EXPECT_EQ(in_a_triangle, inside_polygon(polygon, p))
            << path << ": part " << m << " face " << f << " (" << face.mNumIndices << " corners) at (" << p.x << ", "
            << p.y << ") in its plane";
      }
    }
    vertex_base += part.mNumVertices;
  }
  EXPECT_EQ(triangle, mesh.triangle_count()) << path;
  if (has_concave) files_with_concave_polygons.push_back(fs::path(path).filename().string());
  return true;
}

TEST(LoadMeshPolygons, EveryPolygonOfAssimpsTestModelsCoversExactlyItsOutline) {
  if (!fs::is_directory(kAssimpDir)) GTEST_SKIP() << kAssimpDir << " is absent (Debian: assimp-testmodels)";
  std::vector<std::string> paths;
  const Assimp::Importer formats;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(kAssimpDir)) {
    // Larger files are few and slow to read three times; the polygons of the others suffice.
    // Files named as no format assimp reads (textures, material libraries) are left out, but
    // for the few without an extension, which test assimp's detection of the format.
    const std::string extension = entry.path().extension().string();
    if (entry.is_regular_file() && entry.file_size() <= 1'000'000 &&
        (extension.empty() || formats.IsExtensionSupported(extension))) {
      paths.push_back(entry.path().string());
    }
  }
  std::sort(paths.begin(), paths.end());
  paths = files_the_loader_reads(paths, comparison_options());
  std::mt19937 random(17);
  PolygonCounts counts;
  std::vector<std::string> concave;
  for (const std::string& path : paths) counts.files += compare_with_assimp(path, random, counts, concave);
  std::printf("assimp's test models: %zu files, %zu faces, %zu polygons of 4 or more corners sampled (%zu more not "
              "simple), %zu points checked; %zu files with concave polygons\n",
              counts.files, counts.polygons, counts.sampled_polygons, counts.not_simple, counts.points, concave.size());
  RecordProperty("files", static_cast<int>(counts.files));
  RecordProperty("faces", static_cast<int>(counts.polygons));
  RecordProperty("sampled_polygons", static_cast<int>(counts.sampled_polygons));
  RecordProperty("points", static_cast<int>(counts.points));
  for (const char* name : {"concave_polygon.obj", "ConcavePolygon.dae"}) {
    EXPECT_NE(std::find(concave.begin(), concave.end(), name), concave.end()) << name << " was not checked";
  }
}

}  // namespace
}  // namespace hitscan::io
