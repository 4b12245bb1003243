// Tests of `hitscan drape` and what it is made of: the overlay raster, the AR scenario's occlusion
// of a route behind a wall, the built-in street and a user's mesh through the command line, and
// the errors of bad route files.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "hitscan/mesh/mesh_bvh.hpp"
#include "support/file_contents.hpp"
#include "support/scratch_directory.hpp"
#include "tools/ar_overlay.hpp"
#include "tools/ar_scenario.hpp"
#include "tools/ar_shading.hpp"
#include "tools/command.hpp"
#include "tools/command_runner.hpp"
#include "tools/street_scene.hpp"

namespace hitscan::tools {
namespace {

namespace fs = std::filesystem;
using test::CommandRun;
using test::run;
using test::ScratchDirectory;

// --- overlay raster -------------------------------------------------------------------------------

// 100 x 100 pixels, 100 pixels per unit at depth 1, looking along -z from the origin with y up:
// world (x, y, -d) falls at u = 50 + 100 x / d, v = 50 - 100 y / d.
hitscan::PinholeCamera axis_camera() {
  PinholeIntrinsics k;
  k.fx = k.fy = 100, k.cx = k.cy = 50, k.width = k.height = 100;
  return hitscan::PinholeCamera::make(k, Quatf::identity(), {0, 0, 0}).value();
}

TEST(Overlay, TriangleCoversThePixelCentresInsideItAtItsDepth) {
  const Overlay empty(axis_camera());
  Overlay overlay(axis_camera());
  const Vec3f a{-0.5f, -0.5f, -2}, b{0.5f, -0.5f, -2}, c{0, 0.5f, -2};
  overlay.draw_triangle(a, b, c, {1, 2, 3}, OverlayKind::arrow);
  int inside = 0;
  for (int j = 0; j < 100; ++j) {
    for (int i = 0; i < 100; ++i) {
      // The pixel centre's ray meets z = -2 at (x, y); inside the triangle by its three half planes.
      const double x = (i + 0.5 - 50) * 2 / 100, y = -(j + 0.5 - 50) * 2 / 100;
      const double bottom = y + 0.5, left = 2 * (x + 0.5) - bottom, right = 2 * (0.5 - x) - bottom;
      if (std::min({std::abs(bottom), std::abs(left), std::abs(right)}) < 1e-4) continue;  // on an edge
      const bool expected = bottom > 0 && left > 0 && right > 0;
      const OverlayPixel& pixel = overlay.at(i, j);
      ASSERT_EQ(pixel.kind == OverlayKind::arrow, expected) << i << ", " << j;
      if (!expected) continue;
      ++inside;
      EXPECT_NEAR(pixel.depth, 2.0f, 1e-5f);
      EXPECT_EQ(pixel.probe_i, i);
      EXPECT_EQ(pixel.colour, (io::Rgb8{1, 2, 3}));
    }
  }
  // The triangle covers 50 x 50 / 2 pixels on screen.
  EXPECT_NEAR(inside, 1250, 60);
  EXPECT_TRUE(empty.covered().empty());
}

TEST(Overlay, LineDepthIsPerspectiveCorrectAndOcclusionIsDecidedAtItsCentre) {
  // From depth 1 to 5 straight ahead, half a unit down: it projects to column 50, from v = 100
  // (depth 1) up to v = 60 (depth 5), v = 50 + 50 / d. Linear interpolation in screen space would
  // put depth 3 at v = 80; perspective puts 50 / 30 = 1.67 there.
  Overlay overlay(axis_camera());
  const float radius = 2.0f;
  overlay.draw_line({0, -0.5f, -1}, {0, -0.5f, -5}, {0, radius, radius}, {9, 9, 9}, OverlayKind::route);
  int checked = 0;
  for (int j = 62; j < 99; ++j) {
    const OverlayPixel& pixel = overlay.at(50, j);
    ASSERT_EQ(pixel.kind, OverlayKind::route) << j;
    // Stamps reaching this pixel's centre lie within `radius` of it along the line.
    const double v = j + 0.5, nearest = 50.0 / (v + radius - 50), farthest = 50.0 / (v - radius - 50);
    EXPECT_GE(pixel.depth, nearest * (1 - 1e-5)) << j;
    EXPECT_LE(pixel.depth, farthest * (1 + 1e-5)) << j;
    EXPECT_NEAR(pixel.occlusion_depth, pixel.depth * (1 - kLineDepthSlack), 1e-5f);
    EXPECT_EQ(pixel.probe_i, 50);
    ++checked;
  }
  EXPECT_EQ(checked, 37);
  EXPECT_NEAR(overlay.at(50, 79).depth, 50.0f / 29.5f, 0.1f);
  // Columns beyond the radius stay empty; the probe of a side pixel is the centre column.
  EXPECT_EQ(overlay.at(53, 80).kind, OverlayKind::none);
  EXPECT_EQ(overlay.at(51, 80).probe_i, 50);
}

TEST(Overlay, ContentBehindTheCameraDrawsNothing) {
  Overlay overlay(axis_camera());
  overlay.draw_triangle({-1, -1, 1}, {1, -1, 1}, {0, 1, 1}, {1, 1, 1}, OverlayKind::sign);
  overlay.draw_line({0, 0, 1}, {0, 0, 3}, {0, 2, 2}, {1, 1, 1}, OverlayKind::route);
  overlay.draw_line({0, 0, -1}, {kInfinity<float>, 0, -1}, {0, 2, 2}, {1, 1, 1}, OverlayKind::route);
  EXPECT_TRUE(overlay.covered().empty());
}

TEST(Composite, HiddenPixelsAreDimmed) {
  io::Image image(2, 1, {100, 100, 100});
  Overlay overlay(hitscan::PinholeCamera::make({100, 100, 1, 0.5f, 2, 1}, Quatf::identity(), {}).value());
  overlay.draw_line({-1, 0, -1}, {1, 0, -1}, {0, 3, 3}, {200, 0, 50}, OverlayKind::route);
  const std::vector<std::size_t> covered = overlay.covered();
  ASSERT_EQ(covered.size(), 2u);
  const std::vector<std::uint8_t> hidden{0, 1};
  composite(image, overlay, covered, hidden, 0.9f, 0.3f);
  EXPECT_EQ(image.at(0, 0), (io::Rgb8{190, 10, 55}));   // 0.9 colour + 0.1 under
  EXPECT_EQ(image.at(1, 0), (io::Rgb8{130, 70, 85}));   // 0.3 colour + 0.7 under
}

// --- meshes written for the tests -----------------------------------------------------------------

struct MeshData {
  std::vector<Vec3f> positions;
  std::vector<TriangleMesh::Indices> triangles;
};

// A grid over [x0, x1] x [y0, y1], n x m cells, at height(x, y), counter-clockwise from above.
template <class Height>
MeshData grid(float x0, float x1, float y0, float y1, int n, int m, Height height) {
  MeshData mesh;
  for (int j = 0; j <= m; ++j) {
    for (int i = 0; i <= n; ++i) {
      const float x = x0 + (x1 - x0) * i / n, y = y0 + (y1 - y0) * j / m;
      mesh.positions.push_back({x, y, height(x, y)});
    }
  }
  const auto at = [n](int i, int j) { return static_cast<std::uint32_t>(j * (n + 1) + i); };
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < n; ++i) {
      mesh.triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      mesh.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  }
  return mesh;
}

// A closed box from lo to hi, outward faces.
MeshData box(Vec3f lo, Vec3f hi) {
  MeshData mesh;
  for (int k = 0; k < 8; ++k) mesh.positions.push_back({k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z});
  mesh.triangles = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                    {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  return mesh;
}

// The mesh as OBJ text, each position mapped by `to_file` first.
template <class Map>
std::string obj_text(const MeshData& mesh, Map to_file) {
  std::ostringstream text;
  text.precision(9);
  for (const Vec3f p : mesh.positions) {
    const Vec3f q = to_file(p);
    text << "v " << q.x << ' ' << q.y << ' ' << q.z << '\n';
  }
  for (const TriangleMesh::Indices& t : mesh.triangles) text << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << '\n';
  return text.str();
}

// --- a route passing behind a wall ----------------------------------------------------------------

// Whether the segment from p to q passes through the box [lo, hi] (slab test).
bool segment_meets_box(Vec3d p, Vec3d q, Vec3d lo, Vec3d hi) {
  double t0 = 0, t1 = 1;
  for (int axis = 0; axis < 3; ++axis) {
    const double d = q[axis] - p[axis];
    if (d == 0) {
      if (p[axis] < lo[axis] || p[axis] > hi[axis]) return false;
      continue;
    }
    double a = (lo[axis] - p[axis]) / d, b = (hi[axis] - p[axis]) / d;
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a), t1 = std::min(t1, b);
    if (t0 > t1) return false;
  }
  return true;
}

TEST(DrapeScenario, RouteBehindAWallIsDimmedAndTheRestIsNot) {
  // Floor z = 0; a wall x in [4, 4.2], y in [1, 5], 2 m high, to the left of the route's first leg
  // along +x, and in front of its second leg, which turns left at x = 6 behind the wall.
  const MeshData floor = grid(-4, 10, -4, 6, 14, 10, [](float, float) { return 0.0f; });
  const Vec3f wall_lo{4, 1, 0}, wall_hi{4.2f, 5, 2};
  const MeshData wall = box(wall_lo, wall_hi);
  ArInput input;
  input.chunks = {{floor.positions, floor.triangles}, {wall.positions, wall.triangles}};
  input.route = {{0, 0, 0.3f}, {6, 0, 0.3f}, {6, 3, 0.3f}};
  input.width = 320, input.height = 240;
  const Result<ArRun> result = run_ar_scenario(input, 2);
  ASSERT_TRUE(result.ok()) << result.status().message();
  const ArRun& ar = result.value();

  // camera_behind_route_start: the ground under the start is z = 0, the route is 9 m long.
  const Vec3f eye = ar.camera.position();
  EXPECT_NEAR(eye.x, -2.0f, 1e-5f);
  EXPECT_NEAR(eye.y, 0.0f, 1e-5f);
  EXPECT_NEAR(eye.z, 1.6f, 1e-5f);
  EXPECT_EQ(ar.route.on_surface, ar.route.points.size());
  EXPECT_EQ(ar.times.render.size(), 2u);

  // The background the content was laid over, from the same triangles in a scene of their own.
  Scene scene;
  for (const MeshData* mesh : {&floor, &wall}) {
    auto triangles = std::make_shared<const TriangleMesh>(TriangleMesh::make(mesh->positions, mesh->triangles).value());
    auto tree = std::make_shared<const MeshBvh>(MeshBvh::build(triangles).value());
    ASSERT_TRUE(scene.add(ColliderDesc{ColliderShape(std::in_place_type<MeshShape>, tree)}).ok());
  }
  scene.commit();
  io::Image background;
  ASSERT_TRUE(shade_scene(scene, ar.camera, {0, 0, 1}, background).ok());

  int hidden = 0, visible = 0;
  const Vec3d eye_d = vec3_cast<double>(eye);
  for (const DrapedPoint& point : ar.route.points) {
    const Vec3f p = point.position + point.normal * kRouteLift;
    const PixelProjection pixel = ar.camera.project(p);
    if (!pixel.in_image) continue;
    // The wall hides the point when the line of sight crosses it; points whose line of sight
    // passes within 5 cm of its edges are left out.
    const Vec3d margin{0.05, 0.05, 0.05}, lo = vec3_cast<double>(wall_lo), hi = vec3_cast<double>(wall_hi);
    const bool surely = segment_meets_box(eye_d, vec3_cast<double>(p), lo + margin, hi - margin);
    const bool possibly = segment_meets_box(eye_d, vec3_cast<double>(p), lo - margin, hi + margin);
    if (surely != possibly) continue;
    const int i = static_cast<int>(pixel.u), j = static_cast<int>(pixel.v);
    const std::size_t index = static_cast<std::size_t>(j) * 320 + i;
    const OverlayKind kind = ar.content[index];
    ASSERT_TRUE(kind == OverlayKind::route || kind == OverlayKind::arrow) << point.distance_along_route;
    EXPECT_EQ(ar.hidden[index], surely ? 1 : 0) << "route point at " << point.distance_along_route << " m";
    (surely ? hidden : visible) += 1;
    const io::Rgb8 colour = kind == OverlayKind::route ? kRouteColour : kArrowColour;
    const io::Rgb8 expected = blend(background.at(i, j), colour, surely ? kHiddenAlpha : kVisibleAlpha);
    const io::Rgb8 actual = ar.image.at(i, j);
    EXPECT_NEAR(actual.r, expected.r, 1);
    EXPECT_NEAR(actual.g, expected.g, 1);
    EXPECT_NEAR(actual.b, expected.b, 1);
  }
  EXPECT_GE(hidden, 3);
  EXPECT_GE(visible, 10);
}

// --- the command line: the built-in street ----------------------------------------------------------

// Width and height from a PNG's IHDR chunk (bytes 16 to 23, big-endian).
std::pair<int, int> png_size(const std::string& path) {
  const std::string bytes = test::read_file(path);
  if (bytes.size() < 24 || bytes.substr(0, 8) != std::string("\x89PNG\r\n\x1a\n", 8)) return {-1, -1};
  const auto word = [&](std::size_t at) {
    int value = 0;
    for (std::size_t k = 0; k < 4; ++k) value = value * 256 + static_cast<unsigned char>(bytes[at + k]);
    return value;
  };
  return {word(16), word(20)};
}

struct CsvRow {
  double x, y, z, nx, ny, nz, distance;
  std::string status;
};

std::vector<CsvRow> read_draped_csv(const std::string& path) {
  std::istringstream text(test::read_file(path));
  std::string line;
  std::getline(text, line);
  EXPECT_EQ(line, "x,y,z,nx,ny,nz,distance,status");
  std::vector<CsvRow> rows;
  while (std::getline(text, line)) {
    CsvRow row;
    char comma;
    std::istringstream fields(line);
    fields >> row.x >> comma >> row.y >> comma >> row.z >> comma >> row.nx >> comma >> row.ny >> comma >> row.nz >>
        comma >> row.distance >> comma >> row.status;
    EXPECT_TRUE(fields) << line;
    rows.push_back(row);
  }
  return rows;
}

TEST(DrapeCommand, BuiltInStreetWritesThePictureTheTableAndTheTimings) {
  const ScratchDirectory directory;
  const std::string png = directory.file("out/demo.png"), csv = directory.file("out/route.csv");
  const CommandRun result =
      run({"drape", "-o", png, "--route-out", csv, "--width", "160", "--height", "120", "--frames", "3"});
  ASSERT_EQ(result.exit_code, kExitSuccess) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_EQ(png_size(png), (std::pair{160, 120}));

  std::istringstream lines(result.out);
  std::string line;
  for (const char* stage : {"chunk_update", "depth_map", "drape", "occlusion", "render"}) {
    ASSERT_TRUE(std::getline(lines, line));
    const std::string head = std::string("stage ") + stage + ": median ", tail = " ms over 3 frames";
    EXPECT_EQ(line.substr(0, head.size()), head) << line;
    ASSERT_GT(line.size(), head.size() + tail.size()) << line;
    EXPECT_EQ(line.substr(line.size() - tail.size()), tail) << line;
  }
  ASSERT_TRUE(std::getline(lines, line));
  const StreetScene street = make_street_scene().value();
  const std::vector<CsvRow> rows = read_draped_csv(csv);
  std::size_t on = 0, bridged = 0, none = 0;
  for (const CsvRow& row : rows) (row.status == "on_surface" ? on : row.status == "gap_bridged" ? bridged : none) += 1;
  const std::string head = "drape: street 40 m, " + std::to_string(street.triangle_count()) + " triangles, route ";
  EXPECT_EQ(line.substr(0, head.size()), head) << line;
  const std::string counts = " m, " + std::to_string(rows.size()) + " points (" + std::to_string(on) + " on surface, " +
                             std::to_string(bridged) + " bridged, " + std::to_string(none) + " no surface), ";
  EXPECT_NE(line.find(counts), std::string::npos) << line << "\nexpected " << counts;
  EXPECT_EQ(line.substr(line.size() - png.size() - csv.size() - 2), png + ", " + csv) << line;
  EXPECT_FALSE(std::getline(lines, line));

  // On-surface points lie on the noise-free floor within the noise; at a step the floor has two
  // heights, so both sides of a point's position count.
  const double noise = street.options.noise, tolerance = 1e-3;
  ASSERT_GT(on, 40u);
  for (const CsvRow& row : rows) {
    if (row.status != "on_surface") continue;
    double lo = kInfinity<double>, hi = -kInfinity<double>;
    for (const double dx : {-1e-3, 0.0, 1e-3}) {
      const double h = street_floor_height(street.options, row.x + dx, row.y);
      if (!std::isnan(h)) lo = std::min(lo, h), hi = std::max(hi, h);
    }
    ASSERT_LE(lo, hi) << "on_surface point over no floor at x = " << row.x;
    EXPECT_GE(row.z, lo - noise - tolerance) << "x = " << row.x;
    EXPECT_LE(row.z, hi + noise + tolerance) << "x = " << row.x;
  }
  // The hole in the floor is a gap under the route, short enough to bridge.
  EXPECT_TRUE(std::any_of(rows.begin(), rows.end(), [&](const CsvRow& row) {
    return row.status == "gap_bridged" && std::isnan(street_floor_height(street.options, row.x, row.y));
  }));
  EXPECT_DOUBLE_EQ(rows.front().distance, 0.0);
}

// --- the command line: a user's mesh ----------------------------------------------------------------

// z = 0.1 x + 0.05 y + 0.4 over [-3, 12] x [-3, 3].
float plane_height(float x, float y) { return 0.1f * x + 0.05f * y + 0.4f; }

class DrapeMesh : public ::testing::Test {
 protected:
  // Writes the plane and a route over it, both mapped by to_file, drapes with `up`, and returns
  // the rows mapped back by from_file.
  template <class To, class From>
  std::vector<CsvRow> drape(const std::string& up, To to_file, From from_file) {
    const MeshData plane = grid(-3, 12, -3, 3, 15, 6, plane_height);
    test::write_file(mesh_, obj_text(plane, to_file));
    std::string route = "x, y, z\r\n";
    for (const Vec3f p : {Vec3f{0, 0, 2}, Vec3f{4, 0.5f, 2.5f}, Vec3f{8, -0.5f, 2.8f}, Vec3f{10, 0, 3}}) {
      const Vec3f q = to_file(p);
      route += std::to_string(q.x) + "," + std::to_string(q.y) + "," + std::to_string(q.z) + "\r\n";
    }
    test::write_file(route_, route);
    const CommandRun result = run({"drape", mesh_, route_, "--up", up, "-o", directory_.file("mesh.png"),
                                   "--route-out", csv_, "--width", "96", "--height", "64", "--frames", "2"});
    EXPECT_EQ(result.exit_code, kExitSuccess) << result.err;
    EXPECT_NE(result.out.find("drape: mesh " + mesh_ + ", 180 triangles, route "), std::string::npos) << result.out;
    EXPECT_NE(result.out.find(", 0 signs, "), std::string::npos) << result.out;
    EXPECT_EQ(png_size(directory_.file("mesh.png")), (std::pair{96, 64}));
    std::vector<CsvRow> rows = read_draped_csv(csv_);
    for (CsvRow& row : rows) {
      const Vec3f p = from_file(Vec3f{float(row.x), float(row.y), float(row.z)});
      const Vec3f n = from_file(Vec3f{float(row.nx), float(row.ny), float(row.nz)});
      row.x = p.x, row.y = p.y, row.z = p.z, row.nx = n.x, row.ny = n.y, row.nz = n.z;
    }
    return rows;
  }

