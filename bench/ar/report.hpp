#pragma once
// The figures of the AR suite: one JSON object per line, appended to the file the other
// benchmarks write (suite "ar", metric "ms_per_frame", backend "hitscan", one line per case and
// thread count), and at the end a table of every case and hitscan's targets.

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace hitscan::bench {

struct ArFigure {
  /// "drape_100m", "occlusion_objects", "chunk_update", "depth_map_640x480".
  std::string name;
  int threads = 1;
  /// "hitscan", or a baseline of the depth map: "embree_high" (rtcIntersect1), "embree_high_packet8",
  /// "embree_high_packet16".
  std::string backend = "hitscan";
  /// Median over the rounds of the mean time per frame in each round, milliseconds.
  double ms_per_frame = 0;
  /// Slowest and fastest round, to show the spread the median was taken from.
  double min_ms = 0, max_ms = 0;
  /// Median of the process's CPU time per frame (all threads together): apart from the time spent
  /// waiting for a core on a shared machine.
  double cpu_ms_per_frame = 0;
  /// Frames per round, and rounds (samples the median was taken over).
  int frames = 0;
  int samples = 0;
  /// Whether the figure goes to the JSON lines (the informational ones do not).
  bool logged = true;
};

class ArLog {
 public:
  /// `out` may be null: the figures are then only kept for the table.
  ArLog(std::FILE* out, std::size_t triangles) : out_(out), triangles_(triangles) {}

  void add(const ArFigure& figure);

  /// Every figure, then the sum of the first three cases at all threads against 5 ms and the
  /// depth map at all threads against 8 ms, and hitscan's depth map beside Embree's (speed
  /// ratios of the same run). Returns whether both targets are met.
  bool print_table(int all_threads) const;

 private:
  const ArFigure* find(const std::string& name, int threads, const std::string& backend = "hitscan") const;

  std::FILE* out_;
  std::size_t triangles_;
  std::vector<ArFigure> figures_;
};

}  // namespace hitscan::bench
