// hitscan info --bvh-boxes and hitscan render --heatmap: seeing inside the BVH from the command line.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "support/cube_off.hpp"
#include "support/file_contents.hpp"
#include "support/scratch_directory.hpp"
#include "tools/command.hpp"
#include "tools/command_runner.hpp"
#include "tools/heatmap.hpp"

namespace hitscan::tools {
namespace {

using test::CommandRun;
using test::run;
using test::ScratchDirectory;
using test::write_file;

using test::kUnitCubeOff;

TEST(InsideView, BvhBoxesAreAWireframeObjOfTheTreesBoxes) {
  const ScratchDirectory directory;
  const std::string mesh = directory.file("cube.off"), obj = directory.file("boxes.obj");
  write_file(mesh, kUnitCubeOff);
  const CommandRun result = run({"info", mesh, "--bvh-boxes", obj, "--bvh-depth", "0"});
  ASSERT_EQ(result.exit_code, kExitSuccess) << result.err;
  const std::size_t at = result.out.find("bvh boxes: ");
  ASSERT_NE(at, std::string::npos) << result.out;
  const int boxes = std::stoi(result.out.substr(at + 11));
  EXPECT_GE(boxes, 1);
  std::ifstream file(obj);
  int vertices = 0, lines = 0;
  float lo = 1e9f, hi = -1e9f;
  for (std::string line; std::getline(file, line);) {
    std::istringstream fields(line);
    std::string kind;
    fields >> kind;
    if (kind == "v") {
      ++vertices;
      for (int a = 0; a < 3; ++a) {
        float c;
        fields >> c;
        lo = std::min(lo, c), hi = std::max(hi, c);
      }
    }
    if (kind == "l") ++lines;
  }
  EXPECT_EQ(vertices, 8 * boxes);
  EXPECT_EQ(lines, 12 * boxes);
  EXPECT_EQ(lo, 0.0f);  // the boxes span the unit cube, no more
  EXPECT_EQ(hi, 1.0f);
  EXPECT_EQ(run({"info", mesh, "--bvh-boxes", directory.file("no/such/dir/boxes.obj")}).exit_code, kExitFailure);
  EXPECT_EQ(run({"info", mesh, "--bvh-depth", "-1"}).exit_code, kExitUsage);
}

TEST(InsideView, HeatmapSitsBesideThePictureWithItsScale) {
  const ScratchDirectory directory;
  const std::string mesh = directory.file("cube.off"), png = directory.file("heat.png");
  write_file(mesh, kUnitCubeOff);
  const CommandRun result = run({"render", mesh, "--heatmap", "-o", png, "--width", "64", "--height", "48"});
  ASSERT_EQ(result.exit_code, kExitSuccess) << result.err;
  EXPECT_NE(result.out.find("heatmap: cost = nodes + triangles a ray, 0 (dark blue) .. "), std::string::npos)
      << result.out;
  // The PNG's width is in its header, bytes 16..19 big-endian: twice the picture's.
  const std::string bytes = test::read_file(png);
  ASSERT_GT(bytes.size(), 24u);
  const auto byte = [&](int i) { return static_cast<unsigned>(static_cast<unsigned char>(bytes[i])); };
  EXPECT_EQ((byte(16) << 24) | (byte(17) << 16) | (byte(18) << 8) | byte(19), 128u);
  EXPECT_EQ((byte(20) << 24) | (byte(21) << 16) | (byte(22) << 8) | byte(23), 48u);
  EXPECT_EQ(run({"render", "--heatmap", "-o", png}).exit_code, kExitUsage);  // the built-in scene has no BVH
}

TEST(InsideView, HeatColoursRunFromDarkBlueToRed) {
  const io::Rgb8 cold = heat_colour(0.0f), hot = heat_colour(1.0f);
  EXPECT_LT(cold.r, 30);
  EXPECT_GT(cold.b, cold.r);
  EXPECT_GT(hot.r, 200);
  EXPECT_LT(hot.b, 30);
  const io::Rgb8 nan = heat_colour(NAN), below = heat_colour(-3.0f), above = heat_colour(7.0f);
  EXPECT_EQ(nan.b, cold.b);
  EXPECT_EQ(below.r, cold.r);
  EXPECT_EQ(above.r, hot.r);
}

}  // namespace
}  // namespace hitscan::tools
