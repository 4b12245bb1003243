// Tests of `hitscan info`: the counts on small meshes worked out by hand (a closed cube, one with a
// face missing, a fin, degenerate and flipped triangles), on real meshes against a brute-force
// count of the loaded mesh, and the exit codes.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "hitscan/io/mesh_loader.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "support/file_contents.hpp"
#include "support/scratch_directory.hpp"
#include "tools/command.hpp"
#include "tools/command_runner.hpp"

namespace hitscan::tools {
namespace {

using test::CommandRun;
using test::run;
using test::ScratchDirectory;
using Face = std::array<int, 3>;

// The documented keys, in their documented order.
const std::vector<std::string> kKeys{"file",           "triangles",         "vertices",
                                     "welded vertices", "unreferenced vertices", "degenerate triangles",
                                     "bounds min",     "bounds max",        "edges",
                                     "boundary edges", "non-manifold edges", "closed",
                                     "consistently oriented", "bvh nodes", "bvh bytes per triangle"};

// `info`'s output as key -> value, checking that it is exactly the documented lines in order.
std::vector<std::pair<std::string, std::string>> parse_lines(const std::string& out) {
  std::vector<std::pair<std::string, std::string>> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    const std::size_t colon = line.find(": ");
    EXPECT_NE(colon, std::string::npos) << line;
    if (colon == std::string::npos) continue;
    lines.emplace_back(line.substr(0, colon), line.substr(colon + 2));
  }
  return lines;
}

struct Info {
  std::vector<std::pair<std::string, std::string>> lines;
  std::string operator[](const std::string& key) const {
    for (const auto& [k, v] : lines) {
      if (k == key) return v;
    }
    ADD_FAILURE() << "no line '" << key << "'";
    return {};
  }
};

Info info(const std::string& path) {
  const CommandRun result = run({"info", path});
  EXPECT_EQ(result.exit_code, kExitSuccess) << result.err;
  EXPECT_EQ(result.err, "");
  Info parsed{parse_lines(result.out)};
  std::vector<std::string> keys;
  for (const auto& line : parsed.lines) keys.push_back(line.first);
  EXPECT_EQ(keys, kKeys) << result.out;
  EXPECT_EQ(parsed["file"], path);
  return parsed;
}

// A box from (-1, -0.5, 0.25) to (2, 1.5, 3); vertex i has the high x when bit 0 is set, the high
// y for bit 1 and the high z for bit 2. Each face is two triangles wound counter-clockwise seen
// from outside, split along the diagonal from the quad's first corner to its third.
std::vector<Vec3f> box_corners() {
  std::vector<Vec3f> corners;
  for (int i = 0; i < 8; ++i) corners.push_back({i & 1 ? 2.0f : -1.0f, i & 2 ? 1.5f : -0.5f, i & 4 ? 3.0f : 0.25f});
  return corners;
}
std::vector<Face> box_faces() {
  const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  std::vector<Face> faces;
  for (const auto& q : quads) {
    faces.push_back({q[0], q[1], q[2]});
    faces.push_back({q[0], q[2], q[3]});
  }
  return faces;
}

std::string off_text(const std::vector<Vec3f>& corners, const std::vector<Face>& faces) {
  std::ostringstream text;
  text << "OFF\n" << corners.size() << ' ' << faces.size() << " 0\n";
  for (const Vec3f& c : corners) text << c.x << ' ' << c.y << ' ' << c.z << '\n';
  for (const Face& f : faces) text << "3 " << f[0] << ' ' << f[1] << ' ' << f[2] << '\n';
  return text.str();
}

std::string obj_text(const std::vector<Vec3f>& corners, const std::vector<Face>& faces) {
  std::ostringstream text;
  for (const Vec3f& c : corners) text << "v " << c.x << ' ' << c.y << ' ' << c.z << '\n';
  for (const Face& f : faces) text << "f " << f[0] + 1 << ' ' << f[1] + 1 << ' ' << f[2] + 1 << '\n';
  return text.str();
}

class InfoCommand : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& contents) {
    const std::string path = directory_.file(name);
    test::write_file(path, contents);
    return path;
  }
  ScratchDirectory directory_;
};

