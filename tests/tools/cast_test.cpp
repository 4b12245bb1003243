// Tests of `hitscan cast` (rays from a table against a mesh file, hits to a table) and of
// `hitscan render MESH`, run through the command line as main() runs it.

#include <gtest/gtest.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

// stb ships with Debian under /usr/include/stb; the tools tests read the rendered PNG back.
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include "hitscan/io/mesh_loader.hpp"
#include "support/scratch_directory.hpp"
#include "tools/cast_command.hpp"
#include "tools/command.hpp"
#include "tools/command_runner.hpp"
#include "tools/normal_render.hpp"
#include "support/file_contents.hpp"

namespace hitscan::tools {
namespace {

namespace fs = std::filesystem;

using test::CommandRun;
using test::run;
using test::ScratchDirectory;
using Row = std::array<double, 7>;  // t, prim, u, v, nx, ny, nz

using test::read_file;
using test::write_file;

// The unit square in z = 0 as two triangles, both wound so that (v1 - v0) x (v2 - v0) = +z:
// triangle 0 = (0,0,0) (1,0,0) (1,1,0), below the diagonal y = x; triangle 1 = (0,0,0) (1,1,0) (0,1,0).
// Off to the side, triangle 2 = (3,0,0) (3,0,1) (3,1,0) in the plane x = 3, its normal
// (0,0,1) x (0,1,0) = -x. A point there is (3, v, u).
constexpr const char* kSquareAndSideOff =
    "OFF\n"
    "7 3 0\n"
    "0 0 0\n1 0 0\n1 1 0\n0 1 0\n"
    "3 0 0\n3 0 1\n3 1 0\n"
    "3 0 1 2\n3 0 2 3\n3 4 5 6\n";

// Rays with 8 columns; the expected rows below are worked by hand.
constexpr const char* kRaysCsv =
    "ox,oy,oz,dx,dy,dz,tmin,tmax\n"
    // 0: straight down onto (0.75, 0.25), below the diagonal: triangle 0 from the front at t = 2.
    //    x = u + v = 0.75, y = v = 0.25, so u = 0.5, v = 0.25.
    "0.75,0.25,2,0,0,-1,0,inf\n"
    // 1: straight up (dir of length 2) onto (0.25, 0.5), above the diagonal: triangle 1 from behind
    //    at t = 1 / 2. x = u = 0.25, y = u + v = 0.5, so v = 0.25.
    "0.25,0.5,-1,0,0,2,0,inf\n"
    // 2: along +x onto the side triangle at (3, 0.25, 0.25), from the front (its normal is -x), t = 1.
    "2,0.25,0.25,1,0,0,0,inf\n"
    // 3: from x = 4 down and back: the side triangle from behind at t = 1, point (3, 0.2, 0.275);
    //    beyond it the square from the front at t = 3.2, point (0.8, 0.2, 0): triangle 0, u = 0.6, v = 0.2.
    "4,0.2,0.4,-1,0,-0.125,0,inf\n"
    // 4: straight down beside everything: a miss.
    "2,2,2,0,0,-1,0,inf\n"
    // 5, 6: invalid rays, a zero direction and a NaN origin: misses, not errors.
    "0.5,0.5,1,0,0,0,0,inf\n"
    "nan,0.5,1,0,0,-1,0,inf\n"
    // 7, 8: ray 0 with the hit beyond tmax, then before tmin: misses.
    "0.75,0.25,2,0,0,-1,0,1.5\n"
    "0.75,0.25,2,0,0,-1,2.5,inf\n";

constexpr double kInf = kInfinity<double>;
const Row kMiss{kInf, -1, 0, 0, 0, 0, 0};
const Row kRay0Hit{2, 0, 0.5, 0.25, 0, 0, 1};
const Row kRay1Hit{0.5, 1, 0.25, 0.25, 0, 0, 1};
const Row kRay2Hit{1, 2, 0.25, 0.25, -1, 0, 0};
const Row kRay3SideHit{1, 2, 0.275, 0.2, -1, 0, 0};
const Row kRay3SquareHit{3.2, 0, 0.6, 0.2, 0, 0, 1};
const Row kAnyHit{1, -1, 0, 0, 0, 0, 0};

// The hits table written by cast: CSV with its header, or .npy v1.0 '<f8' (N, 7).
std::vector<Row> read_hits(const std::string& path) {
  const std::string file = read_file(path);
  std::vector<Row> rows;
  if (path.ends_with(".npy")) {
    EXPECT_EQ(file.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
    const std::size_t header_length = static_cast<unsigned char>(file[8]) | static_cast<unsigned char>(file[9]) << 8;
    const std::string header = file.substr(10, header_length);
    const std::size_t count = (file.size() - 10 - header_length) / 56;
    EXPECT_EQ(10 + header_length + count * 56, file.size());
    EXPECT_NE(header.find("'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(count) + ", 7)"),
              std::string::npos)
        << header;
    rows.resize(count);
    std::memcpy(rows.data(), file.data() + 10 + header_length, count * 56);  // little-endian, like this machine
    return rows;
  }
  EXPECT_EQ(file.substr(0, 20), "t,prim,u,v,nx,ny,nz\n");
  for (std::size_t start = 20; start < file.size();) {
    const std::size_t end = file.find('\n', start);
    Row row{};
    const char* p = file.data() + start;
    for (std::size_t i = 0; i < 7; ++i) {
      const auto parsed = std::from_chars(p, file.data() + end, row[i]);
      EXPECT_EQ(parsed.ec, std::errc{}) << file.substr(start, end - start);
      p = parsed.ptr + 1;
    }
    rows.push_back(row);
    start = end + 1;
  }
  return rows;
}

void expect_rows(const std::vector<Row>& actual, const std::vector<Row>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    for (std::size_t c = 0; c < 7; ++c) {
      if (std::isinf(expected[i][c]) || c == 1) {
        EXPECT_EQ(actual[i][c], expected[i][c]) << "ray " << i << " column " << c;
      } else {
        EXPECT_NEAR(actual[i][c], expected[i][c], 1e-6) << "ray " << i << " column " << c;
      }
    }
  }
}

class CastCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(mesh_, kSquareAndSideOff);
    write_file(rays_, kRaysCsv);
  }
  std::vector<Row> cast(std::vector<std::string> options, const std::string& output_name = "hits.csv") {
    const std::string output = directory_.file(output_name);
    std::vector<std::string> args{"cast", mesh_, rays_, "-o", output};
    args.insert(args.end(), options.begin(), options.end());
    const CommandRun result = run(args);
    EXPECT_EQ(result.exit_code, kExitSuccess) << result.err;
    EXPECT_EQ(result.err, "");
    return read_hits(output);
  }

