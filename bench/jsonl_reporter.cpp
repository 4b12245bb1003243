#include "jsonl_reporter.hpp"

#include <algorithm>

#include "hitscan/math/simd.hpp"

namespace hitscan::bench {
namespace {

std::vector<std::string> split(const std::string& s, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == separator) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

}  // namespace

void JsonlReporter::ReportRuns(const std::vector<Run>& runs) {
  ConsoleReporter::ReportRuns(runs);
  for (const Run& run : runs) {
    if (run.run_type != Run::RT_Aggregate || run.aggregate_name != "median") continue;
    const std::vector<std::string> parts = split(run.run_name.function_name, '/');
    if (parts.size() != 3) continue;
    const auto items = run.counters.find("items_per_second");
    if (items == run.counters.end() || items->second.value <= 0) continue;
    Figure f{parts[0], parts[1], parts[2], "ns_per_test", 1e9 / items->second.value};
    figures_.push_back(f);
    if (out_) {
      std::fprintf(out_,
                   "{\"suite\":\"%s\",\"case\":\"%s\",\"backend\":\"%s\",\"metric\":\"%s\",\"value\":%.4f,"
                   "\"simd\":\"%s\",\"repetitions\":%lld}\n",
                   f.suite.c_str(), f.case_name.c_str(), f.backend.c_str(), f.metric.c_str(), f.value,
                   HITSCAN_SIMD_ISA, static_cast<long long>(run.repetitions));
      std::fflush(out_);
    }
  }
}

void JsonlReporter::Finalize() {
  ConsoleReporter::Finalize();
  // Ratios against the scalar reference of the same suite and case, from this run only.
  std::map<std::pair<std::string, std::string>, double> reference;
  for (const Figure& f : figures_) {
    if (f.backend == "scalar") reference[{f.suite, f.case_name}] = f.value;
  }
  std::printf("\nsame-run ratios (median ns per ray-shape test; speedup = scalar / backend):\n");
  for (const Figure& f : figures_) {
    const auto ref = reference.find({f.suite, f.case_name});
    if (f.backend == "scalar" || ref == reference.end()) continue;
    std::printf("  %-12s %-22s %-10s %8.2f ns  vs scalar %8.2f ns  speedup %5.2fx\n", f.suite.c_str(),
                f.case_name.c_str(), f.backend.c_str(), f.value, ref->second, ref->second / f.value);
  }
}

}  // namespace hitscan::bench
