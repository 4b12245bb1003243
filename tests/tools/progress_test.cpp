#include "tools/progress.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>

namespace hitscan::tools {
namespace {

using namespace std::chrono_literals;

// A clock the test moves by hand.
struct FakeClock {
  std::chrono::steady_clock::time_point now{};
  Progress::Clock function() {
    return [this] { return now; };
  }
};

TEST(Progress, DrawsNothingInTheFirstSecond) {
  std::ostringstream stream;
  FakeClock clock;
  {
    Progress progress(stream, true, "casting rays", 100, clock.function());
    clock.now += 900ms;
    progress.update(90);
    EXPECT_FALSE(progress.drawn());
  }
  EXPECT_EQ(stream.str(), "");  // and finishing draws nothing either
}

TEST(Progress, DrawsTheFractionAfterASecondAndClearsTheLineAtTheEnd) {
  std::ostringstream stream;
  FakeClock clock;
  Progress progress(stream, true, "casting rays", 200, clock.function());
  clock.now += 1500ms;
  progress.update(50);
  ASSERT_TRUE(progress.drawn());
  const std::string line = stream.str();
  EXPECT_EQ(line.rfind("\rcasting rays [", 0), 0u) << line;
  EXPECT_NE(line.find(std::string(7, '#') + std::string(23, '.') + "]  25%"), std::string::npos) << line;
  EXPECT_NE(line.find("1.5 s"), std::string::npos) << line;
  progress.finish();
  EXPECT_EQ(stream.str().substr(line.size()), "\r\x1b[K");
  clock.now += 1s;
  progress.update(200);  // after finish: nothing more
  EXPECT_EQ(stream.str().size(), line.size() + 4);
}

TEST(Progress, RedrawsAtMostTenTimesASecondAndClampsTheCount) {
  std::ostringstream stream;
  FakeClock clock;
  Progress progress(stream, true, "rendering", 10, clock.function());
  clock.now += 2s;
  progress.update(1);
  const std::size_t once = stream.str().size();
  clock.now += 50ms;
  progress.update(2);
  EXPECT_EQ(stream.str().size(), once);  // too soon
  clock.now += 60ms;
  progress.update(1000);  // more than the total: shown as 100%
  EXPECT_NE(stream.str().find("] 100%"), std::string::npos) << stream.str();
}

TEST(Progress, UnknownSizeShowsElapsedTime) {
  std::ostringstream stream;
  FakeClock clock;
  Progress progress(stream, true, "building the BVH", 0, clock.function());
  clock.now += 3200ms;
  progress.tick();
  EXPECT_EQ(stream.str(), "\rbuilding the BVH ...  3.2 s\x1b[K");
}

TEST(Progress, DisabledOrNotATerminalDrawsNothing) {
  std::ostringstream stream;
  FakeClock clock;
  Progress progress(stream, false, "casting rays", 10, clock.function());
  clock.now += 5s;
  progress.update(5);
  progress.finish();
  EXPECT_EQ(stream.str(), "");
  EXPECT_FALSE(is_terminal_stderr(stream));  // a string stream is never a terminal
}

TEST(Progress, TickerRunsTheWorkAndReturnsItsResult) {
  std::ostringstream stream;
  Progress progress(stream, true, "work");
  const int value = run_with_ticker(progress, true, [] { return 42; });
  EXPECT_EQ(value, 42);
  EXPECT_EQ(run_with_ticker(progress, false, [] { return 7; }), 7);
}

}  // namespace
}  // namespace hitscan::tools
