// The SIMD pack kernels against their scalar references, lane by lane, on seeded random input.
// Both compute the same operations in the same order, so hit and t must agree exactly.

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

#include "hitscan/geometry/ray_aabb.hpp"
#include "hitscan/geometry/ray_sphere.hpp"
#include "hitscan/geometry/ray_triangle.hpp"

namespace hitscan {
namespace {

template <class F>
class RayPackTest : public ::testing::Test {};
using PackTypes = ::testing::Types<simd::Float4, simd::Float8>;
TYPED_TEST_SUITE(RayPackTest, PackTypes);

struct Rng {
  std::mt19937 gen{20261129};
  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen); }
  Vec3f point(float extent) { return {uniform(-extent, extent), uniform(-extent, extent), uniform(-extent, extent)}; }
  Rayf ray() {
    Rayf r{point(6), point(1) * uniform(0.1f, 10.0f), 0, kInfinity<float>};
    const float choice = uniform(0, 1);
    if (choice < 0.2f) r.tmin = uniform(-1, 1);
    if (choice > 0.7f) r.tmax = uniform(0, 3);
    if (choice > 0.9f) r.dir[static_cast<int>(uniform(0, 2.99f))] = 0.0f;  // axis-parallel component
    return r;
  }
};

constexpr int kRays = 20000;

// A pack from its nine coordinate rows (v0 x, y, z, v1 x, ...), lane i of each row for triangle i.
template <class F>
TrianglePack<F> load_pack(const float (&v)[9][F::width]) {
  TrianglePack<F> pack;
  F* fields[9] = {&pack.v0_x, &pack.v0_y, &pack.v0_z, &pack.v1_x, &pack.v1_y, &pack.v1_z, &pack.v2_x, &pack.v2_y, &pack.v2_z};
  for (int f = 0; f < 9; ++f) *fields[f] = F::load(v[f]);
  return pack;
}

// Lane i of a pack hit against the scalar kernel's hit of the same triangle: the same bits.
template <class F>
void expect_lane_matches(const RayHitf& scalar, const PackHit<F>& packed, int i) {
  ASSERT_EQ(scalar.t, packed.t[i]);
  ASSERT_EQ(scalar.u, packed.u[i]);
  ASSERT_EQ(scalar.v, packed.v[i]);
  ASSERT_EQ(scalar.back_face(), ((bits(packed.back_face) >> i) & 1) != 0) << "lane " << i;
}

TYPED_TEST(RayPackTest, SpheresMatchScalarKernel) {
  using F = TypeParam;
  constexpr int W = F::width;
  Rng rng;
  for (int iteration = 0; iteration < kRays / W; ++iteration) {
    std::vector<Spheref> spheres(W);
    float cx[W], cy[W], cz[W], r[W];
    for (int i = 0; i < W; ++i) {
      spheres[i] = {rng.point(4), i == W - 1 ? 0.0f : rng.uniform(0.1f, 3.0f)};  // last lane: padding
      cx[i] = spheres[i].center.x, cy[i] = spheres[i].center.y, cz[i] = spheres[i].center.z, r[i] = spheres[i].radius;
    }
    const SpherePack<F> pack{F::load(cx), F::load(cy), F::load(cz), F::load(r)};
    for (int k = 0; k < 4; ++k) {
      const Rayf ray = rng.ray();
      const PackHit<F> packed = ray_vs_spheres(pack, ray);
      const int hits = bits(packed.hit);
      for (int i = 0; i < W; ++i) {
        const RayHitf scalar = ray_vs_sphere(spheres[i], ray);
        ASSERT_EQ(scalar.hit, ((hits >> i) & 1) != 0) << "lane " << i << " iteration " << iteration;
        if (scalar.hit) {
          ASSERT_EQ(scalar.t, packed.t[i]) << "lane " << i;
        } else {
          ASSERT_EQ(packed.t[i], kInfinity<float>);
        }
      }
    }
  }
}

TYPED_TEST(RayPackTest, AabbsMatchScalarInterval) {
  using F = TypeParam;
  constexpr int W = F::width;
  Rng rng;
  for (int iteration = 0; iteration < kRays / W; ++iteration) {
    std::vector<Aabbf> boxes(W);
    float v[6][W];
    for (int i = 0; i < W; ++i) {
      const Vec3f c = rng.point(4), h{rng.uniform(0, 2), rng.uniform(0, 2), rng.uniform(0, 2)};
      boxes[i] = i == W - 1 ? Aabbf::empty() : Aabbf{c - h, c + h};
      for (int a = 0; a < 3; ++a) v[a][i] = boxes[i].min[a], v[3 + a][i] = boxes[i].max[a];
    }
    const AabbPack<F> pack{F::load(v[0]), F::load(v[1]), F::load(v[2]), F::load(v[3]), F::load(v[4]), F::load(v[5])};
    for (int k = 0; k < 4; ++k) {
      Rayf ray = rng.ray();
      if (k == 3) ray.origin.x = boxes[0].min.x, ray.dir.x = 0.0f;  // origin on a face, parallel: 0 * inf
      const RayInverse<float> inverse = RayInverse<float>::from_ray(ray);
      const PackHit<F> packed = ray_vs_aabbs(pack, inverse);
      const int hits = bits(packed.hit);
      for (int i = 0; i < W; ++i) {
        float t_enter, t_exit;
        const bool scalar = ray_vs_aabb_interval(boxes[i], inverse, t_enter, t_exit);
        ASSERT_EQ(scalar, ((hits >> i) & 1) != 0) << "lane " << i << " iteration " << iteration;
        if (scalar) {
          ASSERT_EQ(t_enter, packed.t[i]);
        }
        // The interval test and the full kernel agree on hit or miss.
        ASSERT_EQ(scalar, ray_vs_aabb(boxes[i], ray).hit) << "lane " << i << " iteration " << iteration;
      }
    }
  }
}

