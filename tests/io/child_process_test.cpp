#include "io/child_process.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>

namespace hitscan::io::detail {
namespace {

using Restore = std::function<void()>;

TEST(RunInChild, AFinishedRunGivesEveryByteSentInOrder) {
  std::string big(8 << 20, '\0');  // more than a pipe holds: the parent must read as the child writes
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 2654435761u >> 24);
  const ChildRun run = run_in_child(
      [&](const ChildSend& send, const Restore&) {
        send("head");
        send(big);
        send(std::string_view("\0tail", 5));
      },
      0);
  ASSERT_EQ(run.end, ChildEnd::finished) << run.how;
  EXPECT_EQ(run.output, "head" + big + std::string("\0tail", 5));
  EXPECT_EQ(run.how, "");
}

TEST(RunInChild, ACrashIsReportedWithItsSignalAndWhatWasSentBeforeIt) {
  const ChildRun run = run_in_child(
      [](const ChildSend& send, const Restore&) {
        send("before");
        std::abort();
      },
      0);
  EXPECT_EQ(run.end, ChildEnd::crashed);
  EXPECT_EQ(run.output, "before");
  EXPECT_EQ(run.how.rfind("signal " + std::to_string(SIGABRT), 0), 0u) << run.how;
}

TEST(RunInChild, ANonZeroExitIsACrash) {
  const ChildRun run = run_in_child([](const ChildSend&, const Restore&) { ::_exit(3); }, 0);
  EXPECT_EQ(run.end, ChildEnd::crashed);
  EXPECT_EQ(run.how, "exit status 3");
}

TEST(RunInChild, TheTimeLimitStopsAChildThatDoesNotFinish) {
  const auto start = std::chrono::steady_clock::now();
  const ChildRun run = run_in_child(
      [](const ChildSend& send, const Restore&) {
        send("started");
        std::this_thread::sleep_for(std::chrono::seconds(60));
      },
      0.2);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(run.end, ChildEnd::timed_out);
  EXPECT_EQ(run.output, "started");
  EXPECT_LT(seconds, 30.0);  // not the minute the child would have slept
}

// The host's SIGABRT handler ends the process with status 42.
extern "C" void exit_42(int) { ::_exit(42); }

TEST(RunInChild, FatalSignalsTakeTheirDefaultActionUntilTheWorkRestoresTheHostsHandlers) {
  struct sigaction host {}, before{};
  host.sa_handler = exit_42;
  sigemptyset(&host.sa_mask);
  ASSERT_EQ(::sigaction(SIGABRT, &host, &before), 0);
  const ChildRun quiet = run_in_child([](const ChildSend&, const Restore&) { std::raise(SIGABRT); }, 0);
  const ChildRun restored = run_in_child(
      [](const ChildSend&, const Restore& restore) {
        restore();
        std::raise(SIGABRT);
      },
      0);
  ::sigaction(SIGABRT, &before, nullptr);
  EXPECT_EQ(quiet.end, ChildEnd::crashed);
  EXPECT_EQ(quiet.how.rfind("signal " + std::to_string(SIGABRT), 0), 0u) << quiet.how;
  EXPECT_EQ(restored.end, ChildEnd::crashed);
  EXPECT_EQ(restored.how, "exit status 42");
}

TEST(RunInChild, TheChildHoldsNoDescriptorOfTheParentButItsOwnAndTheStandardOnes) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const ChildRun run = run_in_child(
      [&](const ChildSend& send, const Restore&) {
        const bool read_end_open = ::fcntl(fds[0], F_GETFD) != -1, write_end_open = ::fcntl(fds[1], F_GETFD) != -1;
        const bool stderr_open = ::fcntl(2, F_GETFD) != -1;
        send(std::string(read_end_open ? "r" : "-") + (write_end_open ? "w" : "-") + (stderr_open ? "e" : "-"));
      },
      0);
  ::close(fds[0]), ::close(fds[1]);
  ASSERT_EQ(run.end, ChildEnd::finished) << run.how;
  EXPECT_EQ(run.output, "--e");
}

}  // namespace
}  // namespace hitscan::io::detail
