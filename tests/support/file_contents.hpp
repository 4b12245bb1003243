#pragma once
// Whole-file reads and writes for tests that build input files byte by byte.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace hitscan::test {

inline void write_file(const std::string& path, const std::string& contents) {
  // A new file rather than an old one truncated: ext4 flushes a truncated file to disk on close,
  // which makes rewriting one file thousands of times slow.
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  std::ofstream out(path, std::ios::binary);
  out << contents;
  ASSERT_TRUE(out.good()) << path;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace hitscan::test
