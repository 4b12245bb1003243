#pragma once
// The figures of the mesh ray suite: one JSON object per line (appended to the file the other
// benchmarks write) and, at the end, the same-run ratio table of hitscan against Embree (and
// tinybvh, when it is compared).

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace hitscan::bench {

struct Figure {
  std::string mesh;
  std::size_t tris = 0;
  std::string rays;   // "coherent", "incoherent", or empty for build figures
  std::string query;  // "closest", "any", or empty for build figures
  int threads = 1;
  std::string backend;
  std::string metric;  // mrays_per_s, hits, disagreements, build_ms, bytes_per_tri
  double value = 0;
  std::size_t ray_count = 0;  // rays traced for the figure (a subset for brute force)
  int repetitions = 0;        // samples the median was taken over
};

class FigureLog {
 public:
  /// `out` may be null: the figures are then only kept for the table.
  explicit FigureLog(std::FILE* out) : out_(out) {}

  void add(const Figure& figure);
  const std::vector<Figure>& figures() const { return figures_; }

  /// hitscan / embree_high for every case, single thread and all threads, and hitscan /
  /// tinybvh_bvh8 on one thread when it was measured; plus build time and memory per triangle.
  void print_ratio_table(int all_threads) const;

 private:
  std::FILE* out_;
  std::vector<Figure> figures_;
};

}  // namespace hitscan::bench
