// How the C API reports failures: std::bad_alloc becomes HS_OUT_OF_MEMORY, the error callback
// sees every failure on the failing thread, hs_last_error belongs to the calling thread; and the
// documented defaults and status names.

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "capi/capi_test_support.hpp"

namespace hitscan::test {
namespace {

// Under AddressSanitizer an impossible allocation aborts instead of throwing std::bad_alloc.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

TEST(CApiErrors, OutOfMemoryIsAStatusNotAnException) {
  if (kAddressSanitizer) GTEST_SKIP() << "AddressSanitizer aborts on an allocation this size instead of failing it";
  // A vertex count the checks let through (its array could exist) but no allocator can satisfy:
  // the copy of the positions fails with std::bad_alloc before anything is read.
  const std::size_t vertices = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) / 12;
  const std::uint32_t triangle[] = {0, 1, 2};
  hs_mesh* mesh = nullptr;
  expect_failure(hs_mesh_create(kSquarePositions, vertices, triangle, 1, &mesh), HS_OUT_OF_MEMORY, "hs_mesh_create",
                 "out of memory");
  EXPECT_EQ(mesh, nullptr);
}

struct Recorded {
  int calls = 0;
  hs_status status = HS_OK;
  std::string message;
  bool message_was_last_error = false;
};

void record(hs_status status, const char* message, void* user) {
  Recorded& r = *static_cast<Recorded*>(user);
  ++r.calls;
  r.status = status;
  r.message = message;
  r.message_was_last_error = std::strcmp(message, hs_last_error()) == 0;
}

TEST(CApiErrors, TheCallbackSeesEveryFailureWithItsMessage) {
  SmallScene s;
  Recorded recorded;
  hs_set_error_callback(record, &recorded);
  EXPECT_EQ(hs_scene_remove(s.scene, 99), HS_NOT_FOUND);
  EXPECT_EQ(recorded.calls, 1);
  EXPECT_EQ(recorded.status, HS_NOT_FOUND);
  EXPECT_EQ(recorded.message, "hs_scene_remove: collider 99 does not exist (removed, or never added)");
  EXPECT_TRUE(recorded.message_was_last_error);
  hs_mesh* mesh = nullptr;
  EXPECT_EQ(hs_mesh_create(kSquarePositions, 3, kSquareIndices, 2, &mesh), HS_OUT_OF_RANGE);
  EXPECT_EQ(recorded.calls, 2);
  EXPECT_EQ(recorded.status, HS_OUT_OF_RANGE);
  // Successes do not call it; a null callback removes it.
  const hs_ray ray = ray_from(0, 0, -5, 0, 0, 1);
  hs_hit hit;
  EXPECT_EQ(hs_raycast(s.scene, &ray, nullptr, &hit), HS_OK);
  EXPECT_EQ(recorded.calls, 2);
  hs_set_error_callback(nullptr, nullptr);
  EXPECT_EQ(hs_scene_remove(s.scene, 99), HS_NOT_FOUND);
  EXPECT_EQ(recorded.calls, 2);
}

TEST(CApiErrors, TheCallbackRunsOnTheFailingThread) {
  Recorded recorded;
  std::thread::id seen;
  static std::thread::id* seen_thread = nullptr;
  seen_thread = &seen;
  hs_set_error_callback([](hs_status, const char*, void*) { *seen_thread = std::this_thread::get_id(); }, &recorded);
  std::thread::id failing;
  std::thread([&] {
    failing = std::this_thread::get_id();
    EXPECT_EQ(hs_scene_commit(nullptr), HS_INVALID_ARGUMENT);
  }).join();
  hs_set_error_callback(nullptr, nullptr);
  EXPECT_EQ(seen, failing);
}

TEST(CApiErrors, TheLastErrorBelongsToTheCallingThread) {
  EXPECT_EQ(hs_scene_commit(nullptr), HS_INVALID_ARGUMENT);
  const std::string mine = last_error();
  EXPECT_EQ(mine, "hs_scene_commit: scene is null");
  std::string other_before, other_after;
  std::thread([&] {
    other_before = last_error();  // a new thread has had no failure
    EXPECT_EQ(hs_scene_remove(nullptr, 1), HS_INVALID_ARGUMENT);
    other_after = last_error();
  }).join();
  EXPECT_EQ(other_before, "");
  EXPECT_EQ(other_after, "hs_scene_remove: scene is null");
  EXPECT_EQ(last_error(), mine);  // untouched by the other thread's failure
  // Many threads failing at once each read their own message.
  std::vector<std::thread> threads;
  std::vector<int> right(8, 0);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      hs_scene* scene = nullptr;
      EXPECT_EQ(hs_scene_create(&scene), HS_OK);
      for (int k = 0; k < 200; ++k) {
        const std::uint32_t id = static_cast<std::uint32_t>(1000 * t + k);
        EXPECT_EQ(hs_scene_set_layer(scene, id, 0), HS_NOT_FOUND);
        right[t] += last_error() == "hs_scene_set_layer: collider " + std::to_string(id) +
                                        " does not exist (removed, or never added)";
      }
      hs_scene_destroy(scene);
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(right[t], 200) << "thread " << t;
}

TEST(CApiDefaults, DefaultsAndNamesAreThoseDocumented) {
  const hs_hit miss = hs_hit_default();
  EXPECT_EQ(miss.hit, 0);
  EXPECT_TRUE(std::isinf(miss.distance));
  EXPECT_EQ(miss.collider, HS_NO_COLLIDER);
  EXPECT_EQ(miss.primitive, HS_NO_PRIMITIVE);
  EXPECT_EQ(miss.depth, 0.0f);
  const hs_overlap_hit nothing = hs_overlap_hit_default();
  EXPECT_EQ(nothing.collider, HS_NO_COLLIDER);
  EXPECT_EQ(nothing.primitive, HS_NO_PRIMITIVE);
  EXPECT_EQ(nothing.user_id, 0u);
  EXPECT_EQ(nothing.has_contact, 0);
  EXPECT_EQ(nothing.contact.depth, 0.0f);
  EXPECT_EQ(nothing.contact.normal.z, 0.0f);
  const hs_query_options o = hs_query_options_default();
  EXPECT_EQ(o.layer_mask, HS_ALL_LAYERS);
  EXPECT_TRUE(std::isinf(o.max_distance));
  EXPECT_EQ(o.faces, HS_FACES_BOTH);
  EXPECT_EQ(o.solid, 1);
  EXPECT_EQ(o.contacts, 0);
  EXPECT_EQ(o.filter, nullptr);
  const hs_shape capsule = hs_shape_default(HS_SHAPE_CAPSULE);
  EXPECT_EQ(capsule.type, HS_SHAPE_CAPSULE);
  EXPECT_EQ(capsule.data.capsule.a.z, -1.0f);
  EXPECT_EQ(capsule.data.capsule.b.z, 1.0f);
  EXPECT_EQ(capsule.data.capsule.radius, 1.0f);
  const hs_shape plane = hs_shape_default(HS_SHAPE_PLANE);
  EXPECT_EQ(plane.data.plane.normal.z, 1.0f);
  EXPECT_EQ(plane.data.plane.offset, 0.0f);
  const hs_transform t = hs_transform_default();
  EXPECT_EQ(t.rotation.w, 1.0f);
  EXPECT_EQ(t.scale.y, 1.0f);
  const hs_ray r = hs_ray_default();
  EXPECT_EQ(r.direction.z, 1.0f);
  EXPECT_TRUE(std::isinf(r.max_distance));
  const hs_sphere_sweep sphere_sweep = hs_sphere_sweep_default();
  EXPECT_EQ(sphere_sweep.sphere.radius, 1.0f);
  EXPECT_EQ(sphere_sweep.sphere.center.z, 0.0f);
  EXPECT_EQ(sphere_sweep.direction.z, 1.0f);
  EXPECT_TRUE(std::isinf(sphere_sweep.max_distance));
  const hs_capsule_sweep capsule_sweep = hs_capsule_sweep_default();
  EXPECT_EQ(capsule_sweep.capsule.a.z, -1.0f);
  EXPECT_EQ(capsule_sweep.capsule.b.z, 1.0f);
  EXPECT_EQ(capsule_sweep.capsule.radius, 1.0f);
  EXPECT_EQ(capsule_sweep.direction.z, 1.0f);
  EXPECT_TRUE(std::isinf(capsule_sweep.max_distance));
  const std::pair<hs_status, const char*> names[] = {
      {HS_OK, "HS_OK"}, {HS_INVALID_ARGUMENT, "HS_INVALID_ARGUMENT"}, {HS_DEGENERATE, "HS_DEGENERATE"},
      {HS_NOT_FOUND, "HS_NOT_FOUND"}, {HS_OUT_OF_RANGE, "HS_OUT_OF_RANGE"}, {HS_OUT_OF_MEMORY, "HS_OUT_OF_MEMORY"},
      {HS_INTERNAL, "HS_INTERNAL"}};
  for (const auto& [status, name] : names) EXPECT_STREQ(hs_status_name(status), name);
}

}  // namespace
}  // namespace hitscan::test
