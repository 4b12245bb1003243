// hitscan_scene_bench: the "scene" suite. A scene of n mixed colliders (spheres, rotated boxes,
// capsules, cylinders, instances of one torus mesh; scenario.hpp) asked the queries below, hitscan's
// Scene beside Bullet 3's btCollisionWorld (bullet_backend.cpp), Jolt Physics' PhysicsSystem when
// the benchmark is configured with HITSCAN_BENCH_JOLT_DIR (jolt_backend.cpp), and brute force over
// hitscan's per-shape kernels:
//   raycast        closest hit, 1 thread, and all threads (Scene::raycast_batch; Bullet's rayTest
//                  on std::threads, one world per thread; Jolt's CastRay on std::threads, one
//                  system)
//   raycast_any    whether anything lies within each ray's distance, stopping at the first hit
//                  (Scene::raycast_any; Bullet: rayTest with a callback that ends the ray at its
//                  first contact; Jolt: CastRay with an AnyHitCollisionCollector)
//   raycast_all    every collider each ray meets within its distance (Scene::raycast_all; Bullet:
//                  rayTest with an AllHitsRayResultCallback; Jolt: CastRay with an
//                  AllHitCollisionCollector), counted once each
//   overlap_sphere the colliders a sphere touches (Bullet: contactTest with a sphere object; Jolt:
//                  CollideShape with a sphere, each body counted once)
//   sphere_cast    first contact of a moving sphere (Bullet: convexSweepTest, ClosestConvexResult;
//                  Jolt: CastShape, closest hit)
//   capsule_cast   first contact of a moving capsule, turned at random (Bullet: convexSweepTest
//                  with a btCapsuleShape; Jolt: CastShape with a CapsuleShape, closest hit)
//   move_commit    1% of the colliders moved to new random places, then made visible (hitscan:
//                  set_transform and commit; Bullet: setWorldTransform and updateSingleAabb; Jolt:
//                  SetPositionAndRotation and PhysicsSystem::Update); and
//                  hitscan alone moving 0.1%, 1%, 10% and 100% per commit (move_0.1pct_commit ...
//                  move_100pct_commit): the cost per moved collider, which should be in proportion
//                  to the moves, not a rebuild
//   move_drift_commit  10% of the colliders moving steadily by 0.1 a frame, out for 30 frames and
//                  back, each frame committed (the common case: most moves stay in the fat boxes)
//
//   hitscan_scene_bench [--jsonl FILE] [--sizes 10000,100000] [--rounds R] [--threads T]
//                       [--brute-force-max N] [--quick]
//
// Every answer is cross-checked against hitscan's before anything is timed (cross_check.hpp).
// Then every figure is the median of R rounds (default 5) taken round-robin over the backends,
// the starting backend rotating, so that all of them share the machine's drift; speed-ups are
// ratios of those medians. Brute force runs up to --brute-force-max colliders (default 10000), on
// the first few hundred queries of each set. --quick: 10000 colliders, smaller query sets, 3
// rounds. JSON lines are appended to FILE. The exit status is 1 when brute force disagrees with
// hitscan (Bullet's and Jolt's disagreements are reported, not failed on: their convex casts are
// iterative and stop within their own tolerances, and a grazing contact may go either way).

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "../common/arguments.hpp"
#include "../mesh_rays/statistics.hpp"
#include "backend.hpp"
#include "cross_check.hpp"
#include "report.hpp"

