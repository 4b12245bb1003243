// Tests of `hitscan render` and what it is made of: the pinhole camera, the closest hit over a
// list of shapes, the demo scene's picture, and the command line with its exit codes.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <stb_image.h>

#include "support/file_contents.hpp"
#include "tools/any_shape.hpp"
#include "tools/camera.hpp"
#include "tools/command.hpp"
#include "tools/demo_scene.hpp"
#include "tools/normal_render.hpp"
#include "support/scratch_directory.hpp"
#include "tools/command_runner.hpp"

namespace hitscan::tools {
namespace {

namespace fs = std::filesystem;

float degrees(float radians) { return radians * 180.0f / kPi<float>; }
float radians(float degrees) { return degrees * kPi<float> / 180.0f; }
float angle_between(Vec3f a, Vec3f b) {
  return std::acos(clamp(dot(normalize(a), normalize(b)), -1.0f, 1.0f));
}

void expect_near(Vec3f actual, Vec3f expected, float tolerance) {
  EXPECT_NEAR(actual.x, expected.x, tolerance);
  EXPECT_NEAR(actual.y, expected.y, tolerance);
  EXPECT_NEAR(actual.z, expected.z, tolerance);
}

PinholeCamera make_camera(const CameraDef& def) {
  Result<PinholeCamera> camera = PinholeCamera::make(def);
  EXPECT_TRUE(camera.ok()) << camera.status().message();
  return std::move(camera).value();
}

// --- camera ---------------------------------------------------------------------------------------

TEST(PinholeCamera, CentreRayPointsAtTheLookAtPoint) {
  // Odd width and height put a pixel centre exactly on the image centre.
  const CameraDef def{{1, 2, 3}, {-2, 0.5f, 7}, {0, 1, 0}, radians(50), 5, 3};
  const Rayf ray = make_camera(def).ray_through_pixel(2, 1);

  EXPECT_EQ(ray.origin, def.position);
  expect_near(ray.dir, normalize(def.look_at - def.position), 1e-6f);
  const float t = dot(def.look_at - ray.origin, ray.dir);
  expect_near(ray.at(t), def.look_at, 1e-5f);
}

TEST(PinholeCamera, CornerRayAngleMatchesTheFieldOfView) {
  // 90 degrees vertically: the image plane at distance 1 spans y in [-1, 1], and at 4x2 pixels
  // x in [-2, 2], so a pixel is 1 x 1 there. Pixel (0, 0)'s centre is half a pixel in from the
  // top-left corner: x = -2 + 0.5 = -1.5, y = 1 - 0.5 = 0.5. dir ~ (-1.5, 0.5, -1), whose angle
  // from the view axis is acos(1 / sqrt(1.5^2 + 0.5^2 + 1)) = acos(1 / sqrt(3.5)) = 57.688 degrees.
  const PinholeCamera camera = make_camera({{0, 0, 0}, {0, 0, -1}, {0, 1, 0}, radians(90), 4, 2});

  const Rayf top_left = camera.ray_through_pixel(0, 0);
  expect_near(top_left.dir, Vec3f{-1.5f, 0.5f, -1.0f} / std::sqrt(3.5f), 1e-6f);
  EXPECT_NEAR(degrees(angle_between(top_left.dir, {0, 0, -1})), 57.688467f, 1e-3f);

  const Rayf bottom_right = camera.ray_through_pixel(3, 1);
  expect_near(bottom_right.dir, Vec3f{1.5f, -0.5f, -1.0f} / std::sqrt(3.5f), 1e-6f);
}

TEST(PinholeCamera, HorizontalAngleFollowsFromTheAspectRatio) {
  // 60 degrees vertically at 16x9: the image plane's half width is tan(30) * 16 / 9 = 1.02640.
  // The last column's centre is at 15.5 / 16 of the width, 0.9375 of the half width from the
  // middle, so tan(angle) = 0.9375 * 1.02640 = 0.96225: 43.898 degrees. Row 4 of 9 is level.
  const PinholeCamera camera = make_camera({{0, 0, 0}, {0, 0, -1}, {0, 1, 0}, radians(60), 16, 9});
  const Rayf ray = camera.ray_through_pixel(15, 4);
  EXPECT_NEAR(ray.dir.y, 0.0f, 1e-7f);
  EXPECT_GT(ray.dir.x, 0.0f);
  EXPECT_NEAR(degrees(angle_between(ray.dir, {0, 0, -1})), 43.897886f, 1e-3f);
}

TEST(PinholeCamera, ImageRightIsViewCrossUpAndRowZeroIsTheTop) {
  // Looking along +x with z up, the picture's right is x cross z = -y. At 3x3 and 90 degrees the
  // outer pixel centres sit 2/3 of the way to the image edge, which is at distance 1.
  const PinholeCamera camera = make_camera({{0, 0, 0}, {5, 0, 0}, {0, 0, 3}, radians(90), 3, 3});
  expect_near(camera.ray_through_pixel(2, 1).dir, normalize(Vec3f{1, -2.0f / 3, 0}), 1e-6f);
  expect_near(camera.ray_through_pixel(1, 0).dir, normalize(Vec3f{1, 0, 2.0f / 3}), 1e-6f);
  expect_near(camera.ray_through_pixel(0, 2).dir, normalize(Vec3f{1, 2.0f / 3, -2.0f / 3}), 1e-6f);
}

TEST(PinholeCamera, EveryRayIsUnitLengthFromThePosition) {
  const CameraDef def{{3, -1, 2}, {0, 1, 0}, {0.2f, 1, 0.1f}, radians(70), 7, 5};
  const PinholeCamera camera = make_camera(def);
  for (int y = 0; y < def.height; ++y) {
    for (int x = 0; x < def.width; ++x) {
      const Rayf ray = camera.ray_through_pixel(x, y);
      EXPECT_EQ(ray.origin, def.position);
      EXPECT_NEAR(length(ray.dir), 1.0f, 1e-6f);
      EXPECT_EQ(ray.tmin, 0.0f);
      EXPECT_EQ(ray.tmax, kInfinity<float>);
    }
  }
}

TEST(PinholeCamera, MakeRejectsADegenerateView) {
  const CameraDef good{{0, 0, 5}, {0, 0, 0}, {0, 1, 0}, radians(60), 8, 6};
  ASSERT_TRUE(PinholeCamera::make(good).ok());

  std::vector<CameraDef> bad(10, good);
  bad[0].look_at = bad[0].position;
  bad[1].up = {0, 0, 2};  // parallel to the view direction
  bad[2].up = {};
  bad[3].vertical_fov_radians = 0;
  bad[4].vertical_fov_radians = kPi<float>;
  bad[5].vertical_fov_radians = std::nanf("");
  bad[6].width = 0;
  bad[7].height = -1;
  bad[8].position.x = kInfinity<float>;
  bad[9].up.y = std::nanf("");
  for (std::size_t i = 0; i < bad.size(); ++i) {
    const Result<PinholeCamera> camera = PinholeCamera::make(bad[i]);
    EXPECT_FALSE(camera.ok()) << "case " << i;
    EXPECT_EQ(camera.status().code(), StatusCode::invalid_argument) << "case " << i;
  }
}

// --- closest hit over shapes ------------------------------------------------------------------------

TEST(ClosestHit, NearestShapeWinsInEitherOrder) {
  const Rayf ray{{0, 0, 0}, {0, 0, 1}};
  const AnyShape near_sphere = Sphere<float>{{0, 0, 5}, 1};
  const AnyShape far_box = Aabb<float>{{-1, -1, 9}, {1, 1, 11}};

  const std::vector<AnyShape> near_first{near_sphere, far_box};
  const ClosestHit a = closest_hit(near_first, ray);
  EXPECT_EQ(a.shape, 0u);
  EXPECT_NEAR(a.hit.t, 4.0f, 1e-6f);

  const std::vector<AnyShape> far_first{far_box, near_sphere};
  const ClosestHit b = closest_hit(far_first, ray);
  EXPECT_EQ(b.shape, 1u);
  EXPECT_NEAR(b.hit.t, 4.0f, 1e-6f);
}

TEST(ClosestHit, NothingBeyondTheRaysTmax) {
  const std::vector<AnyShape> shapes{Sphere<float>{{0, 0, 5}, 1}};
  EXPECT_FALSE(closest_hit(shapes, {{0, 0, 0}, {0, 0, 1}, 0, 3.5f}).hit);
  EXPECT_EQ(closest_hit(shapes, {{0, 0, 0}, {0, 0, 1}, 0, 3.5f}).shape, ClosestHit::kNoShape);
  EXPECT_TRUE(closest_hit(shapes, {{0, 0, 0}, {0, 0, 1}, 0, 4.5f}).hit);
}

TEST(ClosestHit, EmptyListIsAMiss) {
  const ClosestHit closest = closest_hit({}, Rayf{});
  EXPECT_FALSE(closest.hit);
  EXPECT_EQ(closest.shape, ClosestHit::kNoShape);
}

TEST(AnyShape, EveryKindHasItsOwnName) {
  const Result<DemoScene> scene = make_demo_scene();
  ASSERT_TRUE(scene.ok()) << scene.status().message();
  std::set<std::string> names;
  for (const AnyShape& shape : scene.value().shapes) names.insert(shape_kind_name(shape));
  EXPECT_EQ(names.size(), kShapeKindCount);
}

// --- the demo scene's picture -----------------------------------------------------------------------

class DemoRender : public ::testing::Test {
 protected:
  static constexpr int kWidth = 64;
  static constexpr int kHeight = 36;

