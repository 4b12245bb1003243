// Sweeps against a mesh through its BVH: the same answer as the triangle kernel run on every
// triangle of the mesh (brute force), and hand-worked cases.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "hitscan/io/mesh_loader.hpp"
#include "hitscan/mesh/mesh_sweep.hpp"
#include "mesh/mesh_test_meshes.hpp"

namespace hitscan {
namespace {

struct BruteSweep {
  std::uint32_t triangle = kNoPrimitive;
  SweepHitf sweep;
};

// The kernel on every usable triangle: least distance, then deepest start, then lowest index.
template <class Shape>
BruteSweep brute_force(const Shape& moving, Vec3f direction, float max_distance, const TriangleMesh& mesh) {
  BruteSweep best;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    if (!mesh.is_usable(i)) continue;
    SweepHitf h;
    if constexpr (std::is_same_v<Shape, Spheref>) h = sphere_cast(moving, direction, max_distance, mesh.triangle(i));
    else h = capsule_cast(moving, direction, max_distance, mesh.triangle(i));
    if (!h.hit) continue;
    const bool better = !best.sweep.hit || h.distance < best.sweep.distance ||
                        (h.distance == best.sweep.distance && h.depth > best.sweep.depth);
    if (better) best = {static_cast<std::uint32_t>(i), h};
  }
  return best;
}

MeshSweepHit run(const Spheref& s, Vec3f d, float limit, const MeshBvh& m) { return sphere_cast(s, d, limit, m); }
MeshSweepHit run(const Capsulef& c, Vec3f d, float limit, const MeshBvh& m) { return capsule_cast(c, d, limit, m); }

Spheref random_sphere(std::mt19937& gen, float extent) {
  std::uniform_real_distribution<float> pos(-extent, extent), radius(0.05f, 3.0f);
  return {{pos(gen), pos(gen), pos(gen)}, radius(gen)};
}
Capsulef random_capsule(std::mt19937& gen, float extent) {
  std::uniform_real_distribution<float> pos(-extent, extent), unit(-1, 1), radius(0.05f, 2.0f);
  const Vec3f c{pos(gen), pos(gen), pos(gen)}, half = Vec3f{unit(gen), unit(gen), unit(gen)} * 2.0f;
  return {c - half, c + half, radius(gen)};
}

// The BVH walk finds the brute-force distance; the triangle may differ only where two triangles
// are met at the same distance (a shared edge or vertex), and then both give that distance.
template <class Shape>
void expect_matches_brute_force(const MeshBvh& bvh, const Shape& q, Vec3f d, float limit, int index, int& hits) {
  const MeshSweepHit got = run(q, d, limit, bvh);
  const BruteSweep want = brute_force(q, d, limit, bvh.mesh());
  ASSERT_EQ(got.sweep.hit, want.sweep.hit) << "sweep " << index;
  if (!want.sweep.hit) return;
  ++hits;
  EXPECT_EQ(got.sweep.distance, want.sweep.distance) << "sweep " << index;
  EXPECT_EQ(got.sweep.started_in_contact, want.sweep.started_in_contact) << "sweep " << index;
  EXPECT_EQ(got.sweep.depth, want.sweep.depth) << "sweep " << index;
  EXPECT_EQ(got.triangle, want.triangle) << "sweep " << index;
}

void random_sweeps_match_brute_force(const MeshBvh& bvh, float extent, unsigned seed, int count) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> unit(-1, 1), limit(0.0f, 4.0f * extent);
  int hits = 0;
  for (int i = 0; i < count; ++i) {
    const Vec3f d = normalize(Vec3f{unit(gen), unit(gen), unit(gen)});
    const float max_distance = i % 10 == 0 ? kInfinity<float> : limit(gen);
    expect_matches_brute_force(bvh, random_sphere(gen, extent), d, max_distance, i, hits);
    expect_matches_brute_force(bvh, random_capsule(gen, extent), d, max_distance, i, hits);
  }
  EXPECT_GT(hits, count / 4);  // the cases exercise hits, not only misses
}

