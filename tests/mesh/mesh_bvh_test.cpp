// MeshBvh against brute force over every triangle with the scalar watertight kernel, which the
// BVH's pack kernel matches bit for bit: same hit or miss, the same t exactly, the same triangle
// unless another one is hit at that very t.

#include "hitscan/mesh/mesh_bvh.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include "mesh/mesh_test_meshes.hpp"

namespace hitscan {
namespace {

using test::brute_force;
using test::BruteHit;
using test::icosphere;
using test::random_ray;
using test::random_soup;

void expect_matches_brute_force(const MeshBvh& bvh, const Rayf& ray, FaceMode faces, int i) {
  const BruteHit expected = brute_force(bvh.mesh(), ray, faces);
  const MeshHit hit = bvh.intersect(ray, faces);
  ASSERT_EQ(hit.hit, expected.hit) << "ray " << i;
  EXPECT_EQ(bvh.occluded(ray, faces), expected.hit) << "ray " << i;
  if (!expected.hit) {
    EXPECT_EQ(hit.triangle, kNoPrimitive);
    return;
  }
  ASSERT_EQ(hit.t, expected.t) << "ray " << i;
  // Of the triangles hit at that very t, the lowest index.
  EXPECT_EQ(hit.triangle, *std::min_element(expected.triangles.begin(), expected.triangles.end())) << "ray " << i;
  EXPECT_EQ(hit.back_face, expected.back_face);
  // The record is complete: the point from t and barycentrics, the unit normal of that triangle.
  const Trianglef tri = bvh.mesh().triangle(hit.triangle);
  const Vec3f from_uv = tri.v0 * (1 - hit.u - hit.v) + tri.v1 * hit.u + tri.v2 * hit.v;
  EXPECT_LT(distance(from_uv, hit.point), 1e-3f * (1 + length(hit.point)));
  EXPECT_NEAR(length(hit.normal), 1.0f, 1e-5f);
  EXPECT_EQ(hit.back_face, dot(hit.normal, ray.dir) > 0 || (dot(hit.normal, ray.dir) == 0 && hit.back_face));
}

TEST(MeshBvh, RandomSoupMatchesBruteForce) {
  const auto mesh = random_soup(3000, 1);
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  std::mt19937 gen(2);
  int hits = 0;
  for (int i = 0; i < 3000; ++i) {
    const Rayf ray = random_ray(gen, 60);
    expect_matches_brute_force(bvh, ray, FaceMode::both, i);
    hits += bvh.intersect(ray).hit;
  }
  EXPECT_GT(hits, 600);
}

TEST(MeshBvh, FaceModesMatchBruteForce) {
  const auto mesh = random_soup(1000, 3);
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  std::mt19937 gen(4);
  for (int i = 0; i < 1500; ++i) {
    const Rayf ray = random_ray(gen, 60);
    expect_matches_brute_force(bvh, ray, FaceMode::front_only, i);
    expect_matches_brute_force(bvh, ray, FaceMode::back_only, i);
  }
}

TEST(MeshBvh, EveryLeafSizeAndBinCountMatchesBruteForce) {
  const auto mesh = random_soup(700, 5);
  std::mt19937 gen(6);
  for (std::uint32_t leaf : {1u, 3u, 4u, 8u, 13u}) {
    const MeshBvh bvh = MeshBvh::build(mesh, {leaf, leaf == 3 ? 2u : 16u, 1.0f}).value();
    for (int i = 0; i < 400; ++i) expect_matches_brute_force(bvh, random_ray(gen, 60), FaceMode::both, i);
  }
}

TEST(MeshBvh, HitFieldsComputeWhatIsAskedBitForBitAndLeaveTheRestZero) {
  // A sphere with vertex normals, so that the shading normal differs from the geometric one.
  const auto sphere = icosphere(3, 2.0f);
  std::vector<Vec3f> normals;
  for (const Vec3f& p : sphere->positions()) normals.push_back(normalize(p));
  const auto mesh = std::make_shared<const TriangleMesh>(
      TriangleMesh::make({sphere->positions().begin(), sphere->positions().end()},
                         {sphere->triangles().begin(), sphere->triangles().end()}, normals)
          .value());
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  std::mt19937 gen(12);
  const auto same = [](Vec3f a, Vec3f b) {
    return std::bit_cast<std::uint32_t>(a.x) == std::bit_cast<std::uint32_t>(b.x) &&
           std::bit_cast<std::uint32_t>(a.y) == std::bit_cast<std::uint32_t>(b.y) &&
           std::bit_cast<std::uint32_t>(a.z) == std::bit_cast<std::uint32_t>(b.z);
  };
  int hits = 0;
  for (int i = 0; i < 500; ++i) {
    const Rayf ray = random_ray(gen, 4);
    const MeshHit all = bvh.intersect(ray);
    for (const HitFields fields : {HitFields::basic, HitFields::point, HitFields::normal, HitFields::shading_normal,
                                   HitFields::point | HitFields::shading_normal}) {
      const MeshHit h = bvh.intersect(ray, FaceMode::both, fields);
      ASSERT_EQ(h.hit, all.hit) << "ray " << i;
      EXPECT_EQ(std::bit_cast<std::uint32_t>(h.t), std::bit_cast<std::uint32_t>(all.t));
      EXPECT_EQ(h.triangle, all.triangle);
      EXPECT_EQ(h.u, all.u);
      EXPECT_EQ(h.v, all.v);
      EXPECT_EQ(h.back_face, all.back_face);
      EXPECT_TRUE(same(h.point, has(fields, HitFields::point) ? all.point : Vec3f{})) << "ray " << i;
      EXPECT_TRUE(same(h.normal, has(fields, HitFields::normal) ? all.normal : Vec3f{})) << "ray " << i;
      EXPECT_TRUE(same(h.shading_normal, has(fields, HitFields::shading_normal) ? all.shading_normal : Vec3f{}))
          << "ray " << i;
    }
    if (all.hit) {
      ++hits;
      // The shading normal is the interpolated vertex normal: on this sphere, near the point's direction.
      EXPECT_GT(dot(all.shading_normal, normalize(all.point)), 0.99f);
      EXPECT_FALSE(same(all.shading_normal, all.normal));
    }
  }
  EXPECT_GT(hits, 100);
}

TEST(MeshBvh, MaxLeafSizeAbove1020IsRefused) {
  const auto mesh = random_soup(50, 5);
  EXPECT_TRUE(MeshBvh::build(mesh, {1020u, 16u, 1.0f}).ok());
  const auto refused = MeshBvh::build(mesh, {1021u, 16u, 1.0f});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::invalid_argument);
}

TEST(MeshBvh, TrianglesHitAtTheSameTGoToTheLowerIndexFromEveryOctant) {
  // Every triangle twice, the copies at shuffled places: both copies are hit at exactly the same
  // t, in leaves the walk reaches in an order that depends on the ray's direction.
  const auto soup = random_soup(600, 9, 20.0f);
  std::vector<Vec3f> positions(soup->positions().begin(), soup->positions().end());
  std::vector<TriangleMesh::Indices> triangles(soup->triangles().begin(), soup->triangles().end());
  std::vector<std::uint32_t> copy_of(triangles.size());
  std::iota(copy_of.begin(), copy_of.end(), 0u);
  std::mt19937 gen(10);
  std::shuffle(copy_of.begin(), copy_of.end(), gen);
  std::vector<TriangleMesh::Indices> all = triangles;
  for (const std::uint32_t c : copy_of) all.push_back(triangles[c]);
  const auto mesh = std::make_shared<const TriangleMesh>(TriangleMesh::make(positions, all).value());
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  int hits = 0;
  for (int i = 0; i < 4000; ++i) {
    const Rayf ray = random_ray(gen, 30);
    const BruteHit expected = brute_force(*mesh, ray, FaceMode::both);
    const MeshHit hit = bvh.intersect(ray);
    ASSERT_EQ(hit.hit, expected.hit) << "ray " << i;
    if (!hit.hit) continue;
    ++hits;
    ASSERT_GE(expected.triangles.size(), 2u) << "ray " << i;
    ASSERT_EQ(hit.t, expected.t) << "ray " << i;
    EXPECT_EQ(hit.triangle, *std::min_element(expected.triangles.begin(), expected.triangles.end())) << "ray " << i;
  }
  EXPECT_GT(hits, 1000);
}

TEST(MeshBvh, ClosedSphereFromInsideNeverEscapesThroughVerticesOrEdges) {
  const auto mesh = icosphere(4, 3.0f, {1, 2, 3});  // 5120 triangles
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> u(-1, 1);
  int escapes = 0, rays = 0;
  const auto& tris = mesh->triangles();
  const auto pos = mesh->positions();
  for (std::size_t i = 0; i < tris.size(); ++i) {
    const Vec3f a = pos[tris[i][0]], b = pos[tris[i][1]];
    for (const Vec3f& target : {a, (a + b) * 0.5f}) {  // exactly at a vertex, and at an edge's midpoint
      for (int k = 0; k < 4; ++k) {
        const Vec3f origin = Vec3f{1, 2, 3} + Vec3f{u(gen), u(gen), u(gen)} * 1.5f;
        const MeshHit h = bvh.intersect({origin, target - origin});
        ++rays;
        escapes += !h.hit;
        // From inside a closed mesh wound outward, the first hit is a back face.
        if (h.hit) {
          EXPECT_TRUE(h.back_face);
        }
      }
    }
  }
  EXPECT_EQ(escapes, 0) << "of " << rays << " rays";
  EXPECT_GT(rays, 40000);
}

TEST(MeshBvh, DegenerateTrianglesAreLeftOut) {
  std::vector<Vec3f> p = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {2, 0, 0}};
  std::vector<TriangleMesh::Indices> f = {{0, 1, 3}, {0, 1, 2}, {2, 2, 2}};  // collinear, good, repeated
  const auto mesh = std::make_shared<const TriangleMesh>(TriangleMesh::make(p, f).value());
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  const MeshHit h = bvh.intersect({{0.2f, 0.2f, -1}, {0, 0, 1}});
  ASSERT_TRUE(h.hit);
  EXPECT_EQ(h.triangle, 1u);
  EXPECT_FLOAT_EQ(h.t, 1.0f);
  EXPECT_FALSE(bvh.intersect({{0.5f, 0.0f, -1}, {0, 0, 1}}).hit && bvh.intersect({{0.5f, 0.0f, -1}, {0, 0, 1}}).triangle == 0u);
}

