#pragma once
/// Executor: how batch work is spread over threads. The library never starts threads for a
/// single query; batch functions take an Executor, or use the default pool.

#include <cstddef>
#include <functional>
#include <memory>

namespace hitscan {

class Executor {
 public:
  virtual ~Executor() = default;

  /// Runs body(begin, end) over [0, count) in chunks of about `grain` items, possibly on several
  /// threads at once, and returns when every chunk is done. The body must be safe to run
  /// concurrently on disjoint ranges, and must not throw. Chunks are contiguous, so work that
  /// writes item i's result to slot i needs no locking.
  virtual void parallel_for(std::size_t count, std::size_t grain,
                            const std::function<void(std::size_t begin, std::size_t end)>& body) = 0;

  /// How many threads may run bodies at once (1 for a serial executor).
  virtual unsigned concurrency() const = 0;
};

/// Runs every chunk on the calling thread, in order.
class SerialExecutor final : public Executor {
 public:
  void parallel_for(std::size_t count, std::size_t grain,
                    const std::function<void(std::size_t, std::size_t)>& body) override;
  unsigned concurrency() const override { return 1; }
};

/// A fixed pool of worker threads; the calling thread works too. Threads start with the pool and
/// stop when it is destroyed. parallel_for calls from several threads at once are serialised.
class ThreadPool final : public Executor {
 public:
  /// threads == 0: one per hardware thread.
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool() override;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void parallel_for(std::size_t count, std::size_t grain,
                    const std::function<void(std::size_t, std::size_t)>& body) override;
  unsigned concurrency() const override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// The process-wide pool used when a batch function is given no executor: created on first use
/// with one thread per hardware thread.
Executor& default_executor();

}  // namespace hitscan
