// hitscan_mesh_bench: the "mesh_rays" suite. hitscan's MeshBvh side by side with Embree 3 (build
// quality medium and high, single rays and 8-ray packets), tinybvh's BVH8_CPU (in builds given
// HITSCAN_TINYBVH_DIR), Bullet and brute force, on the same rays in one process, on one thread and
// on all of them. On the tiled sets (camera images) hitscan also traces 64-ray packets
// (MeshBvh::intersect_coherent over the images' 8x8 tiles), set beside Embree's 8-ray packets,
// and every set goes whole through hitscan's batch functions beside Embree's stream API.
// Every mesh gets the coherent and incoherent sets (ray_sets.hpp); the game levels also get a
// shooter's views, shots and lines of sight (shooter_rays.hpp).
//
//   hitscan_mesh_bench [--jsonl FILE] [--rays N] [--repetitions R] [--builds B] [--threads T]
//                      [--meshes armadillo,bunny,...] [--watertight-rays N]
//
// --rays N (default 2^20) sets the size of each set (the coherent image: the largest square of
// side a multiple of 8 within N pixels, 1024 x 1024 by default); --rays 65536 is a quick run. Brute force runs on a subset of at most 4096 rays of each set, on meshes up to 200k
// triangles, its rate measured on that subset.
//
// Every figure is the median of R repetitions taken round-robin over the backends (the starting
// backend rotating), so that all backends share the machine's drift. JSON lines are appended to
// FILE. Every backend's answers are compared ray by ray with hitscan's; disagreements are printed.
// Then the "watertight" suite (watertight.hpp) traces --watertight-rays rays (10 million by
// default, 0 to skip) from inside closed meshes through hitscan and Embree.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "../common/arguments.hpp"
#include "backend.hpp"
#include "bench_meshes.hpp"
#include "cross_check.hpp"
#include "figures.hpp"
#include "parallel_runner.hpp"
#include "ray_sets.hpp"
#include "shooter_rays.hpp"
#include "statistics.hpp"
#include "watertight.hpp"

