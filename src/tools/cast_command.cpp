#include "tools/cast_command.hpp"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <memory>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "hitscan/assert.hpp"
#include "hitscan/io/mesh_loader.hpp"
#include "tools/output_file.hpp"

namespace hitscan::tools {
namespace {

// Bounds --threads, so that a mistyped count is a usage error rather than thousands of threads.
constexpr unsigned kMaxThreads = 1024;

io::HitRow hit_row(const MeshHit& hit) {
  if (!hit) return {};
  return {hit.t, static_cast<double>(hit.triangle), hit.u, hit.v, hit.normal.x, hit.normal.y, hit.normal.z};
}

// Input the user gave that cannot be used is a usage error; running out of memory is not.
int input_failure_exit_code(const Status& status) {
  return status.code() == StatusCode::out_of_memory ? kExitFailure : kExitUsage;
}

double milliseconds(std::chrono::steady_clock::duration duration) {
  return std::chrono::duration<double, std::milli>(duration).count();
}

int run_cast_unguarded(const CastOptions& options, std::ostream& out, std::ostream& err) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point command_start = Clock::now();
  if (const Result<io::TableFormat> format = io::table_format(options.output); !format) {
    err << "hitscan cast: " << format.status().message() << '\n';
    return kExitUsage;
  }
  if (const Status status = check_output_file(options.output); !status.ok()) {
    err << "hitscan cast: " << status.message() << '\n';
    return kExitFailure;
  }
  const Result<std::vector<Rayf>> rays = io::read_rays(options.rays);
  if (!rays) {
    err << "hitscan cast: " << rays.status().message() << '\n';
    return input_failure_exit_code(rays.status());
  }
  const bool terminal = is_terminal_stderr(err);
  Result<TriangleMesh> loaded = [&] {
    Progress progress(err, terminal, "loading " + options.mesh);
    return run_with_ticker(progress, terminal, [&] { return io::load_mesh(options.mesh, {.read_normals = false}); });
  }();
  if (!loaded) {
    err << "hitscan cast: " << loaded.status().message() << '\n';
    return input_failure_exit_code(loaded.status());
  }
  auto mesh = std::make_shared<const TriangleMesh>(std::move(loaded).value());

  const Clock::time_point build_start = Clock::now();
  const Result<MeshBvh> bvh = [&] {
    Progress progress(err, terminal, "building the BVH");
    return run_with_ticker(progress, terminal, [&] { return MeshBvh::build(mesh); });
  }();
  const Clock::duration build_time = Clock::now() - build_start;
  if (!bvh) {
    err << "hitscan cast: " << options.mesh << ": " << bvh.status().message() << '\n';
    return kExitFailure;
  }

  // Made (every row written, so every page faulted in) before the clock starts: first touches of
  // a large table would otherwise count as tracing time.
  std::vector<io::HitRow> rows(rays.value().size());
  const Clock::time_point trace_start = Clock::now();
  Progress trace_progress(err, terminal, "casting rays", rays.value().size());
  cast_rays(bvh.value(), rays.value(), rows, options.settings, &trace_progress);
  trace_progress.finish();
  const Clock::duration trace_time = Clock::now() - trace_start;

  if (const Status status = io::write_hits(options.output, rows); !status.ok()) {
    err << "hitscan cast: " << status.message() << '\n';
    return kExitFailure;
  }

  if (options.stats) {
    const auto hits =
        std::count_if(rows.begin(), rows.end(), [](const io::HitRow& row) { return row.t < kInfinity<double>; });
    const double trace_ms = milliseconds(trace_time);
    const double mrays_per_second = trace_ms > 0 ? static_cast<double>(rows.size()) / trace_ms * 1e-3 : 0.0;
    out << std::fixed << std::setprecision(3) << "{\"triangles\": " << mesh->triangle_count()
        << ", \"build_ms\": " << milliseconds(build_time) << ", \"trace_ms\": " << trace_ms
        << ", \"total_ms\": " << milliseconds(Clock::now() - command_start) << ", \"mrays_per_s\": " << mrays_per_second
        << ", \"hits\": " << hits << "}\n";
  }
  return kExitSuccess;
}

}  // namespace

