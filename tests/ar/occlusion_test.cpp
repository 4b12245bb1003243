// Depth occlusion against hand-checked scenes: a wall in front of half the view, a tilted wall
// whose depth is the analytic plane depth per pixel (in double), caller depth arrays, the full map
// on all cores against the per-pixel rule, and bad input.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "ar/ar_test_scenes.hpp"
#include "hitscan/ar/occlusion.hpp"

namespace hitscan {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

void add(Scene& scene, ColliderShape shape) { ASSERT_TRUE(scene.add(ColliderDesc{std::move(shape)}).ok()); }

/// A back wall at z = -10 and a box whose front face, the plane z = -2, covers x >= 0 of the view
/// of a camera at the origin looking along -z.
Scene wall_scene() {
  Scene scene;
  add(scene, Planef{{0, 0, 1}, -10.0f});
  add(scene, Obbf{{2.5f, 0.0f, -2.1f}, {2.5f, 5.0f, 0.1f}, Mat3f{}});
  scene.commit();
  return scene;
}

PinholeIntrinsics small_intrinsics() { return {50, 50, 32, 24, 64, 48}; }
PinholeIntrinsics vga_intrinsics() { return {500, 500, 320, 240, 640, 480}; }

// At the origin, looking along -z.
PinholeCamera camera_of(const PinholeIntrinsics& k, const Quatf& rotation = {}, Vec3f position = {}) {
  return PinholeCamera::make(k, rotation, position).value();
}
PinholeCamera small_camera() { return camera_of(small_intrinsics()); }

TEST(RenderDepth, AWallInFrontOfHalfTheViewHidesExactlyThePixelsBehindIt) {
  const Scene scene = wall_scene();
  DepthMap map;
  ASSERT_TRUE(render_depth(scene, small_camera(), map).ok());
  ASSERT_EQ(map.width, 64);
  ASSERT_EQ(map.height, 48);
  ASSERT_EQ(map.depth.size(), 64u * 48u);
  // Pixel centres at x = i + 0.5 - 32: columns 32 and up look at the wall (depth 2), the rest at
  // the back wall (depth 10), whatever the row.
  for (int j = 0; j < 48; ++j) {
    for (int i = 0; i < 64; ++i) {
      const float expected = i >= 32 ? 2.0f : 10.0f;
      ASSERT_NEAR(map.depth[j * 64 + i], expected, 1e-5f * expected) << i << ", " << j;
    }
  }
  const DepthMapView real = DepthMapView::of(map).value();
  // Virtual content at depth 3 over columns 28..35, rows 20..27: behind the wall only from column 32.
  std::vector<PixelDepth> covered;
  for (int j = 20; j < 28; ++j) {
    for (int i = 28; i < 36; ++i) covered.push_back({i, j, 3.0f});
  }
  std::vector<std::uint8_t> mask(covered.size(), 7);
  ASSERT_TRUE(occlusion_mask(real, covered, mask).ok());
  for (std::size_t k = 0; k < covered.size(); ++k) EXPECT_EQ(mask[k], covered[k].i >= 32 ? 1 : 0) << k;
  // Content resting on the wall is not hidden by it within the bias; content behind it is.
  EXPECT_FALSE(hidden(real, 40, 24, 2.05f, 0.1f));
  EXPECT_TRUE(hidden(real, 40, 24, 2.2f, 0.1f));
  EXPECT_TRUE(hidden(real, 10, 24, 11.0f));
  EXPECT_FALSE(hidden(real, 10, 24, 9.0f));
  EXPECT_FALSE(hidden(real, -1, 24, 11.0f));  // outside the image
  EXPECT_FALSE(hidden(real, 64, 24, 11.0f));
  EXPECT_FALSE(hidden(real, 10, 24, kNaN));
  EXPECT_FALSE(hidden(real, 10, 24, kInf));
}

TEST(RenderDepth, ATiltedWallSeenFromAMovedCameraHasTheAnalyticPlaneDepthPerPixel) {
  const Quatf box_rotation = Quatf::from_axis_angle({0, 1, 0}, 0.45f);
  const Vec3f box_center{0.8f, 1.2f, -3.5f}, box_half{2.0f, 1.5f, 0.1f};
  Scene scene;
  add(scene, Planef{{0, 0, 1}, -10.0f});
  add(scene, Obbf::from_quat(box_center, box_half, box_rotation));
  scene.commit();
  const Quatf camera_rotation = Quatf::from_axis_angle({0, 1, 0}, 0.2f) * Quatf::from_axis_angle({1, 0, 0}, -0.1f);
  const Vec3f camera_position{0.3f, 1.5f, 0.5f};
  const PinholeCamera camera = camera_of(vga_intrinsics(), camera_rotation, camera_position);
  const PinholeIntrinsics& k = camera.intrinsics();
  DepthMap map;
  ASSERT_TRUE(render_depth(scene, camera, map).ok());

  // The reference in double: the ray o + s R d with d = (x, y, -1) has depth s.
  const Quatd rotation{camera_rotation.w, camera_rotation.x, camera_rotation.y, camera_rotation.z};
  const Quatd box_q{box_rotation.w, box_rotation.x, box_rotation.y, box_rotation.z};
  const Vec3d o = vec3_cast<double>(camera_position), c = vec3_cast<double>(box_center);
  const Vec3d n = box_q.rotate({0, 0, 1});  // the face towards the camera
  const double face_offset = dot(n, c) + box_half.z;
  int on_wall = 0, on_back = 0;
  for (int j = 0; j < k.height; ++j) {
    for (int i = 0; i < k.width; ++i) {
      const Vec3d d{(i + 0.5 - k.cx) / k.fx, -(j + 0.5 - k.cy) / k.fy, -1.0};
      const Vec3d w = rotation.rotate(d);
      const double s_face = (face_offset - dot(n, o)) / dot(n, w);
      const Vec3d local = box_q.inverse_rotate(o + w * s_face - c);
      const double margin_x = std::abs(local.x) - box_half.x, margin_y = std::abs(local.y) - box_half.y;
      double expected;
      if (margin_x < -0.05 && margin_y < -0.05) {
        expected = s_face, ++on_wall;
      } else if (margin_x > 0.3 || margin_y > 0.3) {
        expected = (-10.0 - o.z) / w.z, ++on_back;
      } else {
        continue;  // near the box's rim, where its sides may be hit
      }
      ASSERT_NEAR(map.depth[j * k.width + i], expected, 1e-4 * expected) << i << ", " << j;
    }
  }
  EXPECT_GT(on_wall, 20000);
  EXPECT_GT(on_back, 20000);
}

TEST(RenderDepth, PixelsSeeingNothingOrBeyondTheDistanceLimitAreInfinite) {
  const Scene scene = wall_scene();
  QueryOptions options;
  options.max_distance = 5.0f;  // the back wall is beyond it
  DepthMap map;
  ASSERT_TRUE(render_depth(scene, small_camera(), map, options).ok());
  EXPECT_EQ(map.depth[24 * 64 + 10], kInf);
  EXPECT_NEAR(map.depth[24 * 64 + 40], 2.0f, 1e-5f);
  const PinholeCamera up = camera_of(small_intrinsics(), Quatf::from_axis_angle({1, 0, 0}, 3.14159265f));  // along +z: nothing there
  ASSERT_TRUE(render_depth(scene, up, map).ok());
  for (float d : map.depth) ASSERT_EQ(d, kInf);
}

TEST(RenderDepth, ANoisyChunkedStreetWithHolesIsOneRaycastPerPixelBitForBit) {
  // Reconstruction chunks (noisy height fields with holes) beside analytic shapes, seen at an
  // image size that leaves partial tiles on both edges and spans several batches of rows, on one
  // thread and on two: every pixel is the per-pixel raycast's depth, bit for bit.
  Scene scene;
  for (int k = 0; k < 4; ++k) {
    const double x0 = 4.0 * k;
    add(scene, test::height_field([](double x, double y) { return 0.05 * std::sin(x) * std::cos(2 * y); }, x0, x0 + 4.0,
                                  -3.0, 3.0, 40, 60, 0.01f, unsigned(k + 1),
                                  [](double x, double y) { return std::hypot(x - 6.0, y) < 0.4; }));
  }
  add(scene, Obbf{{9.0f, 1.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, Mat3f{}});
  add(scene, Spheref{{5.0f, -1.0f, 0.4f}, 0.4f});
  scene.commit();
  const Quatf rotation = look_rotation({1.0f, 0.1f, -0.35f}, {0, 0, 1}).value();
  const PinholeCamera camera = camera_of({120, 120, 101.5f, 38.5f, 203, 77}, rotation, {-0.5f, 0.2f, 1.2f});
  SerialExecutor serial;
  ThreadPool two(2);
  for (Executor* executor : {static_cast<Executor*>(&serial), static_cast<Executor*>(&two)}) {
    DepthMap map;
    ASSERT_TRUE(render_depth(scene, camera, map, {}, executor).ok());
    ASSERT_EQ(map.depth.size(), 203u * 77u);
    int finite = 0;
    for (int j = 0; j < 77; ++j) {
      for (int i = 0; i < 203; ++i) {
        const QueryRay ray = camera.ray_through_pixel(float(i) + 0.5f, float(j) + 0.5f);
        const QueryHit hit = scene.raycast(ray);
        const float expected = hit.hit ? hit.distance * dot(ray.direction, camera.forward()) : kInf;
        const float got = map.depth[std::size_t(j) * 203 + std::size_t(i)];
        ASSERT_EQ(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(expected)) << i << ", " << j;
        finite += std::isfinite(got);
      }
    }
    EXPECT_GT(finite, 203 * 77 / 2);
  }
}

TEST(DepthMapView, ACallerArrayInMillimetresWithPaddedRowsReadsAsTheRenderedMap) {
  const Scene scene = wall_scene();
  DepthMap map;
  ASSERT_TRUE(render_depth(scene, small_camera(), map).ok());
  const int stride = 64 + 7;
  std::vector<float> caller(std::size_t(stride) * 48, -123.0f);  // padding holds garbage
  for (int j = 0; j < 48; ++j) {
    for (int i = 0; i < 64; ++i) caller[j * stride + i] = map.depth[j * 64 + i] * 1000.0f;
  }
  caller[5 * stride + 3] = 0.0f;  // missing measurements, as frameworks mark them
  caller[6 * stride + 3] = kNaN;
  const DepthMapView view = DepthMapView::make(caller.data(), caller.size(), 64, 48, stride, 0.001f).value();
  const DepthMapView rendered = DepthMapView::of(map).value();
  for (int j = 0; j < 48; ++j) {
    for (int i = 0; i < 64; ++i) {
      if (i == 3 && (j == 5 || j == 6)) {
        ASSERT_EQ(view.depth(i, j), kInf);
        continue;
      }
      ASSERT_NEAR(view.depth(i, j), rendered.depth(i, j), 1e-6f * rendered.depth(i, j)) << i << ", " << j;
    }
  }
  EXPECT_FALSE(hidden(view, 3, 6, 100.0f));  // NaN reads as no surface
}

TEST(OcclusionMap, AFullVgaMapOnAllCoresEqualsThePerPixelRule) {
  Scene scene;
  add(scene, Planef{{0, 0, 1}, -10.0f});
  add(scene, Obbf{{0.5f, -0.5f, -3.0f}, {1.0f, 1.0f, 1.0f}, Mat3f{}});
  add(scene, Spheref{{-1.0f, 0.5f, -4.0f}, 1.0f});
  scene.commit();
  const PinholeCamera camera = camera_of(vga_intrinsics());
  DepthMap real_map;
  ASSERT_TRUE(render_depth(scene, camera, real_map).ok());
  // Virtual content: random depths in a rectangle, nothing elsewhere.
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> depth(1.0f, 12.0f);
  DepthMap virtual_map{640, 480, std::vector<float>(640 * 480, kInf)};
  for (int j = 100; j < 400; ++j) {
    for (int i = 150; i < 500; ++i) virtual_map.depth[j * 640 + i] = depth(gen);
  }
  std::vector<std::uint8_t> mask(640 * 480, 7);
  ThreadPool pool(2);
  const float bias = 0.02f;
  ASSERT_TRUE(occlusion_map(DepthMapView::of(real_map).value(), DepthMapView::of(virtual_map).value(), mask, bias,
                            &pool).ok());
  std::size_t hidden_count = 0;
  for (std::size_t k = 0; k < mask.size(); ++k) {
    const float r = real_map.depth[k], v = virtual_map.depth[k];
    const bool expected = std::isfinite(v) && r < v - bias;  // the rule, written out
    ASSERT_EQ(mask[k], expected ? 1 : 0) << k;
    hidden_count += expected;
  }
  EXPECT_GT(hidden_count, 10000u);
  EXPECT_LT(hidden_count, 300u * 350u);
}

TEST(DepthMapView, BadSizesStridesAndUnitsAreErrors) {
  const std::vector<float> data(100, 1.0f);
  EXPECT_EQ(DepthMapView::make(nullptr, 100, 10, 10, 10).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(DepthMapView::make(data.data(), 99, 10, 10, 10).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(DepthMapView::make(data.data(), 100, 10, 10, -10).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(DepthMapView::make(data.data(), 100, 10, 10, 9).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(DepthMapView::make(data.data(), 100, 10, 11, 10).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(DepthMapView::make(data.data(), 100, 0, 10, 10).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(DepthMapView::make(data.data(), 100, 10, 10, 10, 0.0f).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(DepthMapView::make(data.data(), 100, 10, 10, 10, kNaN).status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(DepthMapView::make(data.data(), 100, 10, 10, 10, kInf).status().code(), StatusCode::invalid_argument);
  EXPECT_TRUE(DepthMapView::make(data.data(), 95, 5, 10, 10).ok());  // the last row needs only its width
  EXPECT_EQ(DepthMapView::of(DepthMap{10, 10, std::vector<float>(99)}).status().code(), StatusCode::invalid_argument);

  const DepthMapView ten = DepthMapView::make(data.data(), 100, 10, 10, 10).value();
  const DepthMapView five = DepthMapView::make(data.data(), 100, 5, 10, 10).value();
  std::vector<std::uint8_t> mask(100);
  EXPECT_EQ(occlusion_map(ten, five, mask).code(), StatusCode::invalid_argument);
  EXPECT_EQ(occlusion_map(ten, ten, std::span(mask).first(99)).code(), StatusCode::invalid_argument);
  const std::vector<PixelDepth> covered{{1, 1, 2.0f}, {10, 1, 2.0f}};
  std::vector<std::uint8_t> out(2, 7);
  EXPECT_EQ(occlusion_mask(ten, covered, std::span(out).first(1)).code(), StatusCode::invalid_argument);
  EXPECT_EQ(occlusion_mask(ten, covered, out).code(), StatusCode::out_of_range);
  EXPECT_EQ(out[0], 7);  // nothing written

  // A camera render_depth could not use is refused where it is made.
  PinholeIntrinsics k = small_intrinsics();
  k.fx = 0;
  EXPECT_FALSE(PinholeCamera::make(k, {}, {}).ok());
  k = small_intrinsics(), k.width = 0;
  EXPECT_FALSE(PinholeCamera::make(k, {}, {}).ok());
  k = small_intrinsics(), k.cy = kNaN;
  EXPECT_FALSE(PinholeCamera::make(k, {}, {}).ok());
  EXPECT_FALSE(PinholeCamera::make(small_intrinsics(), {}, {kInf, 0, 0}).ok());
}

}  // namespace
}  // namespace hitscan
