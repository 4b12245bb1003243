// hitscan_bench [--jsonl FILE] [google benchmark flags]
// Defaults to interleaved repetitions with medians, so that backends compared in one run share
// the machine's drift.

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "jsonl_reporter.hpp"

int main(int argc, char** argv) {
  std::string jsonl_path;
  std::vector<char*> args = {argv[0]};
  std::string repetitions = "--benchmark_repetitions=7";
  std::string interleave = "--benchmark_enable_random_interleaving=true";
  std::string aggregates = "--benchmark_report_aggregates_only=true";
  std::string min_time = "--benchmark_min_time=0.05";
  args.push_back(repetitions.data());
  args.push_back(interleave.data());
  args.push_back(aggregates.data());
  args.push_back(min_time.data());
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--jsonl") == 0 && i + 1 < argc) {
      jsonl_path = argv[++i];
    } else {
      args.push_back(argv[i]);
    }
  }
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 2;

  std::FILE* out = nullptr;
  if (!jsonl_path.empty()) {
    out = std::fopen(jsonl_path.c_str(), "w");
    if (!out) {
      std::fprintf(stderr, "hitscan_bench: cannot write %s\n", jsonl_path.c_str());
      return 1;
    }
  }
  hitscan::bench::JsonlReporter reporter(out);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  if (out) std::fclose(out);
  return 0;
}