namespace hitscan::bench {
namespace {

constexpr std::uint64_t kSeed = 0x5CE7E'B3C4ull;

// Queries per set: the full sets that hitscan and the libraries answer, and the prefixes brute
// force answers (QueryCounts).
struct Options {
  std::string jsonl;
  std::vector<std::size_t> sizes = {10000, 100000};
  int rounds = 5;
  int threads = std::max(1, int(std::thread::hardware_concurrency()));
  std::size_t brute_force_max = 10000;
  QueryCounts full{1u << 15, 1u << 13, 1u << 12, 1u << 12};
  QueryCounts brute_force{512, 256, 48, 32};
};

// One backend's part in a timed query: what it runs, how many queries that is.
struct Entry {
  Backend* backend = nullptr;
  std::size_t batch = 0;
  std::function<void()> run;
  std::vector<double> seconds;
};

// R rounds; each runs every entry once, starting one entry further on each round.
void alternate(std::vector<Entry>& entries, int rounds) {
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t k = 0; k < entries.size(); ++k) {
      Entry& e = entries[(k + std::size_t(round)) % entries.size()];
      const auto start = std::chrono::steady_clock::now();
      e.run();
      e.seconds.push_back(seconds_since(start));
    }
  }
}

void log_entries(SceneLog& log, std::size_t n, const char* query, int threads, const std::vector<Entry>& entries,
                 bool as_ms) {
  std::vector<SceneFigure> figures;
  for (const Entry& e : entries) {
    const double seconds = median(e.seconds);
    figures.push_back({n, query, threads, e.backend->name(), as_ms ? "ms" : "queries_per_s",
                       as_ms ? seconds * 1e3 : double(e.batch) / seconds, e.batch, int(e.seconds.size())});
  }
  log.add(figures);
}

void print_check(const char* name, const CheckSummary& s) {
  std::printf("    %-12s %6zu compared, %5zu disagree (%zu confirmed by brute force), %5zu borderline, %5zu imprecise, "
              "max |d - hitscan| %.3g%s%s\n",
              name, s.compared, s.disagreements, s.confirmed_against_hitscan, s.borderline, s.imprecise, s.max_error,
              s.by_kind.empty() ? "" : "; disagreements by kind (hitscan's/other's): ", s.by_kind.c_str());
}

template <class T>
std::span<const T> prefix(const std::vector<T>& v, std::size_t count) {
  return std::span<const T>(v).first(std::min(count, v.size()));
}

// One kind of cast (sphere or capsule): every backend's answers, cross-checked against hitscan's
// (brute force on a prefix), then timed.
template <class Sweep>
struct Casts {
  using Run = void (Backend::*)(std::span<const Sweep>, std::span<CastAnswer>);
  const char* query;
  const std::vector<Sweep>& sweeps;
  Run run;
  std::vector<CastAnswer> h;
  std::vector<std::vector<CastAnswer>> l;
  std::vector<CastAnswer> f;
  std::vector<float> limits;

  Casts(const char* q, const std::vector<Sweep>& s, Run r, std::size_t libraries, std::size_t brute_force_count)
      : query(q), sweeps(s), run(r), h(s.size()), l(libraries, h), f(std::min(brute_force_count, s.size())) {
    for (const Sweep& sweep : sweeps) limits.push_back(motion(sweep).max_distance);
  }

  static const SphereSweep& motion(const SphereSweep& s) { return s; }
  static const CapsuleSweep& motion(const CapsuleCast& s) { return s.sweep; }

  // Returns 1 when brute force disagrees with hitscan.
  int check(Backend& hitscan, const std::vector<std::unique_ptr<Backend>>& libraries, BruteForce& brute,
            bool with_brute_force) {
    const ExactDistance exact = [&](std::size_t i, std::uint32_t k) { return brute.sweep_distance(k, motion(sweeps[i])); };
    (hitscan.*run)(sweeps, h);
    for (std::size_t k = 0; k < libraries.size(); ++k) (libraries[k].get()->*run)(sweeps, l[k]);
    const std::size_t hits =
        std::size_t(std::count_if(h.begin(), h.end(), [](const CastAnswer& a) { return a.collider != kNoIndex; }));
    std::printf("  %s (%zu sweeps, %zu hit, max distance %.1f):\n", query, sweeps.size(), hits,
                double(limits.empty() ? 0.0f : limits.front()));
    for (std::size_t k = 0; k < libraries.size(); ++k) {
      const std::string& name = libraries[k]->name();
      print_check(name.c_str(), compare_casts(brute, h, l[k], limits, kSweepTolerance, exact, name, "sweep"));
    }
    if (!with_brute_force) return 0;
    (brute.*run)(prefix(sweeps, f.size()), f);
    const CheckSummary s = compare_casts(brute, h, f, limits, kSweepTolerance, exact, "brute_force", "sweep");
    print_check("brute_force", s);
    return s.disagreements + s.imprecise != 0;
  }

