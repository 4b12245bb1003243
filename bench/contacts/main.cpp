// hitscan_contacts_bench: the "contacts" suite. n / 2 spheres and n / 2 boxes in a cube
// (scene.hpp); one pass finds every touching (sphere, box) pair and its contact (point, normal,
// depth). hitscan's brute force, two-stage, uniform grid and dynamic tree side by side with
// Bullet 3 (dedicated sphere-box algorithm and GJK, warm world and from scratch) and, when built
// with it, Jolt Physics (jolt_backend.cpp), in one process on the same objects and frames, on one
// thread.
//
//   hitscan_contacts_bench [--jsonl FILE] [--repetitions R] [--sizes 1000,10000,100000]
//                          [--brute-force-max N] [--bullet-scratch-max N] [--backends a,b,...]
//                          [--jitter J] [--quick]
//
// Every figure is the median of R repetitions (default 7) taken round-robin over the backends,
// the starting backend rotating, so that all of them share the machine's drift; a repetition of
// a backend runs it over every frame of the size (32 frames at 1000 objects, fewer above, at
// least 2), after one untimed round that warms every backend up.
//
// What is affordable: the brute-force backends run up to --brute-force-max objects (default
// 10000: 25 million pairs a pass); above it the reference for the cross-check is one untimed
// two-stage 8-wide pass. Bullet's from-scratch worlds run up to --bullet-scratch-max objects
// (default 10000; at 10^5 a pass takes seconds). --backends keeps only the named backends,
// --jitter sets how far objects move between frames (scene.hpp; larger values make proxies leave
// their fat boxes). --quick: sizes 1000 and 10000, 3 repetitions. JSON lines are appended to FILE.
// The exit status is 1 when one of hitscan's backends disagrees with brute force.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../common/arguments.hpp"
#include "../mesh_rays/statistics.hpp"
#include "backend.hpp"
#include "cross_check.hpp"
#include "report.hpp"

namespace hitscan::bench {
namespace {

constexpr std::uint64_t kSeed = 0x5EED'C0'47AC7ull;

struct Options {
  std::string jsonl;
  int repetitions = 7;
  std::vector<std::size_t> sizes = {1000, 10000, 100000};
  std::size_t brute_force_max = 10000;
  std::size_t bullet_scratch_max = 10000;
  float jitter = kDefaultJitter;
  /// Only these backends, when not empty.
  std::vector<std::string> backends;
};

// Frames per size: enough passes per sample to time a fast pass at 1000 objects, few above.
std::size_t frames_for(std::size_t objects) { return std::clamp<std::size_t>(32000 / objects, 2, 32); }

struct Entry {
  std::unique_ptr<Backend> backend;
  std::vector<PairContact> answers;  // of the last pass
  std::vector<double> ms_per_pass;
};

void run_all_frames(Entry& e, const ContactScene& scene) {
  for (const Frame& frame : scene.frames) e.backend->pass(frame, e.answers);
}

// Runs every backend on one size and logs its figures. Returns how many of hitscan's backends
// disagree with brute force.
int run_size(std::size_t objects, const Options& options, ContactLog& log) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t frames = frames_for(objects);
  const ContactScene scene = make_contact_scene(objects, frames, options.jitter, kSeed + objects);
  const bool brute_force = objects <= options.brute_force_max;
  const bool bullet_scratch = objects <= options.bullet_scratch_max;
  std::printf("\n%zu objects (%zu spheres, %zu boxes) in a cube of side %.1f, %zu passes per repetition%s%s\n", objects,
              scene.sphere_count(), scene.box_count(), double(scene.side), frames,
              brute_force ? "" : "; brute force skipped", bullet_scratch ? "" : "; Bullet from scratch skipped");

  std::vector<std::unique_ptr<Backend>> backends;
  if (brute_force) {
    for (auto make : {make_brute_force, make_brute_force_soa8, make_two_stage, make_two_stage_pack8}) {
      backends.push_back(make(scene));
    }
  }
  for (auto make : {make_uniform_grid, make_tree_warm, make_tree_warm_pair_cache, make_tree_cold}) {
    backends.push_back(make(scene));
  }
  for (const bool from_scratch : {false, true}) {
    if (from_scratch && !bullet_scratch) continue;
    for (const bool sphere_box : {true, false}) backends.push_back(make_bullet(scene, {sphere_box, from_scratch}));
  }
#if HITSCAN_BENCH_JOLT
  backends.push_back(make_jolt(scene));
#endif
  std::vector<Entry> entries;
  for (std::unique_ptr<Backend>& b : backends) {
    const bool wanted = options.backends.empty() || std::find(options.backends.begin(), options.backends.end(),
                                                              b->name()) != options.backends.end();
    if (wanted) entries.push_back({std::move(b), {}, {}});
  }