TEST(MeshBvh, EmptyMeshAndInvalidRaysMiss) {
  const auto empty = std::make_shared<const TriangleMesh>(TriangleMesh::make({}, {}).value());
  const MeshBvh none = MeshBvh::build(empty).value();
  EXPECT_FALSE(none.intersect({{0, 0, 0}, {0, 0, 1}}).hit);
  EXPECT_FALSE(none.occluded({{0, 0, 0}, {0, 0, 1}}));
  EXPECT_EQ(none.memory_bytes(), 0u);

  const MeshBvh bvh = MeshBvh::build(icosphere(2)).value();
  for (const Rayf& bad : {Rayf{{0, 0, -5}, {0, 0, 0}}, Rayf{{NAN, 0, -5}, {0, 0, 1}}, Rayf{{0, 0, -5}, {0, kInfinity<float>, 1}},
                          Rayf{{0, 0, -5}, {0, 0, 1}, 3, 2}}) {
    const MeshHit h = bvh.intersect(bad);
    EXPECT_FALSE(h.hit);
    EXPECT_EQ(h.t, kInfinity<float>);
    EXPECT_FALSE(bvh.occluded(bad));
  }
  EXPECT_FALSE(MeshBvh::build(nullptr).ok());
}

TEST(MeshBvh, TminAndTmaxBoundTheHit) {
  const MeshBvh bvh = MeshBvh::build(icosphere(3)).value();
  const Rayf through{{0, 0, -5}, {0, 0, 1}};
  const MeshHit first = bvh.intersect(through);
  ASSERT_TRUE(first.hit);
  EXPECT_NEAR(first.t, 4.0f, 0.02f);
  EXPECT_FALSE(first.back_face);
  const MeshHit second = bvh.intersect({through.origin, through.dir, first.t + 0.01f});
  ASSERT_TRUE(second.hit);
  EXPECT_NEAR(second.t, 6.0f, 0.02f);
  EXPECT_TRUE(second.back_face);
  EXPECT_FALSE(bvh.intersect({through.origin, through.dir, 0, 3.9f}).hit);
  EXPECT_FALSE(bvh.occluded({through.origin, through.dir, 0, 3.9f}));
  EXPECT_TRUE(bvh.occluded({through.origin, through.dir, 0, 4.1f}));
}