  ScratchDirectory directory_;
  std::string mesh_ = directory_.file("square.off");
  std::string rays_ = directory_.file("rays.csv");
};

TEST_F(CastCommand, ClosestHitsOfHandWorkedRays) {
  expect_rows(cast({}), {kRay0Hit, kRay1Hit, kRay2Hit, kRay3SideHit, kMiss, kMiss, kMiss, kMiss, kMiss});
}

TEST_F(CastCommand, FrontFacesOnlyCullsTheBackFaceHitsAndSeesWhatLiesBeyond) {
  expect_rows(cast({"--backfaces", "front"}),
              {kRay0Hit, kMiss, kRay2Hit, kRay3SquareHit, kMiss, kMiss, kMiss, kMiss, kMiss});
}

TEST_F(CastCommand, BackFacesOnlyKeepsOnlyTheBackFaceHits) {
  expect_rows(cast({"--backfaces", "back"}), {kMiss, kRay1Hit, kMiss, kRay3SideHit, kMiss, kMiss, kMiss, kMiss, kMiss});
}

TEST_F(CastCommand, AnyHitWritesOneForAHitAndInfinityForNone) {
  expect_rows(cast({"--any"}), {kAnyHit, kAnyHit, kAnyHit, kAnyHit, kMiss, kMiss, kMiss, kMiss, kMiss});
  expect_rows(cast({"--any", "--backfaces", "front"}),
              {kAnyHit, kMiss, kAnyHit, kAnyHit, kMiss, kMiss, kMiss, kMiss, kMiss});
}

