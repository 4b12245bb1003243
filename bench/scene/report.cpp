#include "report.hpp"

#include <algorithm>

#include "hitscan/math/simd.hpp"

namespace hitscan::bench {
namespace {

constexpr double kTargetOverBullet = 3.0;

const SceneFigure* find(const std::vector<SceneFigure>& figures, std::size_t colliders, const std::string& query,
                        int threads, const std::string& backend) {
  for (const SceneFigure& f : figures) {
    if (f.colliders == colliders && f.query == query && f.threads == threads && f.backend == backend) return &f;
  }
  return nullptr;
}

}  // namespace

double speedup(const SceneFigure& hitscan, const SceneFigure& other) {
  if (hitscan.value <= 0 || other.value <= 0) return 0;
  return hitscan.metric == "ms" ? other.value / hitscan.value : hitscan.value / other.value;
}

void SceneLog::add(const std::vector<SceneFigure>& figures) {
  const SceneFigure* hitscan = nullptr;
  const SceneFigure* bullet = nullptr;
  const SceneFigure* jolt = nullptr;
  const SceneFigure* brute_force = nullptr;
  for (const SceneFigure& f : figures) {
    figures_.push_back(f);
    if (f.backend == "hitscan") hitscan = &f;
    if (f.backend == "bullet") bullet = &f;
    if (f.backend == "jolt") jolt = &f;
    if (f.backend == "brute_force") brute_force = &f;
  }
  if (!out_) return;
  for (const SceneFigure& f : figures) {
    std::string ratios;
    if (&f == hitscan) {
      char text[96];
      if (bullet) {
        std::snprintf(text, sizeof text, ",\"speedup_vs_bullet\":%.4g", speedup(f, *bullet));
        ratios += text;
      }
      if (jolt) {
        std::snprintf(text, sizeof text, ",\"speedup_vs_jolt\":%.4g", speedup(f, *jolt));
        ratios += text;
      }
      if (brute_force) {
        std::snprintf(text, sizeof text, ",\"speedup_vs_brute_force\":%.4g", speedup(f, *brute_force));
        ratios += text;
      }
    }
    std::fprintf(out_,
                 "{\"suite\":\"scene\",\"colliders\":%zu,\"query\":\"%s\",\"threads\":%d,\"backend\":\"%s\","
                 "\"metric\":\"%s\",\"value\":%.6g,\"batch\":%zu,\"samples\":%d%s,\"simd\":\"%s\"}\n",
                 f.colliders, f.query.c_str(), f.threads, f.backend.c_str(), f.metric.c_str(), f.value, f.batch,
                 f.samples, ratios.c_str(), HITSCAN_SIMD_ISA);
  }
  std::fflush(out_);
}

void SceneLog::print_table() const {
  std::vector<std::size_t> sizes;
  bool with_jolt = false;
  for (const SceneFigure& f : figures_) {
    if (std::find(sizes.begin(), sizes.end(), f.colliders) == sizes.end()) sizes.push_back(f.colliders);
    with_jolt = with_jolt || f.backend == "jolt";
  }
  std::printf("\nscene: medians of round-robin rounds, same run; queries/s (move_commit: ms per batch)\n");
  std::printf("  speed-up = hitscan over the other (rate ratio; time ratio for moves); target: every query >= %.0fx "
              "Bullet (moves are not queries: theirs is a cost in proportion to the colliders moved, printed above)\n",
              kTargetOverBullet);
  std::printf("  %9s %-19s %4s %12s %12s", "colliders", "query", "thr", "hitscan", "bullet");
  if (with_jolt) std::printf(" %12s", "jolt");
  std::printf(" %12s %10s", "brute_force", "vs bullet");
  if (with_jolt) std::printf(" %10s", "vs jolt");
  std::printf(" %10s %7s\n", "vs brute", "target");
  for (const std::size_t n : sizes) {
    for (const SceneFigure& h : figures_) {
      if (h.colliders != n || h.backend != "hitscan") continue;
      const SceneFigure* bullet = find(figures_, n, h.query, h.threads, "bullet");
      const SceneFigure* jolt = find(figures_, n, h.query, h.threads, "jolt");
      const SceneFigure* brute = find(figures_, n, h.query, h.threads, "brute_force");
      auto cell = [](const SceneFigure* f) {
        char text[32] = "-";
        if (f) std::snprintf(text, sizeof text, "%.4g", f->value);
        return std::string(text);
      };
      auto ratio = [&](const SceneFigure* f) {
        char text[32] = "-";
        if (f) std::snprintf(text, sizeof text, "%.2fx", speedup(h, *f));
        return std::string(text);
      };
      const bool is_move = h.query.rfind("move", 0) == 0;
      const char* target = !bullet || is_move ? "-" : speedup(h, *bullet) >= kTargetOverBullet ? "met" : "NOT met";
      std::printf("  %9zu %-19s %4d %12s %12s", n, h.query.c_str(), h.threads, cell(&h).c_str(), cell(bullet).c_str());
      if (with_jolt) std::printf(" %12s", cell(jolt).c_str());
      std::printf(" %12s %10s", cell(brute).c_str(), ratio(bullet).c_str());
      if (with_jolt) std::printf(" %10s", ratio(jolt).c_str());
      std::printf(" %10s %7s\n", ratio(brute).c_str(), target);
    }
  }
}

}  // namespace hitscan::bench
