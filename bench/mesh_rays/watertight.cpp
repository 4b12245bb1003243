#include "watertight.hpp"

#include <atomic>
#include <chrono>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "backend.hpp"
#include "bench_meshes.hpp"
#include "hitscan/io/mesh_loader.hpp"
#include "parallel_runner.hpp"

namespace hitscan::bench {
namespace {

struct ClosedMesh {
  const char* name;
  const char* path;  // empty: the generated noisy sphere
};

// Closed and consistently wound: every directed edge meets its reverse exactly once (for the
// assimp duck, whose loader keeps a vertex per face corner, once the coincident corners are
// taken as one).
const ClosedMesh kClosedMeshes[] = {
    {"armadillo", HITSCAN_BENCH_CGAL_MESH_DIR "/armadillo.off"},
    {"bunny", HITSCAN_BENCH_CGAL_MESH_DIR "/bunny00.off"},
    {"elephant", HITSCAN_BENCH_CGAL_MESH_DIR "/elephant.off"},
    {"duck", HITSCAN_BENCH_ASSIMP_MODEL_DIR "/Collada/duck.dae"},
    {"noisy_sphere", ""},
};

std::shared_ptr<const TriangleMesh> load_closed(const ClosedMesh& source) {
  if (std::string(source.path).empty()) return make_bench_mesh("noisy_sphere");
  Result<TriangleMesh> mesh = io::load_mesh(source.path);
  if (!mesh) throw std::runtime_error("cannot load " + std::string(source.path) + ": " + mesh.status().message());
  return std::make_shared<const TriangleMesh>(std::move(mesh).value());
}

// Origins just beneath the centres of random triangles, kept when a random ray from them crosses
// the surface an odd number of times (inside, unless the wall is thinner than the offset there),
// and from each, rays at a random vertex, a random edge's midpoint, or a random direction in turn.
std::vector<Rayf> rays_from_inside(const TriangleMesh& mesh, const MeshBvh& bvh, std::size_t count) {
  constexpr std::size_t kRaysPerOrigin = 1000;
  const float depth = 1e-3f * length(mesh.bounds().extent());
  std::mt19937 gen(20261129);
  std::uniform_int_distribution<std::size_t> pick(0, mesh.triangle_count() - 1);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<MeshHit> crossings;
  std::vector<Rayf> rays;
  rays.reserve(count);
  while (rays.size() < count) {
    const std::size_t t = pick(gen);
    if (!mesh.is_usable(t)) continue;
    const Trianglef tri = mesh.triangle(t);
    const Vec3f origin = (tri.v0 + tri.v1 + tri.v2) * (1.0f / 3) - normalize(cross(tri.v1 - tri.v0, tri.v2 - tri.v0)) * depth;
    if (bvh.intersect_all({origin, {u(gen), u(gen), u(gen) + 0.1f}}, crossings) % 2 == 0) continue;
    for (std::size_t k = 0; k < kRaysPerOrigin && rays.size() < count; ++k) {
      const auto& idx = mesh.triangles()[pick(gen)];
      const Vec3f a = mesh.positions()[idx[0]], b = mesh.positions()[idx[1]];
      const Vec3f dir = k % 3 == 0 ? a - origin : k % 3 == 1 ? (a + b) * 0.5f - origin : Vec3f{u(gen), u(gen), u(gen)};
      if (dir != Vec3f{}) rays.push_back({origin, dir});
    }
  }
  return rays;
}

void write_figure(std::FILE* out, const char* mesh, std::size_t tris, const std::string& backend, const char* metric,
                  std::size_t value, std::size_t rays) {
  std::printf("    %-14s %-16s %-15s %zu of %zu rays\n", mesh, backend.c_str(), metric, value, rays);
  if (!out) return;
  std::fprintf(out,
               "{\"suite\":\"watertight\",\"mesh\":\"%s\",\"tris\":%zu,\"rays\":%zu,\"backend\":\"%s\","
               "\"metric\":\"%s\",\"value\":%zu}\n",
               mesh, tris, rays, backend.c_str(), metric, value);
  std::fflush(out);
}

}  // namespace

std::size_t run_watertight(std::size_t total_rays, int threads, std::FILE* out) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t per_mesh = total_rays / std::size(kClosedMeshes) + 1;
  std::printf("\nwatertight: %zu rays from inside each closed mesh, at vertices, edge midpoints and random\n",
              per_mesh);
  std::size_t failures = 0;
  for (const ClosedMesh& source : kClosedMeshes) {
    try {
      const auto mesh = load_closed(source);
      const MeshBvh bvh = MeshBvh::build(mesh).value();
      const std::vector<Rayf> rays = rays_from_inside(*mesh, bvh, per_mesh);
      std::atomic<std::size_t> escapes{0}, even{0};
      run_chunked(rays.size(), threads, [&](std::size_t begin, std::size_t end) {
        std::vector<MeshHit> crossings;
        std::size_t local_escapes = 0, local_even = 0;
        for (std::size_t i = begin; i < end; ++i) {
          local_escapes += !bvh.intersect(rays[i]).hit;
          local_even += bvh.intersect_all(rays[i], crossings) % 2 == 0;
        }
        escapes += local_escapes;
        even += local_even;
      });
      const std::size_t tris = mesh->triangle_count();
      write_figure(out, source.name, tris, "hitscan", "escapes", escapes, rays.size());
      write_figure(out, source.name, tris, "hitscan", "even_crossings", even, rays.size());
      failures += escapes + even;

      const BuildTiming embree = build_embree(mesh, true, threads, 1);
      std::vector<float> t(rays.size());
      std::vector<std::uint32_t> triangle(rays.size());
      run_chunked(rays.size(), threads, [&](std::size_t begin, std::size_t end) {
        embree.backend->closest(std::span(rays).subspan(begin, end - begin), {t.data() + begin, triangle.data() + begin, nullptr});
      });
      std::size_t embree_escapes = 0;
      for (const float ti : t) embree_escapes += !(ti < kInfinity<float>);
      write_figure(out, source.name, tris, embree.backend->name(), "escapes", embree_escapes, rays.size());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "watertight: %s: %s\n", source.name, e.what());
      ++failures;
    }
  }
  std::printf("watertight took %.1f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return failures;
}

}  // namespace hitscan::bench