  void SetUp() override {
    Result<DemoScene> made = make_demo_scene();
    ASSERT_TRUE(made.ok()) << made.status().message();
    scene_ = std::move(made).value();
    CameraDef def = scene_.camera;
    def.width = kWidth;
    def.height = kHeight;
    camera_ = make_camera(def);
  }

  // Index of the first shape of kind S: the demo scene's showcase shape of that kind.
  template <class S>
  std::size_t first_of_kind() const {
    for (std::size_t i = 0; i < scene_.shapes.size(); ++i) {
      if (std::holds_alternative<S>(scene_.shapes[i])) return i;
    }
    ADD_FAILURE() << "demo scene has no shape of the kind asked for";
    return 0;
  }
  template <class S>
  const S& showcase() const { return std::get<S>(scene_.shapes[first_of_kind<S>()]); }

  // The pixel whose ray points most nearly at `target`, found by trying every pixel, so the test
  // does not rely on a projection formula of its own.
  std::pair<int, int> pixel_looking_at(Vec3f target) const {
    std::pair<int, int> best{0, 0};
    float best_cos = -2;
    for (int y = 0; y < kHeight; ++y) {
      for (int x = 0; x < kWidth; ++x) {
        const float c = dot(camera_.ray_through_pixel(x, y).dir, normalize(target - camera_.position()));
        if (c > best_cos) best = {x, y}, best_cos = c;
      }
    }
    return best;
  }

