// Asynchronous batches (Scene::raycast_batch_async, sphere_cast_batch_async) against the
// synchronous batches, bit for bit, on seeded random scenes; polling, many batches in flight, the
// commit boundary (never half a commit), early destruction, empty and bad input. Executors that
// hold a batch back until the test lets it go make "still running" a fact, not a timing.

#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "query/scene_test_scenes.hpp"

namespace hitscan {
namespace {

constexpr float kExtent = 40.0f;

bool same_bits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }
bool same_bits(Vec3f a, Vec3f b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z); }
bool same_bits(const QueryHit& a, const QueryHit& b) {
  return a.hit == b.hit && a.flags == b.flags && a.feature == b.feature && same_bits(a.distance, b.distance) &&
         same_bits(a.point, b.point) && same_bits(a.normal, b.normal) && same_bits(a.face_normal, b.face_normal) &&
         a.collider == b.collider && a.user_id == b.user_id && a.primitive == b.primitive && same_bits(a.u, b.u) &&
         same_bits(a.v, b.v) && same_bits(a.depth, b.depth);
}

// How many hits differ in any bit (every one, when the sizes differ).
std::size_t differences(const std::vector<QueryHit>& a, const std::vector<QueryHit>& b) {
  if (a.size() != b.size()) return std::max(a.size(), b.size());
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += same_bits(a[i], b[i]) ? 0 : 1;
  return n;
}

std::vector<QueryRay> random_rays(std::size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<QueryRay> rays(count);
  for (QueryRay& q : rays) q = test::random_query_ray(gen, kExtent);
  return rays;
}

std::vector<SphereSweep> random_sweeps(std::size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2), radius(0.1f, 2.0f), unit(-1, 1);
  std::vector<SphereSweep> sweeps(count);
  for (SphereSweep& s : sweeps) {
    s = {{{pos(gen), pos(gen), pos(gen)}, radius(gen)}, {unit(gen), unit(gen), unit(gen)}, 20.0f};
  }
  return sweeps;
}

std::vector<QueryHit> sync_rays(const Scene& scene, const std::vector<QueryRay>& rays, const QueryOptions& o = {}) {
  std::vector<QueryHit> hits(rays.size());
  EXPECT_TRUE(scene.raycast_batch(rays, hits, o).ok());
  return hits;
}

std::vector<QueryHit> sync_sweeps(const Scene& scene, const std::vector<SphereSweep>& sweeps,
                                  const QueryOptions& o = {}) {
  std::vector<QueryHit> hits(sweeps.size());
  EXPECT_TRUE(scene.sphere_cast_batch(sweeps, hits, o).ok());
  return hits;
}

// The hits of a handle, which must succeed.
std::vector<QueryHit> hits_of(BatchHandle& handle) {
  Result<std::vector<QueryHit>> hits = handle.wait();
  EXPECT_TRUE(hits.ok()) << hits.status().message();
  return hits.ok() ? std::move(hits).value() : std::vector<QueryHit>{};
}

// Runs every parallel_for serially, but only once open() has been called.
class GatedExecutor final : public Executor {
 public:
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    opened_.notify_all();
  }
  void parallel_for(std::size_t count, std::size_t grain,
                    const std::function<void(std::size_t, std::size_t)>& body) override {
    {
      std::unique_lock lock(mutex_);
      opened_.wait(lock, [&] { return open_; });
    }
    SerialExecutor{}.parallel_for(count, grain, [&](std::size_t b, std::size_t e) {
      body(b, e);
      items += e - b;
    });
    ++finished;
  }
  unsigned concurrency() const override { return 1; }

  std::atomic<std::size_t> items{0};
  std::atomic<int> finished{0};

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

TEST(AsyncBatch, RaysEqualTheSynchronousBatchBitForBit) {
  const test::RandomScene r = test::make_random_scene(300, 51, kExtent);
  const std::vector<QueryRay> rays = random_rays(4000, 52);
  const std::vector<QueryHit> expected = sync_rays(r.scene, rays);
  ThreadPool pool(3);
  SerialExecutor serial;
  for (Executor* executor : {static_cast<Executor*>(nullptr), static_cast<Executor*>(&pool),
                             static_cast<Executor*>(&serial)}) {
    Result<BatchHandle> handle = r.scene.raycast_batch_async(rays, {}, executor);
    ASSERT_TRUE(handle.ok());
    EXPECT_EQ(differences(hits_of(handle.value()), expected), 0u);
    EXPECT_FALSE(handle.value().valid());
  }
  std::size_t hit_count = 0;
  for (const QueryHit& h : expected) hit_count += h.hit ? 1 : 0;
  EXPECT_GT(hit_count, 1000u);  // the comparison covers hits, not just misses
}

