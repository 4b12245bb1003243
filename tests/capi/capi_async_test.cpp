// Batches in the background through the C API: hs_raycast_batch_async and
// hs_sphere_cast_batch_async against the synchronous C batches bit for bit, with every option
// pair (a C filter included); polling (a filter that holds the batch back makes "still running" a
// fact); commits after submission; many batches at once; and every argument checked.

#include <gtest/gtest.h>

#include <bit>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "capi/capi_test_support.hpp"
#include "capi/capi_twin_scene.hpp"

namespace hitscan::test {
namespace {

bool same_bits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }
bool same_bits(const hs_vec3& a, const hs_vec3& b) {
  return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z);
}
bool same_bits(const hs_hit& a, const hs_hit& b) {
  return a.hit == b.hit && a.flags == b.flags && a.feature == b.feature && same_bits(a.distance, b.distance) &&
         same_bits(a.point, b.point) && same_bits(a.normal, b.normal) && same_bits(a.face_normal, b.face_normal) &&
         a.collider == b.collider && a.user_id == b.user_id && a.primitive == b.primitive && same_bits(a.u, b.u) &&
         same_bits(a.v, b.v) && same_bits(a.depth, b.depth);
}

std::size_t differences(const std::vector<hs_hit>& a, const std::vector<hs_hit>& b) {
  if (a.size() != b.size()) return std::max(a.size(), b.size());
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += same_bits(a[i], b[i]) ? 0 : 1;
  return n;
}

std::vector<hs_ray> c_rays(std::size_t count, unsigned seed) {
  std::vector<hs_ray> rays;
  for (const QueryRay& r : random_rays(count, seed)) rays.push_back(to_c(r));
  return rays;
}

std::vector<hs_sphere_sweep> c_sweeps(std::size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2), radius(0.1f, 2.0f), unit(-1, 1);
  std::vector<hs_sphere_sweep> sweeps(count);
  for (hs_sphere_sweep& s : sweeps) {
    s = {{{pos(gen), pos(gen), pos(gen)}, radius(gen)}, {unit(gen), unit(gen), unit(gen)}, 20.0f};
  }
  return sweeps;
}

std::vector<hs_hit> sync_rays(const hs_scene* scene, const std::vector<hs_ray>& rays,
                              const hs_query_options* options = nullptr) {
  std::vector<hs_hit> hits(rays.size());
  EXPECT_EQ(hs_raycast_batch(scene, rays.data(), rays.size(), options, hits.data()), HS_OK) << last_error();
  return hits;
}

// Waits for the batch, takes its hits and destroys it.
std::vector<hs_hit> collect(hs_batch* batch, std::size_t count) {
  std::vector<hs_hit> hits(count);
  EXPECT_EQ(hs_batch_wait(batch, hits.data(), hits.size()), HS_OK) << last_error();
  hs_batch_destroy(batch);
  return hits;
}

TEST(CApiAsyncBatch, RaysAndSweepsEqualTheSynchronousBatchesBitForBit) {
  TwinScene twin(300, 81, true);
  FilterCheck check;
  for (const SceneEntry& e : twin.entries) check.colliders[e.id] = {e.desc.user_id, e.desc.layer};
  const std::vector<hs_ray> rays = c_rays(2000, 82);
  const std::vector<hs_sphere_sweep> sweeps = c_sweeps(400, 83);
  for (const auto& [options, cpp_options] : option_pairs(check)) {
    hs_batch* ray_batch = nullptr;
    hs_batch* sweep_batch = nullptr;
    ASSERT_EQ(hs_raycast_batch_async(twin.c, rays.data(), rays.size(), &options, &ray_batch), HS_OK);
    ASSERT_EQ(hs_sphere_cast_batch_async(twin.c, sweeps.data(), sweeps.size(), &options, &sweep_batch), HS_OK);
    std::vector<hs_hit> expected_sweeps(sweeps.size());
    ASSERT_EQ(hs_sphere_cast_batch(twin.c, sweeps.data(), sweeps.size(), &options, expected_sweeps.data()), HS_OK);
    EXPECT_EQ(differences(collect(sweep_batch, sweeps.size()), expected_sweeps), 0u);
    // Waited for twice: the hits stay with the batch.
    std::vector<hs_hit> first(rays.size()), second(rays.size());
    ASSERT_EQ(hs_batch_wait(ray_batch, first.data(), first.size()), HS_OK);
    ASSERT_EQ(hs_batch_wait(ray_batch, second.data(), second.size()), HS_OK);
    hs_batch_destroy(ray_batch);
    const std::vector<hs_hit> expected = sync_rays(twin.c, rays, &options);
    EXPECT_EQ(differences(first, expected), 0u);
    EXPECT_EQ(differences(second, expected), 0u);
  }
  EXPECT_EQ(check.wrong_arguments, 0);
}

