// hitscan_structures_bench: the "structures" suite. Which structure to put object boxes in: the
// static BVH (binned SAH, 8-wide), the loose octree, the hashed uniform grid and the dynamic
// tree, asked the same questions (structures.hpp) on three scenes (scenes.hpp):
//   uniform    10^5 boxes spread evenly through a cube
//   clustered  10^5 boxes in eight dense Gaussian clusters
//   mesh       the boxes of the 10^6 triangles of a noisy sphere
// Per scene: build (ms), nearest (queries/s: the first box a ray enters, 10^5 incoherent rays),
// overlap (queries/s: the boxes overlapping a box about twice an object's size, 10^5 of them).
//
//   hitscan_structures_bench [--jsonl FILE] [--rounds R] [--quick]
//
// Every structure's answer to every query is checked against the BVH's before anything is timed
// (the same nearest object and entry; the same count and hash of the overlapping set); the exit
// status is 1 on any disagreement. Then every figure is the median of R rounds (default 5) taken
// round-robin over the structures, the starting one rotating, so that all share the machine's
// drift; ratios are same-run ratios of medians, speed relative to the BVH (above 1: faster).
// --quick: a tenth of the objects and queries, 3 rounds. JSON lines are appended to FILE.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../common/arguments.hpp"
#include "../mesh_rays/statistics.hpp"
#include "hitscan/math/simd.hpp"
#include "scenes.hpp"
#include "structures.hpp"

namespace hitscan::bench {
namespace {

struct Options {
  std::string jsonl;
  int rounds = 5;
  std::size_t boxes = 100000, triangles = 1000000, rays = 100000, probes = 100000;
};

struct Figure {
  std::string scene, structure, query, metric;
  double value = 0;
  double ratio_to_bvh = 0;
};

// R rounds of every structure's run, the first one rotating; returns the median seconds of each.
std::vector<double> alternate(std::size_t count, int rounds, const std::function<void(std::size_t)>& run) {
  std::vector<std::vector<double>> seconds(count);
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t s = (k + std::size_t(round)) % count;
      const auto start = std::chrono::steady_clock::now();
      run(s);
      seconds[s].push_back(seconds_since(start));
    }
  }
  std::vector<double> medians;
  for (const auto& v : seconds) medians.push_back(median(v));
  return medians;
}

template <class Answer>
std::size_t count_differences(const std::vector<Answer>& a, const std::vector<Answer>& b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += !(a[i] == b[i]);
  return n;
}

int run_scene(SceneKind kind, const Options& options, std::vector<Figure>& figures, std::FILE* out) {
  const std::size_t objects = kind == SceneKind::mesh ? options.triangles : options.boxes;
  const StructureScene scene = make_structure_scene(kind, objects, options.rays, options.probes, 0x57C7 + int(kind));
  std::vector<std::unique_ptr<Structure>> structures;
  structures.push_back(make_bvh());
  structures.push_back(make_octree());
  structures.push_back(make_grid());
  structures.push_back(make_dynamic_tree());
  const std::size_t count = structures.size();
  std::printf("\n%s: %zu objects, %zu rays, %zu overlap boxes\n", scene.name.c_str(), scene.boxes.size(),
              scene.rays.size(), scene.probes.size());

  const std::vector<double> build =
      alternate(count, options.rounds, [&](std::size_t s) { structures[s]->build(scene.boxes); });
  std::vector<std::vector<NearestAnswer>> nearest(count, std::vector<NearestAnswer>(scene.rays.size()));
  std::vector<std::vector<OverlapAnswer>> overlap(count, std::vector<OverlapAnswer>(scene.probes.size()));
  int failures = 0;
  for (std::size_t s = 0; s < count; ++s) {
    structures[s]->nearest(scene.rays, nearest[s]);
    structures[s]->overlap(scene.probes, overlap[s]);
    const std::size_t ray_diff = count_differences(nearest[s], nearest[0]);
    const std::size_t overlap_diff = count_differences(overlap[s], overlap[0]);
    failures += ray_diff + overlap_diff != 0;
    std::printf("  %-13s %-34s differs from the bvh in %zu nearest, %zu overlap answers\n", structures[s]->name(),
                structures[s]->describe().c_str(), ray_diff, overlap_diff);
  }
  std::size_t hits = 0, touched = 0;
  for (const NearestAnswer& a : nearest[0]) hits += a.object != kNoObject;
  for (const OverlapAnswer& a : overlap[0]) touched += a.count;
  std::printf("  %.1f%% of the rays hit a box; an overlap box touches %.2f objects on average\n",
              100.0 * double(hits) / double(scene.rays.size()), double(touched) / double(scene.probes.size()));

  const std::vector<double> rays = alternate(count, options.rounds, [&](std::size_t s) {
    structures[s]->nearest(scene.rays, nearest[s]);
  });
  const std::vector<double> probes = alternate(count, options.rounds, [&](std::size_t s) {
    structures[s]->overlap(scene.probes, overlap[s]);
  });
  auto add = [&](const char* query, const char* metric, const std::vector<double>& seconds, std::size_t batch) {
    for (std::size_t s = 0; s < count; ++s) {
      const bool ms = std::strcmp(metric, "build_ms") == 0;
      Figure f{scene.name, structures[s]->name(), query, metric,
               ms ? seconds[s] * 1e3 : double(batch) / seconds[s], seconds[0] / seconds[s]};
      figures.push_back(f);
      if (!out) continue;
      std::fprintf(out,
                   "{\"suite\":\"structures\",\"scene\":\"%s\",\"objects\":%zu,\"structure\":\"%s\",\"query\":\"%s\","
                   "\"metric\":\"%s\",\"value\":%.6g,\"batch\":%zu,\"samples\":%d,\"speed_vs_bvh\":%.4g,"
                   "\"simd\":\"%s\"}\n",
                   f.scene.c_str(), scene.boxes.size(), f.structure.c_str(), query, metric, f.value, batch,
                   options.rounds, f.ratio_to_bvh, HITSCAN_SIMD_ISA);
    }
  };
  add("build", "build_ms", build, scene.boxes.size());
  add("nearest", "queries_per_s", rays, scene.rays.size());
  add("overlap", "queries_per_s", probes, scene.probes.size());
  if (out) std::fflush(out);
  return failures;
}

