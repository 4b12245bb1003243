#pragma once
/// A progress bar on stderr for the command line's long work (building a large BVH, casting
/// millions of rays, rendering): nothing is drawn before the work has run for a second, nothing at
/// all when the stream is not a terminal (a pipe, a file, a test's string stream), and the line is
/// cleared when the work ends, so that what the program prints stays as it was.
///
/// Known size: `label [#########.........]  45%  3.1 s`. Unknown size (a call that reports no
/// progress, such as a BVH build): `label ...  3.1 s`, redrawn by run_with_ticker.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace hitscan::tools {

/// True when `stream` is std::cerr or std::clog and the process's stderr is a terminal.
bool is_terminal_stderr(const std::ostream& stream);

class Progress {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  /// Draws on `stream` only when `enabled` (see is_terminal_stderr). total = 0 for work of
  /// unknown size. `clock` is for tests; the steady clock otherwise.
  Progress(std::ostream& stream, bool enabled, std::string label, std::uint64_t total = 0, Clock clock = {});
  /// finish().
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Records that `done` units (of total) are complete and redraws if a second has passed since
  /// the start and a tenth of a second since the last drawing. Safe from any thread.
  void update(std::uint64_t done);
  /// Redraws with the same count (for work of unknown size: the elapsed time moves).
  void tick() { update(done_); }
  /// Clears the line if anything was drawn; later updates draw nothing.
  void finish();

  /// Whether anything has been drawn so far.
  bool drawn() const { return drawn_; }

 private:
  void draw(std::chrono::steady_clock::time_point now);

  std::ostream& stream_;
  bool enabled_;
  std::string label_;
  std::uint64_t total_;
  Clock clock_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_, last_draw_{};
  std::uint64_t done_ = 0;
  bool drawn_ = false;
  bool finished_ = false;
};

/// Runs `work` on the calling thread while another thread ticks `progress` every tenth of a
/// second (for calls that report no progress of their own); returns work's result. When progress
/// is disabled no thread is started.
template <class Work>
auto run_with_ticker(Progress& progress, bool enabled, Work&& work) {
  if (!enabled) return work();
  std::mutex mutex;
  std::condition_variable done_signal;
  bool done = false;
  std::thread ticker([&] {
    std::unique_lock lock(mutex);
    while (!done_signal.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; })) progress.tick();
  });
  struct Join {
    std::mutex& mutex;
    std::condition_variable& signal;
    bool& done;
    std::thread& thread;
    ~Join() {
      {
        std::lock_guard lock(mutex);
        done = true;
      }
      signal.notify_all();
      thread.join();
    }
  } join{mutex, done_signal, done, ticker};
  return work();
}

}  // namespace hitscan::tools