// A C filter that holds every query back until open() and then accepts everything.
struct Gate {
  std::mutex mutex;
  std::condition_variable opened;
  bool open_ = false;
  void open() {
    std::lock_guard lock(mutex);
    open_ = true;
    opened.notify_all();
  }
};
int wait_for_gate(std::uint32_t, std::uint64_t, std::uint32_t, void* context) {
  Gate& gate = *static_cast<Gate*>(context);
  std::unique_lock lock(gate.mutex);
  gate.opened.wait(lock, [&] { return gate.open_; });
  return 1;
}

TEST(CApiAsyncBatch, PollIsZeroWhileTheBatchIsHeldBackThenOne) {
  SmallScene s;
  Gate gate;
  hs_query_options options = hs_query_options_default();
  options.filter = wait_for_gate;
  options.filter_context = &gate;
  const hs_ray rays[2] = {ray_from(0, 0, -5, 0, 0, 1), ray_from(0.5f, 0.5f, 10, 0, 0, -1)};
  hs_batch* batch = nullptr;
  ASSERT_EQ(hs_raycast_batch_async(s.scene, rays, 2, &options, &batch), HS_OK);
  int ready = -1;
  ASSERT_EQ(hs_batch_poll(batch, &ready), HS_OK);
  EXPECT_EQ(ready, 0);
  gate.open();
  hs_hit hits[2];
  ASSERT_EQ(hs_batch_wait(batch, hits, 2), HS_OK);
  ASSERT_EQ(hs_batch_poll(batch, &ready), HS_OK);
  EXPECT_EQ(ready, 1);
  hs_batch_destroy(batch);
  EXPECT_TRUE(hits[0].hit && hits[0].collider == s.sphere);
  EXPECT_TRUE(hits[1].hit && hits[1].collider == s.square);
}

TEST(CApiAsyncBatch, ACommitAfterSubmissionAppliesToTheNextBatchOnly) {
  TwinScene twin(200, 85, true);
  const std::vector<hs_ray> rays = c_rays(1500, 86);
  const std::vector<hs_hit> before = sync_rays(twin.c, rays);
  hs_batch* batch = nullptr;
  ASSERT_EQ(hs_raycast_batch_async(twin.c, rays.data(), rays.size(), nullptr, &batch), HS_OK);
  hs_shape wall = hs_shape_default(HS_SHAPE_SPHERE);
  wall.data.sphere.radius = 12.0f;  // contains many of the rays' origins
  std::uint32_t id = HS_NO_COLLIDER;
  ASSERT_EQ(hs_scene_add_shape(twin.c, &wall, nullptr, 0, 1, &id), HS_OK);
  ASSERT_EQ(hs_scene_commit(twin.c), HS_OK);  // waits for the batch
  const std::vector<hs_hit> after = sync_rays(twin.c, rays);
  EXPECT_GT(differences(before, after), 150u);
  EXPECT_EQ(differences(collect(batch, rays.size()), before), 0u);
  ASSERT_EQ(hs_raycast_batch_async(twin.c, rays.data(), rays.size(), nullptr, &batch), HS_OK);
  EXPECT_EQ(differences(collect(batch, rays.size()), after), 0u);
}

TEST(CApiAsyncBatchThreads, ManyBatchesFromManyThreads) {
  TwinScene twin(200, 87, true);
  std::vector<std::vector<hs_ray>> rays;
  for (unsigned k = 0; k < 4; ++k) rays.push_back(c_rays(300 + 40 * k, 400 + k));
  std::vector<std::vector<hs_hit>> got(rays.size());
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < rays.size(); ++k) {
    threads.emplace_back([&, k] {
      // Two batches in flight per thread; one is destroyed unwaited.
      hs_batch* kept = nullptr;
      hs_batch* dropped = nullptr;
      if (hs_raycast_batch_async(twin.c, rays[k].data(), rays[k].size(), nullptr, &kept) != HS_OK) return;
      if (hs_raycast_batch_async(twin.c, rays[k].data(), rays[k].size(), nullptr, &dropped) == HS_OK) {
        hs_batch_destroy(dropped);
      }
      got[k] = collect(kept, rays[k].size());
    });
  }
  for (std::thread& t : threads) t.join();
  for (std::size_t k = 0; k < rays.size(); ++k) EXPECT_EQ(differences(got[k], sync_rays(twin.c, rays[k])), 0u) << k;
}

