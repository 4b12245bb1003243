#pragma once
// Command-line pieces the benchmark programs share: comma-separated lists, the --sizes list, and
// the JSON lines file every suite appends its figures to.

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

}  // namespace hitscan::bench
