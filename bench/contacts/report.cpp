#include "report.hpp"

#include <algorithm>

#include "hitscan/math/simd.hpp"

namespace hitscan::bench {

void ContactLog::add(const ContactFigure& f) {
  figures_.push_back(f);
  if (!out_) return;
  std::fprintf(out_,
               "{\"suite\":\"contacts\",\"objects\":%zu,\"backend\":\"%s\",\"metric\":\"%s\",\"value\":%.10g,"
               "\"repetitions\":%d,\"passes\":%d,\"threads\":1,\"simd\":\"%s\"}\n",
               f.objects, f.backend.c_str(), f.metric.c_str(), f.value, f.repetitions, f.passes, HITSCAN_SIMD_ISA);
  std::fflush(out_);
}

double ContactLog::find(std::size_t objects, const std::string& backend, const std::string& metric) const {
  for (const ContactFigure& f : figures_) {
    if (f.objects == objects && f.backend == backend && f.metric == metric) return f.value;
  }
  return -1;
}

void ContactLog::print_tables() const {
  std::vector<std::size_t> sizes;
  std::vector<std::string> backends, baselines;
  for (const ContactFigure& f : figures_) {
    if (std::find(sizes.begin(), sizes.end(), f.objects) == sizes.end()) sizes.push_back(f.objects);
    if (std::find(backends.begin(), backends.end(), f.backend) == backends.end()) {
      backends.push_back(f.backend);
      if (!f.hitscan) baselines.push_back(f.backend);
    }
  }

  std::printf("\ncontacts: ms per pass, median of round-robin repetitions, 1 thread (pairs found in brackets)\n");
  std::printf("  %-26s", "backend \\ objects");
  for (const std::size_t n : sizes) std::printf(" %20zu", n);
  std::printf("\n");
  for (const std::string& b : backends) {
    std::printf("  %-26s", b.c_str());
    for (const std::size_t n : sizes) {
      const double ms = find(n, b, "ms_per_pass");
      const double pairs = find(n, b, "pairs");
      if (ms < 0) {
        std::printf(" %20s", "-");
        continue;
      }
      char cell[48];
      std::snprintf(cell, sizeof cell, "%.4g (%.0f)", ms, pairs);
      std::printf(" %20s", cell);
    }
    std::printf("\n");
  }

  std::printf("\ncontacts: hitscan's fastest backend that agrees with brute force vs the baselines (Bullet, Jolt), same run\n");
  std::printf("  ratio = hitscan ms / baseline ms (<= 1/3 meets the 3x target against the fastest); speed-up = its inverse\n");
  for (const std::size_t n : sizes) {
    double fastest_baseline = -1;
    std::string fastest_name;
    for (const std::string& b : baselines) {
      const double ms = find(n, b, "ms_per_pass");
      if (ms > 0 && (fastest_baseline < 0 || ms < fastest_baseline)) fastest_baseline = ms, fastest_name = b;
    }
    // hitscan's fastest backend that agrees with brute force.
    const ContactFigure* best = nullptr;
    for (const ContactFigure& f : figures_) {
      if (f.objects != n || !f.hitscan || f.metric != "ms_per_pass") continue;
      if (find(n, f.backend, "disagreements") != 0) continue;
      if (!best || f.value < best->value) best = &f;
    }
    if (!best) continue;
    std::printf("  %zu objects, hitscan best: %s %.4g ms/pass\n", n, best->backend.c_str(), best->value);
    for (const std::string& b : baselines) {
      const double ms = find(n, b, "ms_per_pass");
      if (ms < 0) continue;
      std::printf("    vs %-26s %9.4g ms   ratio %6.3f   speed-up %6.2fx\n", b.c_str(), ms, best->value / ms,
                  ms / best->value);
    }
    if (fastest_baseline > 0) {
      std::printf("    3x target against the fastest baseline (%s, %.4g ms): %s (speed-up %.2fx)\n", fastest_name.c_str(),
                  fastest_baseline, best->value * 3 <= fastest_baseline ? "met" : "NOT met", fastest_baseline / best->value);
    }
  }
}

}  // namespace hitscan::bench
