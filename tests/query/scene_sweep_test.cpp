// Scene sweeps: sphere_cast, capsule_cast, their all-hits forms and the batch, against brute force
// over every collider (each collider's world shape built by the test, meshes as world triangles),
// and hand-worked cases.

#include <gtest/gtest.h>

#include <optional>

#include "hitscan/geometry/sweep.hpp"
#include "query/scene_test_scenes.hpp"

namespace hitscan {
namespace {

constexpr float kExtent = 30.0f;

using test::RandomScene;
RandomScene make_scene(int colliders, unsigned seed) { return test::make_random_scene(colliders, seed, kExtent); }

template <class Q, class Target>
SweepHitf cast(const Q& q, Vec3f d, float limit, const Target& t) {
  if constexpr (std::is_same_v<Q, Spheref>) return sphere_cast(q, d, limit, t);
  else return capsule_cast(q, d, limit, t);
}

// The first contact with one collider: its world shape's kernel, a mesh's triangles one by one
// in the world. nullopt on a miss.
template <class Q>
std::optional<float> reference_sweep(const Q& q, Vec3f d, float limit, const ColliderDesc& desc) {
  const WorldShape w = test::reference_world_shape(desc);
  SweepHitf h;
  if (const auto* m = std::get_if<WorldMesh>(&w)) {
    const TriangleMesh& mesh = m->bvh->mesh();
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
      if (!mesh.is_usable(i)) continue;
      const Trianglef l = mesh.triangle(i);
      const Trianglef t{m->transform.apply_point(l.v0), m->transform.apply_point(l.v1), m->transform.apply_point(l.v2)};
      const SweepHitf x = cast(q, d, limit, t);
      if (x.hit && (!h.hit || x.distance < h.distance)) h = x;
    }
  } else {
    std::visit([&](const auto& shape) {
      using S = std::decay_t<decltype(shape)>;
      if constexpr (!std::is_same_v<S, WorldMesh> && !std::is_same_v<S, WorldHull>) h = cast(q, d, limit, shape);
    }, w);
  }
  if (!h.hit) return std::nullopt;
  return h.distance;
}

QueryHit run(const Scene& s, const Spheref& q, Vec3f d, float limit, const QueryOptions& o = {}) {
  return s.sphere_cast({q, d, limit}, o);
}
QueryHit run(const Scene& s, const Capsulef& q, Vec3f d, float limit, const QueryOptions& o = {}) {
  return s.capsule_cast({q, d, limit}, o);
}
std::size_t run_all(const Scene& s, const Spheref& q, Vec3f d, float limit, std::vector<QueryHit>& out) {
  return s.sphere_cast_all({q, d, limit}, out);
}
std::size_t run_all(const Scene& s, const Capsulef& q, Vec3f d, float limit, std::vector<QueryHit>& out) {
  return s.capsule_cast_all({q, d, limit}, out);
}

Spheref random_sphere(std::mt19937& gen) {
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2), radius(0.1f, 2.0f);
  return {{pos(gen), pos(gen), pos(gen)}, radius(gen)};
}
Capsulef random_capsule(std::mt19937& gen) {
  const Spheref s = random_sphere(gen);
  std::uniform_real_distribution<float> unit(-1, 1);
  const Vec3f half = Vec3f{unit(gen), unit(gen), unit(gen)} * 1.5f;
  return {s.center - half, s.center + half, s.radius * 0.5f};
}

// Distances agree to this, relative to the distance travelled and the scene's size (a mesh is
// swept in its own frame by the scene, in the world by the reference).
float tolerance(float distance) { return 1e-4f * (kExtent + distance); }

