#include "tools/bench_command.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <iomanip>
#include <memory>
#include <new>
#include <optional>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "hitscan/io/mesh_loader.hpp"
#include "tools/camera.hpp"
#include "tools/output_file.hpp"
#include "tools/progress.hpp"
#include "tools/street_scene.hpp"

namespace hitscan::tools {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0.0 : values[values.size() / 2];
}

std::vector<Rayf> coherent_rays(const Aabbf& bounds, std::size_t count) {
  const int side = std::max(1, static_cast<int>(std::lround(std::sqrt(static_cast<double>(count)))));
  CameraDef def = default_camera_def();
  def.width = def.height = side;
  const Result<PinholeCamera> camera = PinholeCamera::make(frame_bounds(def, bounds, {1.0f, 0.6f, 1.4f}));
  std::vector<Rayf> rays;
  if (!camera) return rays;
  rays.reserve(static_cast<std::size_t>(side) * static_cast<std::size_t>(side));
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) rays.push_back(camera.value().ray_through_pixel(x, y));
  }
  return rays;
}

std::vector<Rayf> incoherent_rays(const Aabbf& bounds, std::size_t count) {
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f), signed_unit(-1.0f, 1.0f);
  std::vector<Rayf> rays(count);
  for (Rayf& ray : rays) {
    const Vec3f s{unit(gen), unit(gen), unit(gen)};
    const Vec3f extent = bounds.max - bounds.min;
    ray.origin = bounds.min + Vec3f{extent.x * s.x, extent.y * s.y, extent.z * s.z};
    const float z = signed_unit(gen), phi = unit(gen) * 2.0f * kPi<float>, r = std::sqrt(std::max(0.0f, 1 - z * z));
    ray.dir = {r * std::cos(phi), r * std::sin(phi), z};
  }
  return rays;
}

struct RaySet {
  std::string name;
  std::vector<Rayf> rays;
  bool any_hit = false;
};

// Traces a set once; returns the seconds taken and the hit count.
std::pair<double, std::size_t> trace(const MeshBvh& bvh, const RaySet& set, Executor& executor) {
  const Clock::time_point start = Clock::now();
  std::size_t hits = 0;
  if (set.any_hit) {
    std::vector<std::uint8_t> occluded(set.rays.size());
    bvh.occluded_batch(set.rays, occluded, FaceMode::both, &executor);
    const double s = seconds_since(start);
    hits = static_cast<std::size_t>(std::count(occluded.begin(), occluded.end(), std::uint8_t{1}));
    return {s, hits};
  }
  std::vector<MeshHit> out(set.rays.size());
  bvh.intersect_batch(set.rays, out, FaceMode::both, &executor);
  const double s = seconds_since(start);
  hits = static_cast<std::size_t>(std::count_if(out.begin(), out.end(), [](const MeshHit& h) { return h.hit; }));
  return {s, hits};
}

