// The overlap queries' argument checks: null scene, shape, count or buffer pointers and bad options
// fail with HS_INVALID_ARGUMENT, zero counts and an untouched buffer; query shapes that can touch
// nothing (NaN, infinite, negative sizes, a zero rotation) touch nothing and succeed.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "capi/capi_test_support.hpp"

namespace hitscan::test {
namespace {

// One call of each overlap function on shapes that, valid, touch the box at the origin.
struct OverlapCalls {
  hs_sphere sphere{{0, 0, 0}, 0.5f};
  hs_box box{{0, 0, 0}, {0.5f, 0.5f, 0.5f}, {1, 0, 0, 0}};
  hs_capsule capsule{{0, 0, -0.5f}, {0, 0, 0.5f}, 0.5f};
};

constexpr const char* kFunctions[] = {"hs_overlap_sphere", "hs_overlap_box", "hs_overlap_capsule"};
constexpr const char* kShapeNames[] = {"sphere is null", "box is null", "capsule is null"};

// Calls function `which` (0 sphere, 1 box, 2 capsule), with a null shape when `null_shape`.
hs_status call(int which, const hs_scene* scene, const OverlapCalls& shapes, bool null_shape,
               const hs_query_options* options, hs_overlap_hit* buffer, std::size_t capacity, std::size_t* written,
               std::size_t* total) {
  switch (which) {
    case 0: return hs_overlap_sphere(scene, null_shape ? nullptr : &shapes.sphere, options, buffer, capacity, written, total);
    case 1: return hs_overlap_box(scene, null_shape ? nullptr : &shapes.box, options, buffer, capacity, written, total);
    default:
      return hs_overlap_capsule(scene, null_shape ? nullptr : &shapes.capsule, options, buffer, capacity, written, total);
  }
}

TEST(CApiOverlapErrors, NullPointersFailWithZeroCountsAndAnUntouchedBuffer) {
  HandScene s;
  const OverlapCalls shapes;
  for (int which = 0; which < 3; ++which) {
    const char* f = kFunctions[which];
    hs_overlap_hit buffer[2];
    std::memset(buffer, 0x5A, sizeof buffer);
    const auto untouched = [&] {
      hs_overlap_hit sentinel[2];
      std::memset(sentinel, 0x5A, sizeof sentinel);
      return std::memcmp(buffer, sentinel, sizeof buffer) == 0;
    };
    std::size_t written = 9, total = 9;
    expect_failure(call(which, nullptr, shapes, false, nullptr, buffer, 2, &written, &total), HS_INVALID_ARGUMENT, f,
                   "scene is null");
    EXPECT_EQ(written, 0u);
    EXPECT_EQ(total, 0u);
    written = total = 9;
    expect_failure(call(which, s.scene, shapes, true, nullptr, buffer, 2, &written, &total), HS_INVALID_ARGUMENT, f,
                   kShapeNames[which]);
    EXPECT_EQ(written, 0u);
    EXPECT_EQ(total, 0u);
    total = 9;
    expect_failure(call(which, s.scene, shapes, false, nullptr, buffer, 2, nullptr, &total), HS_INVALID_ARGUMENT, f,
                   "out_written is null");
    EXPECT_EQ(total, 0u);
    written = total = 9;
    expect_failure(call(which, s.scene, shapes, false, nullptr, nullptr, 2, &written, &total), HS_INVALID_ARGUMENT, f,
                   "buffer is null");
    EXPECT_EQ(written, 0u);
    EXPECT_EQ(total, 0u);
    EXPECT_TRUE(untouched());
    // The same call, valid, touches the box.
    ASSERT_EQ(call(which, s.scene, shapes, false, nullptr, buffer, 2, &written, &total), HS_OK) << last_error();
    EXPECT_EQ(total, 1u);
    EXPECT_EQ(buffer[0].collider, s.box);
  }
}

TEST(CApiOverlapErrors, BadOptionsFailWithZeroCountsAndAnUntouchedBuffer) {
  HandScene s;
  const OverlapCalls shapes;
  hs_query_options options = hs_query_options_default();
  const int bad_faces = 7;
  for (int which = 0; which < 3; ++which) {
    hs_overlap_hit buffer[2];
    buffer[0] = hs_overlap_hit_default();
    std::size_t written = 9, total = 9;
    options = hs_query_options_default();
    options.max_distance = kNan;
    expect_failure(call(which, s.scene, shapes, false, &options, buffer, 2, &written, &total), HS_INVALID_ARGUMENT,
                   kFunctions[which], "max_distance");
    EXPECT_EQ(written, 0u);
    EXPECT_EQ(total, 0u);
    EXPECT_EQ(buffer[0].collider, HS_NO_COLLIDER);
    options = hs_query_options_default();
    std::memcpy(&options.faces, &bad_faces, sizeof bad_faces);
    expect_failure(call(which, s.scene, shapes, false, &options, buffer, 2, &written, &total), HS_INVALID_ARGUMENT,
                   kFunctions[which], "faces 7");
    // Overlaps ignore a valid max_distance, however short: the box is still touched.
    options = hs_query_options_default();
    options.max_distance = 0.0f;
    ASSERT_EQ(call(which, s.scene, shapes, false, &options, buffer, 2, &written, &total), HS_OK);
    EXPECT_EQ(total, 1u);
  }
}

TEST(CApiOverlapErrors, NonFiniteOrNegativeQueryShapesTouchNothing) {
  HandScene s;
  std::vector<OverlapCalls> bad(8);
  bad[0].sphere.center.x = kNan;
  bad[1].sphere.radius = kNan;
  bad[2].sphere.radius = -0.5f;
  bad[3].sphere.center.y = kInf;
  bad[0].box.center.z = kNan;
  bad[1].box.half_extents.x = kNan;
  bad[2].box.half_extents.y = -0.5f;
  bad[3].box.rotation = {0, 0, 0, 0};
  bad[4].box.rotation = {kNan, 0, 0, 1};
  bad[5].box.rotation = {kInf, 0, 0, 0};
  bad[6].box.half_extents.z = kInf;
  bad[0].capsule.a.x = kNan;
  bad[1].capsule.radius = kNan;
  bad[2].capsule.radius = -0.5f;
  bad[3].capsule.b.z = -kInf;
  // Shapes of zero size at the box's centre still touch it.
  bad[7].sphere.radius = 0;
  bad[7].box.half_extents = {0, 0, 0};
  bad[7].capsule.radius = 0;
  hs_query_options options = hs_query_options_default();
  options.contacts = 1;
  for (std::size_t k = 0; k < bad.size(); ++k) {
    for (int which = 0; which < 3; ++which) {
      const bool valid = k == 7 || (which == 0 && k >= 4) || (which == 2 && k >= 4);
      hs_overlap_hit buffer[2];
      std::size_t written = 9, total = 9;
      ASSERT_EQ(call(which, s.scene, bad[k], false, &options, buffer, 2, &written, &total), HS_OK) << last_error();
      EXPECT_EQ(total, valid ? 1u : 0u) << kFunctions[which] << ", shape " << k;
      EXPECT_EQ(written, total);
    }
  }
}

}  // namespace
}  // namespace hitscan::test
