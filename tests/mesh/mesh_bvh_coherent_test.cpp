// MeshBvh::intersect_coherent and MeshInstance::intersect_coherent: packets of coherent rays give,
// ray for ray, the hit of intersect (the same triangle, t, barycentrics and normals, bit for bit),
// on CGAL's real meshes seen through camera tiles, on a generated grid whose shared vertices and
// edges the rays pass exactly through, from inside closed meshes towards their vertices and edge
// midpoints (no ray escapes), and on incoherent rays that mix every direction and limit.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "hitscan/io/mesh_loader.hpp"
#include "mesh/mesh_test_meshes.hpp"

namespace hitscan {
namespace {

// Every ray through intersect_coherent against intersect one at a time; returns the hits.
template <class Target>
int expect_matches_one_at_a_time(const Target& target, const std::vector<Rayf>& rays, FaceMode faces,
                                 const std::string& what) {
  std::vector<MeshHit> packets(rays.size());
  EXPECT_TRUE(target.intersect_coherent(rays, packets, faces).ok());
  int hits = 0, differ = 0;
  for (std::size_t i = 0; i < rays.size(); ++i) {
    const MeshHit one = target.intersect(rays[i], faces);
    hits += one.hit;
    // Ties at exactly the same t included: both take the lowest triangle index.
    if (test::same_hit(packets[i], one)) continue;
    if (++differ <= 5) {
      ADD_FAILURE() << what << " ray " << i << ": packet " << packets[i].hit << " t " << packets[i].t << " triangle "
                    << packets[i].triangle << ", one at a time " << one.hit << " t " << one.t << " triangle "
                    << one.triangle;
    }
  }
  EXPECT_EQ(differ, 0) << what << ": of " << rays.size() << " rays";
  return hits;
}

// A CGAL demo mesh (unpacked into the build tree), or null when it is missing.
std::shared_ptr<const TriangleMesh> cgal_mesh(const std::string& name) {
  Result<TriangleMesh> mesh = io::load_mesh(std::string(HITSCAN_CGAL_MESH_DIR) + "/" + name);
  return mesh.ok() ? std::make_shared<const TriangleMesh>(std::move(mesh).value()) : nullptr;
}

class CoherentRealMesh : public ::testing::TestWithParam<std::string> {};

TEST_P(CoherentRealMesh, CameraTilesMatchOneAtATimeInEveryFaceMode) {
  const auto mesh = cgal_mesh(GetParam());
  ASSERT_NE(mesh, nullptr) << GetParam() << " is missing: scripts/deps.sh test installs it";
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  const Aabbf box = mesh->bounds();
  const float radius = length(box.extent());
  std::mt19937 gen(71);
  std::uniform_real_distribution<float> u(-1, 1);
  int hits = 0;
  for (int view = 0; view < 6; ++view) {
    const Vec3f eye = box.center() + normalize(Vec3f{u(gen), u(gen), u(gen)}) * (radius * (0.8f + 0.4f * view / 6));
    const Vec3f target = box.center() + Vec3f{u(gen), u(gen), u(gen)} * (radius * 0.1f);
    const std::vector<Rayf> rays = test::camera_tile_rays(eye, target, 1.0f, 67, 45);  // partial tiles at the edges
    const FaceMode faces = view % 3 == 0 ? FaceMode::both : view % 3 == 1 ? FaceMode::front_only : FaceMode::back_only;
    hits += expect_matches_one_at_a_time(bvh, rays, faces, GetParam() + " view " + std::to_string(view));
  }
  EXPECT_GT(hits, 2000);
}

TEST_P(CoherentRealMesh, PacketsFromInsideTowardsVerticesAndEdgesNeverEscape) {
  const auto mesh = cgal_mesh(GetParam());
  ASSERT_NE(mesh, nullptr);
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  const float depth = 1e-3f * length(mesh->bounds().extent());
  std::mt19937 gen(72);
  std::uniform_int_distribution<std::size_t> pick(0, mesh->triangle_count() - 1);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<MeshHit> crossings;
  int origins = 0, escapes = 0;
  std::vector<Rayf> rays;
  while (origins < 40) {
    const std::size_t t = pick(gen);
    if (!mesh->is_usable(t)) continue;
    const Trianglef tri = mesh->triangle(t);
    const Vec3f origin = (tri.v0 + tri.v1 + tri.v2) * (1.0f / 3) - normalize(cross(tri.v1 - tri.v0, tri.v2 - tri.v0)) * depth;
    if (bvh.intersect_all({origin, {u(gen), u(gen), u(gen) + 0.1f}}, crossings) % 2 == 0) continue;  // not inside
    ++origins;
    // One packet per origin: its rays aimed exactly at the vertices and edge midpoints of the
    // triangles around a random one (coherent, crossing the surface where triangles meet).
    const std::size_t around = pick(gen);
    for (int k = 0; k < 64; ++k) {
      const auto& idx = mesh->triangles()[(around + std::size_t(k / 2)) % mesh->triangle_count()];
      const Vec3f a = mesh->positions()[idx[k % 3]], b = mesh->positions()[idx[(k + 1) % 3]];
      const Vec3f dir = k % 2 == 0 ? a - origin : (a + b) * 0.5f - origin;
      if (dir != Vec3f{}) rays.push_back({origin, dir});
    }
  }
  std::vector<MeshHit> hits(rays.size());
  ASSERT_TRUE(bvh.intersect_coherent(rays, hits).ok());
  for (const MeshHit& hit : hits) escapes += !hit.hit;
  EXPECT_EQ(escapes, 0) << GetParam() << ": of " << rays.size() << " rays";
  expect_matches_one_at_a_time(bvh, rays, FaceMode::both, GetParam() + " from inside");
}

INSTANTIATE_TEST_SUITE_P(Cgal, CoherentRealMesh,
                         ::testing::Values("armadillo.off", "bunny00.off", "elephant.off", "cow.off", "eight.off"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return std::filesystem::path(info.param).stem().string();
                         });

// A flat n x n grid of unit cells in z = 0, two triangles per cell, consistently wound.
std::shared_ptr<const TriangleMesh> grid(int n) {
  std::vector<Vec3f> p;
  std::vector<TriangleMesh::Indices> f;
  for (int y = 0; y <= n; ++y) {
    for (int x = 0; x <= n; ++x) p.push_back({float(x), float(y), 0.0f});
  }
  const auto at = [n](int x, int y) { return std::uint32_t(y * (n + 1) + x); };
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      f.push_back({at(x, y), at(x + 1, y), at(x + 1, y + 1)});
      f.push_back({at(x, y), at(x + 1, y + 1), at(x, y + 1)});
    }
  }
  return std::make_shared<const TriangleMesh>(TriangleMesh::make(std::move(p), std::move(f)).value());
}

