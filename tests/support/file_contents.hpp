#pragma once
// Whole-file reads and writes for tests that build input files byte by byte.

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

namespace hitscan::test {

inline void write_file(const std::string& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary);
  out << contents;
  ASSERT_TRUE(out.good()) << path;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace hitscan::test
