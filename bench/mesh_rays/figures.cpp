#include "figures.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "hitscan/math/simd.hpp"

namespace hitscan::bench {
namespace {

std::string json_string_or_null(const std::string& s) { return s.empty() ? "null" : "\"" + s + "\""; }

std::string case_name(const Figure& f) {
  return f.rays.empty() ? f.mesh + "/build" : f.mesh + "/" + f.rays + "/" + f.query;
}

}  // namespace

void FigureLog::add(const Figure& f) {
  figures_.push_back(f);
  if (!out_) return;
  std::fprintf(out_,
               "{\"suite\":\"mesh_rays\",\"case\":\"%s\",\"mesh\":\"%s\",\"tris\":%zu,\"rays\":%s,\"query\":%s,"
               "\"threads\":%d,\"backend\":\"%s\",\"metric\":\"%s\",\"value\":%.10g,\"ray_count\":%zu,"
               "\"repetitions\":%d,\"simd\":\"%s\"}\n",
               case_name(f).c_str(), f.mesh.c_str(), f.tris, json_string_or_null(f.rays).c_str(),
               json_string_or_null(f.query).c_str(), f.threads, f.backend.c_str(), f.metric.c_str(), f.value,
               f.ray_count, f.repetitions, HITSCAN_SIMD_ISA);
  std::fflush(out_);
}

void FigureLog::print_ratio_table(int all_threads) const {
  // (case, threads, backend, metric) -> value, and the cases in the order they were measured.
  std::map<std::tuple<std::string, int, std::string, std::string>, double> value;
  std::vector<std::string> cases;
  std::set<std::string> seen;
  for (const Figure& f : figures_) {
    const std::string name = case_name(f);
    value[std::make_tuple(name, f.threads, f.backend, f.metric)] = f.value;
    if (seen.insert(name).second) cases.push_back(name);
  }
  auto get = [&](const std::string& c, int threads, const char* backend, const char* metric) {
    const auto it = value.find(std::make_tuple(c, threads, std::string(backend), std::string(metric)));
    return it == value.end() ? -1.0 : it->second;
  };
  // tinybvh's column is there when the build compares it.
  const bool tinybvh = std::any_of(figures_.begin(), figures_.end(), [](const Figure& f) { return f.backend == "tinybvh_bvh8"; });
  std::printf("\nmesh_rays: hitscan / embree_high%s, same run (Mrays/s; ratio > 1: hitscan faster)\n",
              tinybvh ? " and hitscan / tinybvh_bvh8" : "");
  std::printf("  %-36s %9s %9s %7s", "case", "hitscan", "emb_high", "1 thr");
  if (tinybvh) std::printf(" %9s %7s", "tinybvh", "1 thr");
  if (all_threads > 1) std::printf(" | %9s %9s %4d thr", "hitscan", "emb_high", all_threads);
  std::printf("\n");
  // A row for each case, one for its streams (hitscan's batch against Embree's rtcIntersect1M),
  // and for the coherent cases one more: hitscan's 64-ray packets against Embree's 8-ray packets.
  const auto row = [&](const std::string& c, const std::string& label, const char* ours, const char* theirs,
                       const char* tinybvh_backend) {
    const double h1 = get(c, 1, ours, "mrays_per_s"), e1 = get(c, 1, theirs, "mrays_per_s");
    if (h1 < 0 || e1 < 0) return;
    std::printf("  %-36s %9.2f %9.2f %6.2fx", label.c_str(), h1, e1, h1 / e1);
    if (tinybvh) {
      const double t1 = tinybvh_backend ? get(c, 1, tinybvh_backend, "mrays_per_s") : -1.0;
      if (t1 > 0) {
        std::printf(" %9.2f %6.2fx", t1, h1 / t1);
      } else {
        std::printf(" %9s %7s", "", "");
      }
    }
    const double hn = get(c, all_threads, ours, "mrays_per_s"), en = get(c, all_threads, theirs, "mrays_per_s");
    if (all_threads > 1 && hn > 0 && en > 0) std::printf(" | %9.2f %9.2f %7.2fx", hn, en, hn / en);
    std::printf("\n");
  };
  for (const std::string& c : cases) {
    row(c, c, "hitscan", "embree_high", "tinybvh_bvh8");
    row(c, c + " stream", "hitscan_stream", "embree_high_stream", nullptr);
    row(c, c + " packets", "hitscan_packet64", "embree_high_packet8", nullptr);
  }
  // Builds against Embree MEDIUM, the build yardstick (ratio > 1: hitscan builds faster), then
  // the memory against Embree HIGH's, whose tree is the one traced above.
  std::printf("  %-36s %9s %9s %7s | %9s %9s %7s", "build, 1 thread (ms | bytes/tri)", "hitscan", "emb_med", "speed",
              "hitscan", "emb_high", "ratio");
  if (tinybvh) std::printf(" | %9s %9s", "tinybvh ms", "tinybvh B");
  std::printf("\n");
  for (const std::string& c : cases) {
    const double hb = get(c, 1, "hitscan", "build_ms"), eb = get(c, 1, "embree_medium", "build_ms");
    if (hb <= 0 || eb <= 0) continue;
    const double hm = get(c, 1, "hitscan", "bytes_per_tri"), em = get(c, 1, "embree_high", "bytes_per_tri");
    std::printf("  %-36s %9.1f %9.1f %6.2fx | %9.1f %9.1f %6.2fx", c.c_str(), hb, eb, eb / hb, hm, em, hm / em);
    if (tinybvh) {
      std::printf(" | %9.1f %9.1f", get(c, 1, "tinybvh_bvh8", "build_ms"), get(c, 1, "tinybvh_bvh8", "bytes_per_tri"));
    }
    std::printf("\n");
  }
}

}  // namespace hitscan::bench