TYPED_TEST(RayPackTest, TrianglesMatchScalarWatertightKernel) {
  using F = TypeParam;
  constexpr int W = F::width;
  Rng rng;
  int edge_cases = 0;
  for (int iteration = 0; iteration < kRays / W; ++iteration) {
    std::vector<Trianglef> tris(W);
    float v[9][W];
    for (int i = 0; i < W; ++i) {
      const Vec3f c = rng.point(3);
      tris[i] = {c + rng.point(2), c + rng.point(2), c + rng.point(2)};
      if (i == W - 1) tris[i] = {};  // padding lane
      if (i == 1) tris[i].v2 = tris[i].v0 + (tris[i].v1 - tris[i].v0) * 0.5f;  // collinear
      for (int k = 0; k < 3; ++k) {
        const Vec3f& p = k == 0 ? tris[i].v0 : (k == 1 ? tris[i].v1 : tris[i].v2);
        v[3 * k][i] = p.x, v[3 * k + 1][i] = p.y, v[3 * k + 2][i] = p.z;
      }
    }
    const TrianglePack<F> pack = load_pack<F>(v);
    for (int k = 0; k < 4; ++k) {
      Rayf ray = rng.ray();
      if (k == 3) {  // aim exactly at a vertex of lane 0: exercises the rare scalar path
        ray.dir = tris[0].v1 - ray.origin;
        ++edge_cases;
      }
      const WatertightRay<float> prepared = WatertightRay<float>::from_ray(ray);
      const PackHit<F> packed = ray_vs_triangles(pack, prepared, ray.dir);
      const int hits = bits(packed.hit);
      for (int i = 0; i < W; ++i) {
        const RayHitf scalar = ray_vs_triangle(tris[i], ray);
        ASSERT_EQ(scalar.hit, ((hits >> i) & 1) != 0) << "lane " << i << " iteration " << iteration;
        if (!scalar.hit) continue;
        expect_lane_matches(scalar, packed, i);
      }
    }
  }
  EXPECT_GT(edge_cases, 1000);
}

// MeshBvh pads its leaf packs with NaN corners. The pack test's sign filters read the least and
// greatest edge function, so a NaN lane must fail both (never hit, never sent to the scalar
// finish), and the other lanes must still match the scalar kernel, rays through their vertices
// included.
TYPED_TEST(RayPackTest, NanPaddedLanesNeverHitAndLeaveTheOthersExact) {
  using F = TypeParam;
  constexpr int W = F::width;
  Rng rng;
  int hits_seen = 0;
  for (int iteration = 0; iteration < kRays / W; ++iteration) {
    const int real = 1 + iteration % (W - 1);  // lanes [real, W) are padding
    std::vector<Trianglef> tris(W);
    float v[9][W];
    for (int i = 0; i < W; ++i) {
      const Vec3f c = rng.point(3);
      tris[i] = {c + rng.point(2), c + rng.point(2), c + rng.point(2)};
      for (int k = 0; k < 3; ++k) {
        const Vec3f& p = k == 0 ? tris[i].v0 : (k == 1 ? tris[i].v1 : tris[i].v2);
        for (int a = 0; a < 3; ++a) v[3 * k + a][i] = i < real ? p[a] : std::numeric_limits<float>::quiet_NaN();
      }
    }
    const TrianglePack<F> pack = load_pack<F>(v);
    for (int k = 0; k < 3; ++k) {
      Rayf ray = rng.ray();
      if (k == 1) ray.dir = tris[0].v2 - ray.origin;                       // through a vertex
      if (k == 2) ray.dir = (tris[0].v0 + tris[0].v1) * 0.5f - ray.origin;  // through an edge
      const PackHit<F> packed = ray_vs_triangles(pack, WatertightRay<float>::from_ray(ray), ray.dir);
      const int hits = bits(packed.hit);
      for (int i = 0; i < W; ++i) {
        if (i >= real) {
          ASSERT_EQ((hits >> i) & 1, 0) << "padding lane " << i << " iteration " << iteration;
          continue;
        }
        const RayHitf scalar = ray_vs_triangle(tris[i], ray);
        ASSERT_EQ(scalar.hit, ((hits >> i) & 1) != 0) << "lane " << i << " iteration " << iteration;
        if (!scalar.hit) continue;
        ++hits_seen;
        expect_lane_matches(scalar, packed, i);
      }
    }
  }
  EXPECT_GT(hits_seen, 1000);
}

TYPED_TEST(RayPackTest, InvalidRayMissesEveryLane) {
  using F = TypeParam;
  const Rayf zero_dir{{0, 0, 0}, {0, 0, 0}};
  const SpherePack<F> spheres{F(0.0f), F(0.0f), F(0.0f), F(1.0f)};
  EXPECT_TRUE(none(ray_vs_spheres(spheres, zero_dir).hit));
  const AabbPack<F> boxes{F(-1.0f), F(-1.0f), F(-1.0f), F(1.0f), F(1.0f), F(1.0f)};
  EXPECT_TRUE(none(ray_vs_aabbs(boxes, RayInverse<float>::from_ray(Rayf{{0, 0, 0}, {NAN, 0, 1}})).hit));
}

}  // namespace
}  // namespace hitscan
