// hitscan_ar_bench: the "ar" suite. One AR frame's work on a reconstructed street of about a
// million triangles (src/tools/street_scene.hpp, loaded as chunks through ReconstructionChunks),
// in four cases, each at 1 thread (a SerialExecutor) and at all threads (the default pool):
//   drape_100m         drape_route over a 100 m route with the camera at its start (default
//                      DrapeSettings: 0.5 m spacing near the camera, 2 m beyond 20 m, bisection at
//                      steps, curbs, the ramp's ends and the hole's rim)
//   occlusion_objects  occlusion_mask for the pixels the virtual content covers (a ribbon along
//                      the draped route, arrows every 2 m, signs on the walls; virtual_content.hpp)
//                      against the real depth map, rendered by render_depth from the committed
//                      scene before timing (as a framework's depth map would arrive; the test's
//                      cost does not depend on the values); at all threads the covered pixels are
//                      split over the pool, occlusion_mask on each part
//   chunk_update       one chunk's positions replaced by a fresh noise draw (same triangles, so
//                      the spare tree is refit) with update_chunk, then Scene::commit
//   depth_map_640x480  render_depth over the street's 640 x 480 camera; beside it, as baselines, Embree 3
//                      (embree_depth.hpp) on the same frame: rtcIntersect1, rtcIntersect8 and
//                      rtcIntersect16 (backends embree_high, embree_high_packet8, _packet16)
// and, printed but not logged, occlusion_objects_by_rays: the same covered pixels answered without
// a depth map, by one raycast_any per pixel up to the content's distance less the bias; and
// depth_map_256x192: the depth map at the size AR frameworks deliver theirs (ARKit's sceneDepth).
//
//   hitscan_ar_bench [--jsonl FILE] [--triangles N] [--route-length M] [--rounds R] [--sample-ms T]
//                    [--only CASE] [--quick]
//
// Every answer is cross-checked first (cross_check.hpp); the timing runs regardless, and the exit
// status is 1 when a check failed or a timed frame did.
// Then every case and thread count runs round-robin, the starting one rotating each round: a round
// runs each of them for about T ms worth of frames (default 40) and keeps the mean per frame; a
// figure is the median over R rounds (default 15), since the machine drifts 20-30% over minutes.
// --only: the cases whose name holds CASE, alone (to profile one). --quick: 100000 triangles,
// 5 rounds. JSON lines are appended to FILE.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "../common/arguments.hpp"
#include "../mesh_rays/statistics.hpp"
#include "ar_world.hpp"
#include "cross_check.hpp"
#include "embree_depth.hpp"
#include "hitscan/ar/drape.hpp"
#include "hitscan/ar/occlusion.hpp"
#include "report.hpp"
#include "virtual_content.hpp"