TEST_F(InfoCommand, ClosedBoxFromObjWeldsItsCornersAndIsClosed) {
  // OBJ gives every face corner a vertex of its own: 36, welded back to the box's 8. A box has
  // 12 sides plus 6 face diagonals, each shared by two triangles.
  const Info box = info(write("box.obj", obj_text(box_corners(), box_faces())));
  EXPECT_EQ(box["triangles"], "12");
  EXPECT_EQ(box["vertices"], "36");
  EXPECT_EQ(box["welded vertices"], "8");
  EXPECT_EQ(box["unreferenced vertices"], "0");
  EXPECT_EQ(box["degenerate triangles"], "0");
  EXPECT_EQ(box["bounds min"], "-1 -0.5 0.25");
  EXPECT_EQ(box["bounds max"], "2 1.5 3");
  EXPECT_EQ(box["edges"], "18");
  EXPECT_EQ(box["boundary edges"], "0");
  EXPECT_EQ(box["non-manifold edges"], "0");
  EXPECT_EQ(box["closed"], "yes");
  EXPECT_EQ(box["consistently oriented"], "yes");
  EXPECT_GE(std::stoi(box["bvh nodes"]), 1);
  EXPECT_GT(std::strtod(box["bvh bytes per triangle"].c_str(), nullptr), 0.0);
}

TEST_F(InfoCommand, BvhBoxesAreAWireframeOfEightCornersAndTwelveEdgesABoxWithinTheBounds) {
  const std::string mesh = write("box.obj", obj_text(box_corners(), box_faces()));
  const std::string boxes = directory_.file("boxes.obj");
  const CommandRun result = run({"info", mesh, "--bvh-boxes", boxes, "--bvh-depth", "0"});
  ASSERT_EQ(result.exit_code, kExitSuccess) << result.err;
  const std::size_t at = result.out.find("bvh boxes: ");
  ASSERT_NE(at, std::string::npos) << result.out;
  const std::size_t count = std::stoul(result.out.substr(at + 11));
  EXPECT_TRUE(result.out.ends_with(" at depth 0, " + boxes + "\n")) << result.out;
  ASSERT_GE(count, 1u);

  std::istringstream lines(test::read_file(boxes));
  std::size_t vertices = 0, edges = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line.substr(std::min<std::size_t>(2, line.size())));
    if (line.starts_with("v ")) {
      ++vertices;
      double x = 0, y = 0, z = 0;
      ASSERT_TRUE(fields >> x >> y >> z) << line;
      const double slack = 1e-4;  // a node box may be padded by a few ulps to stay conservative
      EXPECT_TRUE(x >= -1 - slack && x <= 2 + slack && y >= -0.5 - slack && y <= 1.5 + slack && z >= 0.25 - slack &&
                  z <= 3 + slack)
          << line;
    } else if (line.starts_with("l ")) {
      ++edges;
      std::size_t a = 0, b = 0;
      ASSERT_TRUE(fields >> a >> b) << line;
      EXPECT_TRUE(a >= 1 && a < b && b <= 8 * count) << line;
    } else {
      EXPECT_TRUE(line.starts_with("# ")) << line;
    }
  }
  EXPECT_EQ(vertices, 8 * count);
  EXPECT_EQ(edges, 12 * count);
}

TEST_F(InfoCommand, BvhBoxesInAMissingDirectoryFailBeforeTheMeshIsLoaded) {
  const std::string boxes = directory_.file("missing/boxes.obj");
  // The mesh does not exist either: the output is checked first, so its error is the one given.
  const CommandRun result = run({"info", directory_.file("absent.obj"), "--bvh-boxes", boxes});
  EXPECT_EQ(result.exit_code, kExitFailure);
  EXPECT_EQ(result.err, "hitscan info: cannot write '" + boxes + "': directory '" + directory_.file("missing") +
                            "' does not exist\n");
  EXPECT_EQ(result.out, "");
}

