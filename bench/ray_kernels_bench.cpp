// ns per ray-shape test for every ray kernel: the scalar kernel, and for the kernels that have
// one, the SIMD pack kernel testing one ray against 4 or 8 shapes at once.
// Rays are aimed near the shapes so that about half of the tests hit.

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "hitscan/geometry/ray_aabb.hpp"
#include "hitscan/geometry/ray_capsule.hpp"
#include "hitscan/geometry/ray_cylinder.hpp"
#include "hitscan/geometry/ray_obb.hpp"
#include "hitscan/geometry/ray_plane.hpp"
#include "hitscan/geometry/ray_polygon.hpp"
#include "hitscan/geometry/ray_sphere.hpp"
#include "hitscan/geometry/ray_triangle.hpp"

namespace hitscan::bench {
namespace {

constexpr int kCount = 1024;  // shapes and rays per set; a multiple of 8

struct Scene {
  std::vector<Vec3f> centers;
  std::vector<Rayf> rays;  // ray i aimed near centers[i]
};

Scene make_scene() {
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Scene s;
  for (int i = 0; i < kCount; ++i) {
    const Vec3f c{u(gen) * 50, u(gen) * 50, u(gen) * 50};
    const Vec3f origin = c + Vec3f{u(gen), u(gen), u(gen)} * 20.0f;
    const Vec3f target = c + Vec3f{u(gen), u(gen), u(gen)} * 1.5f;
    s.centers.push_back(c);
    s.rays.push_back({origin, target - origin, 0.0f, kInfinity<float>});
  }
  return s;
}

const Scene& scene() {
  static const Scene s = make_scene();
  return s;
}

Quatf rotation_for(int i) { return Quatf::from_axis_angle({1.0f, 2.0f, float(i % 7)}, 0.37f * float(i)); }

template <class Shape, class MakeShape, class Kernel>
void run_scalar(benchmark::State& state, MakeShape make, Kernel kernel) {
  std::vector<Shape> shapes;
  for (int i = 0; i < kCount; ++i) shapes.push_back(make(i, scene().centers[i]));
  const std::vector<Rayf>& rays = scene().rays;
  for (auto _ : state) {
    for (int i = 0; i < kCount; ++i) benchmark::DoNotOptimize(kernel(shapes[i], rays[i]));
  }
  state.SetItemsProcessed(state.iterations() * kCount);
}

// --- scalar kernels ---------------------------------------------------------------------------

void sphere_scalar(benchmark::State& state) {
  run_scalar<Spheref>(state, [](int, Vec3f c) { return Spheref{c, 1.0f}; },
                      [](const Spheref& s, const Rayf& r) { return ray_vs_sphere(s, r); });
}
void plane_scalar(benchmark::State& state) {
  run_scalar<Planef>(state, [](int i, Vec3f c) { return Planef::from_point_normal(c, rotation_for(i).rotate({0, 0, 1})); },
                     [](const Planef& s, const Rayf& r) { return ray_vs_plane(s, r); });
}
void disc_scalar(benchmark::State& state) {
  run_scalar<Discf>(state, [](int i, Vec3f c) { return Discf{c, rotation_for(i).rotate({0, 0, 1}), 1.0f}; },
                    [](const Discf& s, const Rayf& r) { return ray_vs_disc(s, r); });
}
void aabb_scalar(benchmark::State& state) {
  run_scalar<Aabbf>(state, [](int, Vec3f c) { return Aabbf::from_center_half_extents(c, {1, 0.8f, 1.2f}); },
                    [](const Aabbf& s, const Rayf& r) { return ray_vs_aabb(s, r); });
}
void obb_scalar(benchmark::State& state) {
  run_scalar<Obbf>(state, [](int i, Vec3f c) { return Obbf::from_quat(c, {1, 0.8f, 1.2f}, rotation_for(i)); },
                   [](const Obbf& s, const Rayf& r) { return ray_vs_obb(s, r); });
}
void capsule_scalar(benchmark::State& state) {
  run_scalar<Capsulef>(state,
                       [](int i, Vec3f c) {
                         const Vec3f axis = rotation_for(i).rotate({0, 0, 1});
                         return Capsulef{c - axis, c + axis, 0.7f};
                       },
                       [](const Capsulef& s, const Rayf& r) { return ray_vs_capsule(s, r); });
}
void cylinder_scalar(benchmark::State& state) {
  run_scalar<Cylinderf>(state,
                        [](int i, Vec3f c) {
                          const Vec3f axis = rotation_for(i).rotate({0, 0, 1});
                          return Cylinderf{c - axis, c + axis, 0.7f};
                        },
                        [](const Cylinderf& s, const Rayf& r) { return ray_vs_cylinder(s, r); });
}
Trianglef triangle_at(int i, Vec3f c) {
  const Quatf q = rotation_for(i);
  return {c + q.rotate({-1.5f, -1.2f, 0}), c + q.rotate({1.6f, -1.0f, 0}), c + q.rotate({0.1f, 1.7f, 0})};
}
void triangle_watertight_scalar(benchmark::State& state) {
  run_scalar<Trianglef>(state, triangle_at, [](const Trianglef& s, const Rayf& r) { return ray_vs_triangle(s, r); });
}
void triangle_moller_trumbore_scalar(benchmark::State& state) {
  run_scalar<Trianglef>(state, triangle_at,
                        [](const Trianglef& s, const Rayf& r) { return ray_vs_triangle_moller_trumbore(s, r); });
}
void polygon_scalar(benchmark::State& state) {
  std::vector<ConvexPolygonf> polygons;
  for (int i = 0; i < kCount; ++i) {
    const Quatf q = rotation_for(i);
    Vec3f v[6];
    for (int k = 0; k < 6; ++k) {
      const float a = float(k) * kPi<float> / 3.0f;
      v[k] = scene().centers[i] + q.rotate({1.3f * std::cos(a), 1.3f * std::sin(a), 0});
    }
    polygons.push_back(ConvexPolygonf::make(v).value());
  }
  const std::vector<Rayf>& rays = scene().rays;
  for (auto _ : state) {
    for (int i = 0; i < kCount; ++i) benchmark::DoNotOptimize(ray_vs_polygon(polygons[i], rays[i]));
  }
  state.SetItemsProcessed(state.iterations() * kCount);
}

// --- one ray against many shapes: scalar loop vs SIMD packs ---------------------------------------
// Ray i is tested against the 8 shapes of group i % (kCount / 8).

void aabb_interval_scalar(benchmark::State& state) {
  std::vector<Aabbf> boxes;
  for (int i = 0; i < kCount; ++i) boxes.push_back(Aabbf::from_center_half_extents(scene().centers[i], {1, 0.8f, 1.2f}));
  std::vector<RayInverse<float>> rays;
  for (const Rayf& r : scene().rays) rays.push_back(RayInverse<float>::from_ray(r));
  for (auto _ : state) {
    for (int i = 0; i < kCount; ++i) {
      const int group = i % (kCount / 8);
      for (int k = 0; k < 8; ++k) {
        float t0, t1;
        benchmark::DoNotOptimize(ray_vs_aabb_interval(boxes[group * 8 + k], rays[i], t0, t1));
      }
    }
  }
  state.SetItemsProcessed(state.iterations() * kCount * 8);
}

template <class F>
void aabb_interval_simd(benchmark::State& state) {
  constexpr int W = F::width;
  std::vector<AabbPack<F>> packs;
  for (int p = 0; p < kCount / W; ++p) {
    float v[6][W];
    for (int k = 0; k < W; ++k) {
      const Aabbf b = Aabbf::from_center_half_extents(scene().centers[p * W + k], {1, 0.8f, 1.2f});
      for (int a = 0; a < 3; ++a) v[a][k] = b.min[a], v[3 + a][k] = b.max[a];
    }
    packs.push_back({F::load(v[0]), F::load(v[1]), F::load(v[2]), F::load(v[3]), F::load(v[4]), F::load(v[5])});
  }
  std::vector<RayInverse<float>> rays;
  for (const Rayf& r : scene().rays) rays.push_back(RayInverse<float>::from_ray(r));
  constexpr int kPacksPerRay = 8 / W;
  for (auto _ : state) {
    for (int i = 0; i < kCount; ++i) {
      const int group = i % (kCount / 8);
      for (int k = 0; k < kPacksPerRay; ++k) benchmark::DoNotOptimize(ray_vs_aabbs(packs[group * kPacksPerRay + k], rays[i]));
    }
  }
  state.SetItemsProcessed(state.iterations() * kCount * 8);
}

void sphere_many_scalar(benchmark::State& state) {
  std::vector<Spheref> spheres;
  for (int i = 0; i < kCount; ++i) spheres.push_back({scene().centers[i], 1.0f});
  const std::vector<Rayf>& rays = scene().rays;
  for (auto _ : state) {
    for (int i = 0; i < kCount; ++i) {
      const int group = i % (kCount / 8);
      for (int k = 0; k < 8; ++k) benchmark::DoNotOptimize(ray_vs_sphere(spheres[group * 8 + k], rays[i]));
    }
  }
  state.SetItemsProcessed(state.iterations() * kCount * 8);
}

template <class F>
void sphere_many_simd(benchmark::State& state) {
  constexpr int W = F::width;
  std::vector<SpherePack<F>> packs;
  for (int p = 0; p < kCount / W; ++p) {
    float v[4][W];
    for (int k = 0; k < W; ++k) {
      const Vec3f c = scene().centers[p * W + k];
      v[0][k] = c.x, v[1][k] = c.y, v[2][k] = c.z, v[3][k] = 1.0f;
    }
    packs.push_back({F::load(v[0]), F::load(v[1]), F::load(v[2]), F::load(v[3])});
  }
  const std::vector<Rayf>& rays = scene().rays;
  constexpr int kPacksPerRay = 8 / W;
  for (auto _ : state) {
    for (int i = 0; i < kCount; ++i) {
      const int group = i % (kCount / 8);
      for (int k = 0; k < kPacksPerRay; ++k) benchmark::DoNotOptimize(ray_vs_spheres(packs[group * kPacksPerRay + k], rays[i]));
    }
  }
  state.SetItemsProcessed(state.iterations() * kCount * 8);
}

void triangle_many_scalar(benchmark::State& state) {
  std::vector<Trianglef> tris;
  for (int i = 0; i < kCount; ++i) tris.push_back(triangle_at(i, scene().centers[i]));
  std::vector<WatertightRay<float>> rays;
  for (const Rayf& r : scene().rays) rays.push_back(WatertightRay<float>::from_ray(r));
  for (auto _ : state) {
    for (int i = 0; i < kCount; ++i) {
      const int group = i % (kCount / 8);
      for (int k = 0; k < 8; ++k) benchmark::DoNotOptimize(ray_vs_triangle(tris[group * 8 + k], rays[i], scene().rays[i].dir));
    }
  }
  state.SetItemsProcessed(state.iterations() * kCount * 8);
}

template <class F>
void triangle_many_simd(benchmark::State& state) {
  constexpr int W = F::width;
  std::vector<TrianglePack<F>> packs;
  for (int p = 0; p < kCount / W; ++p) {
    float v[9][W];
    for (int k = 0; k < W; ++k) {
      const Trianglef t = triangle_at(p * W + k, scene().centers[p * W + k]);
      const Vec3f corners[3] = {t.v0, t.v1, t.v2};
      for (int c = 0; c < 3; ++c) v[3 * c][k] = corners[c].x, v[3 * c + 1][k] = corners[c].y, v[3 * c + 2][k] = corners[c].z;
    }
    packs.push_back({F::load(v[0]), F::load(v[1]), F::load(v[2]), F::load(v[3]), F::load(v[4]), F::load(v[5]),
                     F::load(v[6]), F::load(v[7]), F::load(v[8])});
  }
  std::vector<WatertightRay<float>> rays;
  for (const Rayf& r : scene().rays) rays.push_back(WatertightRay<float>::from_ray(r));
  constexpr int kPacksPerRay = 8 / W;
  for (auto _ : state) {
    for (int i = 0; i < kCount; ++i) {
      const int group = i % (kCount / 8);
      for (int k = 0; k < kPacksPerRay; ++k) {
        benchmark::DoNotOptimize(ray_vs_triangles(packs[group * kPacksPerRay + k], rays[i], scene().rays[i].dir));
      }
    }
  }
  state.SetItemsProcessed(state.iterations() * kCount * 8);
}

BENCHMARK(sphere_scalar)->Name("ray_kernels/sphere/scalar");
BENCHMARK(plane_scalar)->Name("ray_kernels/plane/scalar");
BENCHMARK(disc_scalar)->Name("ray_kernels/disc/scalar");
BENCHMARK(aabb_scalar)->Name("ray_kernels/aabb/scalar");
BENCHMARK(obb_scalar)->Name("ray_kernels/obb/scalar");
BENCHMARK(capsule_scalar)->Name("ray_kernels/capsule/scalar");
BENCHMARK(cylinder_scalar)->Name("ray_kernels/cylinder/scalar");
BENCHMARK(triangle_watertight_scalar)->Name("ray_kernels/triangle_watertight/scalar");
BENCHMARK(triangle_moller_trumbore_scalar)->Name("ray_kernels/triangle_moller_trumbore/scalar");
BENCHMARK(polygon_scalar)->Name("ray_kernels/polygon_hexagon/scalar");

BENCHMARK(sphere_many_scalar)->Name("ray_packs/sphere_x8/scalar");
BENCHMARK(sphere_many_simd<simd::Float4>)->Name("ray_packs/sphere_x8/simd4");
BENCHMARK(sphere_many_simd<simd::Float8>)->Name("ray_packs/sphere_x8/simd8");
BENCHMARK(aabb_interval_scalar)->Name("ray_packs/aabb_interval_x8/scalar");
BENCHMARK(aabb_interval_simd<simd::Float4>)->Name("ray_packs/aabb_interval_x8/simd4");
BENCHMARK(aabb_interval_simd<simd::Float8>)->Name("ray_packs/aabb_interval_x8/simd8");
BENCHMARK(triangle_many_scalar)->Name("ray_packs/triangle_watertight_x8/scalar");
BENCHMARK(triangle_many_simd<simd::Float4>)->Name("ray_packs/triangle_watertight_x8/simd4");
BENCHMARK(triangle_many_simd<simd::Float8>)->Name("ray_packs/triangle_watertight_x8/simd8");

}  // namespace
}  // namespace hitscan::bench