namespace hitscan::bench {
namespace {

// Content closer to the reconstruction than this along the viewing axis is not hidden: the
// reconstruction's noise (1 cm) seen at a grazing angle.
constexpr float kOcclusionBias = 0.03f;

struct Options {
  std::string jsonl;
  std::size_t triangles = 1'000'000;
  float route_length = 100.0f;
  int rounds = 15;
  double sample_ms = 40.0;
  /// Only the cases whose name holds this (for profiling one case); all when empty.
  std::string only;
};

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// One case at one thread count: what a frame runs, frames per round and the rounds' times.
struct Entry {
  std::string name;
  int threads = 1;
  std::function<bool()> frame;  // false when the frame failed
  bool logged = true;
  std::string backend = "hitscan";
  int frames = 1;
  std::vector<double> ms_per_frame;
  std::vector<double> cpu_ms_per_frame;  // the process's CPU time, every thread's
};

// The process's CPU time in milliseconds: on a shared machine it shows the work a frame did apart
// from the time it waited for a core.
double process_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

// Runs one round of `entry`: its frames back to back, the mean time per frame kept.
bool run_round(Entry& entry) {
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = process_cpu_ms();
  bool ok = true;
  for (int f = 0; f < entry.frames; ++f) ok = entry.frame() && ok;
  entry.ms_per_frame.push_back(ms_since(start) / entry.frames);
  entry.cpu_ms_per_frame.push_back((process_cpu_ms() - cpu_start) / entry.frames);
  return ok;
}

// The per-frame state the cases share.
struct Frame {
  ArWorld* world = nullptr;
  DrapedRoute draped;
  DepthMap real_depth;  // the occlusion test's input
  DepthMap rendered;    // what depth_map_640x480 writes
  std::vector<float> embree_depth;  // what Embree's depth_map_640x480 writes
  std::vector<PixelDepth> covered;
  std::vector<std::uint8_t> hidden;
  std::vector<QueryRay> occlusion_rays;
  /// The street's camera at the resolution of the depth maps AR frameworks deliver (ARKit's
  /// sceneDepth is 256 x 192): what a depth map rendered at their size would cost.
  std::optional<PinholeCamera> framework_camera;
};

// The camera's intrinsics scaled to `width` pixels across (the aspect ratio kept).
std::optional<PinholeCamera> scaled_camera(const PinholeCamera& camera, int width) {
  PinholeIntrinsics k = camera.intrinsics();
  const float scale = float(width) / float(k.width);
  k.fx *= scale, k.fy *= scale, k.cx *= scale, k.cy *= scale;
  k.width = width, k.height = int(std::lround(float(k.height) * scale));
  Result<PinholeCamera> scaled = PinholeCamera::make(k, camera.rotation(), camera.position());
  if (!scaled.ok()) return std::nullopt;
  return scaled.value();
}

bool drape(Frame& f, Executor* executor) {
  Result<DrapedRoute> draped =
      drape_route(f.world->scene, f.world->route, f.world->street.gravity, f.world->street.camera.position(), {},
                  executor);
  if (!draped.ok()) return false;
  f.draped = std::move(draped).value();
  return true;
}

bool occlusion(Frame& f, Executor* executor) {
  Result<DepthMapView> view = DepthMapView::of(f.real_depth);
  if (!view.ok()) return false;
  const std::span<const PixelDepth> covered(f.covered);
  const std::span<std::uint8_t> hidden(f.hidden);
  if (!executor) return occlusion_mask(view.value(), covered, hidden, kOcclusionBias).ok();
  std::atomic<bool> ok = true;
  const std::size_t grain = std::max<std::size_t>(1024, covered.size() / (4 * executor->concurrency()));
  executor->parallel_for(covered.size(), grain, [&](std::size_t begin, std::size_t end) {
    const std::size_t n = end - begin;
    if (!occlusion_mask(view.value(), covered.subspan(begin, n), hidden.subspan(begin, n), kOcclusionBias).ok()) {
      ok = false;  // never happens for pixels inside the image
    }
  });
  return ok;
}

// The covered pixels without a depth map: hidden when anything lies nearer along the pixel's ray
// than the content, less the bias (taken along the viewing axis, as the depth map's test does).
bool occlusion_by_rays(Frame& f, Executor* executor) {
  const PinholeCamera& camera = f.world->street.camera;
  const Vec3f forward = camera.forward();
  f.occlusion_rays.resize(f.covered.size());
  for (std::size_t k = 0; k < f.covered.size(); ++k) {
    const PixelDepth& p = f.covered[k];
    QueryRay ray = camera.ray_through_pixel(float(p.i) + 0.5f, float(p.j) + 0.5f);
    ray.max_distance = std::max(0.0f, p.depth - kOcclusionBias) / dot(ray.direction, forward);
    f.occlusion_rays[k] = ray;
  }
  return f.world->scene.raycast_any_batch(f.occlusion_rays, f.hidden, {}, executor).ok();
}

bool parse_options(int argc, char** argv, Options& options) {
  bool quick = false, triangles_given = false, rounds_given = false;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--jsonl") == 0 && has_value) {
      options.jsonl = argv[++i];
    } else if (std::strcmp(argv[i], "--triangles") == 0 && has_value) {
      options.triangles = std::max<std::size_t>(1000, std::strtoull(argv[++i], nullptr, 10));
      triangles_given = true;
    } else if (std::strcmp(argv[i], "--route-length") == 0 && has_value) {
      options.route_length = std::max(1.0f, float(std::atof(argv[++i])));
    } else if (std::strcmp(argv[i], "--rounds") == 0 && has_value) {
      options.rounds = std::max(1, std::atoi(argv[++i]));
      rounds_given = true;
    } else if (std::strcmp(argv[i], "--sample-ms") == 0 && has_value) {
      options.sample_ms = std::max(0.0, std::atof(argv[++i]));
    } else if (std::strcmp(argv[i], "--only") == 0 && has_value) {
      options.only = argv[++i];
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--jsonl FILE] [--triangles N] [--route-length M] [--rounds R] [--sample-ms T] "
                   "[--only CASE] [--quick]\n",
                   argv[0]);
      return false;
    }
  }
  if (quick && !triangles_given) options.triangles = 100'000;
  if (quick && !rounds_given) options.rounds = 5;
  return true;
}