template <class Q>
void check_sweep(const RandomScene& r, const Q& q, Vec3f d, float limit, int index, int& hits) {
  const Vec3f unit = normalize(d);
  // The reference's answers, per collider.
  std::vector<std::pair<float, ColliderId>> expected;
  for (const test::SceneEntry& e : r.entries) {
    if (const auto t = reference_sweep(q, unit, limit, e.desc)) expected.push_back({*t, e.id});
  }
  std::sort(expected.begin(), expected.end());
  const QueryHit got = run(r.scene, q, d, limit);
  std::vector<QueryHit> all;
  run_all(r.scene, q, d, limit, all);
  // Nearest: the same distance, and a collider the reference meets at that distance.
  if (expected.empty()) {
    EXPECT_FALSE(got.hit) << "sweep " << index << " hit collider " << got.collider << " at " << got.distance;
  } else if (expected[0].first < limit - tolerance(limit)) {
    ++hits;
    ASSERT_TRUE(got.hit) << "sweep " << index;
    EXPECT_NEAR(got.distance, expected[0].first, tolerance(got.distance)) << "sweep " << index;
    const bool tied = std::any_of(expected.begin(), expected.end(), [&](const auto& x) {
      return x.second == got.collider && std::abs(x.first - expected[0].first) <= tolerance(x.first);
    });
    EXPECT_TRUE(tied) << "sweep " << index << " collider " << got.collider;
    EXPECT_NEAR(length(got.normal), 1.0f, 1e-4f);
  }
  // All: every collider once, sorted; the same set as the reference's, but for those within the
  // tolerance of the limit.
  for (std::size_t i = 1; i < all.size(); ++i) {
    EXPECT_LE(all[i - 1].distance, all[i].distance) << "sweep " << index;
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(all[i].collider, all[j].collider) << "sweep " << index;
  }
  for (const auto& [t, id] : expected) {
    const auto it = std::find_if(all.begin(), all.end(), [&](const QueryHit& h) { return h.collider == id; });
    if (t < limit - tolerance(limit)) {
      ASSERT_NE(it, all.end()) << "sweep " << index << " missed collider " << id << " at " << t;
      EXPECT_NEAR(it->distance, t, tolerance(t)) << "sweep " << index << " collider " << id;
    }
  }
  for (const QueryHit& h : all) {
    const bool known = std::any_of(expected.begin(), expected.end(), [&](const auto& x) { return x.second == h.collider; });
    EXPECT_TRUE(known || h.distance >= limit - tolerance(limit)) << "sweep " << index << " collider " << h.collider;
  }
}

TEST(SceneSweep, RandomScenesMatchBruteForce) {
  const RandomScene r = make_scene(200, 21);
  std::mt19937 gen(22);
  std::uniform_real_distribution<float> unit(-1, 1), length(0.5f, 3.0f), limit(1.0f, 40.0f);
  int hits = 0;
  for (int i = 0; i < 80; ++i) {
    const Vec3f d = Vec3f{unit(gen), unit(gen), unit(gen)} * length(gen);
    const float l = i % 5 == 0 ? kInfinity<float> : limit(gen);
    check_sweep(r, random_sphere(gen), d, l, i, hits);
    check_sweep(r, random_capsule(gen), d, l, i, hits);
  }
  EXPECT_GT(hits, 60);
}

TEST(SceneSweep, SphereDroppedOnBoxStopsOnItsTopFace) {
  Scene scene;
  // A 4 x 4 x 2 box centred at the origin, rotated 90 degrees about z (same footprint), scaled 2.
  ColliderDesc box{Obbf{{}, {1, 1, 0.5f}, Mat3f::identity()}};
  box.transform.rotation = Quatf::from_axis_angle({0, 0, 1}, 1.5707963f);
  box.transform.scale = {2, 2, 2};
  box.user_id = 7;
  const ColliderId id = scene.add(box).value();
  scene.commit();
  const QueryHit h = scene.sphere_cast({Spheref{{0.5f, -0.5f, 5}, 0.5f}, {0, 0, -3}});
  ASSERT_TRUE(h);
  EXPECT_EQ(h.collider, id);
  EXPECT_EQ(h.user_id, 7u);
  EXPECT_NEAR(h.distance, 3.5f, 1e-5f);  // the top face at z = 1, the sphere's bottom at 4.5
  EXPECT_NEAR(h.point.z, 1.0f, 1e-5f);
  EXPECT_NEAR(h.normal.z, 1.0f, 1e-5f);
  EXPECT_NEAR(h.face_normal.z, 1.0f, 1e-5f);
  EXPECT_FALSE(h.started_inside());
  // Past the edge, it falls by: the sphere at x = 2.4 grazes the top edge x = 2 at height
  // 1 + sqrt(0.5^2 - 0.4^2) = 1.3 for its centre.
  const QueryHit edge = scene.sphere_cast({Spheref{{2.4f, 0, 5}, 0.5f}, {0, 0, -1}});
  ASSERT_TRUE(edge);
  EXPECT_NEAR(edge.distance, 5.0f - 1.3f, 1e-4f);
  EXPECT_NEAR(edge.normal.x, 0.8f, 1e-3f);
  EXPECT_NEAR(edge.normal.z, 0.6f, 1e-3f);
  EXPECT_FALSE(scene.sphere_cast({Spheref{{2.6f, 0, 5}, 0.5f}, {0, 0, -1}}));
  // Out of reach.
  EXPECT_FALSE(scene.sphere_cast({Spheref{{0, 0, 5}, 0.5f}, {0, 0, -1}, 3.4f}));
  QueryOptions shorter;
  shorter.max_distance = 3.4f;
  EXPECT_FALSE(scene.sphere_cast({Spheref{{0, 0, 5}, 0.5f}, {0, 0, -1}}, shorter));
}

