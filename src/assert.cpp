#include "hitscan/assert.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace hitscan {
namespace {

void default_assert_handler(const char* expression, const char* file, int line) {
  std::fprintf(stderr, "hitscan: assertion failed: %s (%s:%d)\n", expression, file, line);
  std::abort();
}

std::atomic<AssertHandler> g_handler{&default_assert_handler};

}  // namespace

AssertHandler set_assert_handler(AssertHandler handler) {
  return g_handler.exchange(handler ? handler : &default_assert_handler);
}

void report_assert_failure(const char* expression, const char* file, int line) {
  g_handler.load()(expression, file, line);
}

}  // namespace hitscan