TEST(AsyncBatch, SphereCastsEqualTheSynchronousBatchBitForBit) {
  const test::RandomScene r = test::make_random_scene(300, 53, kExtent);
  const std::vector<SphereSweep> sweeps = random_sweeps(800, 54);
  const std::vector<QueryHit> expected = sync_sweeps(r.scene, sweeps);
  ThreadPool pool(2);
  Result<BatchHandle> handle = r.scene.sphere_cast_batch_async(sweeps, {}, &pool);
  ASSERT_TRUE(handle.ok());
  EXPECT_EQ(differences(hits_of(handle.value()), expected), 0u);
  std::size_t hit_count = 0;
  for (const QueryHit& h : expected) hit_count += h.hit ? 1 : 0;
  EXPECT_GT(hit_count, 200u);
}

TEST(AsyncBatch, PollIsFalseUntilTheBatchRunsThenTrue) {
  const test::RandomScene r = test::make_random_scene(100, 55, kExtent);
  const std::vector<QueryRay> rays = random_rays(500, 56);
  GatedExecutor gate;
  Result<BatchHandle> handle = r.scene.raycast_batch_async(rays, {}, &gate);
  ASSERT_TRUE(handle.ok());
  BatchHandle& h = handle.value();
  EXPECT_TRUE(h.valid());
  EXPECT_FALSE(h.poll());
  EXPECT_FALSE(h.wait_for(std::chrono::milliseconds(1)));
  gate.open();
  EXPECT_TRUE(h.wait_for(std::chrono::hours(1)));
  EXPECT_TRUE(h.poll());
  EXPECT_EQ(differences(hits_of(h), sync_rays(r.scene, rays)), 0u);
  EXPECT_EQ(gate.items, rays.size());
}

TEST(AsyncBatch, ManyBatchesInFlightAtOnce) {
  const test::RandomScene r = test::make_random_scene(200, 57, kExtent);
  ThreadPool pool(3);
  SerialExecutor serial;
  std::vector<std::vector<QueryRay>> rays;
  std::vector<std::vector<SphereSweep>> sweeps;
  std::vector<BatchHandle> ray_handles, sweep_handles;
  for (unsigned k = 0; k < 8; ++k) {
    Executor* executor = k % 3 == 0 ? nullptr : k % 3 == 1 ? static_cast<Executor*>(&pool) : &serial;
    rays.push_back(random_rays(300 + 50 * k, 100 + k));
    sweeps.push_back(random_sweeps(60 + 10 * k, 200 + k));
    Result<BatchHandle> a = r.scene.raycast_batch_async(rays.back(), {}, executor);
    Result<BatchHandle> b = r.scene.sphere_cast_batch_async(sweeps.back(), {}, executor);
    ASSERT_TRUE(a.ok() && b.ok());
    ray_handles.push_back(std::move(a).value());
    sweep_handles.push_back(std::move(b).value());
  }
  // Collected in the reverse order of submission.
  for (std::size_t k = ray_handles.size(); k-- > 0;) {
    EXPECT_EQ(differences(hits_of(sweep_handles[k]), sync_sweeps(r.scene, sweeps[k])), 0u) << "batch " << k;
    EXPECT_EQ(differences(hits_of(ray_handles[k]), sync_rays(r.scene, rays[k])), 0u) << "batch " << k;
  }
}

TEST(AsyncBatch, EmptyBatchIsReadyWithNoHits) {
  const test::RandomScene r = test::make_random_scene(20, 59, kExtent);
  Result<BatchHandle> rays = r.scene.raycast_batch_async({});
  Result<BatchHandle> sweeps = r.scene.sphere_cast_batch_async({});
  ASSERT_TRUE(rays.ok() && sweeps.ok());
  Result<std::vector<QueryHit>> a = rays.value().wait(), b = sweeps.value().wait();
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(a.value().empty());
  EXPECT_TRUE(b.value().empty());
}

bool reject_odd_ids(ColliderId id, std::uint64_t, std::uint32_t, void*) { return id % 2 == 0; }