TEST_F(InfoCommand, BvhBoxesWriteThatFailsSaysWhy) {
  // /dev/full accepts the open and refuses every write with ENOSPC.
  const std::string mesh = write("box.obj", obj_text(box_corners(), box_faces()));
  const CommandRun result = run({"info", mesh, "--bvh-boxes", "/dev/full"});
  EXPECT_EQ(result.exit_code, kExitFailure);
  EXPECT_TRUE(result.err.ends_with("hitscan info: cannot write '/dev/full': No space left on device\n")) << result.err;
  EXPECT_EQ(result.out.find("bvh boxes:"), std::string::npos) << result.out;
}

TEST_F(InfoCommand, BoxWithoutItsTopHasFourBoundaryEdges) {
  std::vector<Face> faces = box_faces();
  faces.resize(10);  // the last two triangles are the z = 3 face; its diagonal goes with it
  const Info open = info(write("open.off", off_text(box_corners(), faces)));
  EXPECT_EQ(open["triangles"], "10");
  EXPECT_EQ(open["edges"], "17");
  EXPECT_EQ(open["boundary edges"], "4");
  EXPECT_EQ(open["non-manifold edges"], "0");
  EXPECT_EQ(open["closed"], "no");
  EXPECT_EQ(open["consistently oriented"], "yes");
}

TEST_F(InfoCommand, FinOnABoxEdgeMakesItNonManifold) {
  // A triangle hanging from the box's edge 0-1, which then has three triangles; the fin's two
  // other sides are boundaries.
  std::vector<Vec3f> corners = box_corners();
  corners.push_back({0.5f, -2, -1});
  std::vector<Face> faces = box_faces();
  faces.push_back({0, 1, 8});
  const Info fin = info(write("fin.off", off_text(corners, faces)));
  EXPECT_EQ(fin["triangles"], "13");
  EXPECT_EQ(fin["welded vertices"], "9");
  EXPECT_EQ(fin["edges"], "20");
  EXPECT_EQ(fin["boundary edges"], "2");
  EXPECT_EQ(fin["non-manifold edges"], "1");
  EXPECT_EQ(fin["closed"], "no");
  EXPECT_EQ(fin["bounds min"], "-1 -2 -1");
}

TEST_F(InfoCommand, DegenerateTrianglesAreCountedAndLeftOutOfTheEdges) {
  // Corner 8 is the midpoint of edge 0-1 (collinear corners); corner 9 repeats corner 0's position
  // (two coincident corners). Both triangles have zero area; the box stays closed.
  std::vector<Vec3f> corners = box_corners();
  corners.push_back({0.5f, -0.5f, 0.25f});
  corners.push_back(corners[0]);
  std::vector<Face> faces = box_faces();
  faces.push_back({0, 8, 1});
  faces.push_back({9, 1, 0});
  const Info degenerate = info(write("degenerate.off", off_text(corners, faces)));
  EXPECT_EQ(degenerate["triangles"], "14");
  EXPECT_EQ(degenerate["vertices"], "10");
  EXPECT_EQ(degenerate["welded vertices"], "9");
  EXPECT_EQ(degenerate["degenerate triangles"], "2");
  EXPECT_EQ(degenerate["edges"], "18");
  EXPECT_EQ(degenerate["boundary edges"], "0");
  EXPECT_EQ(degenerate["closed"], "yes");
}

TEST_F(InfoCommand, FlippedFaceLeavesTheBoxClosedButNotConsistentlyOriented) {
  std::vector<Face> faces = box_faces();
  for (std::size_t i = 10; i < 12; ++i) std::swap(faces[i][1], faces[i][2]);
  const Info flipped = info(write("flipped.off", off_text(box_corners(), faces)));
  EXPECT_EQ(flipped["closed"], "yes");
  EXPECT_EQ(flipped["consistently oriented"], "no");
}

TEST_F(InfoCommand, UnreferencedVerticesAreCountedButNotWelded) {
  std::vector<Vec3f> corners = box_corners();
  corners.push_back({100, 100, 100});  // far outside: the bounds must not see it
  const Info box = info(write("extra.off", off_text(corners, box_faces())));
  EXPECT_EQ(box["vertices"], "9");
  EXPECT_EQ(box["unreferenced vertices"], "1");
  EXPECT_EQ(box["welded vertices"], "8");
  EXPECT_EQ(box["bounds max"], "2 1.5 3");
}