TEST(SceneSweep, StartingInContactReportsDepthAndNormal) {
  Scene scene;
  scene.add({Obbf{{}, {2, 2, 1}, Mat3f::identity()}}).value();
  const ColliderId ball = scene.add({Spheref{{10, 0, 0}, 1}}).value();
  scene.commit();
  // The sphere's bottom is 0.2 inside the box's top face; it would move away, yet it is blocked.
  const QueryHit h = scene.sphere_cast({Spheref{{0, 0, 1.3f}, 0.5f}, {0, 0, 1}});
  ASSERT_TRUE(h);
  EXPECT_TRUE(h.started_inside());
  EXPECT_EQ(h.distance, 0.0f);
  EXPECT_NEAR(h.depth, 0.2f, 1e-5f);
  EXPECT_NEAR(h.normal.z, 1.0f, 1e-5f);
  // The all-hits form lists it first at 0, then the ball further along x.
  std::vector<QueryHit> all;
  ASSERT_EQ(scene.sphere_cast_all({Spheref{{0, 0, 0.5f}, 0.5f}, {1, 0, 0}}, all), 2u);
  EXPECT_EQ(all[0].distance, 0.0f);
  EXPECT_TRUE(all[0].started_inside());
  EXPECT_EQ(all[1].collider, ball);
  // Centres 1.5 apart with a 0.5 offset across the path: 10 - sqrt(1.5^2 - 0.5^2).
  EXPECT_NEAR(all[1].distance, 10.0f - std::sqrt(2.0f), 1e-4f);
}

TEST(SceneSweep, ScaledMeshInstances) {
  // A 2 x 2 quad at z = 0 in its frame, placed with a uniform scale of 3 (then a non-uniform one)
  // and lifted to z = 1: a capsule lying flat at height 4 falls 3 - radius.
  std::vector<Vec3f> p = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  std::vector<TriangleMesh::Indices> f = {{0, 1, 2}, {0, 2, 3}};
  const MeshShape quad = std::make_shared<const MeshBvh>(
      MeshBvh::build(std::make_shared<const TriangleMesh>(TriangleMesh::make(p, f).value())).value());
  // Mirrored in z, the quad's front (+z in its frame) faces down, as raycast says too.
  for (const Vec3f scale : {Vec3f{3, 3, 3}, Vec3f{3, 2, 5}, Vec3f{3, 2, -5}}) {
    Scene scene;
    ColliderDesc d{quad};
    d.transform.translation = {0, 0, 1};
    d.transform.scale = scale;
    scene.add(d).value();
    scene.commit();
    const QueryHit h = scene.capsule_cast({Capsulef{{-1, 0.5f, 4}, {1, 0.5f, 4}, 0.25f}, {0, 0, -1}});
    ASSERT_TRUE(h) << scale.y;
    EXPECT_NEAR(h.distance, 2.75f, 1e-4f);
    EXPECT_NEAR(h.point.z, 1.0f, 1e-4f);
    EXPECT_NEAR(h.face_normal.z, scale.z > 0 ? 1.0f : -1.0f, 1e-5f);
    EXPECT_EQ(h.face_normal, scene.raycast(QueryRay{{0, 0.5f, 4}, {0, 0, -1}}).face_normal);
    EXPECT_NE(h.primitive, kNoPrimitive);
    // The point from the barycentrics, on the world triangle.
    const Trianglef l = quad->mesh().triangle(h.primitive);
    const Vec3f local = l.v0 * (1 - h.u - h.v) + l.v1 * h.u + l.v2 * h.v;
    const Vec3f world = d.transform.apply_point(local);
    EXPECT_NEAR(length(world - h.point), 0.0f, 1e-4f);
  }
}