// The untimed first frame of every case, and the checks of its answers. Returns the failures.
std::size_t first_frame_and_checks(Frame& f, Executor& serial, Executor& pool) {
  ArWorld& world = *f.world;
  std::size_t failures = 0;
  std::printf("cross-check (before timing):\n");
  if (!drape(f, &serial)) {
    std::printf("  drape_route failed\n");
    return 1;
  }
  failures += check_drape(world, f.draped, DrapeSettings{});

  if (!render_depth(world.scene, world.street.camera, f.real_depth).ok()) return failures + 1;
  failures += check_depth_map(world, f.real_depth);

  const VirtualContent content =
      make_virtual_content(f.draped, world.street.sign_points, world.street.sign_normals, -world.street.gravity);
  f.covered = covered_pixels(content, world.street.camera);
  std::printf("  virtual content: %zu ribbon quads, %zu arrows, %zu signs cover %zu of %d pixels\n",
              content.ribbon_quads, content.arrows, content.signs, f.covered.size(),
              f.real_depth.width * f.real_depth.height);
  f.hidden.assign(f.covered.size(), 0);
  const bool one_ok = occlusion(f, nullptr);
  const std::vector<std::uint8_t> one_thread = f.hidden;
  const bool threads_ok = occlusion(f, &pool);
  failures += one_ok && threads_ok ? check_occlusion(f.real_depth, f.covered, one_thread, f.hidden, kOcclusionBias)
                                   : 1;
  if (!occlusion_by_rays(f, &pool)) return failures + 1;
  std::size_t agree = 0;
  for (std::size_t k = 0; k < f.hidden.size(); ++k) agree += f.hidden[k] == one_thread[k];
  std::printf("  occlusion by rays (not a check: rays and the depth map's pixel centres see the same surface, "
              "the bias differs along the ray): agrees with the depth map at %zu of %zu pixels\n",
              agree, f.hidden.size());

  failures += check_chunk_update(world);
  // The occlusion test's depth map is the current frame's: render it again after the update.
  if (!render_depth(world.scene, world.street.camera, f.real_depth).ok()) return failures + 1;
  return failures;
}

}  // namespace
}  // namespace hitscan::bench

