#pragma once
// Running a piece of work in a child process, so that a crash or a hang in it (a third-party
// reader fed a hostile file) ends that process and not the caller's. Private to the io layer.

#include <functional>
#include <string>
#include <string_view>

namespace hitscan::io::detail {

/// How a child's run ended.
enum class ChildEnd {
  finished,    ///< the work returned and the child exited normally
  crashed,     ///< the child died by a signal or exited with a non-zero status
  timed_out,   ///< the time limit passed first; the child was killed
  not_started  ///< no child could be made (no fork here, or fork failed): nothing ran
};

struct ChildRun {
  ChildEnd end = ChildEnd::not_started;
  /// Every byte the work sent, in order, also when the child crashed part way.
  std::string output;
  /// For a crash, how: "signal 11 (Segmentation fault)" or "exit status 1".
  std::string how;
};

/// Sends bytes from the child to the parent.
using ChildSend = std::function<void(std::string_view)>;

/// Runs work(send) in a forked child and collects what it sends. The child runs only the work
/// (it starts no thread and returns to no caller) and closes every descriptor it inherited but
/// stdin, stdout, stderr and its own channel, so that children forked at the same time by other
/// threads do not hold each other's channels open. The child starts with the fatal signals (SEGV,
/// BUS, FPE, ILL, ABRT) at their default action, so that a crash in third-party code ends it
/// without a host's crash handler (a sanitizer's, a fuzzer's) reporting it as the host's own;
/// the work calls `restore_handlers` to give the host's handlers back for its own code. A
/// positive `time_limit_seconds` kills a child that has not finished by then.
///
/// The child is forked without exec, so it starts with the locks of the parent as they were:
/// glibc's malloc and stdio are locked across fork and safe, but the allocators of the address
/// and thread sanitizers (GCC 12, clang 14) are not, and under them a child forked while another
/// thread allocates can wait forever.
ChildRun run_in_child(const std::function<void(const ChildSend& send, const std::function<void()>& restore_handlers)>& work,
                      double time_limit_seconds);

}  // namespace hitscan::io::detail