TEST_F(InfoCommand, NegativeZeroWeldsWithZero) {
  // A tetrahedron in OBJ, one corner written as 0 0 0 for two faces and as -0 -0 -0 for the other:
  // equal coordinates, so one vertex, and the surface is closed.
  const Info tetrahedron = info(write("zeros.obj",
                                      "v 0 0 0\nv -0 -0 -0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                                      "f 1 4 3\nf 1 3 5\nf 3 4 5\nf 4 2 5\n"));
  EXPECT_EQ(tetrahedron["welded vertices"], "4");
  EXPECT_EQ(tetrahedron["edges"], "6");
  EXPECT_EQ(tetrahedron["closed"], "yes");
  EXPECT_EQ(tetrahedron["consistently oriented"], "yes");
}

// --- real meshes, against a brute-force count of the loaded mesh ---------------------------------

struct BruteForceCounts {
  std::size_t welded = 0, edges = 0, boundary = 0, non_manifold = 0, misoriented = 0;
  Vec3f min{kInfinity<float>, kInfinity<float>, kInfinity<float>};
  Vec3f max{-kInfinity<float>, -kInfinity<float>, -kInfinity<float>};
};

// Welding by comparing every referenced vertex with every representative found so far; each
// edge's triangles found by scanning every triangle.
BruteForceCounts brute_force(const TriangleMesh& mesh) {
  BruteForceCounts counts;
  std::vector<Vec3f> representatives;
  std::vector<int> welded(mesh.vertex_count(), -1);
  for (const TriangleMesh::Indices& t : mesh.triangles()) {
    for (const std::uint32_t v : t) {
      if (welded[v] >= 0) continue;
      const Vec3f p = mesh.positions()[v];
      counts.min = {std::min(counts.min.x, p.x), std::min(counts.min.y, p.y), std::min(counts.min.z, p.z)};
      counts.max = {std::max(counts.max.x, p.x), std::max(counts.max.y, p.y), std::max(counts.max.z, p.z)};
      const auto same = std::find_if(representatives.begin(), representatives.end(),
                                     [&](Vec3f r) { return r.x == p.x && r.y == p.y && r.z == p.z; });
      welded[v] = static_cast<int>(same - representatives.begin());
      if (same == representatives.end()) representatives.push_back(p);
    }
  }
  counts.welded = representatives.size();

  std::vector<std::array<int, 3>> usable;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const TriangleMesh::Indices& t = mesh.triangles()[i];
    const Vec3f e1 = mesh.positions()[t[1]] - mesh.positions()[t[0]];
    const Vec3f e2 = mesh.positions()[t[2]] - mesh.positions()[t[0]];
    if (length_squared(cross(e1, e2)) > 0) usable.push_back({welded[t[0]], welded[t[1]], welded[t[2]]});
  }
  std::set<std::pair<int, int>> edges;
  for (const auto& t : usable) {
    for (int k = 0; k < 3; ++k) edges.insert(std::minmax(t[k], t[(k + 1) % 3]));
  }
  counts.edges = edges.size();
  for (const auto& [a, b] : edges) {
    int faces = 0, forward = 0;
    for (const auto& t : usable) {
      for (int k = 0; k < 3; ++k) {
        if (t[k] == a && t[(k + 1) % 3] == b) ++faces, ++forward;
        if (t[k] == b && t[(k + 1) % 3] == a) ++faces;
      }
    }
    counts.boundary += faces == 1;
    counts.non_manifold += faces > 2;
    counts.misoriented += faces == 2 && forward != 1;
  }
  return counts;
}

Vec3f parse_point(const std::string& text) {
  Vec3f p{};
  std::istringstream(text) >> p.x >> p.y >> p.z;
  return p;
}

class RealMeshInfo : public ::testing::TestWithParam<std::string> {};

TEST_P(RealMeshInfo, MatchesABruteForceCountOfTheLoadedMesh) {
  const std::string path = GetParam();
  Result<TriangleMesh> mesh = io::load_mesh(path);
  ASSERT_TRUE(mesh.ok()) << mesh.status().message();
  const BruteForceCounts expected = brute_force(mesh.value());
  const Info actual = info(path);

  EXPECT_EQ(actual["triangles"], std::to_string(mesh.value().triangle_count()));
  EXPECT_EQ(actual["vertices"], std::to_string(mesh.value().vertex_count()));
  EXPECT_EQ(actual["welded vertices"], std::to_string(expected.welded));
  EXPECT_EQ(actual["degenerate triangles"], std::to_string(mesh.value().report().degenerate_triangles));
  EXPECT_EQ(parse_point(actual["bounds min"]), expected.min);
  EXPECT_EQ(parse_point(actual["bounds max"]), expected.max);
  EXPECT_EQ(actual["edges"], std::to_string(expected.edges));
  EXPECT_EQ(actual["boundary edges"], std::to_string(expected.boundary));
  EXPECT_EQ(actual["non-manifold edges"], std::to_string(expected.non_manifold));
  EXPECT_EQ(actual["closed"], expected.boundary == 0 && expected.non_manifold == 0 ? "yes" : "no");
  EXPECT_EQ(actual["consistently oriented"], expected.misoriented == 0 ? "yes" : "no");
  const Result<MeshBvh> bvh = MeshBvh::build(std::make_shared<const TriangleMesh>(std::move(mesh).value()));
  ASSERT_TRUE(bvh.ok());
  EXPECT_EQ(actual["bvh nodes"], std::to_string(bvh.value().node_count()));
}

// CGAL's elephant (OFF: the file's shared vertices, a closed surface) and assimp's sphere with a
// hole (STL: a vertex per face corner, so only welding finds the surface, and a hole's boundary).
INSTANTIATE_TEST_SUITE_P(Files, RealMeshInfo,
                         ::testing::Values(std::string(HITSCAN_CGAL_MESH_DIR) + "/elephant.off",
                                           std::string(HITSCAN_ASSIMP_MODEL_DIR) + "/STL/sphereWithHole.stl"),
                         [](const ::testing::TestParamInfo<std::string>& file) {
                           // The file's name without its extension (no commas here: this is a macro argument).
                           const std::string name = file.param.substr(file.param.rfind('/') + 1);
                           return name.substr(0, name.rfind('.'));
                         });

// --- exit codes --------------------------------------------------------------------------------

TEST_F(InfoCommand, MissingFileExitsWithCodeTwoNamingIt) {
  const std::string path = directory_.file("no_such_mesh.obj");
  const CommandRun result = run({"info", path});
  EXPECT_EQ(result.exit_code, kExitUsage);
  EXPECT_NE(result.err.find(path), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");
}

TEST_F(InfoCommand, MalformedFileExitsWithCodeTwoNamingIt) {
  for (const auto& [name, contents] : std::vector<std::pair<std::string, std::string>>{
           {"garbage.off", "OFF\nthis is not a mesh\n"}, {"points.obj", "v 0 0 0\nv 1 0 0\n"}}) {
    const std::string path = write(name, contents);
    const CommandRun result = run({"info", path});
    EXPECT_EQ(result.exit_code, kExitUsage) << name;
    EXPECT_NE(result.err.find(path), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "") << name;
  }
}

TEST_F(InfoCommand, BadArgumentsExitWithCodeTwo) {
  const std::string path = write("box.off", off_text(box_corners(), box_faces()));
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"info"}, {"info", path, path}, {"info", path, "--bogus"}}) {
    const CommandRun result = run(args);
    EXPECT_EQ(result.exit_code, kExitUsage) << ::testing::PrintToString(args);
    EXPECT_NE(result.err, "") << ::testing::PrintToString(args);
  }
}

TEST(InfoHelp, ExitsWithCodeZeroAndDescribesTheCommand) {
  const CommandRun top = run({"--help"});
  EXPECT_EQ(top.exit_code, kExitSuccess);
  EXPECT_NE(top.out.find("info"), std::string::npos) << top.out;
  const CommandRun help = run({"info", "--help"});
  EXPECT_EQ(help.exit_code, kExitSuccess);
  EXPECT_NE(help.out.find("non-manifold"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace hitscan::tools
