#pragma once
// Medians of repeated measurements: the machine drifts by 20-30% over minutes, so every figure is
// the median of repetitions interleaved with the other backends'.

#include <algorithm>
#include <vector>

namespace hitscan::bench {

inline double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace hitscan::bench