TEST(CApiAsyncBatchErrors, ArgumentsAreChecked) {
  SmallScene s;
  const hs_ray rays[2] = {ray_from(0, 0, -5, 0, 0, 1), ray_from(0, 0, -5, 0, 0, -1)};
  const hs_sphere_sweep sweeps[1] = {hs_sphere_sweep_default()};
  hs_batch* batch = reinterpret_cast<hs_batch*>(&s);  // must come back null on failure
  const char* f = "hs_raycast_batch_async";
  expect_failure(hs_raycast_batch_async(s.scene, rays, 2, nullptr, nullptr), HS_INVALID_ARGUMENT, f,
                 "out_batch is null");
  expect_failure(hs_raycast_batch_async(nullptr, rays, 2, nullptr, &batch), HS_INVALID_ARGUMENT, f, "scene is null");
  EXPECT_EQ(batch, nullptr);
  expect_failure(hs_raycast_batch_async(s.scene, nullptr, 2, nullptr, &batch), HS_INVALID_ARGUMENT, f, "rays is null");
  const std::size_t too_many = std::numeric_limits<std::size_t>::max() / 8;
  expect_failure(hs_raycast_batch_async(s.scene, rays, too_many, nullptr, &batch), HS_OUT_OF_RANGE, f, "count");
  hs_query_options options = hs_query_options_default();
  options.max_distance = kNan;
  expect_failure(hs_raycast_batch_async(s.scene, rays, 2, &options, &batch), HS_INVALID_ARGUMENT, f, "max_distance");
  expect_failure(hs_sphere_cast_batch_async(s.scene, nullptr, 1, nullptr, &batch), HS_INVALID_ARGUMENT,
                 "hs_sphere_cast_batch_async", "sweeps is null");
  EXPECT_EQ(batch, nullptr);

  int ready = 7;
  expect_failure(hs_batch_poll(nullptr, &ready), HS_INVALID_ARGUMENT, "hs_batch_poll", "batch is null");
  EXPECT_EQ(ready, 0);
  expect_failure(hs_batch_wait(nullptr, nullptr, 0), HS_INVALID_ARGUMENT, "hs_batch_wait", "batch is null");

  ASSERT_EQ(hs_raycast_batch_async(s.scene, rays, 2, nullptr, &batch), HS_OK);
  expect_failure(hs_batch_poll(batch, nullptr), HS_INVALID_ARGUMENT, "hs_batch_poll", "out_ready is null");
  expect_failure(hs_batch_wait(batch, nullptr, 2), HS_INVALID_ARGUMENT, "hs_batch_wait", "out_hits is null");
  hs_hit hits[2];
  hits[0] = hits[1] = hs_hit_default();
  hits[0].collider = 77;
  expect_failure(hs_batch_wait(batch, hits, 1), HS_OUT_OF_RANGE, "hs_batch_wait", "capacity 1");
  EXPECT_EQ(hits[0].collider, 77u);  // failures write nothing
  ASSERT_EQ(hs_batch_wait(batch, hits, 2), HS_OK);
  EXPECT_EQ(hits[0].collider, s.sphere);
  EXPECT_EQ(hits[1].hit, 0);
  hs_batch_destroy(batch);

  // Empty batches, null arrays included; a larger capacity is fine.
  ASSERT_EQ(hs_raycast_batch_async(s.scene, nullptr, 0, nullptr, &batch), HS_OK);
  EXPECT_EQ(hs_batch_wait(batch, nullptr, 0), HS_OK);
  hs_batch_destroy(batch);
  ASSERT_EQ(hs_sphere_cast_batch_async(s.scene, sweeps, 1, nullptr, &batch), HS_OK);
  EXPECT_EQ(hs_batch_wait(batch, hits, 2), HS_OK);
  hs_batch_destroy(batch);
  hs_batch_destroy(nullptr);
}

}  // namespace
}  // namespace hitscan::test
