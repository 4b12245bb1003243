// The executors cover every index exactly once, in contiguous chunks, from any number of callers.

#include "hitscan/executor.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace hitscan {
namespace {

void expect_each_index_once(Executor& executor, std::size_t count, std::size_t grain) {
  std::vector<std::atomic<int>> seen(count);
  executor.parallel_for(count, grain, [&](std::size_t begin, std::size_t end) {
    EXPECT_LE(end - begin, std::max<std::size_t>(grain, 1));
    for (std::size_t i = begin; i < end; ++i) seen[i].fetch_add(1);
  });
  for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(seen[i].load(), 1) << "index " << i;
}

TEST(Executor, SerialAndPoolsCoverEveryIndexOnce) {
  SerialExecutor serial;
  ThreadPool one(1), three(3);
  EXPECT_EQ(one.concurrency(), 1u);
  EXPECT_EQ(three.concurrency(), 3u);
  for (Executor* e : {static_cast<Executor*>(&serial), static_cast<Executor*>(&one), static_cast<Executor*>(&three),
                      &default_executor()}) {
    for (std::size_t count : {0u, 1u, 7u, 1000u, 100003u}) {
      for (std::size_t grain : {0u, 1u, 64u, 5000u}) expect_each_index_once(*e, count, grain);
    }
  }
}

TEST(Executor, ManyJobsInARowAndFromSeveralCallers) {
  ThreadPool pool(3);
  for (int job = 0; job < 200; ++job) expect_each_index_once(pool, 997, 13);
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&] {
      for (int job = 0; job < 50; ++job) expect_each_index_once(pool, 501, 7);
    });
  }
  for (std::thread& t : callers) t.join();
}

}  // namespace
}  // namespace hitscan
