#include "hitscan/executor.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace hitscan {

void SerialExecutor::parallel_for(std::size_t count, std::size_t grain,
                                  const std::function<void(std::size_t, std::size_t)>& body) {
  grain = std::max<std::size_t>(grain, 1);
  for (std::size_t begin = 0; begin < count; begin += grain) body(begin, std::min(count, begin + grain));
}

namespace {

struct Job {
  const std::function<void(std::size_t, std::size_t)>* body;
  std::size_t count, grain;
  std::atomic<std::size_t> next{0};

  // Takes and runs chunks until none are left; returns how many it ran.
  std::size_t drain() {
    std::size_t ran = 0;
    for (;;) {
      const std::size_t begin = next.fetch_add(grain);
      if (begin >= count) return ran;
      (*body)(begin, std::min(count, begin + grain));
      ++ran;
    }
  }
};

}  // namespace

// One job at a time. A worker reaches the job only through `job`, read under the mutex, and
// counts itself in `active` while it works on it; the caller returns (and the job, on its stack,
// ends) only when every chunk is done and no worker is inside the job.
struct ThreadPool::State {
  std::vector<std::thread> workers;
  std::mutex mutex;
  std::condition_variable wake, done;
  std::mutex job_mutex;  // serialises parallel_for callers
  Job* job = nullptr;
  std::size_t chunks_left = 0;
  unsigned active = 0;
  std::uint64_t generation = 0;
  bool stopping = false;

  void work() {
    std::uint64_t seen = 0;
    for (;;) {
      Job* mine = nullptr;
      {
        std::unique_lock lock(mutex);
        wake.wait(lock, [&] { return stopping || generation != seen; });
        if (stopping) return;
        seen = generation;
        if (!job) continue;  // woke after that job was finished
        mine = job;
        ++active;
      }
      const std::size_t ran = mine->drain();
      std::lock_guard lock(mutex);
      chunks_left -= ran;
      --active;
      if (chunks_left == 0 && active == 0) done.notify_all();
    }
  }
};

ThreadPool::ThreadPool(unsigned threads) : state_(std::make_unique<State>()) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 1; i < threads; ++i) state_->workers.emplace_back([s = state_.get()] { s->work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->wake.notify_all();
  for (std::thread& t : state_->workers) t.join();
}

unsigned ThreadPool::concurrency() const { return static_cast<unsigned>(state_->workers.size()) + 1; }

void ThreadPool::parallel_for(std::size_t count, std::size_t grain,
                              const std::function<void(std::size_t, std::size_t)>& body) {
  if (count == 0) return;
  grain = std::max<std::size_t>(grain, 1);
  State& s = *state_;
  std::lock_guard serial(s.job_mutex);
  Job job{&body, count, grain};
  {
    std::lock_guard lock(s.mutex);
    s.job = &job;
    s.chunks_left = (count + grain - 1) / grain;
    ++s.generation;
  }
  s.wake.notify_all();
  const std::size_t ran = job.drain();
  std::unique_lock lock(s.mutex);
  s.chunks_left -= ran;
  s.done.wait(lock, [&] { return s.chunks_left == 0 && s.active == 0; });
  s.job = nullptr;
}

Executor& default_executor() {
  static ThreadPool pool;
  return pool;
}

}  // namespace hitscan