int main(int argc, char** argv) {
  using namespace hitscan;
  using namespace hitscan::bench;
  return run_suite<Options>(argc, argv, "hitscan_ar_bench", parse_options, [](const Options& options, std::FILE* out) {
    const auto start = std::chrono::steady_clock::now();
    SerialExecutor serial;
    Executor& pool = default_executor();
    const int all_threads = int(pool.concurrency());
    std::printf("ar: one AR frame's work on a reconstructed street; 1 and %d threads, %d rounds round-robin, "
                "~%.0f ms of frames per round, medians\n",
                all_threads, options.rounds, options.sample_ms);

    std::unique_ptr<ArWorld> world = make_ar_world(options.triangles, options.route_length);
    if (!world) return 1;
    Frame frame;
    frame.world = world.get();
    frame.framework_camera = scaled_camera(world->street.camera, 256);
    // The depth map's baseline, checked against render_depth on the street as generated (before
    // the checks below replace a chunk's positions). Not a failure when they differ: Embree's
    // triangle test is not watertight, and the two round differently.
    const EmbreeDepth embree(world->street);
    {
      std::vector<float> e1, e8;
      embree.render(world->street.camera, e1, serial, 1);
      embree.render(world->street.camera, e8, pool, 8);
      DepthMap h;
      if (!render_depth(world->scene, world->street.camera, h).ok()) return 1;
      std::size_t differ1 = 0, differ8 = 0, seen = 0;
      const auto differs = [](float a, float b) {
        if (a == b) return false;  // both +inf included
        return !(std::abs(a - b) <= 1e-4f * std::max(std::abs(a), std::abs(b)));
      };
      for (std::size_t p = 0; p < h.depth.size(); ++p) {
        seen += h.depth[p] < std::numeric_limits<float>::infinity();
        differ1 += differs(h.depth[p], e1[p]);
        differ8 += differs(h.depth[p], e8[p]);
      }
      std::printf("embree baseline (one scene over the %zu chunks, build quality HIGH): depth maps differ from "
                  "render_depth's at %zu (rtcIntersect1) and %zu (rtcIntersect8) of %zu pixels (relative 1e-4; "
                  "hitscan sees a surface at %zu)\n",
                  world->street.chunks.size(), differ1, differ8, h.depth.size(), seen);
    }
    const std::size_t failures = first_frame_and_checks(frame, serial, pool);
    std::printf("cross-check: %s (%zu failures)\n", failures == 0 ? "passed" : "FAILED", failures);

    char drape_name[32];
    std::snprintf(drape_name, sizeof drape_name, "drape_%.0fm", double(options.route_length));
    char depth_name[32];
    std::snprintf(depth_name, sizeof depth_name, "depth_map_%dx%d", world->street.camera.intrinsics().width,
                  world->street.camera.intrinsics().height);
    Frame& f = frame;  // captured by the cases
    std::vector<Entry> entries;
    auto add = [&](std::string name, int threads, std::function<bool()> run, bool logged = true,
                   const char* backend = "hitscan") {
      if (name.find(options.only) == std::string::npos) return;
      Entry e;
      e.name = std::move(name), e.threads = threads, e.frame = std::move(run), e.logged = logged, e.backend = backend;
      entries.push_back(std::move(e));
    };
    for (const int threads : {1, all_threads}) {
      Executor* executor = threads == 1 ? static_cast<Executor*>(&serial) : &pool;
      add(drape_name, threads, [&f, executor] { return drape(f, executor); });
      add("occlusion_objects", threads,
          [&f, threads, executor] { return occlusion(f, threads == 1 ? nullptr : executor); });
      add("chunk_update", threads, [&f, executor] {
        f.world->executor.use(*executor);
        return update_chunk_frame(*f.world);
      });
      add(depth_name, threads, [&f, executor] {
        return render_depth(f.world->scene, f.world->street.camera, f.rendered, {}, executor).ok();
      });
      for (const int packet : {1, 8, 16}) {
        add(depth_name, threads, [&f, &embree, executor, packet] {
          embree.render(f.world->street.camera, f.embree_depth, *executor, packet);
          return true;
        }, true, packet == 1 ? "embree_high" : packet == 8 ? "embree_high_packet8" : "embree_high_packet16");
      }
      add("occlusion_objects_by_rays", threads, [&f, executor] { return occlusion_by_rays(f, executor); }, false);
      if (f.framework_camera) {
        const PinholeIntrinsics& k = f.framework_camera->intrinsics();
        add("depth_map_" + std::to_string(k.width) + "x" + std::to_string(k.height), threads,
            [&f, executor] { return render_depth(f.world->scene, *f.framework_camera, f.rendered, {}, executor).ok(); },
            false);
      }
      if (all_threads == 1) break;
    }

    // Frames per round: enough for about sample_ms, from one warm-up frame of each.
    bool frames_ok = true;
    for (Entry& e : entries) {
      const auto warm = std::chrono::steady_clock::now();
      frames_ok = e.frame() && frames_ok;
      e.frames = std::clamp(int(std::ceil(options.sample_ms / std::max(1e-3, ms_since(warm)))), 1, 2000);
    }
    for (int round = 0; round < options.rounds; ++round) {
      for (std::size_t k = 0; k < entries.size(); ++k) {
        frames_ok = run_round(entries[(k + std::size_t(round)) % entries.size()]) && frames_ok;
      }
    }
    if (!frames_ok) std::printf("ar: a timed frame failed (a drape, a depth map, or an update that did not refit)\n");

    ArLog log(out, world->street.triangle_count());
    for (const Entry& e : entries) {
      const auto [lo, hi] = std::minmax_element(e.ms_per_frame.begin(), e.ms_per_frame.end());
      log.add({e.name, e.threads, e.backend, median(e.ms_per_frame), *lo, *hi, median(e.cpu_ms_per_frame), e.frames,
               int(e.ms_per_frame.size()), e.logged});
    }
    log.print_table(all_threads);
    std::printf("ar took %.1f s\n", ms_since(start) / 1e3);
    if (failures != 0) std::printf("ar: %zu cross-checks failed (see above)\n", failures);
    return int(failures) + (frames_ok ? 0 : 1);
  });
}