// A tree too large for a core's cache takes the walk that prefetches nodes and leaves; its answers
// are those of the geometry: a flat grid of 220 x 220 unit cells (96,800 triangles) in z = 0, each
// cut along its diagonal, against rays aimed at points inside the cells away from the edges, from
// above and below, with limits short of and past the plane, and rays that pass beside the grid.
TEST(MeshBvh, ATreeBeyondTheCacheAnswersAsTheGeometry) {
  constexpr int kCells = 220;
  std::vector<Vec3f> positions;
  std::vector<TriangleMesh::Indices> triangles;
  for (int j = 0; j <= kCells; ++j) {
    for (int i = 0; i <= kCells; ++i) positions.push_back({float(i), float(j), 0.0f});
  }
  const auto corner = [](int i, int j) { return std::uint32_t(j * (kCells + 1) + i); };
  for (int j = 0; j < kCells; ++j) {
    for (int i = 0; i < kCells; ++i) {
      triangles.push_back({corner(i, j), corner(i + 1, j), corner(i + 1, j + 1)});  // below the diagonal
      triangles.push_back({corner(i, j), corner(i + 1, j + 1), corner(i, j + 1)});  // above it
    }
  }
  const auto mesh = std::make_shared<const TriangleMesh>(TriangleMesh::make(positions, triangles).value());
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  ASSERT_GT(bvh.memory_bytes(), std::size_t(4) << 20);  // beyond the size above which walks prefetch

  std::mt19937 rng(23);
  std::uniform_real_distribution<double> cell(0.0, double(kCells)), inside(0.05, 0.95), height(1.0, 50.0);
  for (int n = 0; n < 3000; ++n) {
    const double cx = std::floor(cell(rng)), cy = std::floor(cell(rng));
    double fx = inside(rng), fy = inside(rng);
    if (std::abs(fx - fy) < 0.05) fy = fx < 0.5 ? fx + 0.3 : fx - 0.3;  // away from the diagonal
    const Vec3d target{cx + fx, cy + fy, 0.0};
    const double side = (n & 1) ? 1.0 : -1.0;
    const Vec3d origin{cell(rng), cell(rng), side * height(rng)};
    const Vec3d to = target - origin;
    const double distance = length(to);
    const Rayf ray{vec3_cast<float>(origin), vec3_cast<float>(to / distance), 0.0f,
                   (n % 3 == 0) ? float(distance) * 0.999f : kInfinity<float>};
    const MeshHit hit = bvh.intersect(ray);
    // The reference from the float ray itself, in double: where it meets z = 0, and that point's
    // cell and side of the diagonal (still well inside the cell aimed at).
    const Vec3d o = vec3_cast<double>(ray.origin), d = vec3_cast<double>(ray.dir);
    const double t = -o.z / d.z;
    const Vec3d at = o + d * t;
    const double px = at.x - std::floor(at.x), py = at.y - std::floor(at.y);
    if (n % 3 == 0) {  // stops short of the plane
      EXPECT_FALSE(hit.hit) << "ray " << n;
      EXPECT_FALSE(bvh.occluded(ray)) << "ray " << n;
      continue;
    }
    ASSERT_TRUE(hit.hit) << "ray " << n;
    EXPECT_TRUE(bvh.occluded(ray)) << "ray " << n;
    ASSERT_EQ(std::floor(at.x), cx) << "ray " << n;
    ASSERT_EQ(std::floor(at.y), cy) << "ray " << n;
    const auto expected = std::uint32_t(2 * (int(cy) * kCells + int(cx)) + (px > py ? 0 : 1));
    EXPECT_EQ(hit.triangle, expected) << "ray " << n;
    EXPECT_NEAR(hit.t, t, 1e-6 * (t + length(o))) << "ray " << n;
    EXPECT_EQ(hit.back_face, side < 0) << "ray " << n;  // the triangles face +z
  }
  // Beside the grid, parallel to it and pointing away: misses, most of them at the root's box.
  for (const Rayf& beside : {Rayf{{-5, -5, 1}, {0, 0, 1}}, Rayf{{110, 110, 1}, {1, 0, 0}}, Rayf{{110, 110, 1}, {0, 0, 1}},
                             Rayf{{-1, 110, -3}, {-1, 0, 0.5f}}}) {
    EXPECT_FALSE(bvh.intersect(beside).hit);
    EXPECT_FALSE(bvh.occluded(beside));
  }
}

}  // namespace
}  // namespace hitscan
