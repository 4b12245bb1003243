#include "arguments.hpp"

#include <algorithm>
#include <cstdlib>

namespace hitscan::bench {

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> items;
  for (std::size_t begin = 0; begin <= list.size();) {
    const std::size_t comma = std::min(list.find(',', begin), list.size());
    if (comma > begin) items.push_back(list.substr(begin, comma - begin));
    begin = comma + 1;
  }
  return items;
}

bool parse_sizes(const char* text, std::vector<std::size_t>& sizes) {
  sizes.clear();
  for (const std::string& item : split_list(text)) {
    const std::size_t n = std::strtoull(item.c_str(), nullptr, 10);
    if (n < 2) return false;
    sizes.push_back(n);
  }
  return !sizes.empty();
}

bool open_jsonl(const std::string& path, const char* program, std::FILE*& out) {
  out = nullptr;
  if (path.empty()) return true;
  out = std::fopen(path.c_str(), "a");
  if (!out) std::fprintf(stderr, "%s: cannot append to %s\n", program, path.c_str());
  return out != nullptr;
}

}  // namespace hitscan::bench
