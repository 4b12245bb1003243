#pragma once
// The figures of the scene suite: one JSON object per line, appended to the file the other
// benchmarks write, each of hitscan's carrying its same-run speed-up over Bullet, Jolt (when the
// benchmark is built with it) and brute force; and at the end the table of every query at every size.

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace hitscan::bench {

struct SceneFigure {
  std::size_t colliders = 0;
  /// "raycast", "raycast_any", "raycast_all", "overlap_sphere", "sphere_cast", "capsule_cast",
  /// "move_commit",
  /// "move_<p>pct_commit" (hitscan alone, p% of the colliders moved per commit).
  std::string query;
  int threads = 1;
  std::string backend;
  /// "queries_per_s" (median over the rounds), "ms" (move_commit: median per batch of moves).
  std::string metric;
  double value = 0;
  /// Queries per timed batch (moves per batch for move_commit).
  std::size_t batch = 0;
  /// Samples the median was taken over.
  int samples = 0;
};

class SceneLog {
 public:
  /// `out` may be null: the figures are then only kept for the table.
  explicit SceneLog(std::FILE* out) : out_(out) {}

  /// Adds the figures of one (size, query, threads), all backends together, and writes them with
  /// hitscan's speed-ups (Bullet's, Jolt's and brute force's time / hitscan's).
  void add(const std::vector<SceneFigure>& figures);

  /// Per size and query: each backend's figure, hitscan's speed-up over Bullet, Jolt and brute
  /// force, and whether the speed-up over Bullet meets hitscan's target for queries (3x). The Jolt
  /// columns are left out when no figure is Jolt's.
  void print_table() const;

 private:
  std::FILE* out_;
  std::vector<SceneFigure> figures_;
};

/// hitscan's same-run speed-up over `other` for one figure pair: a rate ratio for queries per
/// second, a time ratio for ms.
double speedup(const SceneFigure& hitscan, const SceneFigure& other);

}  // namespace hitscan::bench