TEST(AsyncBatch, BadRaysAndOptionsGiveWhatTheSynchronousBatchGives) {
  const test::RandomScene r = test::make_random_scene(150, 61, kExtent);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<QueryRay> rays = random_rays(300, 62);
  rays.push_back({{nan, 0, 0}, {0, 0, 1}});
  rays.push_back({{0, 0, -30}, {0, 0, 0}});
  rays.push_back({{0, 0, -30}, {0, inf, 1}});
  rays.push_back({{0, 0, -30}, {0, 0, 1}, nan});
  rays.push_back({{0, 0, -30}, {0, 0, 1}, -1.0f});
  std::vector<SphereSweep> sweeps = random_sweeps(100, 63);
  sweeps.push_back({{{0, 0, -30}, -1.0f}, {0, 0, 1}});
  sweeps.push_back({{{nan, 0, -30}, 1.0f}, {0, 0, 1}});
  sweeps.push_back({{{0, 0, -30}, 1.0f}, {0, 0, 0}});
  std::vector<QueryOptions> options(5);
  options[1].max_distance = nan;
  options[2].max_distance = -1.0f;
  options[3].layer_mask = 0;
  options[4].filter.accept = reject_odd_ids;
  options[4].faces = FaceMode::front_only;
  options[4].solid = false;
  for (std::size_t k = 0; k < options.size(); ++k) {
    Result<BatchHandle> a = r.scene.raycast_batch_async(rays, options[k]);
    Result<BatchHandle> b = r.scene.sphere_cast_batch_async(sweeps, options[k]);
    ASSERT_TRUE(a.ok() && b.ok());
    const std::vector<QueryHit> ray_hits = hits_of(a.value());
    EXPECT_EQ(differences(ray_hits, sync_rays(r.scene, rays, options[k])), 0u) << "options " << k;
    EXPECT_EQ(differences(hits_of(b.value()), sync_sweeps(r.scene, sweeps, options[k])), 0u) << "options " << k;
    for (std::size_t i = rays.size() - 5; i < rays.size(); ++i) EXPECT_FALSE(ray_hits[i].hit) << i;
  }
}

TEST(AsyncBatch, WaitingOnAHandleToNoBatchIsAnError) {
  BatchHandle none;
  EXPECT_FALSE(none.valid());
  EXPECT_TRUE(none.poll());
  EXPECT_TRUE(none.wait_for(std::chrono::nanoseconds(0)));
  EXPECT_EQ(none.wait().status().code(), StatusCode::invalid_argument);

  const test::RandomScene r = test::make_random_scene(20, 65, kExtent);
  Result<BatchHandle> handle = r.scene.raycast_batch_async(random_rays(10, 66));
  ASSERT_TRUE(handle.ok());
  BatchHandle moved = std::move(handle).value();
  EXPECT_TRUE(moved.valid());
  EXPECT_TRUE(moved.wait().ok());
  EXPECT_EQ(moved.wait().status().code(), StatusCode::invalid_argument);  // already taken
}

TEST(AsyncBatch, DestroyingAnUnfinishedHandleWaitsForTheBatch) {
  test::RandomScene r = test::make_random_scene(100, 67, kExtent);
  const std::vector<QueryRay> rays = random_rays(700, 68);
  GatedExecutor gate;
  std::thread opener;
  {
    Result<BatchHandle> handle = r.scene.raycast_batch_async(rays, {}, &gate);
    ASSERT_TRUE(handle.ok());
    EXPECT_FALSE(handle.value().poll());
    opener = std::thread([&] { gate.open(); });
  }  // the handle goes while the batch may still be held back
  EXPECT_EQ(gate.finished, 1);
  EXPECT_EQ(gate.items, rays.size());
  opener.join();
  // Assigning over an unfinished handle waits for it too, and the scene is free again.
  GatedExecutor second;
  Result<BatchHandle> a = r.scene.raycast_batch_async(rays, {}, &second);
  ASSERT_TRUE(a.ok());
  opener = std::thread([&] { second.open(); });
  a.value() = BatchHandle();
  EXPECT_EQ(second.finished, 1);
  opener.join();
  ASSERT_TRUE(r.scene.add({Spheref{{0, 0, 0}, 1}}).ok());
  EXPECT_EQ(r.scene.commit(), 1u);
}


// A sphere that contains many of the rays' origins: adding or moving it changes many hits.
constexpr float kWallRadius = 12.0f;

TEST(AsyncBatchThreads, ACommitAfterSubmissionWaitsAndAppliesToTheNextBatch) {
  test::RandomScene r = test::make_random_scene(200, 71, kExtent);
  const std::vector<QueryRay> rays = random_rays(1500, 72);
  const std::vector<QueryHit> before = sync_rays(r.scene, rays);
  ASSERT_TRUE(r.scene.add({Spheref{{0, 0, 0}, kWallRadius}}).ok());  // pending
  ThreadPool pool(2);
  Result<BatchHandle> handle = r.scene.raycast_batch_async(rays, {}, &pool);
  ASSERT_TRUE(handle.ok());
  // On the submitting thread, at once: the commit waits for the batch, which sees none of it.
  EXPECT_EQ(r.scene.commit(), 1u);
  const std::vector<QueryHit> after = sync_rays(r.scene, rays);
  EXPECT_GT(differences(before, after), 150u);  // the commit matters to this batch
  EXPECT_EQ(differences(hits_of(handle.value()), before), 0u);
  Result<BatchHandle> next = r.scene.raycast_batch_async(rays, {}, &pool);
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(differences(hits_of(next.value()), after), 0u);
}

