#pragma once
// The figures of the contacts suite: one JSON object per line, appended to the file the other
// benchmarks write, and at the end the same-run tables: ms per pass of every backend at every
// size, and hitscan's fastest backend against Bullet's.

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace hitscan::bench {

struct ContactFigure {
  std::size_t objects = 0;
  std::string backend;
  /// "ms_per_pass" (median over the repetitions), "pairs" (touching pairs found in the last
  /// pass), "disagreements" (pairs in which the backend and brute force disagree).
  std::string metric;
  double value = 0;
  /// Samples the median was taken over.
  int repetitions = 0;
  /// Passes per sample.
  int passes = 0;
  bool hitscan = true;
};

class ContactLog {
 public:
  /// `out` may be null: the figures are then only kept for the tables.
  explicit ContactLog(std::FILE* out) : out_(out) {}

  void add(const ContactFigure& figure);

  /// ms per pass by backend and size, then per size hitscan's fastest backend that agrees with
  /// brute force against each Bullet backend (time ratio hitscan / Bullet; the target is <= 0.5
  /// against the fastest Bullet backend).
  void print_tables() const;

 private:
  double find(std::size_t objects, const std::string& backend, const std::string& metric) const;

  std::FILE* out_;
  std::vector<ContactFigure> figures_;
};

}  // namespace hitscan::bench