TEST(MeshBvhCoherent, RaysThroughSharedGridVerticesAndEdgesHitOnceAsOneAtATime) {
  constexpr int kCells = 40;
  const auto mesh = grid(kCells);
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  std::mt19937 gen(73);
  std::uniform_real_distribution<float> u(-1, 1);
  std::uniform_int_distribution<int> cell(1, kCells - 1);
  std::vector<Rayf> rays;
  for (int packet = 0; packet < 60; ++packet) {
    // A packet from one eye above the grid at grid points: vertices (where six triangles meet),
    // cell-edge midpoints and cell-diagonal midpoints (where two do).
    const Vec3f eye{u(gen) * kCells, u(gen) * kCells, 5.0f + 20.0f * std::abs(u(gen))};
    const int x0 = cell(gen) - 4, y0 = cell(gen) - 4;
    for (int k = 0; k < 64; ++k) {
      const float x = std::clamp(float(x0 + k % 8), 1.0f, float(kCells - 1)), y = std::clamp(float(y0 + k / 8), 1.0f, float(kCells - 1));
      const Vec3f target = packet % 3 == 0 ? Vec3f{x, y, 0} : packet % 3 == 1 ? Vec3f{x + 0.5f, y, 0} : Vec3f{x + 0.5f, y + 0.5f, 0};
      rays.push_back({eye, target - eye});
    }
  }
  std::vector<MeshHit> hits(rays.size());
  ASSERT_TRUE(bvh.intersect_coherent(rays, hits).ok());
  for (std::size_t i = 0; i < rays.size(); ++i) {
    const test::BruteHit expected = test::brute_force(*mesh, rays[i], FaceMode::both);
    ASSERT_TRUE(hits[i].hit) << "ray " << i << " escaped between triangles";
    ASSERT_EQ(hits[i].t, expected.t) << "ray " << i;
    ASSERT_EQ(expected.triangles.size(), 1u) << "ray " << i << ": the ownership rule gives one triangle";
    EXPECT_EQ(hits[i].triangle, expected.triangles[0]) << "ray " << i;
  }
  expect_matches_one_at_a_time(bvh, rays, FaceMode::both, "grid");
}