TEST_F(CastCommand, NpyRaysInGiveTheSameHitsAsCsvAndNpyHitsOut) {
  // The same rays as float64 (N, 8), with tmin 0 and tmax +inf written out.
  const std::vector<std::array<double, 8>> rays{{0.75, 0.25, 2, 0, 0, -1, 0, kInf}, {0.25, 0.5, -1, 0, 0, 2, 0, kInf},
                                                {2, 2, 2, 0, 0, -1, 0, kInf}};
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 8), }";
  header += std::string(63 - (10 + header.size()) % 64, ' ') + "\n";
  std::string file = std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header;
  file.append(reinterpret_cast<const char*>(rays.data()), rays.size() * sizeof rays[0]);
  rays_ = directory_.file("rays.npy");
  write_file(rays_, file);
  expect_rows(cast({}, "hits.npy"), {kRay0Hit, kRay1Hit, kMiss});
}

TEST_F(CastCommand, StatsPrintOneJsonLineWithTheHitCount) {
  const std::string output = directory_.file("hits.npy");
  const CommandRun quiet = run({"cast", mesh_, rays_, "-o", output});
  EXPECT_EQ(quiet.exit_code, kExitSuccess) << quiet.err;
  EXPECT_EQ(quiet.out, "") << "nothing is printed without --stats";

  const CommandRun result = run({"cast", mesh_, rays_, "-o", output, "--stats"});
  ASSERT_EQ(result.exit_code, kExitSuccess) << result.err;
  const std::string& line = result.out;
  ASSERT_GE(line.size(), 2u);
  EXPECT_EQ(line.front(), '{');
  EXPECT_EQ(line.substr(line.size() - 2), "}\n");
  EXPECT_EQ(line.find('\n'), line.size() - 1) << "one line";
  EXPECT_EQ(line.rfind("{\"triangles\": 3, \"build_ms\": ", 0), 0u) << line;
  std::map<std::string, double> values;
  for (const char* key : {"build_ms", "trace_ms", "total_ms", "mrays_per_s"}) {
    const std::string quoted = "\"" + std::string(key) + "\": ";
    const std::size_t at = line.find(quoted);
    ASSERT_NE(at, std::string::npos) << key << " in " << line;
    double value = -1;
    const char* first = line.data() + at + quoted.size();
    const auto parsed = std::from_chars(first, line.data() + line.size(), value);
    EXPECT_EQ(parsed.ec, std::errc{}) << line;
    EXPECT_TRUE(*parsed.ptr == ',') << line;
    EXPECT_GE(value, 0.0) << key;
    values[key] = value;
  }
  EXPECT_LT(line.find("\"trace_ms\""), line.find("\"total_ms\"")) << "total_ms beside trace_ms: " << line;
  // total_ms spans the whole command, the build and the tracing included (each figure rounded
  // alike, so the larger stays at least as large).
  EXPECT_GE(values["total_ms"], values["trace_ms"]) << line;
  EXPECT_GE(values["total_ms"], values["build_ms"]) << line;
  EXPECT_NE(line.find(", \"hits\": 4}"), std::string::npos) << line;

  const CommandRun any = run({"cast", mesh_, rays_, "-o", output, "--stats", "--any", "--backfaces", "back"});
  EXPECT_NE(any.out.find(", \"hits\": 2}"), std::string::npos) << any.out;
}

// A ray from around the square-and-side mesh toward a point of its bounds [0, 3] x [0, 1] x [0, 1].
Rayf random_ray(std::mt19937& rng) {
  std::uniform_real_distribution<float> around(-2.0f, 5.0f), unit(0.0f, 1.0f);
  const Vec3f origin{around(rng), around(rng), around(rng)};
  const Vec3f target{3 * unit(rng), unit(rng), unit(rng)};
  return {origin, target - origin};
}