  void time(std::size_t n, int rounds, Backend& hitscan, const std::vector<std::unique_ptr<Backend>>& libraries,
            BruteForce& brute, bool with_brute_force, SceneLog& log) {
    std::vector<Entry> e = {{&hitscan, sweeps.size(), [&] { (hitscan.*run)(sweeps, h); }, {}}};
    for (std::size_t k = 0; k < libraries.size(); ++k) {
      e.push_back({libraries[k].get(), sweeps.size(), [&, k] { (libraries[k].get()->*run)(sweeps, l[k]); }, {}});
    }
    if (with_brute_force) e.push_back({&brute, f.size(), [&] { (brute.*run)(prefix(sweeps, f.size()), f); }, {}});
    alternate(e, rounds);
    log_entries(log, n, query, 1, e, false);
  }
};

// Runs one size. Returns how many of brute force's cross-checks disagree with hitscan.
int run_size(std::size_t n, const Options& options, SceneLog& log) {
  const auto start = std::chrono::steady_clock::now();
  const Scenario scenario = make_scenario(n, kSeed + n);
  auto build_start = std::chrono::steady_clock::now();
  std::unique_ptr<Backend> hitscan = make_hitscan(scenario, options.threads);
  const double hitscan_build = seconds_since(build_start);
  // The libraries compared: Bullet, and Jolt when the benchmark is built with it.
  std::vector<std::unique_ptr<Backend>> libraries;
  std::vector<double> library_builds;
  build_start = std::chrono::steady_clock::now();
  libraries.push_back(make_bullet(scenario, options.threads));
  library_builds.push_back(seconds_since(build_start));
#if HITSCAN_BENCH_JOLT
  build_start = std::chrono::steady_clock::now();
  libraries.push_back(make_jolt(scenario, options.threads));
  library_builds.push_back(seconds_since(build_start));
#endif
  BruteForce brute(scenario);
  const bool with_brute_force = n <= options.brute_force_max;
  const std::size_t nl = libraries.size();

  auto touches = [](const void* context, const Spheref& sphere) {
    std::uint32_t count = 0;
    static_cast<Backend*>(const_cast<void*>(context))->overlap_count({&sphere, 1}, {&count, 1});
    return count > 0;
  };
  const QuerySet q = make_queries(scenario, options.full, kSeed ^ n, touches, hitscan.get());
  std::printf("\n%zu colliders in a cube of side %.1f (hitscan built in %.0f ms, Bullet's %d world%s in %.0f ms", n,
              double(scenario.side), hitscan_build * 1e3, options.threads, options.threads > 1 ? "s" : "",
              library_builds[0] * 1e3);
  for (std::size_t k = 1; k < nl; ++k) {
    std::string name = libraries[k]->name();
    name[0] = char(std::toupper(static_cast<unsigned char>(name[0])));
    std::printf(", %s's system in %.0f ms", name.c_str(), library_builds[k] * 1e3);
  }
  std::printf(")%s\n", with_brute_force ? "" : "; brute force skipped");

  int failures = 0;
  const QueryCounts& bf = options.brute_force;
  std::printf("  cross-check against hitscan (before timing):\n");

  const ExactDistance exact_ray = [&](std::size_t i, std::uint32_t k) { return brute.ray_distance(k, q.rays[i]); };

  // Rays: one untimed pass of each backend gives the answers checked.
  std::vector<float> ray_limits;
  for (const QueryRay& r : q.rays) ray_limits.push_back(r.max_distance);
  std::vector<CastAnswer> h_rays(q.rays.size()), f_rays(std::min(bf.rays, q.rays.size()));
  std::vector<CastAnswer> h_rays_threads(q.rays.size());
  std::vector<std::vector<CastAnswer>> l_rays(nl, h_rays), l_rays_threads(nl, h_rays);
  hitscan->raycast(q.rays, h_rays);
  hitscan->raycast_threads(q.rays, h_rays_threads, options.threads);
  for (std::size_t k = 0; k < nl; ++k) {
    libraries[k]->raycast(q.rays, l_rays[k]);
    libraries[k]->raycast_threads(q.rays, l_rays_threads[k], options.threads);
  }
  const std::size_t ray_hits = std::size_t(
      std::count_if(h_rays.begin(), h_rays.end(), [](const CastAnswer& a) { return a.collider != kNoIndex; }));
  std::printf("  raycast (%zu rays, %zu hit, max distance %.1f):\n", q.rays.size(), ray_hits,
              double(q.rays.front().max_distance));
  for (std::size_t k = 0; k < nl; ++k) {
    const std::string& name = libraries[k]->name();
    print_check(name.c_str(),
                compare_casts(brute, h_rays, l_rays[k], ray_limits, kRayTolerance, exact_ray, name, "ray"));
  }
  if (with_brute_force) {
    brute.raycast(prefix(q.rays, bf.rays), f_rays);
    const CheckSummary s =
        compare_casts(brute, h_rays, f_rays, ray_limits, kRayTolerance, exact_ray, "brute_force", "ray");
    print_check("brute_force", s);
    failures += s.disagreements + s.imprecise != 0;
  }
  std::printf("    on %d threads: hitscan changes %zu answers", options.threads, count_changed(h_rays, h_rays_threads));
  for (std::size_t k = 0; k < nl; ++k) {
    std::printf(", %s %zu", libraries[k]->name().c_str(), count_changed(l_rays[k], l_rays_threads[k]));
  }
  std::printf("\n");

  // Any-hit rays, the same rays: every backend's answer against whether hitscan's closest hit
  // exists, and hitscan's own against its closest hits exactly.
  std::vector<std::uint8_t> h_any(q.rays.size());
  std::vector<std::vector<std::uint8_t>> l_any(nl, h_any);
  std::vector<std::uint8_t> f_any(f_rays.size());
  hitscan->raycast_any(q.rays, h_any);
  for (std::size_t k = 0; k < nl; ++k) libraries[k]->raycast_any(q.rays, l_any[k]);
  std::printf("  raycast_any (the same rays, any hit, against hitscan's closest hits):\n");
  {
    const CheckSummary s = compare_any(h_rays, h_any, h_rays, ray_limits);
    print_check("hitscan", s);
    failures += s.disagreements + s.borderline != 0;
  }
  for (std::size_t k = 0; k < nl; ++k) {
    print_check(libraries[k]->name().c_str(), compare_any(h_rays, l_any[k], l_rays[k], ray_limits));
  }
  if (with_brute_force) {
    brute.raycast_any(prefix(q.rays, bf.rays), f_any);
    const CheckSummary s = compare_any(h_rays, f_any, f_rays, ray_limits);
    print_check("brute_force", s);
    failures += s.disagreements != 0;
  }

  // All-hit rays, the same rays: the sets of colliders met compared on a prefix (brute force's
  // share, or 2048 for the libraries), the counts timed.
  std::vector<std::uint32_t> h_all(q.rays.size());
  std::vector<std::vector<std::uint32_t>> l_all(nl, h_all);
  std::vector<std::uint32_t> f_all(f_rays.size());
  {
    hitscan->raycast_all(q.rays, h_all);
    std::size_t met = 0;
    for (const std::uint32_t c : h_all) met += c;
    std::printf("  raycast_all (the same rays, every collider met, %.2f on average):\n",
                double(met) / double(q.rays.size()));
    for (std::size_t k = 0; k < nl; ++k) {
      print_check(libraries[k]->name().c_str(),
                  compare_all_hits(brute, *hitscan, *libraries[k], q.rays, std::min<std::size_t>(2048, q.rays.size())));
    }
    if (with_brute_force) {
      const CheckSummary s = compare_all_hits(brute, *hitscan, brute, q.rays, f_all.size());
      print_check("brute_force", s);
      failures += s.disagreements != 0;
    }
  }

  // Overlaps: sets compared on a prefix (brute force's share, or 2048 for the libraries), counts
  // timed.
  std::vector<std::uint32_t> h_counts(q.spheres.size());
  std::vector<std::vector<std::uint32_t>> l_counts(nl, h_counts);
  std::vector<std::uint32_t> f_counts(std::min(bf.spheres, q.spheres.size()));
  hitscan->overlap_count(q.spheres, h_counts);
  std::size_t touched = 0;
  for (const std::uint32_t c : h_counts) touched += c;
  std::printf("  overlap_sphere (%zu spheres, %.2f colliders touched on average):\n", q.spheres.size(),
              double(touched) / double(q.spheres.size()));
  for (std::size_t k = 0; k < nl; ++k) {
    print_check(libraries[k]->name().c_str(), compare_overlaps(brute, *hitscan, *libraries[k], q.spheres,
                                                               std::min<std::size_t>(2048, q.spheres.size())));
  }
  if (with_brute_force) {
    const CheckSummary s = compare_overlaps(brute, *hitscan, brute, q.spheres, f_counts.size());
    print_check("brute_force", s);
    failures += s.disagreements + s.imprecise != 0;
  }

  // Sphere and capsule casts.
  Casts<SphereSweep> spheres{"sphere_cast", q.sweeps, &Backend::sphere_cast, nl, bf.sweeps};
  Casts<CapsuleCast> capsules{"capsule_cast", q.capsule_sweeps, &Backend::capsule_cast, nl, bf.capsule_sweeps};
  failures += spheres.check(*hitscan, libraries, brute, with_brute_force);
  failures += capsules.check(*hitscan, libraries, brute, with_brute_force);

  // Timing, query by query: hitscan, then each library, then brute force on its share.
  const int rounds = options.rounds;
  {
    std::vector<Entry> e = {{hitscan.get(), q.rays.size(), [&] { hitscan->raycast(q.rays, h_rays); }, {}}};
    for (std::size_t k = 0; k < nl; ++k) {
      e.push_back({libraries[k].get(), q.rays.size(), [&, k] { libraries[k]->raycast(q.rays, l_rays[k]); }, {}});
    }
    if (with_brute_force) {
      e.push_back({&brute, f_rays.size(), [&] { brute.raycast(prefix(q.rays, bf.rays), f_rays); }, {}});
    }
    alternate(e, rounds);
    log_entries(log, n, "raycast", 1, e, false);
  }
  if (options.threads > 1) {
    std::vector<Entry> e = {
        {hitscan.get(), q.rays.size(), [&] { hitscan->raycast_threads(q.rays, h_rays_threads, options.threads); }, {}}};
    for (std::size_t k = 0; k < nl; ++k) {
      e.push_back({libraries[k].get(), q.rays.size(),
                   [&, k] { libraries[k]->raycast_threads(q.rays, l_rays_threads[k], options.threads); }, {}});
    }
    alternate(e, rounds);
    log_entries(log, n, "raycast", options.threads, e, false);
  }
  {
    std::vector<Entry> e = {{hitscan.get(), q.rays.size(), [&] { hitscan->raycast_any(q.rays, h_any); }, {}}};
    for (std::size_t k = 0; k < nl; ++k) {
      e.push_back({libraries[k].get(), q.rays.size(), [&, k] { libraries[k]->raycast_any(q.rays, l_any[k]); }, {}});
    }
    if (with_brute_force) {
      e.push_back({&brute, f_any.size(), [&] { brute.raycast_any(prefix(q.rays, bf.rays), f_any); }, {}});
    }
    alternate(e, rounds);
    log_entries(log, n, "raycast_any", 1, e, false);
  }
  {
    std::vector<Entry> e = {{hitscan.get(), q.rays.size(), [&] { hitscan->raycast_all(q.rays, h_all); }, {}}};
    for (std::size_t k = 0; k < nl; ++k) {
      e.push_back({libraries[k].get(), q.rays.size(), [&, k] { libraries[k]->raycast_all(q.rays, l_all[k]); }, {}});
    }
    if (with_brute_force) {
      e.push_back({&brute, f_all.size(), [&] { brute.raycast_all(prefix(q.rays, bf.rays), f_all); }, {}});
    }
    alternate(e, rounds);
    log_entries(log, n, "raycast_all", 1, e, false);
  }
  {
    std::vector<Entry> e = {
        {hitscan.get(), q.spheres.size(), [&] { hitscan->overlap_count(q.spheres, h_counts); }, {}}};
    for (std::size_t k = 0; k < nl; ++k) {
      e.push_back({libraries[k].get(), q.spheres.size(),
                   [&, k] { libraries[k]->overlap_count(q.spheres, l_counts[k]); }, {}});
    }
    if (with_brute_force) {
      e.push_back({&brute, f_counts.size(), [&] { brute.overlap_count(prefix(q.spheres, bf.spheres), f_counts); }, {}});
    }
    alternate(e, rounds);
    log_entries(log, n, "overlap_sphere", 1, e, false);
  }
  spheres.time(n, rounds, *hitscan, libraries, brute, with_brute_force, log);
  capsules.time(n, rounds, *hitscan, libraries, brute, with_brute_force, log);
  // The backends that take moves: hitscan and the libraries.
  std::vector<Backend*> movers = {hitscan.get()};
  for (const std::unique_ptr<Backend>& l : libraries) movers.push_back(l.get());
  {
    // Each run moves 1% of the colliders away and, in the next run, back: two batches a round,
    // and the scene is the same again at the end.
    std::vector<Move> away, back;
    make_moves(scenario, std::max<std::size_t>(1, n / 100), kSeed + 7 * n, away, back);
    std::vector<Entry> e;
    for (Backend* b : movers) {
      e.push_back({b, away.size(), [&, b, is_away = true]() mutable {
                     b->move(is_away ? away : back);
                     is_away = !is_away;
                   },
                   {}});
    }
    alternate(e, 2 * rounds);
    log_entries(log, n, "move_commit", 1, e, true);
  }
  {
    // The common case in a game: 10% of the colliders moving steadily, 0.1 a frame (6 units a
    // second at 60 frames a second; the colliders are 0.6-2.4 across), every frame committed.
    const std::vector<std::vector<Move>> frames = make_drift(scenario, std::max<std::size_t>(1, n / 10), 30, 0.1f,
                                                             kSeed + 13 * n);
    std::vector<Entry> e;
    for (Backend* b : movers) {
      e.push_back({b, frames.front().size(), [&, b, frame = std::size_t(0)]() mutable {
                     b->move(frames[frame]);
                     frame = (frame + 1) % frames.size();
                   },
                   {}});
    }
    alternate(e, int(frames.size()) * 2);
    log_entries(log, n, "move_drift_commit", 1, e, true);
  }
  {
    // What the tree promises: a commit costs in proportion to the colliders moved, not a
    // rebuild. hitscan alone, 0.1%, 1%, 10% and 100% of the colliders moved per commit (from half
    // of them on, a commit rebuilds the tree from its leaves): the cost per moved collider.
    std::printf("  moves per commit (hitscan; each to a random place and back, medians of %d):", 2 * rounds);
    for (const std::size_t per_mille : {1, 10, 100, 1000}) {
      const std::size_t count = std::max<std::size_t>(1, n * per_mille / 1000);
      std::vector<Move> away, back;
      make_moves(scenario, count, kSeed + 11 * n + per_mille, away, back);
      bool is_away = true;
      std::vector<Entry> e = {{hitscan.get(), count, [&] {
                                 hitscan->move(is_away ? away : back);
                                 is_away = !is_away;
                               },
                               {}}};
      alternate(e, 2 * rounds);
      const double ms = median(e.front().seconds) * 1e3;
      std::printf("%s %zu: %.3g ms (%.2f us each)", per_mille == 1 ? "" : ",", count, ms, 1e3 * ms / double(count));
      const std::string query = "move_" + std::to_string(per_mille / 10) + (per_mille < 10 ? ".1" : "") + "pct_commit";
      log_entries(log, n, query.c_str(), 1, e, true);
    }
    std::printf("\n");
  }
  std::printf("  %zu colliders took %.1f s\n", n, seconds_since(start));
  return failures;
}

