#include "report.hpp"

#include "hitscan/math/simd.hpp"

namespace hitscan::bench {
namespace {

// hitscan's targets for one AR frame, at all threads.
constexpr double kFrameTargetMs = 5.0;     // drape_100m + occlusion_objects + chunk_update
constexpr double kDepthMapTargetMs = 8.0;  // depth_map_640x480

constexpr const char* kFrameCases[] = {"drape_100m", "occlusion_objects", "chunk_update"};
constexpr const char* kDepthMapCase = "depth_map_640x480";

}  // namespace

const ArFigure* ArLog::find(const std::string& name, int threads, const std::string& backend) const {
  for (const ArFigure& f : figures_) {
    if (f.name == name && f.threads == threads && f.backend == backend) return &f;
  }
  return nullptr;
}

void ArLog::add(const ArFigure& f) {
  figures_.push_back(f);
  if (!out_ || !f.logged) return;
  std::fprintf(out_,
               "{\"suite\":\"ar\",\"case\":\"%s\",\"tris\":%zu,\"threads\":%d,\"backend\":\"%s\","
               "\"metric\":\"ms_per_frame\",\"value\":%.6g,\"cpu_ms_per_frame\":%.6g,\"frames\":%d,\"samples\":%d,"
               "\"simd\":\"%s\"}\n",
               f.name.c_str(), triangles_, f.threads, f.backend.c_str(), f.ms_per_frame, f.cpu_ms_per_frame, f.frames, f.samples,
               HITSCAN_SIMD_ISA);
  std::fflush(out_);
}

bool ArLog::print_table(int all_threads) const {
  std::printf("\nar: %zu triangles; ms per frame, median of round-robin rounds (min .. max over rounds); cpu: the\n"
              "  process's CPU time per frame, all threads together (median)\n",
              triangles_);
  std::printf("  %-26s %-20s %4s %10s %22s %10s %7s %7s\n", "case", "backend", "thr", "ms/frame", "min .. max",
              "cpu ms", "frames", "rounds");
  for (const ArFigure& f : figures_) {
    char spread[48];
    std::snprintf(spread, sizeof spread, "%.3f .. %.3f", f.min_ms, f.max_ms);
    std::printf("  %-26s %-20s %4d %10.3f %22s %10.3f %7d %7d%s\n", f.name.c_str(), f.backend.c_str(), f.threads,
                f.ms_per_frame, spread, f.cpu_ms_per_frame, f.frames, f.samples, f.logged ? "" : "  (not logged)");
  }
  bool baselines = false;
  for (const ArFigure& h : figures_) {
    if (h.backend != "hitscan") continue;
    for (const char* other : {"embree_high", "embree_high_packet8", "embree_high_packet16"}) {
      const ArFigure* e = find(h.name, h.threads, other);
      if (!e || h.ms_per_frame <= 0) continue;
      if (!baselines) std::printf("\n  hitscan's speed over Embree's on the same frame (time ratio, same run):\n");
      baselines = true;
      std::printf("    %-26s %d thread%s: %.3f ms vs %s %.3f ms = %.2fx\n", h.name.c_str(), h.threads,
                  h.threads == 1 ? " " : "s", h.ms_per_frame, other, e->ms_per_frame, e->ms_per_frame / h.ms_per_frame);
    }
  }
  double frame_sum = 0;
  bool complete = true;
  std::printf("\n  targets at %d threads:\n", all_threads);
  for (const char* name : kFrameCases) {
    const ArFigure* f = find(name, all_threads);
    complete = complete && f;
    if (f) frame_sum += f->ms_per_frame;
  }
  const bool frame_met = complete && frame_sum < kFrameTargetMs;
  std::printf("    drape_100m + occlusion_objects + chunk_update = %.3f ms (target < %.0f ms): %s\n", frame_sum,
              kFrameTargetMs, !complete ? "missing" : frame_met ? "met" : "NOT met");
  const ArFigure* depth = find(kDepthMapCase, all_threads);
  const bool depth_met = depth && depth->ms_per_frame < kDepthMapTargetMs;
  std::printf("    depth_map_640x480 = %.3f ms (target < %.0f ms): %s\n", depth ? depth->ms_per_frame : 0.0,
              kDepthMapTargetMs, !depth ? "missing" : depth_met ? "met" : "NOT met");
  return frame_met && depth_met;
}

}  // namespace hitscan::bench
