// hs_version against the version of CMake's project() (HITSCAN_PROJECT_VERSION, a definition the
// build gives the tests) and against the C++ library's.

#include <gtest/gtest.h>

#include "hitscan/hitscan.h"
#include "hitscan/version.hpp"

namespace hitscan::test {
namespace {

TEST(CapiVersion, IsTheProjectVersionAndTheCppLibrarys) {
  const char* version = hs_version();
  ASSERT_NE(version, nullptr);
  EXPECT_STREQ(version, HITSCAN_PROJECT_VERSION);
  EXPECT_STREQ(version, hitscan::version());
  EXPECT_EQ(hs_version(), version) << "the same static text on every call";
}

}  // namespace
}  // namespace hitscan::test