bool parse_options(int argc, char** argv, Options& options) {
  bool quick = false, sizes_given = false, rounds_given = false;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--jsonl") == 0 && has_value) {
      options.jsonl = argv[++i];
    } else if (std::strcmp(argv[i], "--sizes") == 0 && has_value) {
      if (!parse_sizes(argv[++i], options.sizes)) return false;
      sizes_given = true;
    } else if (std::strcmp(argv[i], "--rounds") == 0 && has_value) {
      options.rounds = std::max(1, std::atoi(argv[++i]));
      rounds_given = true;
    } else if (std::strcmp(argv[i], "--threads") == 0 && has_value) {
      options.threads = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--brute-force-max") == 0 && has_value) {
      options.brute_force_max = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--jsonl FILE] [--sizes 10000,100000] [--rounds R] [--threads T] "
                   "[--brute-force-max N] [--quick]\n",
                   argv[0]);
      return false;
    }
  }
  if (quick) {
    if (!sizes_given) options.sizes = {10000};
    if (!rounds_given) options.rounds = 3;
    options.full = {1u << 13, 1u << 11, 1u << 10, 1u << 10};
    options.brute_force = {256, 128, 24, 16};
  }
  return true;
}

}  // namespace
}  // namespace hitscan::bench

int main(int argc, char** argv) {
  using namespace hitscan::bench;
  return run_suite<Options>(argc, argv, "hitscan_scene_bench", parse_options, [](const Options& options, std::FILE* out) {
    std::printf("scene: mixed colliders, %d rounds round-robin, medians; 1 and %d threads\n", options.rounds,
                options.threads);
    std::printf(
        "  cross-check: distances within %g (rays) and %g (sweeps) of hitscan's, relative beyond 1; the same\n"
        "  collider further off is imprecise (the libraries' iterative convex casts), another collider or a hit\n"
        "  against a miss a disagreement, unless the hit lies at the distance limit (borderline); overlap sets equal, a\n"
        "  collider in one set only borderline when brute force's kernel changes its mind within %g of the radius.\n"
        "  Only brute force's disagreements fail the run; the libraries' are reported.\n",
        double(kRayTolerance), double(kSweepTolerance), double(kOverlapMargin));
    const auto start = std::chrono::steady_clock::now();
    SceneLog log(out);
  #if HITSCAN_BENCH_JOLT
    set_up_jolt();  // once, before any build is timed
  #endif
    int failures = 0;
    for (const std::size_t n : options.sizes) failures += run_size(n, options, log);
    log.print_table();
    std::printf("scene took %.1f s\n", seconds_since(start));
    if (failures != 0) std::printf("scene: brute force disagrees with hitscan in %d checks\n", failures);
    return failures;
  });
}
