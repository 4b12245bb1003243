#pragma once
// What the benchmark programs share: comma-separated lists, the --sizes list, the JSON lines file
// every suite appends its figures to, and the frame of every suite's main.

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace hitscan::bench {

/// The non-empty items of a comma-separated list ("a,,b" gives a and b).
std::vector<std::string> split_list(const std::string& list);

/// A list of sizes ("1000,10000") into `sizes`; false when it is empty or an item is below 2.
bool parse_sizes(const char* text, std::vector<std::size_t>& sizes);

/// Opens `path` for appending into `out`, or leaves `out` null when `path` is empty. false, after
/// telling stderr under `program`'s name, when the file cannot be opened.
bool open_jsonl(const std::string& path, const char* program, std::FILE*& out);

/// Seconds since `start`, on the steady clock.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The frame of a suite's main: parses the command line into Options with `parse(argc, argv,
/// options)` (exit status 2 when it fails), opens the JSON lines file named by options.jsonl (1
/// when it cannot be opened), runs `run(options, out)`, which returns the number of failures,
/// and closes the file. Exit status 0 without failures, 1 with.
template <class Options, class Parse, class Run>
int run_suite(int argc, char** argv, const char* program, Parse parse, Run run) {
  Options options;
  if (!parse(argc, argv, options)) return 2;
  std::FILE* out = nullptr;
  if (!open_jsonl(options.jsonl, program, out)) return 1;
  const int failures = run(options, out);
  if (out) std::fclose(out);
  return failures == 0 ? 0 : 1;
}

}  // namespace hitscan::bench