TEST(MeshSweep, RandomSoupMatchesBruteForce) {
  const MeshBvh bvh = MeshBvh::build(test::random_soup(400, 3, 20.0f)).value();
  random_sweeps_match_brute_force(bvh, 25.0f, 11, 300);
}

TEST(MeshSweep, ClosedSphereMatchesBruteForce) {
  // Shared edges and vertices everywhere: ties between neighbouring triangles.
  const MeshBvh bvh = MeshBvh::build(test::icosphere(3, 5.0f)).value();
  random_sweeps_match_brute_force(bvh, 8.0f, 12, 300);
}

TEST(MeshSweep, SphereDroppedOnFloorStopsAtItsRadius) {
  // A 10 x 10 floor of two triangles at z = 0; a sphere of radius 0.5 at height 3 falls on it.
  std::vector<Vec3f> p = {{-5, -5, 0}, {5, -5, 0}, {5, 5, 0}, {-5, 5, 0}};
  std::vector<TriangleMesh::Indices> f = {{0, 1, 2}, {0, 2, 3}};
  const MeshBvh bvh =
      MeshBvh::build(std::make_shared<const TriangleMesh>(TriangleMesh::make(p, f).value())).value();
  const MeshSweepHit h = sphere_cast(Spheref{{1, 2, 3}, 0.5f}, Vec3f{0, 0, -1}, 10.0f, bvh);
  ASSERT_TRUE(h);
  EXPECT_NEAR(h.sweep.distance, 2.5f, 1e-5f);
  EXPECT_NEAR(h.sweep.point.x, 1.0f, 1e-5f);
  EXPECT_NEAR(h.sweep.point.y, 2.0f, 1e-5f);
  EXPECT_NEAR(h.sweep.point.z, 0.0f, 1e-5f);
  EXPECT_NEAR(h.sweep.normal.z, 1.0f, 1e-5f);
  EXPECT_FALSE(h.sweep.started_in_contact);
  EXPECT_EQ(h.triangle, 1u);  // (1, 2) lies in the triangle 0, 2, 3 (y > x)
  // Too short to reach it.
  EXPECT_FALSE(sphere_cast(Spheref{{1, 2, 3}, 0.5f}, Vec3f{0, 0, -1}, 2.4f, bvh));
  // A capsule lying flat falls the same way; one standing falls by its lower cap.
  const MeshSweepHit lying = capsule_cast(Capsulef{{-1, 0, 2}, {1, 0, 2}, 0.25f}, Vec3f{0, 0, -1}, 10.0f, bvh);
  ASSERT_TRUE(lying);
  EXPECT_NEAR(lying.sweep.distance, 1.75f, 1e-5f);
  const MeshSweepHit standing = capsule_cast(Capsulef{{0, 0, 2}, {0, 0, 4}, 0.25f}, Vec3f{0, 0, -1}, 10.0f, bvh);
  ASSERT_TRUE(standing);
  EXPECT_NEAR(standing.sweep.distance, 1.75f, 1e-5f);
}

// The walk's answer against the kernel on every triangle, where the triangle may be another of
// the same distance and depth: on a path grazing a vertex several triangles meet it at the same
// distance, and the kernel, whose edge tests lose digits at such grazing angles, may give the
// lowest of them only when not limited to the distance already found.
template <class Shape>
void expect_culls_keep_every_contact(const MeshBvh& bvh, const Shape& q, Vec3f d, float limit, int index, int& hits,
                                     int& misses) {
  const MeshSweepHit got = run(q, d, limit, bvh);
  const BruteSweep want = brute_force(q, d, limit, bvh.mesh());
  ASSERT_EQ(got.sweep.hit, want.sweep.hit) << "sweep " << index;
  if (!want.sweep.hit) {
    ++misses;
    return;
  }
  ++hits;
  EXPECT_EQ(got.sweep.distance, want.sweep.distance) << "sweep " << index;
  EXPECT_EQ(got.sweep.started_in_contact, want.sweep.started_in_contact) << "sweep " << index;
  EXPECT_EQ(got.sweep.depth, want.sweep.depth) << "sweep " << index;
  if (got.triangle == want.triangle) return;
  SweepHitf own;
  if constexpr (std::is_same_v<Shape, Spheref>) own = sphere_cast(q, d, limit, bvh.mesh().triangle(got.triangle));
  else own = capsule_cast(q, d, limit, bvh.mesh().triangle(got.triangle));
  EXPECT_TRUE(own.hit && own.distance == want.sweep.distance && own.depth == want.sweep.depth)
      << "sweep " << index << ": triangle " << got.triangle << " instead of " << want.triangle;
}