CastOptions default_cast_options() {
  CastOptions options;
  options.settings.threads = std::clamp(std::thread::hardware_concurrency(), 1u, kMaxThreads);
  return options;
}

void cast_rays(const MeshBvh& mesh, std::span<const Rayf> rays, std::span<io::HitRow> rows,
               const CastSettings& settings, Progress* progress) {
  HITSCAN_ASSERT(rows.size() == rays.size());
  // In slices, so that a progress bar moves; each ray's answer does not depend on the slicing.
  constexpr std::size_t kSlice = std::size_t{1} << 16;
  ThreadPool pool(std::clamp(settings.threads, 1u, kMaxThreads));
  std::vector<std::uint8_t> occluded(settings.any_hit ? std::min(rays.size(), kSlice) : 0);
  std::vector<MeshHit> hits(settings.any_hit ? 0 : std::min(rays.size(), kSlice));
  for (std::size_t first = 0; first < rays.size(); first += kSlice) {
    const std::span<const Rayf> slice = rays.subspan(first, std::min(kSlice, rays.size() - first));
    if (settings.any_hit) {
      const std::span<std::uint8_t> out = std::span(occluded).first(slice.size());
      mesh.occluded_batch(slice, out, settings.faces, &pool);  // sizes match by construction
      for (std::size_t i = 0; i < slice.size(); ++i) {
        rows[first + i] = {};
        if (out[i]) rows[first + i].t = 1;
      }
    } else {
      const std::span<MeshHit> out = std::span(hits).first(slice.size());
      mesh.intersect_batch(slice, out, settings.faces, &pool);
      for (std::size_t i = 0; i < slice.size(); ++i) rows[first + i] = hit_row(out[i]);
    }
    if (progress) progress->update(first + slice.size());
  }
}

void add_cast_command(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<CastOptions>(default_cast_options());
  CLI::App* command = app.add_subcommand(
      "cast", "Cast a table of rays at a mesh and write the closest hit of each (t, prim, u, v, nx, ny, nz)");
  command->add_option("mesh", options->mesh, "Mesh file (any format assimp reads)")->required();
  command->add_option("rays", options->rays,
                      "Rays, .npy (float32 or float64) or .csv, one per row: ox, oy, oz, dx, dy, dz[, tmin, tmax]")
      ->required();
  command->add_option("-o,--output", options->output,
                      "Hits to write, .npy (float64, N x 7) or .csv: t, prim, u, v, nx, ny, nz; a miss has t = inf "
                      "and prim = -1. prim numbers triangles in the file's face order, k - 2 for a face of k corners "
                      "(a convex face's fan from its first corner, a concave one's ear clipping)")
      ->required();
  command->add_flag("--any", options->settings.any_hit,
                    "Only whether each ray hits anything in [tmin, tmax]: t = 1 for a hit, inf for none");
  // Held as a name, so that --help lists the names; the callback turns it into a FaceMode.
  auto faces = std::make_shared<std::string>("both");
  command->add_option("--backfaces", *faces,
                      "Faces that count as hits: both, front only (the side (v1-v0)x(v2-v0) points to) or back only")
      ->check(CLI::IsMember({"both", "front", "back"}))
      ->capture_default_str();
  command->add_option("--threads", options->settings.threads, "Threads the rays are split over")
      ->capture_default_str()
      ->check(CLI::Range(1u, kMaxThreads));
  command->add_flag("--stats", options->stats,
                    "Print one JSON line: triangles, build_ms (building the BVH), trace_ms (casting the rays alone), "
                    "total_ms (the whole command: reading the files, building, casting, writing the hits), "
                    "mrays_per_s (rays over trace_ms), hits");
  command->callback([options, faces, &context] {
    options->settings.faces = *faces == "front" ? FaceMode::front_only
                              : *faces == "back" ? FaceMode::back_only
                                                 : FaceMode::both;
    context.exit_code = run_cast(*options, context.out, context.err);
  });
}

int run_cast(const CastOptions& options, std::ostream& out, std::ostream& err) {
  try {
    return run_cast_unguarded(options, out, err);
  } catch (const std::bad_alloc&) {
    err << "hitscan cast: out of memory\n";
    return kExitFailure;
  }
}

}  // namespace hitscan::tools