// Seeded random rays at the square-and-side mesh, as float32 (N, 6).
std::string random_rays_npy(std::size_t count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(count) + ", 6), }";
  header += std::string(63 - (10 + header.size()) % 64, ' ') + "\n";
  std::string file = std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header;
  for (std::size_t i = 0; i < count; ++i) {
    const Rayf ray = random_ray(rng);
    const float row[6] = {ray.origin.x, ray.origin.y, ray.origin.z, ray.dir.x, ray.dir.y, ray.dir.z};
    file.append(reinterpret_cast<const char*>(row), sizeof row);
  }
  return file;
}

TEST_F(CastCommand, OneThreadAndThreeThreadsWriteIdenticalFiles) {
  rays_ = directory_.file("random.npy");
  write_file(rays_, random_rays_npy(5003, 7));
  for (const char* name : {"hits.npy", "hits.csv"}) {
    std::vector<std::string> files;
    for (const char* threads : {"1", "3"}) {
      const std::string output = directory_.file(std::string(threads) + name);
      const CommandRun result = run({"cast", mesh_, rays_, "-o", output, "--threads", threads});
      ASSERT_EQ(result.exit_code, kExitSuccess) << result.err;
      files.push_back(read_file(output));
    }
    EXPECT_GT(files[0].size(), 5003u * 7);
    EXPECT_TRUE(files[0] == files[1]) << name;
  }
}

// cast_rays into rows that hold a stale hit, so that a row it leaves unwritten shows.
std::vector<io::HitRow> cast_into_stale_rows(const MeshBvh& bvh, std::span<const Rayf> rays,
                                             const CastSettings& settings) {
  std::vector<io::HitRow> rows(rays.size(), io::HitRow{0.5, 7, 0.25, 0.25, 0, 0, 1});
  cast_rays(bvh, rays, rows, settings);
  return rows;
}

TEST(CastRays, EveryThreadCountGivesTheRowsOfOneRayAtATime) {
  const ScratchDirectory directory;
  const std::string mesh_path = directory.file("square.off");
  write_file(mesh_path, kSquareAndSideOff);
  Result<TriangleMesh> mesh = io::load_mesh(mesh_path);
  ASSERT_TRUE(mesh.ok()) << mesh.status().message();
  const Result<MeshBvh> bvh = MeshBvh::build(std::make_shared<const TriangleMesh>(std::move(mesh).value()));
  ASSERT_TRUE(bvh.ok());

  std::mt19937 rng(3);
  std::vector<Rayf> rays(2001);
  for (Rayf& ray : rays) ray = random_ray(rng);

  for (const bool any_hit : {false, true}) {
    for (const FaceMode faces : {FaceMode::both, FaceMode::front_only, FaceMode::back_only}) {
      std::size_t hits = 0;
      std::vector<io::HitRow> reference(rays.size());
      for (std::size_t i = 0; i < rays.size(); ++i) {
        if (any_hit) {
          if (bvh.value().occluded(rays[i], faces)) reference[i].t = 1;
        } else if (const MeshHit hit = bvh.value().intersect(rays[i], faces)) {
          reference[i] = {hit.t, double(hit.triangle), hit.u, hit.v, hit.normal.x, hit.normal.y, hit.normal.z};
        }
        hits += reference[i].t < kInf;
      }
      EXPECT_GT(hits, rays.size() / 40) << "enough of the random rays hit to make the comparison mean something";
      for (const unsigned threads : {1u, 2u, 3u, 8u}) {
        const std::vector<io::HitRow> rows = cast_into_stale_rows(bvh.value(), rays, {faces, any_hit, threads});
        for (std::size_t i = 0; i < rows.size(); ++i) {
          EXPECT_EQ(std::memcmp(&rows[i], &reference[i], sizeof rows[i]), 0)
              << "ray " << i << ", " << threads << " threads, any " << any_hit << ", faces " << int(faces);
        }
      }
      // More threads than rays: one ray each.
      const std::vector<io::HitRow> few =
          cast_into_stale_rows(bvh.value(), std::span(rays).first(5), {faces, any_hit, 16});
      EXPECT_EQ(std::memcmp(few.data(), reference.data(), 5 * sizeof few[0]), 0);
    }
  }
  cast_rays(bvh.value(), {}, {}, {FaceMode::both, false, 4});  // no rays: nothing to do, nothing to crash
}