  // One untimed round warms every backend up (the warm ones reach their steady state), then the
  // timed rounds, each starting one backend further on.
  for (Entry& e : entries) run_all_frames(e, scene);
  for (int rep = 0; rep < options.repetitions; ++rep) {
    for (std::size_t k = 0; k < entries.size(); ++k) {
      Entry& e = entries[(k + std::size_t(rep)) % entries.size()];
      const auto pass_start = std::chrono::steady_clock::now();
      run_all_frames(e, scene);
      e.ms_per_pass.push_back(seconds_since(pass_start) * 1e3 / double(frames));
    }
  }

  // Brute force is the reference; without it, one untimed two-stage 8-wide pass on the last frame.
  const Frame& last = scene.frames.back();
  std::vector<PairContact> reference;
  const auto brute =
      std::find_if(entries.begin(), entries.end(), [](const Entry& e) { return e.backend->name() == "brute_force"; });
  if (brute != entries.end()) {
    reference = brute->answers;
  } else {
    make_two_stage_pack8(scene)->pass(last, reference);
  }

  int failures = 0;
  std::printf("  %-26s %10s %8s %13s %10s %12s %9s %9s\n", "backend", "ms/pass", "pairs", "disagreements", "borderline",
              "max|ddepth|", "min n.n", "differing");
  for (const Entry& e : entries) {
    const Backend& b = *e.backend;
    const CheckSummary check = cross_check(scene, last, reference, e.answers, b.is_hitscan(), b.name());
    if (b.is_hitscan() && check.disagreements() != 0) ++failures;
    const double ms = median(e.ms_per_pass);
    std::printf("  %-26s %10.4f %8zu %13zu %10zu %12.3g %9.6f %9zu\n", b.name().c_str(), ms, e.answers.size(),
                check.disagreements(), check.borderline, check.max_depth_error, check.min_normal_dot,
                check.different_contacts);
    ContactFigure f{.objects = objects,
                    .backend = b.name(),
                    .metric = "ms_per_pass",
                    .value = ms,
                    .repetitions = options.repetitions,
                    .passes = int(frames),
                    .hitscan = b.is_hitscan()};
    log.add(f);
    f.metric = "pairs";
    f.value = double(e.answers.size());
    log.add(f);
    f.metric = "disagreements";
    f.value = double(check.disagreements());
    log.add(f);
  }
  std::printf("  %zu objects took %.1f s\n", objects, seconds_since(start));
  return failures;
}

bool parse_options(int argc, char** argv, Options& options) {
  bool quick = false, sizes_given = false, repetitions_given = false;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--jsonl") == 0 && has_value) {
      options.jsonl = argv[++i];
    } else if (std::strcmp(argv[i], "--repetitions") == 0 && has_value) {
      options.repetitions = std::max(1, std::atoi(argv[++i]));
      repetitions_given = true;
    } else if (std::strcmp(argv[i], "--sizes") == 0 && has_value) {
      if (!parse_sizes(argv[++i], options.sizes)) return false;
      sizes_given = true;
    } else if (std::strcmp(argv[i], "--brute-force-max") == 0 && has_value) {
      options.brute_force_max = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--bullet-scratch-max") == 0 && has_value) {
      options.bullet_scratch_max = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--backends") == 0 && has_value) {
      options.backends = split_list(argv[++i]);
    } else if (std::strcmp(argv[i], "--jitter") == 0 && has_value) {
      options.jitter = std::max(0.0f, std::strtof(argv[++i], nullptr));
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--jsonl FILE] [--repetitions R] [--sizes 1000,10000,...] [--brute-force-max N] "
                   "[--bullet-scratch-max N] [--backends a,b,...] [--jitter J] [--quick]\n",
                   argv[0]);
      return false;
    }
  }
  if (quick && !sizes_given) options.sizes = {1000, 10000};
  if (quick && !repetitions_given) options.repetitions = 3;
  return true;
}

}  // namespace
}  // namespace hitscan::bench

int main(int argc, char** argv) {
  using namespace hitscan::bench;
  return run_suite<Options>(argc, argv, "hitscan_contacts_bench", parse_options, [](const Options& options, std::FILE* out) {
    std::printf("contacts: spheres vs boxes, %d repetitions round-robin, medians, 1 thread\n", options.repetitions);
    std::printf(
        "  disagreements: pairs found by the backend or by brute force only; for Bullet and Jolt, pairs within %g of touching\n"
        "  count as borderline instead. max|ddepth|, min n.n (normals' dot product), differing (contacts off by more\n"
        "  than %g): the pairs both find, against brute force's contacts.\n",
        kBorderlineDepth, kBorderlineDepth);
    const auto start = std::chrono::steady_clock::now();
    ContactLog log(out);
    int failures = 0;
    for (const std::size_t n : options.sizes) failures += run_size(n, options, log);
    log.print_tables();
    std::printf("contacts took %.1f s\n", seconds_since(start));
    if (failures != 0) std::printf("contacts: %d of hitscan's backends disagree with brute force\n", failures);
    return failures;
  });
}
