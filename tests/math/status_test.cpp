// HITSCAN_ASSERT compiles to nothing in Release unless asked for; these tests need it live.
#define HITSCAN_ENABLE_ASSERTS 1

#include "hitscan/status.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "hitscan/assert.hpp"

namespace hitscan {
namespace {

// Result's members are inline templates: a type private to this file keeps its instantiations
// (compiled here with asserts on) from being merged with ones compiled elsewhere without.
struct Payload {
  int value = 0;
};

struct AssertRecord {
  int calls = 0;
  std::string expression;
  std::string file;
  int line = 0;
};
AssertRecord g_record;

void recording_handler(const char* expression, const char* file, int line) {
  ++g_record.calls;
  g_record.expression = expression;
  g_record.file = file;
  g_record.line = line;
}

struct AssertFired {
  std::string expression;
};

/// Leaves the failed check by throwing, for checks whose following code cannot run.
void throwing_handler(const char* expression, const char*, int) { throw AssertFired{expression}; }

/// Installs a handler for one test and restores the previous one afterwards.
class ScopedHandler {
 public:
  explicit ScopedHandler(AssertHandler handler) : previous_(set_assert_handler(handler)) { g_record = {}; }
  ~ScopedHandler() { set_assert_handler(previous_); }
  ScopedHandler(const ScopedHandler&) = delete;
  ScopedHandler& operator=(const ScopedHandler&) = delete;

 private:
  AssertHandler previous_;
};

TEST(Status, DefaultIsOk) {
  const Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::ok);
  EXPECT_TRUE(s.message().empty());
  EXPECT_TRUE(Status::success().ok());
}

TEST(Status, CarriesCodeAndMessage) {
  const Status s(StatusCode::parse_error, "line 3: expected a vertex");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::parse_error);
  EXPECT_EQ(s.message(), "line 3: expected a vertex");
}

TEST(Status, CodeNamesAreStable) {
  EXPECT_STREQ(status_code_name(StatusCode::ok), "ok");
  EXPECT_STREQ(status_code_name(StatusCode::invalid_argument), "invalid_argument");
  EXPECT_STREQ(status_code_name(StatusCode::degenerate), "degenerate");
  EXPECT_STREQ(status_code_name(StatusCode::io_error), "io_error");
  EXPECT_STREQ(status_code_name(StatusCode::parse_error), "parse_error");
  EXPECT_STREQ(status_code_name(StatusCode::out_of_memory), "out_of_memory");
  EXPECT_STREQ(status_code_name(static_cast<StatusCode>(99)), "unknown");
}

TEST(Result, HoldsAValue) {
  Result<Payload> r = Payload{42};
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(static_cast<bool>(r));
  EXPECT_EQ(r.value().value, 42);
  EXPECT_TRUE(r.status().ok());
  r.value().value = 7;
  const Result<Payload>& view = r;
  EXPECT_EQ(view.value().value, 7);
}

TEST(Result, HoldsAFailure) {
  const Result<Payload> r = Status(StatusCode::degenerate, "zero area");
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(r.status().code(), StatusCode::degenerate);
  EXPECT_EQ(r.status().message(), "zero area");
}

TEST(Result, MovesAMoveOnlyValueOut) {
  Result<std::unique_ptr<Payload>> r = std::make_unique<Payload>(Payload{5});
  const std::unique_ptr<Payload> taken = std::move(r).value();
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(taken->value, 5);
}

TEST(Assert, HandlerReceivesExpressionFileAndLine) {
  ScopedHandler scoped(&recording_handler);
  const int two = 2;
  const int line = __LINE__ + 1;
  HITSCAN_ASSERT(two == 3);
  EXPECT_EQ(g_record.calls, 1);
  EXPECT_EQ(g_record.expression, "two == 3");
  EXPECT_NE(g_record.file.find("status_test.cpp"), std::string::npos) << g_record.file;
  EXPECT_EQ(g_record.line, line);
}

TEST(Assert, PassingCheckNeitherCallsTheHandlerNorEvaluatesTwice) {
  ScopedHandler scoped(&recording_handler);
  int evaluations = 0;
  HITSCAN_ASSERT(++evaluations == 1);
  EXPECT_EQ(evaluations, 1);
  EXPECT_EQ(g_record.calls, 0);
}

TEST(Assert, SetHandlerReturnsThePreviousOne) {
  ScopedHandler scoped(&recording_handler);
  EXPECT_EQ(set_assert_handler(&throwing_handler), &recording_handler);
  EXPECT_EQ(set_assert_handler(&recording_handler), &throwing_handler);
}

TEST(Assert, ResultContractViolationsReachTheHandler) {
  ScopedHandler scoped(&throwing_handler);
  const Result<Payload> failed = Status(StatusCode::io_error, "no such file");
  try {
    (void)failed.value();
    ADD_FAILURE() << "value() of a failed Result did not report";
  } catch (const AssertFired& fired) {
    EXPECT_EQ(fired.expression, "ok()");
  }
  // A Result must not be built from a success Status: there would be neither value nor error.
  EXPECT_THROW(Result<Payload>{Status::success()}, AssertFired);
}

TEST(AssertDeathTest, DefaultHandlerPrintsAndAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  ScopedHandler scoped(&recording_handler);
  set_assert_handler(nullptr);  // nullptr restores the default
  EXPECT_DEATH(HITSCAN_ASSERT(1 + 1 == 3), "hitscan: assertion failed: 1 \\+ 1 == 3 \\(.*status_test\\.cpp:[0-9]+\\)");
}

}  // namespace
}  // namespace hitscan