TEST(AsyncBatchThreads, ACommitFromAnotherThreadWaitsForAHeldBackBatch) {
  test::RandomScene r = test::make_random_scene(200, 73, kExtent);
  const std::vector<SphereSweep> sweeps = random_sweeps(400, 74);
  const std::vector<QueryHit> before = sync_sweeps(r.scene, sweeps);
  GatedExecutor gate;
  Result<BatchHandle> handle = r.scene.sphere_cast_batch_async(sweeps, {}, &gate);
  ASSERT_TRUE(handle.ok());
  std::thread editor([&] {
    ASSERT_TRUE(r.scene.add({Spheref{{0, 0, 0}, kWallRadius}}).ok());
    r.scene.commit();  // blocks until the gate opens and the batch finishes
  });
  EXPECT_FALSE(handle.value().poll());
  gate.open();
  EXPECT_EQ(differences(hits_of(handle.value()), before), 0u);
  editor.join();
  EXPECT_GT(differences(before, sync_sweeps(r.scene, sweeps)), 50u);
}

TEST(AsyncBatchThreads, BatchesSeeWholeCommitsWhileAnEditorMovesAWall) {
  test::RandomScene r = test::make_random_scene(150, 75, kExtent);
  const std::vector<QueryRay> rays = random_rays(400, 76);
  const ColliderId wall = r.scene.add({Spheref{{0, 0, 0}, kWallRadius}}).value();
  Transformf left, right;
  left.translation = {-kWallRadius, 0, 0};
  right.translation = {kWallRadius, 0, 0};
  ASSERT_TRUE(r.scene.set_transform(wall, left).ok());
  r.scene.commit();
  const std::vector<QueryHit> at_left = sync_rays(r.scene, rays);
  ASSERT_TRUE(r.scene.set_transform(wall, right).ok());
  r.scene.commit();
  const std::vector<QueryHit> at_right = sync_rays(r.scene, rays);
  ASSERT_GT(differences(at_left, at_right), 100u);
  ThreadPool pool(2);
  std::atomic<bool> done{false};
  std::thread editor([&] {
    for (int k = 0; !done; ++k) {
      ASSERT_TRUE(r.scene.set_transform(wall, k % 2 == 0 ? left : right).ok());
      r.scene.commit();
    }
  });
  int halves = 0;
  for (int k = 0; k < 12; ++k) {
    Result<BatchHandle> handle = r.scene.raycast_batch_async(rays, {}, k % 2 == 0 ? &pool : nullptr);
    ASSERT_TRUE(handle.ok());
    const std::vector<QueryHit> hits = hits_of(handle.value());
    if (differences(hits, at_left) != 0 && differences(hits, at_right) != 0) ++halves;
  }
  done = true;
  editor.join();
  EXPECT_EQ(halves, 0);
}

TEST(AsyncBatchThreads, BatchesSubmittedFromPoolTasks) {
  const test::RandomScene r = test::make_random_scene(150, 77, kExtent);
  constexpr std::size_t kTasks = 4;
  std::vector<std::vector<QueryRay>> rays;
  for (unsigned k = 0; k < kTasks; ++k) rays.push_back(random_rays(200, 300 + k));
  ThreadPool pool(2);
  // Each task waits for one batch on a SerialExecutor, and leaves one on the pool itself to be
  // collected once the pool is free again.
  std::vector<std::vector<QueryHit>> waited(kTasks);
  std::vector<BatchHandle> left(kTasks);
  std::atomic<int> failures{0};
  pool.parallel_for(kTasks, 1, [&](std::size_t b, std::size_t e) {
    for (std::size_t k = b; k < e; ++k) {
      SerialExecutor serial;
      Result<BatchHandle> mine = r.scene.raycast_batch_async(rays[k], {}, &serial);
      Result<BatchHandle> later = r.scene.raycast_batch_async(rays[k], {}, &pool);
      if (!mine.ok() || !later.ok()) {
        ++failures;
        continue;
      }
      Result<std::vector<QueryHit>> hits = mine.value().wait();
      if (hits.ok()) waited[k] = std::move(hits).value(); else ++failures;
      left[k] = std::move(later).value();
    }
  });
  EXPECT_EQ(failures, 0);
  for (std::size_t k = 0; k < kTasks; ++k) {
    const std::vector<QueryHit> expected = sync_rays(r.scene, rays[k]);
    EXPECT_EQ(differences(waited[k], expected), 0u) << k;
    EXPECT_EQ(differences(hits_of(left[k]), expected), 0u) << k;
  }
}

}  // namespace
}  // namespace hitscan