Result<TriangleMesh> load_or_generate(const BenchOptions& options, std::string& name) {
  if (!options.mesh.empty()) {
    name = options.mesh;
    return io::load_mesh(options.mesh, {.read_normals = false});
  }
  name = "generated street";
  const Result<StreetScene> street = make_street_scene(street_options_for_triangles(500'000));
  if (!street) return street.status();
  return street.value().merged_mesh();
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out + "\"";
}

int run_bench_unguarded(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  if (!options.jsonl.empty()) {
    if (const Status status = check_output_file(options.jsonl); !status.ok()) {
      err << "hitscan bench: " << status.message() << '\n';
      return kExitFailure;
    }
  }
  std::string name;
  const bool terminal = is_terminal_stderr(err);
  Result<TriangleMesh> loaded = [&] {
    Progress progress(err, terminal, options.mesh.empty() ? "generating the street" : "loading " + options.mesh);
    return run_with_ticker(progress, terminal, [&] { return load_or_generate(options, name); });
  }();
  if (!loaded) {
    err << "hitscan bench: " << loaded.status().message() << '\n';
    return loaded.status().code() == StatusCode::out_of_memory ? kExitFailure : kExitUsage;
  }
  auto mesh = std::make_shared<const TriangleMesh>(std::move(loaded).value());
  if (mesh->triangle_count() == 0 || !mesh->bounds().is_valid()) {
    err << "hitscan bench: " << name << ": the mesh has no triangles\n";
    return kExitUsage;
  }
  ThreadPool all(options.threads);
  ThreadPool one(1);
  std::vector<double> build_seconds;
  std::optional<MeshBvh> bvh;
  {
    Progress progress(err, terminal, "building the BVH");
    for (int i = 0; i < 3; ++i) {
      const Clock::time_point start = Clock::now();
      Result<MeshBvh> built = run_with_ticker(progress, terminal, [&] { return MeshBvh::build(mesh, {}, &all); });
      build_seconds.push_back(seconds_since(start));
      if (!built) {
        err << "hitscan bench: " << name << ": " << built.status().message() << '\n';
        return kExitFailure;
      }
      bvh.emplace(std::move(built).value());
    }
  }
  const double bytes_per_tri = static_cast<double>(bvh->memory_bytes()) / static_cast<double>(mesh->triangle_count());
  std::vector<RaySet> sets;
  sets.push_back({"coherent", coherent_rays(mesh->bounds(), options.rays), false});
  sets.push_back({"incoherent", incoherent_rays(mesh->bounds(), options.rays), false});
  sets.push_back({"occlusion", sets.back().rays, true});

  // [set][0: one thread, 1: all] -> seconds of each round
  std::vector<std::array<std::vector<double>, 2>> seconds(sets.size());
  std::vector<std::size_t> hits(sets.size());
  {
    Progress progress(err, terminal, "tracing", static_cast<std::uint64_t>(options.rounds) * sets.size() * 2);
    std::uint64_t done = 0;
    for (int round = 0; round < options.rounds; ++round) {
      for (std::size_t s = 0; s < sets.size(); ++s) {
        for (int which = 0; which < 2; ++which) {
          const auto [time, count] = trace(*bvh, sets[s], which == 0 ? static_cast<Executor&>(one) : all);
          seconds[s][static_cast<std::size_t>(which)].push_back(time);
          hits[s] = count;
          progress.update(++done);
        }
      }
    }
  }

  std::ostringstream jsonl;
  const auto json = [&](const std::string& query, unsigned threads, const char* metric, double value,
                        std::size_t rays) {
    jsonl << "{\"suite\": \"cli\", \"mesh\": " << json_string(name) << ", \"tris\": " << mesh->triangle_count()
          << ", \"rays\": " << rays << ", \"query\": " << json_string(query) << ", \"threads\": " << threads
          << ", \"backend\": \"hitscan\", \"metric\": \"" << metric << "\", \"value\": " << std::setprecision(6)
          << value << "}\n";
  };
  out << std::fixed << std::setprecision(1) << "bench: " << name << ", " << mesh->triangle_count()
      << " triangles, build " << median(build_seconds) * 1e3 << " ms, " << bytes_per_tri << " bytes/triangle\n";
  json("build", all.concurrency(), "build_ms", median(build_seconds) * 1e3, 0);
  json("build", all.concurrency(), "bytes_per_tri", bytes_per_tri, 0);
  for (std::size_t s = 0; s < sets.size(); ++s) {
    for (int which = 0; which < 2; ++which) {
      const unsigned threads = which == 0 ? 1u : all.concurrency();
      const double t = median(seconds[s][static_cast<std::size_t>(which)]);
      const double mrays = t > 0 ? static_cast<double>(sets[s].rays.size()) / t * 1e-6 : 0.0;
      out << std::setprecision(2) << "bench: " << sets[s].name << ' ' << threads
          << (threads == 1 ? " thread: " : " threads: ") << mrays << " Mrays/s, " << hits[s] << " hits\n";
      json(sets[s].name, threads, "mrays_per_s", mrays, sets[s].rays.size());
    }
  }
  if (!options.jsonl.empty()) {
    std::ofstream file(options.jsonl, std::ios::app);
    file << jsonl.str();
    if (!file.flush()) {
      err << "hitscan bench: cannot write " << options.jsonl << '\n';
      return kExitFailure;
    }
  }
  return kExitSuccess;
}

}  // namespace

void add_bench_command(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* command = app.add_subcommand(
      "bench", "Measure BVH build time and ray tracing speed (coherent, incoherent, occlusion) on a mesh");
  command->add_option("mesh", options->mesh, "Mesh file (any format assimp reads); default: a generated street");
  command->add_option("--rays", options->rays, "Rays per set")->capture_default_str()->check(CLI::Range(1, 1 << 26));
  command->add_option("--threads", options->threads, "Threads for the all-threads figures (0: all cores)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1024));
  command->add_option("--rounds", options->rounds, "Rounds; each figure is their median")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  command->add_option("--jsonl", options->jsonl, "Append the figures as JSON lines to this file");
  command->callback([options, &context] { context.exit_code = run_bench(*options, context.out, context.err); });
}

int run_bench(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  try {
    return run_bench_unguarded(options, out, err);
  } catch (const std::bad_alloc&) {
    err << "hitscan bench: out of memory\n";
    return kExitFailure;
  }
}

}  // namespace hitscan::tools