TEST_F(CastCommand, BadInputFilesAndArgumentsExitWithCodeTwo) {
  const std::string output = directory_.file("never.csv");
  const std::string bad_rays = directory_.file("bad.csv");
  write_file(bad_rays, "0,0,1,0,0,-1\n0,0,1,zero,0,-1\n");
  const std::string not_a_mesh = directory_.file("noise.off");
  write_file(not_a_mesh, "this is not a mesh\n");
  struct Case {
    std::vector<std::string> args;
    std::string in_message;
  };
  const std::vector<Case> cases{
      {{"cast", directory_.file("absent.off"), rays_, "-o", output}, directory_.file("absent.off")},
      {{"cast", not_a_mesh, rays_, "-o", output}, not_a_mesh},
      {{"cast", mesh_, bad_rays, "-o", output}, bad_rays + ": line 2, column 4"},
      {{"cast", mesh_, directory_.file("absent.npy"), "-o", output}, directory_.file("absent.npy")},
      {{"cast", mesh_, rays_, "-o", directory_.file("hits.txt")}, ".npy or .csv"},
      {{"cast", mesh_, rays_, "-o", output, "--frobnicate"}, "--frobnicate"},
      {{"cast", mesh_, rays_, "-o", output, "--backfaces", "sideways"}, "sideways"},
      {{"cast", mesh_, rays_, "-o", output, "--threads", "0"}, "--threads"},
      {{"cast", mesh_, rays_, "-o", output, "--threads", "many"}, "--threads"},
      {{"cast", mesh_, rays_}, "--output"},
      {{"cast", mesh_, "-o", output}, "rays"},
  };
  for (const Case& c : cases) {
    const CommandRun result = run(c.args);
    EXPECT_EQ(result.exit_code, kExitUsage) << ::testing::PrintToString(c.args);
    EXPECT_NE(result.err.find(c.in_message), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
  }
  EXPECT_FALSE(fs::exists(output));
}

TEST_F(CastCommand, OutputInAMissingDirectoryExitsWithCodeOneBeforeReadingTheInputs) {
  const std::string output = directory_.file("missing/hits.npy");
  const std::string expected =
      "hitscan cast: cannot write '" + output + "': directory '" + directory_.file("missing") + "' does not exist\n";
  const CommandRun result = run({"cast", mesh_, rays_, "-o", output, "--stats"});
  EXPECT_EQ(result.exit_code, kExitFailure);
  EXPECT_EQ(result.err, expected);
  EXPECT_EQ(result.out, "") << "no stats for failed work";
  // With inputs that do not exist either, the output's error is still the one given.
  EXPECT_EQ(run({"cast", directory_.file("absent.off"), directory_.file("absent.csv"), "-o", output}).err, expected);
}

TEST_F(CastCommand, HelpListsTheOptions) {
  const CommandRun help = run({"cast", "--help"});
  EXPECT_EQ(help.exit_code, kExitSuccess);
  for (const char* option : {"--output", "--any", "--backfaces", "--threads", "--stats", "both", "front", "back"}) {
    EXPECT_NE(help.out.find(option), std::string::npos) << option << " in " << help.out;
  }
  EXPECT_NE(run({"--help"}).out.find("cast"), std::string::npos);
}

// --- render MESH ------------------------------------------------------------------------------------

TEST(FrameBounds, BoundingSphereJustFitsTheNarrowerFieldOfView) {
  // The box [-1, 3] x [0, 2] x [1, 3] has centre (1, 1, 2) and bounding sphere radius sqrt(4 + 1 + 1).
  const Aabbf box{{-1, 0, 1}, {3, 2, 3}};
  const float radius = std::sqrt(6.0f);
  CameraDef wide = default_camera_def();  // 60 degrees vertically, 960 x 540: vertical is narrower
  wide = frame_bounds(wide, box, {0, 0, 5});
  EXPECT_EQ(wide.look_at, (Vec3f{1, 1, 2}));
  EXPECT_NEAR(wide.position.x, 1.0f, 1e-6f);
  EXPECT_NEAR(wide.position.y, 1.0f, 1e-6f);
  EXPECT_NEAR(wide.position.z, 2.0f + radius / std::sin(kPi<float> / 6), 1e-5f);
  EXPECT_EQ(wide.width, 960);
  EXPECT_EQ(wide.vertical_fov_radians, kPi<float> / 3);

  // A tall picture: the horizontal half angle atan(tan(30 deg) * 9 / 16) is the narrower.
  CameraDef tall = default_camera_def();
  tall.width = 9;
  tall.height = 16;
  tall = frame_bounds(tall, box, {2, 0, 0});
  const float half_horizontal = std::atan(std::tan(kPi<float> / 6) * 9.0f / 16.0f);
  EXPECT_NEAR(tall.position.x, 1.0f + radius / std::sin(half_horizontal), 1e-5f);

  // A single point is framed as a sphere of radius 1.
  const CameraDef point = frame_bounds(default_camera_def(), Aabbf::from_point({5, 5, 5}), {0, 1, 0.001f});
  EXPECT_NEAR(distance(point.position, Vec3f{5, 5, 5}), 2.0f, 1e-5f);
}

// A regular octahedron with corners on the axes, each face wound outward: the face seen from the
// automatic camera's direction (1, 0.6, 1.4) is the one with normal (1, 1, 1) / sqrt(3).
constexpr const char* kOctahedronOff =
    "OFF\n"
    "6 8 0\n"
    "1 0 0\n-1 0 0\n0 1 0\n0 -1 0\n0 0 1\n0 0 -1\n"
    "3 0 2 4\n3 2 1 4\n3 1 3 4\n3 3 0 4\n3 2 0 5\n3 1 2 5\n3 3 1 5\n3 0 3 5\n";

TEST(RenderMeshCommand, CentrePixelSeesTheFaceTowardTheCameraAndCornersSeeSky) {
  const ScratchDirectory directory;
  const std::string mesh = directory.file("octahedron.off");
  const std::string png = directory.file("octahedron.png");
  write_file(mesh, kOctahedronOff);
  const CommandRun result = run({"render", mesh, "-o", png, "--width", "33", "--height", "25"});
  ASSERT_EQ(result.exit_code, kExitSuccess) << result.err;
  EXPECT_EQ(result.out.rfind("render: 33x25, 825 rays, 8 triangles, ", 0), 0u) << result.out;
  EXPECT_TRUE(result.out.ends_with(" Mrays/s, " + png + "\n")) << result.out;

  int width = 0, height = 0, channels = 0;
  stbi_uc* pixels = stbi_load(png.c_str(), &width, &height, &channels, 3);
  ASSERT_NE(pixels, nullptr) << stbi_failure_reason();
  const auto pixel = [&](int x, int y) {
    const stbi_uc* p = pixels + 3 * (y * width + x);
    return io::Rgb8{p[0], p[1], p[2]};
  };
  EXPECT_EQ(width, 33);
  EXPECT_EQ(height, 25);
  // Odd sizes put a pixel centre on the image centre, which looks at the mesh's centre.
  EXPECT_EQ(pixel(16, 12), normal_colour(normalize(Vec3f{1, 1, 1})));
  EXPECT_EQ(pixel(0, 0), background_colour(0, 25));
  EXPECT_EQ(pixel(32, 24), background_colour(24, 25));
  stbi_image_free(pixels);
}

TEST(RenderMeshCommand, MissingOrBrokenMeshExitsWithCodeTwo) {
  const ScratchDirectory directory;
  const std::string png = directory.file("never.png");
  const std::string broken = directory.file("broken.off");
  write_file(broken, "OFF\n3 1 0\n0 0 0\n");
  for (const std::string& mesh : {directory.file("absent.obj"), broken}) {
    const CommandRun result = run({"render", mesh, "-o", png, "--width", "8", "--height", "8"});
    EXPECT_EQ(result.exit_code, kExitUsage) << result.err;
    EXPECT_NE(result.err.find(mesh), std::string::npos) << result.err;
  }
  EXPECT_FALSE(fs::exists(png));
}

}  // namespace
}  // namespace hitscan::tools
