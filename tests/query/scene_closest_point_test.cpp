// Scene::closest_point against brute force over every collider, each collider's distance computed
// here by formulas of its own (slab distances for boxes, axial and radial parts for cylinders, a
// triangle fan for polygons, every triangle for meshes).

#include <gtest/gtest.h>

#include "hitscan/geometry/closest_point.hpp"
#include "query/scene_test_scenes.hpp"

namespace hitscan {
namespace {

constexpr float kExtent = 40.0f;

// Distance from p to the collider as described (0 inside a solid).
float reference_distance(const ColliderDesc& d, Vec3f p) {
  const Transformf& t = d.transform;
  const float s = std::abs(t.scale.x);
  if (const auto* sp = std::get_if<Spheref>(&d.shape)) {
    return max(0.0f, length(p - t.apply_point(sp->center)) - sp->radius * s);
  }
  if (const auto* b = std::get_if<Obbf>(&d.shape)) {
    const Vec3f local = t.inverse_point(p);  // the box is axis aligned in its frame
    const Vec3f half = b->half_extents;
    const Vec3f gap = max(abs(local - b->center) - half, Vec3f{});
    return length(mul(gap, abs(t.scale)));
  }
  if (const auto* c = std::get_if<Capsulef>(&d.shape)) {
    const Segmentf axis{t.apply_point(c->a), t.apply_point(c->b)};
    return max(0.0f, length(p - closest_point_on_segment(axis, p)) - c->radius * s);
  }
  if (const auto* c = std::get_if<Cylinderf>(&d.shape)) {
    const Vec3f a = t.apply_point(c->a), b = t.apply_point(c->b);
    const float len = length(b - a);
    const Vec3f u = (b - a) / len;
    const float along = dot(p - a, u);
    const float radial = length(p - a - u * along);
    const float da = max(0.0f, max(-along, along - len)), dr = max(0.0f, radial - c->radius * s);
    return std::sqrt(da * da + dr * dr);
  }
  if (const auto* poly = std::get_if<ConvexPolygonf>(&d.shape)) {
    const auto v = poly->vertices();
    float best = kInfinity<float>;
    for (std::size_t i = 1; i + 1 < v.size(); ++i) {
      const Trianglef tri{t.apply_point(v[0]), t.apply_point(v[i]), t.apply_point(v[i + 1])};
      best = min(best, length(closest_point_on_triangle(tri, p).point - p));
    }
    return best;
  }
  const TriangleMesh& mesh = std::get<MeshShape>(d.shape)->mesh();
  float best = kInfinity<float>;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const Trianglef local = mesh.triangle(i);
    const Trianglef tri{t.apply_point(local.v0), t.apply_point(local.v1), t.apply_point(local.v2)};
    best = min(best, length(closest_point_on_triangle(tri, p).point - p));
  }
  return best;
}

TEST(SceneClosestPoint, MatchesBruteForceOverEveryCollider) {
  Scene scene;
  std::vector<test::SceneEntry> entries;
  std::mt19937 gen(31);
  const MeshShape mesh = std::make_shared<const MeshBvh>(MeshBvh::build(test::icosphere(2, 1.5f)).value());
  for (int i = 0; i < 300; ++i) {
    test::SceneEntry e;
    e.desc = test::random_collider(gen, kExtent, mesh, false);
    e.id = scene.add(e.desc).value();
    entries.push_back(e);
  }
  scene.commit();
  std::uniform_real_distribution<float> pos(-kExtent * 0.6f, kExtent * 0.6f);
  int inside = 0;
  for (int i = 0; i < 500; ++i) {
    const Vec3f p{pos(gen), pos(gen), pos(gen)};
    float expected = kInfinity<float>;
    for (const test::SceneEntry& e : entries) expected = min(expected, reference_distance(e.desc, p));
    const QueryHit hit = scene.closest_point(p);
    ASSERT_TRUE(hit.hit) << "point " << i;
    EXPECT_NEAR(hit.distance, expected, 1e-4f * (1.0f + expected)) << "point " << i;
    EXPECT_NEAR(length(hit.point - p), hit.distance, 1e-4f * (1.0f + expected));
    // The reported collider is at that distance.
    const auto it = std::find_if(entries.begin(), entries.end(), [&](const test::SceneEntry& e) { return e.id == hit.collider; });
    ASSERT_NE(it, entries.end());
    EXPECT_NEAR(reference_distance(it->desc, p), hit.distance, 1e-4f * (1.0f + expected));
    EXPECT_NEAR(length(hit.normal), 1.0f, 1e-4f);
    inside += hit.started_inside();
    // A radius just short of the answer finds nothing nearer; the answer itself is inclusive.
    if (hit.distance > 1e-3f) {
      QueryOptions shorter;
      shorter.max_distance = hit.distance * 0.99f;
      EXPECT_FALSE(scene.closest_point(p, shorter).hit) << "point " << i;
    }
  }
  EXPECT_GT(inside, 0);
}

TEST(SceneClosestPoint, InsideASolidIsTheSurfaceWhenSolidIsOff) {
  Scene scene;
  scene.add({Obbf{{0, 0, 0}, {2, 3, 4}, Mat3f::identity()}}).value();
  scene.add({Cylinderf{{10, 0, -1}, {10, 0, 1}, 2}}).value();
  scene.add({Capsulef{{20, 0, -1}, {20, 0, 1}, 1}}).value();
  scene.commit();
  QueryOptions shell;
  shell.solid = false;
  const QueryHit solid = scene.closest_point({1.5f, 0, 0});
  EXPECT_TRUE(solid.started_inside());
  EXPECT_EQ(solid.distance, 0.0f);
  const QueryHit box = scene.closest_point({1.5f, 0, 0}, shell);
  EXPECT_FLOAT_EQ(box.distance, 0.5f);
  EXPECT_EQ(box.point, (Vec3f{2, 0, 0}));
  EXPECT_EQ(box.face_normal, (Vec3f{1, 0, 0}));
  const QueryHit cylinder = scene.closest_point({10, 0, 0.8f}, shell);
  EXPECT_NEAR(cylinder.distance, 0.2f, 1e-6f);
  EXPECT_EQ(cylinder.face_normal, (Vec3f{0, 0, 1}));
  const QueryHit capsule = scene.closest_point({20.25f, 0, 0.5f}, shell);
  EXPECT_NEAR(capsule.distance, 0.75f, 1e-6f);
  EXPECT_NEAR(capsule.point.x, 21.0f, 1e-6f);
}

TEST(SceneClosestPoint, LayersFiltersAndBadInput) {
  Scene scene;
  ColliderDesc near{Spheref{{0, 0, 0}, 1}};
  near.layer = 2;
  scene.add(near).value();
  scene.add({Spheref{{10, 0, 0}, 1}}).value();
  scene.commit();
  QueryOptions not_two;
  not_two.layer_mask = ~(1u << 2);
  EXPECT_FLOAT_EQ(scene.closest_point({2, 0, 0}).distance, 1.0f);
  EXPECT_FLOAT_EQ(scene.closest_point({2, 0, 0}, not_two).distance, 7.0f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(scene.closest_point({nan, 0, 0}).hit);
  QueryOptions negative;
  negative.max_distance = -1;
  EXPECT_FALSE(scene.closest_point({2, 0, 0}, negative).hit);
  EXPECT_FALSE(Scene{}.closest_point({0, 0, 0}).hit);
}

}  // namespace
}  // namespace hitscan