void print_table(const std::vector<Figure>& figures) {
  std::printf("\nstructures: medians of round-robin rounds, same run; build in ms, queries in queries/s;\n"
              "  (x) = speed relative to the bvh in the same run (above 1: faster)\n");
  std::printf("  %-10s %-8s %-14s %-19s %-19s %-19s %-19s\n", "scene", "query", "metric", "bvh", "octree", "grid",
              "dynamic_tree");
  for (std::size_t i = 0; i < figures.size();) {
    std::printf("  %-10s %-8s %-14s", figures[i].scene.c_str(), figures[i].query.c_str(), figures[i].metric.c_str());
    const std::string scene = figures[i].scene, query = figures[i].query;
    for (; i < figures.size() && figures[i].scene == scene && figures[i].query == query; ++i) {
      char cell[40];
      std::snprintf(cell, sizeof cell, "%.4g (%.2fx)", figures[i].value, figures[i].ratio_to_bvh);
      std::printf(" %-19s", cell);
    }
    std::printf("\n");
  }
}

bool parse_options(int argc, char** argv, Options& options) {
  bool quick = false, rounds_given = false;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--jsonl") == 0 && has_value) {
      options.jsonl = argv[++i];
    } else if (std::strcmp(argv[i], "--rounds") == 0 && has_value) {
      options.rounds = std::max(1, std::atoi(argv[++i]));
      rounds_given = true;
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      std::fprintf(stderr, "usage: %s [--jsonl FILE] [--rounds R] [--quick]\n", argv[0]);
      return false;
    }
  }
  if (quick) {
    options.boxes /= 10, options.triangles /= 10, options.rays /= 10, options.probes /= 10;
    if (!rounds_given) options.rounds = 3;
  }
  return true;
}

}  // namespace
}  // namespace hitscan::bench

int main(int argc, char** argv) {
  using namespace hitscan::bench;
  return run_suite<Options>(argc, argv, "hitscan_structures_bench", parse_options, [](const Options& options, std::FILE* out) {
    std::printf("structures: bvh, octree, grid, dynamic_tree over object boxes; %d rounds round-robin, medians\n",
                options.rounds);
    const auto start = std::chrono::steady_clock::now();
    std::vector<Figure> figures;
    int failures = 0;
    for (SceneKind kind : {SceneKind::uniform, SceneKind::clustered, SceneKind::mesh}) {
      failures += run_scene(kind, options, figures, out);
    }
    print_table(figures);
    std::printf("structures took %.1f s\n", seconds_since(start));
    if (failures != 0) std::printf("structures: %d structures disagree with the bvh\n", failures);
    return failures;
  });
}
