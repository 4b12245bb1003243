#pragma once
// Medians of repeated measurements: the machine drifts by 20-30% over minutes, so every figure is
// the median of repetitions interleaved with the other backends'.

#include <algorithm>
#include <chrono>
#include <vector>

namespace hitscan::bench {

inline double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/// The median milliseconds of `runs` calls of timed(), each after an untimed prepare() (which
/// frees the previous build, so that one is alive at a time).
template <class Prepare, class Timed>
double median_ms(int runs, Prepare prepare, Timed timed) {
  std::vector<double> ms;
  for (int run = 0; run < runs; ++run) {
    prepare();
    const auto start = std::chrono::steady_clock::now();
    timed();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return median(ms);
}

}  // namespace hitscan::bench