TEST(SceneSweep, LayerMaskFilterAndStats) {
  Scene scene;
  ColliderDesc near_box{Obbf{{0, 0, 2}, {1, 1, 0.5f}, Mat3f::identity()}};
  near_box.layer = 3;
  ColliderDesc far_box{Obbf{{0, 0, 6}, {1, 1, 0.5f}, Mat3f::identity()}};
  far_box.layer = 4;
  far_box.user_id = 44;
  const ColliderId near_id = scene.add(near_box).value();
  const ColliderId far_id = scene.add(far_box).value();
  scene.commit();
  const SphereSweep up{Spheref{{0, 0, 0}, 0.5f}, {0, 0, 1}};
  EXPECT_EQ(scene.sphere_cast(up).collider, near_id);
  QueryOptions mask;
  mask.layer_mask = 1u << 4;
  QueryStats stats;
  const QueryHit masked = scene.sphere_cast(up, mask, &stats);
  EXPECT_EQ(masked.collider, far_id);
  EXPECT_NEAR(masked.distance, 5.5f - 0.5f, 1e-5f);
  EXPECT_EQ(stats.shapes_tested, 1u);
  EXPECT_GT(stats.tree_nodes, 0u);
  QueryOptions filtered;
  filtered.filter.accept = [](ColliderId, std::uint64_t user_id, std::uint32_t, void*) { return user_id != 44; };
  std::vector<QueryHit> all;
  EXPECT_EQ(scene.sphere_cast_all(up, all, filtered), 1u);
  EXPECT_EQ(all[0].collider, near_id);
}

TEST(SceneSweep, BadInputMissesEverything) {
  Scene scene;
  scene.add({Spheref{{0, 0, 0}, 100}}).value();
  scene.commit();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(scene.sphere_cast({Spheref{{0, 0, 0}, 1}, {0, 0, 0}}));
  EXPECT_FALSE(scene.sphere_cast({Spheref{{nan, 0, 0}, 1}, {0, 0, 1}}));
  EXPECT_FALSE(scene.sphere_cast({Spheref{{0, 0, 0}, -1}, {0, 0, 1}}));
  EXPECT_FALSE(scene.sphere_cast({Spheref{{0, 0, 0}, 1}, {0, 0, 1}, nan}));
  EXPECT_FALSE(scene.sphere_cast({Spheref{{0, 0, 0}, 1}, {0, 0, kInfinity<float>}}));
  EXPECT_FALSE(scene.capsule_cast({Capsulef{{0, 0, 0}, {0, 0, nan}, 1}, {0, 0, 1}}));
  QueryOptions negative;
  negative.max_distance = -1;
  EXPECT_FALSE(scene.sphere_cast({Spheref{{0, 0, 0}, 1}, {0, 0, 1}}, negative));
  std::vector<QueryHit> all(3);
  EXPECT_EQ(scene.capsule_cast_all({Capsulef{{0, 0, 0}, {0, 0, 1}, nan}, {0, 0, 1}}, all), 0u);
  EXPECT_TRUE(all.empty());
  // The valid sweep starts inside the big sphere.
  EXPECT_TRUE(scene.sphere_cast({Spheref{{0, 0, 0}, 1}, {0, 0, 1}}).started_inside());
  // A batch whose spans differ is refused.
  std::vector<SphereSweep> sweeps(2);
  std::vector<QueryHit> hits(1);
  EXPECT_EQ(scene.sphere_cast_batch(sweeps, hits).code(), StatusCode::invalid_argument);
}

TEST(SceneSweep, BatchEqualsOneAtATime) {
  const RandomScene r = make_scene(300, 31);
  std::mt19937 gen(32);
  std::uniform_real_distribution<float> unit(-1, 1);
  std::vector<SphereSweep> sweeps(500);
  for (SphereSweep& s : sweeps) s = {random_sphere(gen), {unit(gen), unit(gen), unit(gen)}, 20.0f};
  std::vector<QueryHit> hits(sweeps.size());
  ASSERT_TRUE(r.scene.sphere_cast_batch(sweeps, hits).ok());
  int hit_count = 0;
  for (std::size_t i = 0; i < sweeps.size(); ++i) {
    const QueryHit one = r.scene.sphere_cast(sweeps[i]);
    ASSERT_EQ(hits[i].hit, one.hit) << i;
    hit_count += one.hit;
    EXPECT_EQ(hits[i].collider, one.collider) << i;
    EXPECT_EQ(hits[i].distance, one.distance) << i;
    EXPECT_EQ(hits[i].primitive, one.primitive) << i;
  }
  EXPECT_GT(hit_count, 100);
}

}  // namespace
}  // namespace hitscan
