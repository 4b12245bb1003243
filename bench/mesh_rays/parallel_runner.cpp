#include "parallel_runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace hitscan::bench {

double run_chunked(std::size_t count, int threads, const std::function<void(std::size_t, std::size_t)>& work,
                   bool whole_shares) {
  // Small enough that every thread gets at least 16 chunks (the last ones finish together),
  // large enough that taking a chunk costs nothing next to tracing it; a multiple of 64, so that
  // the coherent set's 8x8 tiles stay whole.
  const std::size_t share = (count + std::size_t(threads) - 1) / std::size_t(threads);
  const std::size_t chunk = whole_shares ? std::max<std::size_t>(share, 1)
                                         : std::clamp<std::size_t>(count / (std::size_t(threads) * 16) / 64 * 64, 64, 1024);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (;;) {
      const std::size_t begin = next.fetch_add(chunk, std::memory_order_relaxed);
      if (begin >= count) return;
      work(begin, std::min(count, begin + chunk));
    }
  };
  const auto start = std::chrono::steady_clock::now();
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace hitscan::bench
