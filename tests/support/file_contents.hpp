#pragma once
// Whole-file reads and writes, and the little-endian numbers of binary formats, for tests that build
// input files byte by byte.

#include <gtest/gtest.h>

#include <cstdint>
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

// The low `bytes` bytes of `bits`, least significant first, as binary formats store their numbers.
inline std::string little_endian(std::uint64_t bits, int bytes) {
  std::string out;
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((bits >> (8 * i)) & 0xFF);
  return out;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace hitscan::test