TEST(MeshSweep, GrazingSweepsOverAFloorMatchBruteForce) {
  // A floor of 20 x 20 cells at z = 0 (800 triangles, so that the walk culls leaves and lanes),
  // and capsules and spheres passing over it at heights around their radius: below it (started in
  // contact), at it, and above it by amounts either side of the contact tolerance, moving level
  // or dipping slightly, with capsules lying along and across the path, standing and tilted. The
  // walk's culls (the leaf's box, each triangle's box, the shape's corridor) must keep every
  // triangle the kernel meets: the same answers as the kernel on every triangle.
  constexpr int kCells = 20;
  std::vector<Vec3f> p;
  std::vector<TriangleMesh::Indices> f;
  for (int y = 0; y <= kCells; ++y) {
    for (int x = 0; x <= kCells; ++x) p.push_back({float(x) - 10.0f, float(y) - 10.0f, 0.0f});
  }
  for (int y = 0; y < kCells; ++y) {
    for (int x = 0; x < kCells; ++x) {
      const auto i = static_cast<std::uint32_t>(y * (kCells + 1) + x);
      f.push_back({i, i + 1, i + kCells + 2});
      f.push_back({i, i + kCells + 2, i + kCells + 1});
    }
  }
  const MeshBvh bvh = MeshBvh::build(std::make_shared<const TriangleMesh>(TriangleMesh::make(p, f).value())).value();
  const float gaps[] = {-1e-3f, -1e-6f, 0.0f, 1e-7f, 1e-6f, 1e-5f, 1e-4f, 1e-3f, 1e-2f};
  const float dips[] = {0.0f, 1e-6f, 1e-3f, -1e-4f};
  int index = 0, hits = 0, misses = 0;
  for (const float gap : gaps) {
    for (const float dip : dips) {
      for (int turn = 0; turn < 6; ++turn) {
        const float angle = 0.5f * float(turn);
        const Vec3f d = normalize(Vec3f{std::cos(angle), std::sin(angle), -dip});
        const float r = 0.3f + 0.1f * float(turn);
        const Vec3f start{-6.0f + 0.37f * float(turn), -4.0f + 0.23f * float(turn), r + gap};
        // Lying along the path, across it, standing and tilted up out of the floor's plane (a
        // standing capsule's segment and path span a vertical plane, and its lower cap grazes the
        // floor where the corridor's second slab ends).
        const Vec3f along = d * 0.8f, across = Vec3f{-d.y, d.x, 0.0f} * 0.8f, standing{0.0f, 0.0f, 0.8f},
                    tilted{0.5f, -0.3f, 0.6f};
        for (const Vec3f axis : {along, across, standing, tilted}) {
          // The lower end at height r + gap for the tilted one too.
          const Vec3f lift{0.0f, 0.0f, axis.z < 0.0f ? -axis.z : 0.0f};
          const Capsulef capsule{start + lift, start + lift + axis, r};
          expect_culls_keep_every_contact(bvh, capsule, d, 8.0f, index++, hits, misses);
        }
        expect_culls_keep_every_contact(bvh, Spheref{start, r}, d, 8.0f, index++, hits, misses);
      }
    }
  }
  EXPECT_GT(misses, 20);  // some pass above the floor, beyond the tolerance
  EXPECT_GT(hits, 200);
}

