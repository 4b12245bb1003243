#pragma once
// A fresh directory under the system temp dir, removed with its contents at scope exit. Random
// names keep concurrent test processes (ctest -j, several build trees) apart.

#include <filesystem>
#include <random>
#include <string>
#include <system_error>

namespace hitscan::test {

class ScratchDirectory {
 public:
  explicit ScratchDirectory(const std::string& prefix = "hitscan_test_") {
    std::random_device entropy;
    path_ = std::filesystem::temp_directory_path() / (prefix + std::to_string(entropy()) + std::to_string(entropy()));
    std::filesystem::create_directories(path_);
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace hitscan::test