TEST(MeshBvhCoherent, IncoherentRaysWithEveryLimitMatchOneAtATime) {
  // Random origins, directions of every sign and axis, zero components, tmin and tmax, invalid
  // rays: packets split by direction signs, and rays that share nothing.
  const MeshBvh bvh = MeshBvh::build(test::random_soup(3000, 74)).value();
  std::mt19937 gen(75);
  std::vector<Rayf> rays;
  for (int i = 0; i < 6000; ++i) rays.push_back(test::random_ray(gen, 60));
  rays[7] = {{0, 0, 0}, {0, 0, 0}};
  rays[100] = {{1, 2, 3}, {0, 0, 1}, 5.0f, 1.0f};  // tmin > tmax
  rays[200].origin.x = kInfinity<float>;
  for (const FaceMode faces : {FaceMode::both, FaceMode::front_only, FaceMode::back_only}) {
    expect_matches_one_at_a_time(bvh, rays, faces, "soup");
  }
}

TEST(MeshBvhCoherent, SoupSeenThroughCameraTilesMatchesOneAtATime) {
  const MeshBvh bvh = MeshBvh::build(test::random_soup(20000, 76, 30.0f)).value();
  std::mt19937 gen(77);
  std::uniform_real_distribution<float> u(-1, 1);
  int hits = 0;
  for (int view = 0; view < 4; ++view) {
    const Vec3f eye = normalize(Vec3f{u(gen), u(gen), u(gen)}) * (view == 0 ? 10.0f : 60.0f);  // inside, outside
    hits += expect_matches_one_at_a_time(bvh, test::camera_tile_rays(eye, {}, 1.5f, 64, 48), FaceMode::both, "soup camera");
  }
  EXPECT_GT(hits, 5000);
}

TEST(MeshBvhCoherent, InstancesUnderEveryTransformMatchOneAtATime) {
  const auto bvh = std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(4, 2.0f)).value());
  std::mt19937 gen(78);
  std::uniform_real_distribution<float> u(-1, 1);
  const Vec3f scales[] = {{1, 1, 1}, {2, 2, 2}, {0.5f, 3, 1.5f}, {-1, 2, 1}};
  for (int k = 0; k < 4; ++k) {
    const Quatf rotation = Quatf::from_components(u(gen), u(gen), u(gen), u(gen));
    const MeshInstance instance{bvh, k == 0 ? Transformf{} : Transformf{rotation, Vec3f{u(gen), u(gen), u(gen)} * 3.0f, scales[k]}};
    const Vec3f eye{u(gen) * 20, u(gen) * 20, 15.0f};
    const std::vector<Rayf> rays = test::camera_tile_rays(eye, instance.transform.translation, 0.8f, 40, 40);
    EXPECT_GT(expect_matches_one_at_a_time(instance, rays, FaceMode::front_only, "instance " + std::to_string(k)), 50);
  }
  const MeshInstance singular{bvh, Transformf{Quatf{}, {0, 0, 0}, {1, 0, 1}}};
  std::vector<MeshHit> hits(1);
  const std::vector<Rayf> ray{{{0, 0, 10}, {0, 0, -1}}};
  ASSERT_TRUE(singular.intersect_coherent(ray, hits).ok());
  EXPECT_FALSE(hits[0].hit);
}

TEST(MeshBvhCoherent, MismatchedSpansAreAnErrorAndEmptyOnesAreNot) {
  const MeshBvh bvh = MeshBvh::build(test::icosphere(1)).value();
  std::vector<Rayf> rays(3);
  std::vector<MeshHit> hits(2);
  EXPECT_EQ(bvh.intersect_coherent(rays, hits).code(), StatusCode::invalid_argument);
  EXPECT_EQ(MeshInstance{}.intersect_coherent(rays, hits).code(), StatusCode::invalid_argument);
  EXPECT_TRUE(bvh.intersect_coherent({}, {}).ok());
  const MeshBvh empty = MeshBvh::build(std::make_shared<const TriangleMesh>(TriangleMesh::make({}, {}).value())).value();
  std::vector<MeshHit> three(3);
  EXPECT_TRUE(empty.intersect_coherent(rays, three).ok());
  for (const MeshHit& h : three) EXPECT_FALSE(h.hit);
}

}  // namespace
}  // namespace hitscan
