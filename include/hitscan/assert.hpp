#pragma once
/// Contract checks. A violated precondition (a caller bug, not bad data) goes to a handler that
/// the user can replace; the default handler prints the failed expression to stderr and aborts.
/// Data that may legitimately be bad (files, user meshes, rays) never reaches an assert: it is a
/// documented miss or a Status instead.

namespace hitscan {

/// Called with the failed expression, the file and the line. If it returns, execution continues
/// past the check, so a handler that returns must be prepared for the code that follows.
using AssertHandler = void (*)(const char* expression, const char* file, int line);

/// Installs a handler (nullptr restores the default) and returns the previous one.
AssertHandler set_assert_handler(AssertHandler handler);

/// Invokes the installed handler. Used by HITSCAN_ASSERT.
void report_assert_failure(const char* expression, const char* file, int line);

}  // namespace hitscan

#if defined(NDEBUG) && !defined(HITSCAN_ENABLE_ASSERTS)
#define HITSCAN_ASSERT(condition) static_cast<void>(0)
#else
#define HITSCAN_ASSERT(condition) \
  ((condition) ? static_cast<void>(0) : ::hitscan::report_assert_failure(#condition, __FILE__, __LINE__))
#endif
