#pragma once
// Writes one JSON object per benchmark figure to a file and prints same-run ratios.
//
// Benchmarks are named "suite/case/backend" and run as interleaved repetitions (Google
// Benchmark's random interleaving), so every backend is sampled across the same stretch of
// machine drift; the reporter keeps the median of the repetitions.

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace hitscan::bench {

struct Figure {
  std::string suite, case_name, backend, metric;
  double value = 0;
};

class JsonlReporter : public benchmark::ConsoleReporter {
 public:
  explicit JsonlReporter(std::FILE* out) : ConsoleReporter(OO_Tabular), out_(out) {}

  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

 private:
  std::FILE* out_;
  std::vector<Figure> figures_;
};

}  // namespace hitscan::bench
