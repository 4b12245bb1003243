#pragma once
// ScratchFile: the fuzzers' way of handing bytes to readers that take a path. Each process gets
// its own directory under /tmp (so that parallel fuzzing jobs never share a file), removed when
// the process exits normally; a crashing run leaves it behind for inspection.

#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

namespace hitscan::fuzz {

class ScratchFile {
 public:
  /// A file named `name` in this process's scratch directory; nothing is written yet.
  explicit ScratchFile(const std::string& name) : path_(directory() + "/" + name) {}
  ~ScratchFile() {
    std::error_code ignored;
    std::filesystem::remove_all(std::filesystem::path(path_).parent_path(), ignored);
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  /// Replaces the file's contents with `bytes`; aborts when that fails, since a fuzzer that cannot
  /// write its input would test nothing.
  void write(const std::uint8_t* bytes, std::size_t size) const {
    std::FILE* file = std::fopen(path_.c_str(), "wb");
    if (file == nullptr || std::fwrite(bytes, 1, size, file) != size || std::fclose(file) != 0) {
      std::fprintf(stderr, "cannot write the fuzz input to %s\n", path_.c_str());
      std::abort();
    }
  }

  const std::string& path() const { return path_; }

 private:
  static const std::string& directory() {
    static const std::string made = [] {
      std::string pattern = "/tmp/hitscan-fuzz-XXXXXX";
      if (mkdtemp(pattern.data()) == nullptr) {
        std::perror("mkdtemp");
        std::abort();
      }
      return pattern;
    }();
    return made;
  }

  std::string path_;
};

}  // namespace hitscan::fuzz