namespace hitscan::bench {
namespace {

// Brute force runs on meshes up to this size, on a subset of the rays sized so that one pass
// makes about kBruteForceTests ray-triangle tests (at most 4096 rays).
constexpr std::size_t kBruteForceMaxTriangles = 200'000;
constexpr std::size_t kBruteForceTests = std::size_t(1) << 23;

struct Options {
  std::string jsonl;
  std::size_t rays = std::size_t(1) << 20;
  int repetitions = 3;
  int builds = 3;
  int threads = std::max(1, int(std::thread::hardware_concurrency()));
  std::vector<std::string> meshes = bench_mesh_names();
  std::size_t watertight_rays = 10'000'000;
};

enum class Query { closest, any };

// One backend's runs on one case: its rays (all of the set's, or a subset for brute force, ray k
// being the set's ray indices[k]), its answers on one thread ([0]) and on all threads ([1]), and
// the timings.
struct Entry {
  const Backend* backend = nullptr;
  std::span<const Rayf> rays;
  RayIndices indices;
  Answers answers[2];
  std::vector<double> seconds[2];
};

struct MeshInfo {
  std::string name;
  const TriangleMesh* mesh = nullptr;
  std::size_t tris = 0;
};

// The rays brute force answers: a spread of the set's, ray k * step mod n with step near n times
// the golden ratio and coprime to n (a Weyl sequence: distinct rays over the whole image rather
// than one corner of it), sized so that a pass makes about kBruteForceTests ray-triangle tests.
struct RaySubset {
  std::vector<std::size_t> indices;
  std::vector<Rayf> rays;
};

RaySubset brute_force_subset(const RaySet& set, std::size_t triangles) {
  const std::size_t n = set.rays.size();
  std::size_t count = 4096;
  while (count > 64 && count * triangles > kBruteForceTests) count /= 2;
  count = std::min(count, n);
  std::size_t step = std::max<std::size_t>(1, std::size_t(double(n) * 0.6180339887));
  while (std::gcd(step, n) != 1) ++step;
  RaySubset subset;
  for (std::size_t k = 0; k < count; ++k) subset.indices.push_back(k * step % n);
  std::sort(subset.indices.begin(), subset.indices.end());
  for (const std::size_t i : subset.indices) subset.rays.push_back(set.rays[i]);
  return subset;
}

void resize_answers(Answers& a, std::size_t n, Query query) {
  if (query == Query::closest) {
    a.t.assign(n, 0.0f);
    a.triangle.assign(n, 0);
  } else {
    a.hit.assign(n, 0);
  }
}

// Runs every entry R times round-robin on `threads` threads, keeping the answers of the last run.
void time_entries(std::vector<Entry>& entries, Query query, int threads, int slot, int repetitions) {
  for (Entry& e : entries) resize_answers(e.answers[slot], e.rays.size(), query);
  for (int rep = 0; rep < repetitions; ++rep) {
    for (std::size_t j = 0; j < entries.size(); ++j) {
      Entry& e = entries[(j + std::size_t(rep)) % entries.size()];
      Answers& a = e.answers[slot];
      e.seconds[slot].push_back(run_chunked(e.rays.size(), threads, [&](std::size_t begin, std::size_t end) {
        const std::span<const Rayf> chunk = e.rays.subspan(begin, end - begin);
        if (query == Query::closest) {
          e.backend->closest(chunk, {a.t.data() + begin, a.triangle.data() + begin, nullptr});
        } else {
          e.backend->any(chunk, {nullptr, nullptr, a.hit.data() + begin});
        }
      }, e.backend->streams()));
    }
  }
}

std::size_t count_hits(const Answers& a, Query query) {
  if (query == Query::any) return std::size_t(std::count(a.hit.begin(), a.hit.end(), 1));
  return std::size_t(std::count_if(a.t.begin(), a.t.end(), [](float t) { return t < kInfinity<float>; }));
}

// One (mesh, ray set, query) and what answers it: the backends on every ray (hitscan first, the
// reference) and brute force, when there is one, on a subset.
struct Case {
  const MeshInfo& mesh;
  const RaySet& set;
  Query query;
  std::vector<const Backend*> backends;
  const Backend* brute_force = nullptr;
  const RaySubset* brute_force_rays = nullptr;
};

// Times, logs and cross-checks one case. Any-hit answers are checked against `closest_reference`,
// hitscan's closest hits on the same rays. Returns hitscan's single-thread answers.
Answers run_case(const Case& c, const Answers* closest_reference, const Options& options, FigureLog& log) {
  const MeshInfo& mesh = c.mesh;
  const RaySet& set = c.set;
  const Query query = c.query;
  const char* query_name = query == Query::closest ? "closest" : "any";
  std::vector<Entry> entries;
  for (const Backend* b : c.backends) {
    if (query == Query::any && !b->has_any()) continue;
    entries.push_back({b, set.rays, {}, {}, {}});
  }
  if (c.brute_force) entries.push_back({c.brute_force, c.brute_force_rays->rays, c.brute_force_rays->indices, {}, {}});

  const int modes = options.threads > 1 ? 2 : 1;
  for (int slot = 0; slot < modes; ++slot) {
    time_entries(entries, query, slot == 0 ? 1 : options.threads, slot, options.repetitions);
  }

  std::printf("  %s/%s/%s: %zu rays\n", mesh.name.c_str(), set.name.c_str(), query_name, set.rays.size());
  const std::string all_threads_column = modes == 2 ? "Mrays/s " + std::to_string(options.threads) + "thr" : "";
  std::printf("    %-22s %12s %12s %10s %10s\n", "backend", "Mrays/s 1thr", all_threads_column.c_str(), "hits", "rays");
  Figure base{mesh.name, mesh.tris, set.name, query_name, 1, "", "", 0, 0, options.repetitions};
  for (const Entry& e : entries) {
    double rate[2] = {0, 0};
    for (int slot = 0; slot < modes; ++slot) {
      rate[slot] = double(e.rays.size()) / median(e.seconds[slot]) / 1e6;
      Figure f = base;
      f.threads = slot == 0 ? 1 : options.threads;
      f.backend = e.backend->name();
      f.metric = "mrays_per_s";
      f.value = rate[slot];
      f.ray_count = e.rays.size();
      log.add(f);
    }
    const std::size_t hits = count_hits(e.answers[0], query);
    Figure f = base;
    f.backend = e.backend->name();
    f.metric = "hits";
    f.value = double(hits);
    f.ray_count = e.rays.size();
    log.add(f);
    char all_threads_rate[32] = "";
    if (modes == 2) std::snprintf(all_threads_rate, sizeof all_threads_rate, "%.4g", rate[1]);
    std::printf("    %-22s %12.4g %12s %10zu %10zu\n", e.backend->name().c_str(), rate[0], all_threads_rate, hits,
                e.rays.size());
  }

  // Cross-check against hitscan ray by ray (hitscan is entries[0]).
  const Entry& reference = entries.front();
  const Answers& reference_closest = query == Query::closest ? reference.answers[0] : *closest_reference;
  std::printf("    cross-check against hitscan's closest hits:\n");
  for (const Entry& e : entries) {
    if (modes == 2) {
      const std::size_t changed = count_changed(e.answers[0], e.answers[1]);
      if (changed != 0) {
        std::printf("    %-22s %zu rays answered differently on %d threads than on 1\n", e.backend->name().c_str(),
                    changed, options.threads);
      }
    }
    if (&e == &reference && query == Query::closest) continue;
    const std::size_t disagreements =
        query == Query::closest
            ? compare_closest(*mesh.mesh, set.rays, reference_closest, e.answers[0], e.indices, e.backend->name())
            : compare_any(set.rays, reference_closest, e.answers[0], e.indices, e.backend->name());
    Figure f = base;
    f.backend = e.backend->name();
    f.metric = "disagreements";
    f.value = double(disagreements);
    f.ray_count = e.rays.size();
    log.add(f);
  }
  return query == Query::closest ? std::move(entries.front().answers[0]) : Answers{};
}

void log_build(FigureLog& log, const MeshInfo& mesh, const std::string& backend, int threads, double ms,
               std::size_t bytes, int builds) {
  Figure f{mesh.name, mesh.tris, "", "", threads, backend, "build_ms", ms, 0, builds};
  log.add(f);
  if (bytes == 0) return;
  f.metric = "bytes_per_tri";
  f.value = double(bytes) / double(mesh.tris);
  log.add(f);
  std::printf("    %-22s %3d thr  build %9.1f ms  %7.1f bytes/triangle\n", backend.c_str(), threads, ms, f.value);
}

void run_mesh(const std::string& name, const Options& options, FigureLog& log) {
  const auto start = std::chrono::steady_clock::now();
  const std::shared_ptr<const TriangleMesh> mesh = make_bench_mesh(name);
  const MeshInfo info{name, mesh.get(), mesh->triangle_count()};
  std::printf("\n%s: %zu triangles (%zu degenerate), %zu vertices, made in %.1f s\n", name.c_str(), info.tris,
              mesh->report().degenerate_triangles, mesh->vertex_count(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());

  if (options.threads > 1) {
    const BuildTiming all = build_hitscan(mesh, options.threads, options.builds);
    log_build(log, info, "hitscan", options.threads, all.median_ms, all.backend->memory_bytes(), options.builds);
    // Embree builds in parallel; its all-thread build times are measured first, on their own
    // devices, released before any single-thread device exists (whose thread limit would bind).
    for (const bool high : {false, true}) {
      const BuildTiming all = build_embree(mesh, high, options.threads, options.builds);
      log_build(log, info, all.backend->name(), options.threads, all.median_ms, all.backend->memory_bytes(),
                options.builds);
    }
  }
  // The single-thread builds alternate (hitscan, Embree MEDIUM, Embree HIGH, again), so that the
  // machine's drift falls on all three alike; each keeps the median and its last tree.
  BuildTiming hitscan, embree_medium, embree_high;
  {
    std::vector<double> ms[3];
    for (int b = 0; b < options.builds; ++b) {
      hitscan = build_hitscan(mesh, 1, 1);
      embree_medium = build_embree(mesh, false, 1, 1);
      embree_high = build_embree(mesh, true, 1, 1);
      ms[0].push_back(hitscan.median_ms), ms[1].push_back(embree_medium.median_ms), ms[2].push_back(embree_high.median_ms);
    }
    hitscan.median_ms = median(ms[0]), embree_medium.median_ms = median(ms[1]), embree_high.median_ms = median(ms[2]);
  }
  log_build(log, info, "hitscan", 1, hitscan.median_ms, hitscan.backend->memory_bytes(), options.builds);
  log_build(log, info, "embree_medium", 1, embree_medium.median_ms, embree_medium.backend->memory_bytes(),
            options.builds);
  log_build(log, info, "embree_high", 1, embree_high.median_ms, embree_high.backend->memory_bytes(), options.builds);
  const std::unique_ptr<Backend> packets = embree_packet8(*embree_high.backend, "embree_high_packet8");
  const std::unique_ptr<Backend> hitscan_packet = hitscan_packets(*hitscan.backend, "hitscan_packet64");
  const std::unique_ptr<Backend> hitscan_streams = hitscan_stream(*hitscan.backend, "hitscan_stream");
  const std::unique_ptr<Backend> embree_streams = embree_stream(*embree_high.backend, "embree_high_stream");
  std::vector<const Backend*> single = {hitscan.backend.get(),        embree_medium.backend.get(),
                                        embree_high.backend.get(),    hitscan_streams.get(),
                                        embree_streams.get()};
#ifdef HITSCAN_BENCH_TINYBVH
  const BuildTiming tinybvh = build_tinybvh(mesh, options.builds);
  log_build(log, info, tinybvh.backend->name(), 1, tinybvh.median_ms, tinybvh.backend->memory_bytes(),
            options.builds);
  single.push_back(tinybvh.backend.get());
#endif
  BuildTiming bullet = build_bullet(mesh, options.builds);
  log_build(log, info, "bullet", 1, bullet.median_ms, bullet.backend->memory_bytes(), options.builds);
  single.push_back(bullet.backend.get());
  const std::unique_ptr<Backend> brute_force = info.tris <= kBruteForceMaxTriangles ? make_brute_force(mesh) : nullptr;

  std::vector<const Backend*> with_packets = single;
  with_packets.insert(with_packets.begin() + 3, packets.get());  // after embree_high
  with_packets.insert(with_packets.begin() + 1, hitscan_packet.get());

  const std::size_t side = std::max<std::size_t>(8, std::size_t(std::sqrt(double(options.rays))) / 8 * 8);
  std::vector<RaySet> sets;
  sets.push_back(coherent_rays(*mesh, int(side), int(side)));
  sets.push_back(incoherent_rays(mesh->bounds(), options.rays));
  if (is_game_level(name)) {
    for (RaySet& set : shooter_rays(mesh, options.rays)) sets.push_back(std::move(set));
  }
  for (const RaySet& set : sets) {
    const RaySubset subset = brute_force_subset(set, info.tris);
    // Any-hit answers are checked against hitscan's closest hits: timed when the set is asked
    // for them, else taken untimed.
    Answers reference;
    if (set.closest) {
      const Case closest{info, set, Query::closest, set.tiled ? with_packets : single, brute_force.get(), &subset};
      reference = run_case(closest, nullptr, options, log);
    } else {
      resize_answers(reference, set.rays.size(), Query::closest);
      hitscan.backend->closest(set.rays, {reference.t.data(), reference.triangle.data(), nullptr});
    }
    if (set.any) run_case({info, set, Query::any, single, brute_force.get(), &subset}, &reference, options, log);
  }
  std::printf("  %s took %.1f s\n", name.c_str(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

bool parse_options(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--jsonl") == 0 && has_value) {
      options.jsonl = argv[++i];
    } else if (std::strcmp(argv[i], "--rays") == 0 && has_value) {
      options.rays = std::max<std::size_t>(64, std::strtoull(argv[++i], nullptr, 10));
    } else if (std::strcmp(argv[i], "--repetitions") == 0 && has_value) {
      options.repetitions = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--builds") == 0 && has_value) {
      options.builds = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--threads") == 0 && has_value) {
      options.threads = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--watertight-rays") == 0 && has_value) {
      options.watertight_rays = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--meshes") == 0 && has_value) {
      options.meshes = split_list(argv[++i]);
    } else {
      std::fprintf(stderr,
                   "usage: %s [--jsonl FILE] [--rays N] [--repetitions R] [--builds B] [--threads T] "
                   "[--meshes a,b,...] [--watertight-rays N]\n",
                   argv[0]);
      return false;
    }
  }
  return true;
}

}  // namespace
}  // namespace hitscan::bench

int main(int argc, char** argv) {
  using namespace hitscan::bench;
  return run_suite<Options>(argc, argv, "hitscan_mesh_bench", parse_options, [](const Options& options, std::FILE* out) {
    std::printf("mesh_rays: %zu rays per set, %d repetitions round-robin, medians; %d builds; 1 and %d threads\n",
                options.rays, options.repetitions, options.builds, options.threads);
    const auto start = std::chrono::steady_clock::now();
    FigureLog log(out);
    int failures = 0;
    for (const std::string& name : options.meshes) {
      try {
        run_mesh(name, options, log);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "hitscan_mesh_bench: %s: %s\n", name.c_str(), e.what());
        ++failures;
      }
    }
    log.print_ratio_table(options.threads);
    std::printf("mesh_rays took %.1f s\n", seconds_since(start));
    if (options.watertight_rays > 0 && run_watertight(options.watertight_rays, options.threads, out) != 0) ++failures;
    return failures;
  });
}