TEST(MeshSweep, StartingInContactReportsTheDeepestTriangle) {
  // Two parallel floors 0.3 apart; a sphere of radius 0.5 between them, 0.1 above the lower.
  std::vector<Vec3f> p = {{-5, -5, 0}, {5, -5, 0}, {5, 5, 0}, {-5, 5, 0}, {-5, -5, 0.3f}, {5, -5, 0.3f}, {5, 5, 0.3f}};
  std::vector<TriangleMesh::Indices> f = {{0, 1, 2}, {0, 2, 3}, {4, 5, 6}};
  const MeshBvh bvh =
      MeshBvh::build(std::make_shared<const TriangleMesh>(TriangleMesh::make(p, f).value())).value();
  const MeshSweepHit h = sphere_cast(Spheref{{2, 1, 0.1f}, 0.5f}, Vec3f{1, 0, 0}, 10.0f, bvh);
  ASSERT_TRUE(h);
  EXPECT_TRUE(h.sweep.started_in_contact);
  EXPECT_EQ(h.sweep.distance, 0.0f);
  EXPECT_EQ(h.triangle, 0u);  // the lower floor: 0.4 deep, the upper one 0.3
  EXPECT_NEAR(h.sweep.depth, 0.4f, 1e-5f);
  EXPECT_NEAR(h.sweep.normal.z, 1.0f, 1e-5f);
}

TEST(MeshSweep, RealMeshMatchesBruteForce) {
  // CGAL's elephant (5,558 triangles): brute force over every triangle per sweep stays quick
  // under the sanitizers.
  const std::string path = std::string(HITSCAN_CGAL_MESH_DIR) + "/elephant.off";
  Result<TriangleMesh> loaded = io::load_mesh(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  const auto mesh = std::make_shared<const TriangleMesh>(std::move(loaded).value());
  const MeshBvh bvh = MeshBvh::build(mesh).value();
  const Aabbf b = mesh->bounds();
  const float extent = 0.6f * max_component(b.extent());
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> unit(-1, 1), radius(0.001f, 0.05f);
  int hits = 0;
  for (int i = 0; i < 120; ++i) {
    const Vec3f c = b.center() + Vec3f{unit(gen), unit(gen), unit(gen)} * extent;
    const Vec3f d = normalize(b.center() - c + Vec3f{unit(gen), unit(gen), unit(gen)} * (0.2f * extent));
    const float r = radius(gen) * extent;
    expect_matches_brute_force(bvh, Spheref{c, r}, d, kInfinity<float>, i, hits);
    expect_matches_brute_force(bvh, Capsulef{c, c + Vec3f{0, r, 0} * 2.0f, r}, d, kInfinity<float>, i, hits);
  }
  EXPECT_GT(hits, 100);
}

TEST(MeshSweep, BadInputMissesEverything) {
  const MeshBvh bvh = MeshBvh::build(test::icosphere(1, 1.0f)).value();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(sphere_cast(Spheref{{0, 0, 5}, 0.5f}, Vec3f{0, 0, -1}, nan, bvh));
  EXPECT_FALSE(sphere_cast(Spheref{{0, 0, 5}, 0.5f}, Vec3f{0, 0, -1}, -1.0f, bvh));
  EXPECT_FALSE(sphere_cast(Spheref{{nan, 0, 5}, 0.5f}, Vec3f{0, 0, -1}, 10.0f, bvh));
  EXPECT_FALSE(sphere_cast(Spheref{{0, 0, 5}, -0.5f}, Vec3f{0, 0, -1}, 10.0f, bvh));
  EXPECT_FALSE(sphere_cast(Spheref{{0, 0, 5}, 0.5f}, Vec3f{0, 0, 0}, 10.0f, bvh));
  EXPECT_FALSE(capsule_cast(Capsulef{{0, 0, 5}, {0, 0, kInfinity<float>}, 0.5f}, Vec3f{0, 0, -1}, 10.0f, bvh));
  // And a valid one does hit: the unit icosphere's top from 5 up with radius 0.5.
  const MeshSweepHit h = sphere_cast(Spheref{{0, 0, 5}, 0.5f}, Vec3f{0, 0, -1}, 10.0f, bvh);
  ASSERT_TRUE(h);
  EXPECT_GT(h.sweep.distance, 3.5f - 0.2f);
  EXPECT_LT(h.sweep.distance, 3.5f + 1e-4f);
}

}  // namespace
}  // namespace hitscan