  DemoScene scene_;
  PinholeCamera camera_;
};

TEST_F(DemoRender, SceneHoldsEveryShapeKind) {
  std::set<std::size_t> kinds;
  for (const AnyShape& shape : scene_.shapes) kinds.insert(shape.index());
  EXPECT_EQ(kinds.size(), kShapeKindCount);
  for (std::size_t kind = 0; kind < kShapeKindCount; ++kind) {
    EXPECT_EQ(scene_.shapes[kind].index(), kind) << "the showcase shapes come first, in AnyShape's order";
  }
}

TEST_F(DemoRender, SmallRenderHitsMostPixels) {
  const NormalRender render = render_normals(scene_.shapes, camera_);
  EXPECT_EQ(render.image.width(), kWidth);
  EXPECT_EQ(render.image.height(), kHeight);
  EXPECT_EQ(render.rays, std::size_t{kWidth * kHeight});
  EXPECT_GT(render.hits, render.rays * 2 / 3);
  EXPECT_LT(render.hits, render.rays) << "the sky shows above the horizon";
  EXPECT_GE(render.trace_seconds, 0.0);
}

TEST_F(DemoRender, PixelAtTheSphereCentreSeesTheSphereFacingTheCamera) {
  const Sphere<float>& sphere = showcase<Sphere<float>>();
  const auto [x, y] = pixel_looking_at(sphere.center);
  const Rayf ray = camera_.ray_through_pixel(x, y);
  const ClosestHit closest = closest_hit(scene_.shapes, ray);
  ASSERT_TRUE(closest.hit);
  EXPECT_EQ(closest.shape, first_of_kind<Sphere<float>>());

  // Independently, in double: the near root of |o + t d - c| = r for unit d.
  const Vec3d o = vec3_cast<double>(ray.origin), d = vec3_cast<double>(ray.dir);
  const Vec3d c = vec3_cast<double>(sphere.center);
  const double b = dot(d, c - o);
  const double t = b - std::sqrt(b * b - (length_squared(c - o) - square(double{sphere.radius})));
  const Vec3d normal = (o + d * t - c) / double{sphere.radius};
  EXPECT_NEAR(closest.hit.t, t, 1e-4 * t);
  expect_near(closest.hit.normal, vec3_cast<float>(normal), 1e-4f);
  // Looking at the centre, the normal points back at the camera, up to the pixel's angular size.
  EXPECT_GT(dot(closest.hit.normal, normalize(camera_.position() - sphere.center)), 0.99f);

  const NormalRender render = render_normals(scene_.shapes, camera_);
  const io::Rgb8 expected = normal_colour(vec3_cast<float>(normal));
  const io::Rgb8 actual = render.image.at(x, y);
  EXPECT_NEAR(actual.r, expected.r, 1);
  EXPECT_NEAR(actual.g, expected.g, 1);
  EXPECT_NEAR(actual.b, expected.b, 1);
}

TEST_F(DemoRender, PixelAtTheBoxFrontFaceSeesItsOutwardNormal) {
  const Aabb<float>& box = showcase<Aabb<float>>();
  const Vec3f face_centre{box.center().x, box.center().y, box.max.z};
  const auto [x, y] = pixel_looking_at(face_centre);
  const ClosestHit closest = closest_hit(scene_.shapes, camera_.ray_through_pixel(x, y));
  ASSERT_TRUE(closest.hit);
  EXPECT_EQ(closest.shape, first_of_kind<Aabb<float>>());
  EXPECT_EQ(closest.hit.normal, (Vec3f{0, 0, 1}));
  EXPECT_NEAR(closest.hit.point.z, box.max.z, 1e-5f);
  EXPECT_EQ(render_normals(scene_.shapes, camera_).image.at(x, y), (io::Rgb8{128, 128, 255}));
}

TEST_F(DemoRender, PixelAtTheTriangleCentroidSeesTheTriangle) {
  const Triangle<float>& triangle = showcase<Triangle<float>>();
  const Vec3f centroid = (triangle.v0 + triangle.v1 + triangle.v2) / 3.0f;
  const auto [x, y] = pixel_looking_at(centroid);
  const ClosestHit closest = closest_hit(scene_.shapes, camera_.ray_through_pixel(x, y));
  ASSERT_TRUE(closest.hit);
  EXPECT_EQ(closest.shape, first_of_kind<Triangle<float>>());
  EXPECT_FALSE(closest.hit.back_face());
  expect_near(closest.hit.normal, normalize(cross(triangle.v1 - triangle.v0, triangle.v2 - triangle.v0)), 1e-5f);
  const float u = closest.hit.u, v = closest.hit.v;
  expect_near(closest.hit.point, triangle.v0 * (1 - u - v) + triangle.v1 * u + triangle.v2 * v, 1e-4f);
}

TEST_F(DemoRender, PixelAtOpenGroundSeesThePlane) {
  const Plane<float>& ground = showcase<Plane<float>>();
  const auto [x, y] = pixel_looking_at({0, 0, 5.5f});
  const Rayf ray = camera_.ray_through_pixel(x, y);
  const ClosestHit closest = closest_hit(scene_.shapes, ray);
  ASSERT_TRUE(closest.hit);
  EXPECT_EQ(closest.shape, first_of_kind<Plane<float>>());
  EXPECT_EQ(closest.hit.normal, ground.normal);
  const float t = (ground.offset - dot(ground.normal, ray.origin)) / dot(ground.normal, ray.dir);
  EXPECT_NEAR(closest.hit.t, t, 1e-5f * t);
  EXPECT_EQ(render_normals(scene_.shapes, camera_).image.at(x, y), (io::Rgb8{128, 255, 128}));
}

TEST_F(DemoRender, TopCornersAreSky) {
  const NormalRender render = render_normals(scene_.shapes, camera_);
  for (const int x : {0, kWidth - 1}) {
    EXPECT_FALSE(closest_hit(scene_.shapes, camera_.ray_through_pixel(x, 0)).hit);
    EXPECT_EQ(render.image.at(x, 0), background_colour(0, kHeight));
  }
}

TEST(NormalColour, MapsEachAxisToItsChannel) {
  EXPECT_EQ(normal_colour({1, 0, 0}), (io::Rgb8{255, 128, 128}));
  EXPECT_EQ(normal_colour({0, -1, 0}), (io::Rgb8{128, 0, 128}));
  EXPECT_EQ(normal_colour({0, 0, 1}), (io::Rgb8{128, 128, 255}));
}

TEST(NormalRender, BackFaceShowsTheColourOfTheSideFacingTheCamera) {
  // A triangle whose front faces away from the camera (its normal is -z, the camera looks down -z).
  const std::vector<AnyShape> shapes{Triangle<float>{{-5, -5, -3}, {0, 5, -3}, {5, -5, -3}}};
  const PinholeCamera camera = make_camera({{0, 0, 0}, {0, 0, -1}, {0, 1, 0}, radians(30), 3, 3});
  ASSERT_TRUE(closest_hit(shapes, camera.ray_through_pixel(1, 1)).hit.back_face());
  EXPECT_EQ(render_normals(shapes, camera).image.at(1, 1), (io::Rgb8{128, 128, 255}));
}

// --- the command line -------------------------------------------------------------------------------

using test::ScratchDirectory;
using test::CommandRun;
using test::run;

TEST(RenderCommand, WritesThePngIntoANewDirectoryAndPrintsOneSummaryLine) {
  const ScratchDirectory directory;
  const std::string path = directory.file("new/sub/demo.png");
  const CommandRun result = run({"render", "-o", path, "--width", "32", "--height", "18"});

  ASSERT_EQ(result.exit_code, kExitSuccess) << result.err;
  EXPECT_EQ(result.err, "");
  // render: 32x18, 576 rays, <shapes> shapes, <digits>.<digit> Mrays/s, <path>
  const std::string head =
      "render: 32x18, 576 rays, " + std::to_string(make_demo_scene().value().shapes.size()) + " shapes, ";
  const std::string tail = " Mrays/s, " + path + "\n";
  ASSERT_GT(result.out.size(), head.size() + tail.size()) << result.out;
  EXPECT_EQ(result.out.substr(0, head.size()), head) << result.out;
  EXPECT_EQ(result.out.substr(result.out.size() - tail.size()), tail) << result.out;
  const std::string speed = result.out.substr(head.size(), result.out.size() - head.size() - tail.size());
  const std::size_t point = speed.find('.');
  EXPECT_TRUE(point != std::string::npos && point > 0 && point + 2 == speed.size() &&
              speed.find_first_not_of("0123456789.") == std::string::npos && speed.rfind('.') == point)
      << "speed '" << speed << "'";

  std::ifstream png(path, std::ios::binary);
  ASSERT_TRUE(png.good());
  char signature[8] = {};
  png.read(signature, sizeof signature);
  EXPECT_EQ(std::string(signature, sizeof signature), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(RenderCommand, OutputDirectoryThatCannotBeMadeFailsWithExitCodeOne) {
  const ScratchDirectory directory;
  const std::string blocker = directory.file("a_file");
  std::ofstream(blocker) << "in the way";
  const CommandRun result = run({"render", "-o", blocker + "/demo.png", "--width", "8", "--height", "8"});
  EXPECT_EQ(result.exit_code, kExitFailure);
  EXPECT_NE(result.err.find(blocker), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");
}

TEST(RenderCommand, OutputPathThatIsADirectoryFailsWithExitCodeOne) {
  const ScratchDirectory directory;
  const std::string path = directory.file("dir.png");
  fs::create_directory(path);
  const CommandRun result = run({"render", "-o", path, "--width", "8", "--height", "8"});
  EXPECT_EQ(result.exit_code, kExitFailure);
  EXPECT_NE(result.err.find(path), std::string::npos) << result.err;
}

TEST(RenderCommand, BadArgumentsExitWithCodeTwoAndWriteNothing) {
  const ScratchDirectory directory;
  const std::string path = directory.file("never.png");
  const std::vector<std::vector<std::string>> bad_command_lines{
      {},
      {"frobnicate"},
      {"render", "-o", path, "--width", "0"},
      {"render", "-o", path, "--height", "-5"},
      {"render", "-o", path, "--width", "wide"},
      {"render", "-o", path, "--width", "100000"},
      {"render", "-o", path, "--bogus"},
      {"render", "-o"},
  };
  for (const std::vector<std::string>& args : bad_command_lines) {
    const CommandRun result = run(args);
    EXPECT_EQ(result.exit_code, kExitUsage) << ::testing::PrintToString(args);
    EXPECT_NE(result.err, "") << ::testing::PrintToString(args);
  }
  EXPECT_FALSE(fs::exists(path));
}

// stb_image's pixels, freed with the reader.
struct DecodedImage {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;
};

DecodedImage decode(const std::string& path) {
  DecodedImage image;
  int channels = 0;
  stbi_uc* pixels = stbi_load(path.c_str(), &image.width, &image.height, &channels, 3);
  if (pixels == nullptr) {
    ADD_FAILURE() << path << ": " << stbi_failure_reason();
    return {};
  }
  image.rgb.assign(pixels, pixels + std::size_t{3} * image.width * image.height);
  stbi_image_free(pixels);
  return image;
}

TEST(RenderCommand, JpegExtensionsWriteAJpegThatDecodesCloseToThePng) {
  const ScratchDirectory directory;
  const std::string png = directory.file("demo.png");
  // Large enough that most pixels lie in smooth shading rather than on edges, where JPEG's
  // blocks and halved colour resolution err the most.
  ASSERT_EQ(run({"render", "-o", png, "--width", "320", "--height", "240"}).exit_code, kExitSuccess);
  const DecodedImage reference = decode(png);
  ASSERT_EQ(reference.rgb.size(), std::size_t{320} * 240 * 3);
  for (const char* name : {"demo.jpg", "demo.jpeg", "DEMO.JPG"}) {
    const std::string jpeg = directory.file(name);
    const CommandRun result = run({"render", "-o", jpeg, "--width", "320", "--height", "240"});
    ASSERT_EQ(result.exit_code, kExitSuccess) << result.err;
    EXPECT_TRUE(result.out.ends_with(", " + jpeg + "\n")) << result.out;
    EXPECT_EQ(test::read_file(jpeg).substr(0, 3), "\xFF\xD8\xFF") << name << " starts as a JPEG does";
    const DecodedImage decoded = decode(jpeg);
    ASSERT_EQ(decoded.width, 320);
    ASSERT_EQ(decoded.height, 240);
    // Quality 90: about 3 levels of error on average here (11 at 64 x 48, nearly all edges).
    double error = 0;
    for (std::size_t i = 0; i < decoded.rgb.size(); ++i) error += std::abs(decoded.rgb[i] - reference.rgb[i]);
    EXPECT_LT(error / static_cast<double>(decoded.rgb.size()), 5.0) << name;
  }
}

TEST(RenderCommand, OtherImageExtensionsAreRefusedBeforeRenderingWithTheSupportedOnes) {
  const ScratchDirectory directory;
  // In a directory that does not exist yet: a refused name creates nothing.
  for (const std::string& path :
       {directory.file("new/demo.bmp"), directory.file("new/demo.PNG.txt"), directory.file("new/demo")}) {
    const CommandRun result = run({"render", "-o", path, "--width", "8", "--height", "8"});
    EXPECT_EQ(result.exit_code, kExitUsage) << path;
    const std::string extension = fs::path(path).extension().string();
    const std::string reason =
        extension.empty() ? "no image extension" : "unsupported image extension '" + extension + "'";
    EXPECT_EQ(result.err, "hitscan render: cannot write '" + path + "': " + reason + " (supported: .png, .jpg, .jpeg)\n");
    EXPECT_EQ(result.out, "");
  }
  EXPECT_FALSE(fs::exists(directory.file("new")));
}

TEST(RenderCommand, HelpExitsWithCodeZero) {
  const CommandRun top = run({"--help"});
  EXPECT_EQ(top.exit_code, kExitSuccess);
  EXPECT_NE(top.out.find("render"), std::string::npos) << top.out;

  const CommandRun render = run({"render", "--help"});
  EXPECT_EQ(render.exit_code, kExitSuccess);
  EXPECT_NE(render.out.find("--width"), std::string::npos) << render.out;
  EXPECT_NE(render.out.find("out/demo.png"), std::string::npos) << render.out;
}

}  // namespace
}  // namespace hitscan::tools