  static void expect_on_plane(const std::vector<CsvRow>& rows) {
    ASSERT_GE(rows.size(), 10u);
    const Vec3f normal = normalize(Vec3f{-0.1f, -0.05f, 1});
    for (const CsvRow& row : rows) {
      EXPECT_EQ(row.status, "on_surface");
      EXPECT_NEAR(row.z, plane_height(float(row.x), float(row.y)), 1e-4) << "x = " << row.x;
      EXPECT_NEAR(row.nx, normal.x, 1e-4);
      EXPECT_NEAR(row.ny, normal.y, 1e-4);
      EXPECT_NEAR(row.nz, normal.z, 1e-4);
    }
    const double length = std::sqrt(16 + 0.25 + 0.25) + std::sqrt(16 + 1 + 0.09) + std::sqrt(4 + 0.25 + 0.04);
    EXPECT_NEAR(rows.back().distance, length, 1e-3);
  }

  ScratchDirectory directory_;
  std::string mesh_ = directory_.file("plane.obj"), route_ = directory_.file("route.csv");
  std::string csv_ = directory_.file("draped.csv");
};

TEST_F(DrapeMesh, RouteOutputUnderAFileFailsBeforeTheMeshIsRead) {
  const std::string blocker = directory_.file("a_file"), png = directory_.file("pictures/mesh.png");
  test::write_file(blocker, "in the way");
  // The mesh and route do not exist: the outputs are checked first, so their error is the one given.
  const CommandRun result = run({"drape", mesh_, route_, "-o", png, "--route-out", blocker + "/draped.csv"});
  EXPECT_EQ(result.exit_code, kExitFailure);
  EXPECT_EQ(result.err,
            "hitscan drape: cannot write '" + blocker + "/draped.csv': '" + blocker + "' is not a directory\n");
  EXPECT_EQ(result.out, "");
  EXPECT_FALSE(fs::exists(png));
}

TEST_F(DrapeMesh, ImageExtensionChoosesPngOrJpegAndOthersAreRefusedBeforeTheMeshIsRead) {
  // The mesh and route do not exist: an unsupported extension is the error given.
  const std::string bmp = directory_.file("drape.bmp");
  const CommandRun refused = run({"drape", mesh_, route_, "-o", bmp});
  EXPECT_EQ(refused.exit_code, kExitUsage);
  EXPECT_EQ(refused.err, "hitscan drape: cannot write '" + bmp +
                             "': unsupported image extension '.bmp' (supported: .png, .jpg, .jpeg)\n");
  EXPECT_FALSE(fs::exists(bmp));

  const std::string jpeg = directory_.file("street.JPG");
  const CommandRun written = run({"drape", "-o", jpeg, "--width", "64", "--height", "48", "--frames", "1"});
  ASSERT_EQ(written.exit_code, kExitSuccess) << written.err;
  // A JPEG's start-of-image and end-of-image markers.
  const std::string bytes = test::read_file(jpeg);
  ASSERT_GE(bytes.size(), 4u);
  EXPECT_EQ(bytes.substr(0, 3), "\xFF\xD8\xFF");
  EXPECT_EQ(bytes.substr(bytes.size() - 2), "\xFF\xD9");
}

TEST_F(DrapeMesh, RouteDrapesOntoTheExactPlane) {
  const auto same = [](Vec3f p) { return p; };
  expect_on_plane(drape("z", same, same));
}

TEST_F(DrapeMesh, YUpMeshDrapesAlongMinusY) {
  // A y-up file: (x, y, z) of the test's z-up frame is stored as (x, z, -y), a rotation.
  expect_on_plane(drape("y", [](Vec3f p) { return Vec3f{p.x, p.z, -p.y}; },
                        [](Vec3f p) { return Vec3f{p.x, -p.z, p.y}; }));
}

TEST_F(DrapeMesh, BadRouteFilesExitWithCodeTwoNamingTheFileAndLine) {
  test::write_file(mesh_, obj_text(grid(0, 1, 0, 1, 1, 1, plane_height), [](Vec3f p) { return p; }));
  const std::vector<std::pair<std::string, std::string>> cases{
      {"x,y,z\n1,2,3\n4,5\n", ":3:"},    {"1,2,3\n4,abc,6\n", ":2:"}, {"1,2,3\n4,nan,6\n", ":2:"},
      {"1,2,3\n4,5,-inf\n", ":2:"},      {"1,2,3,4\n5,6,7\n", ":1:"}, {"1,2,3\n4,5,1e39\n", ":2:"},
      {"x,y,z\n1,2,3\n", ": 1 route point"}, {"", ": 0 route points"}};
  const std::string png = directory_.file("never.png");
  for (const auto& [contents, where] : cases) {
    test::write_file(route_, contents);
    const CommandRun result = run({"drape", mesh_, route_, "-o", png});
    EXPECT_EQ(result.exit_code, kExitUsage) << contents;
    EXPECT_NE(result.err.find(route_ + where), std::string::npos) << contents << " gave: " << result.err;
    EXPECT_EQ(result.out, "");
  }
  test::write_file(route_, "0,0,1\n1,1,1\n");
  const std::string absent_route = directory_.file("absent.csv"), absent_mesh = directory_.file("absent.obj");
  const std::vector<std::pair<std::vector<std::string>, std::string>> missing{
      {{"drape", mesh_, absent_route, "-o", png}, absent_route},
      {{"drape", absent_mesh, route_, "-o", png}, absent_mesh},
      {{"drape", mesh_, "-o", png}, mesh_}};  // a mesh without a route
  for (const auto& [args, name] : missing) {
    const CommandRun result = run(args);
    EXPECT_EQ(result.exit_code, kExitUsage) << ::testing::PrintToString(args);
    EXPECT_NE(result.err.find(name), std::string::npos) << result.err;
  }
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"drape", "--frames", "0"}, {"drape", "--width", "0"}, {"drape", "--up", "w"}}) {
    EXPECT_EQ(run(args).exit_code, kExitUsage) << ::testing::PrintToString(args);
  }
  EXPECT_FALSE(fs::exists(png));
}

}  // namespace
}  // namespace hitscan::tools
