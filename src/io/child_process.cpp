#include "child_process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iterator>

#if defined(__linux__)
#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#define HITSCAN_HAS_FORK 1
#endif

namespace hitscan::io::detail {

#if defined(HITSCAN_HAS_FORK)
namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

// Writes all of `bytes` to fd; false when the parent has gone.
bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Closes every descriptor from 3 up but `keep`.
void close_inherited(int keep) {
  const auto close_range = [](unsigned first, unsigned last) {
    if (first > last) return;
#if defined(SYS_close_range)
    if (::syscall(SYS_close_range, first, last, 0u) == 0) return;
#endif
    const long open_max = ::sysconf(_SC_OPEN_MAX);
    const unsigned end = open_max > 0 && static_cast<unsigned long>(open_max) - 1 < last ? unsigned(open_max - 1) : last;
    for (unsigned fd = first; fd <= end; ++fd) ::close(static_cast<int>(fd));
  };
  if (keep > 3) close_range(3, static_cast<unsigned>(keep) - 1);
  close_range(keep >= 3 ? static_cast<unsigned>(keep) + 1 : 3u, ~0u);
}

[[noreturn]] void child_main(int fd,
                             const std::function<void(const ChildSend&, const std::function<void()>&)>& work) {
  close_inherited(fd);
  struct sigaction saved[std::size(kFatalSignals)];
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  for (std::size_t i = 0; i < std::size(kFatalSignals); ++i) ::sigaction(kFatalSignals[i], &fallback, &saved[i]);
  const auto restore = [&saved] {
    for (std::size_t i = 0; i < std::size(kFatalSignals); ++i) ::sigaction(kFatalSignals[i], &saved[i], nullptr);
  };
  bool parent_gone = false;
  const ChildSend send = [&](std::string_view bytes) { parent_gone = parent_gone || !write_all(fd, bytes); };
  work(send, restore);
  ::_exit(parent_gone ? 1 : 0);  // no atexit handlers, no flush of buffers copied from the parent
}

std::string describe(int status) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    const char* name = ::strsignal(signal);
    return "signal " + std::to_string(signal) + (name ? std::string(" (") + name + ")" : std::string());
  }
  return "exit status " + std::to_string(WEXITSTATUS(status));
}

// waitpid, again when interrupted; the status, or -1 when the child was reaped elsewhere.
int wait_for(pid_t pid) {
  int status = 0;
  for (;;) {
    if (::waitpid(pid, &status, 0) == pid) return status;
    if (errno != EINTR) return -1;
  }
}

}  // namespace

ChildRun run_in_child(const std::function<void(const ChildSend&, const std::function<void()>&)>& work,
                      double time_limit_seconds) {
  ChildRun run;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return run;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]), ::close(fds[1]);
    return run;
  }
  if (pid == 0) {
    ::close(fds[0]);
    child_main(fds[1], work);
  }
  ::close(fds[1]);
  const bool limited = time_limit_seconds > 0;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(limited ? time_limit_seconds : 0.0));
  bool timed_out = false;
  char buffer[1 << 16];
  for (;;) {
    int wait_ms = -1;
    if (limited) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        timed_out = true;
        break;
      }
      wait_ms = left.count() > 1'000'000 ? 1'000'000 : static_cast<int>(left.count());
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // the deadline is checked above
    const ssize_t n = ready < 0 ? -1 : ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end of the child's output (or a broken pipe: the child's status says)
    run.output.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  const int status = wait_for(pid);
  if (timed_out) {
    run.end = ChildEnd::timed_out;
  } else if (status == -1) {
    // Reaped by someone else (a host's SIGCHLD handler): only the output can tell.
    run.end = ChildEnd::finished;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    run.end = ChildEnd::finished;
  } else {
    run.end = ChildEnd::crashed;
    run.how = describe(status);
  }
  return run;
}

#else

ChildRun run_in_child(const std::function<void(const ChildSend&, const std::function<void()>&)>&, double) { return {}; }

#endif

}  // namespace hitscan::io::detail
