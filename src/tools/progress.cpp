#include "tools/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <utility>

namespace hitscan::tools {
namespace {

constexpr auto kQuietStart = std::chrono::seconds(1);
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);
constexpr int kBarWidth = 30;

}  // namespace

bool is_terminal_stderr(const std::ostream& stream) {
  return (&stream == &std::cerr || &stream == &std::clog) && isatty(STDERR_FILENO) == 1;
}

Progress::Progress(std::ostream& stream, bool enabled, std::string label, std::uint64_t total, Clock clock)
    : stream_(stream),
      enabled_(enabled),
      label_(std::move(label)),
      total_(total),
      clock_(clock ? std::move(clock) : Clock([] { return std::chrono::steady_clock::now(); })),
      start_(clock_()) {}

Progress::~Progress() { finish(); }

void Progress::update(std::uint64_t done) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  done_ = total_ > 0 ? std::min(done, total_) : done;
  if (finished_) return;
  const auto now = clock_();
  if (now - start_ < kQuietStart || (drawn_ && now - last_draw_ < kRedrawInterval)) return;
  draw(now);
}

void Progress::draw(std::chrono::steady_clock::time_point now) {
  std::ostringstream line;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  line << '\r' << label_ << ' ';
  if (total_ > 0) {
    const double fraction = static_cast<double>(done_) / static_cast<double>(total_);
    const int filled = static_cast<int>(fraction * kBarWidth);
    line << '[' << std::string(filled, '#') << std::string(kBarWidth - filled, '.') << "] " << std::setw(3)
         << static_cast<int>(fraction * 100.0) << '%';
  } else {
    line << "...";
  }
  line << "  " << std::fixed << std::setprecision(1) << seconds << " s\x1b[K";
  stream_ << line.str() << std::flush;
  drawn_ = true;
  last_draw_ = now;
}

void Progress::finish() {
  std::lock_guard lock(mutex_);
  if (finished_) return;
  finished_ = true;
  if (drawn_) stream_ << "\r\x1b[K" << std::flush;  // back to the start of the line, cleared
}

}  // namespace hitscan::tools
