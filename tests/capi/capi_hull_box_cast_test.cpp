// Convex hull colliders (HS_SHAPE_CONVEX_HULL) and hs_box_cast: field by field the C++ Scene's
// answer on a seeded random scene with hulls under every option set, a cast worked out by hand,
// and the argument checks.

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "capi/capi_test_support.hpp"
#include "capi/capi_twin_scene.hpp"

namespace hitscan::test {
namespace {

// A random hull, rebuilt from its own vertices: the C side builds it from those same points in
// the same order, so that both sides hold the same bits.
HullShape random_hull(std::mt19937& gen) {
  std::normal_distribution<float> n(0, 1);
  std::vector<Vec3f> cloud;
  for (int i = 0; i < 24; ++i) cloud.push_back(Vec3f{n(gen), n(gen), n(gen)} * 1.5f);
  const ConvexHullf first = ConvexHullf::make(cloud).value();
  const std::vector<Vec3f> vertices(first.vertices().begin(), first.vertices().end());
  return std::make_shared<const ConvexHullf>(ConvexHullf::make(vertices).value());
}

struct BoxCase {
  BoxSweep cpp;
  hs_box_sweep c;
};

// Random box sweeps; rotations scaled to have 1 as their largest component, which the C API's
// normalisation leaves as it is.
std::vector<BoxCase> random_box_sweeps(std::size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> half(0.2f, 2.5f);
  std::normal_distribution<float> n(0, 1);
  std::vector<BoxCase> out;
  for (std::size_t i = 0; i < count; ++i) {
    const QueryRay ray = random_query_ray(gen, kExtent);
    hs_quat q{n(gen), n(gen), n(gen), n(gen)};
    const float largest = std::max({std::abs(q.w), std::abs(q.x), std::abs(q.y), std::abs(q.z)});
    q = {q.w / largest, q.x / largest, q.y / largest, q.z / largest};
    const Vec3f half_extents{half(gen), half(gen), half(gen)};
    const Obbf box = Obbf::from_quat(ray.origin, half_extents, Quatf::from_components(q.w, q.x, q.y, q.z));
    out.push_back({{box, ray.direction, kExtent},
                   {{to_c(ray.origin), to_c(half_extents), q}, to_c(ray.direction), kExtent}});
  }
  return out;
}

TEST(CapiHullBoxCast, BoxCastsAndRaysWithHullsAgreeWithTheCppScene) {
  TwinScene twin(50, 808, true);
  std::mt19937 gen(809);
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2), scale(0.5f, 2.0f);
  for (int i = 0; i < 10; ++i) {
    ColliderDesc desc{random_hull(gen), {random_rotation(gen), {pos(gen), pos(gen), pos(gen)}, {scale(gen), scale(gen), -scale(gen)}},
                      static_cast<std::uint32_t>(gen() % 32), gen()};
    twin.add(desc);
  }
  twin.commit();
  FilterCheck check;
  for (const SceneEntry& e : twin.entries) check.colliders[e.id] = {e.desc.user_id, e.desc.layer};
  const std::vector<BoxCase> sweeps = random_box_sweeps(150, 810);
  const std::vector<QueryRay> rays = random_rays(150, 811);
  std::size_t box_hits = 0, hull_hits = 0;
  for (const auto& [c_options, cpp_options] : option_pairs(check)) {
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
      hs_hit hit;
      ASSERT_EQ(hs_box_cast(twin.c, &sweeps[i].c, &c_options, &hit), HS_OK);
      expect_same_hit(hit, twin.cpp.box_cast(sweeps[i].cpp, cpp_options), 0.0f, static_cast<int>(i));
      box_hits += hit.hit;
      const hs_ray ray = to_c(rays[i]);
      ASSERT_EQ(hs_raycast(twin.c, &ray, &c_options, &hit), HS_OK);
      const QueryHit expected = twin.cpp.raycast(rays[i], cpp_options);
      expect_same_hit(hit, expected, 0.0f, static_cast<int>(i));
      if (expected.hit && std::holds_alternative<HullShape>(twin.cpp.collider(expected.collider).value().shape)) {
        ++hull_hits;
      }
    }
  }
  EXPECT_EQ(check.wrong_arguments, 0);
  EXPECT_GT(box_hits, 100u);
  EXPECT_GT(hull_hits, 5u);
}

TEST(CapiHullBoxCast, BoxCastWorkedOutByHand) {
  HandScene s;
  hs_box_sweep sweep = hs_box_sweep_default();
  sweep.box.center = vec3(-5, 0, 0);
  sweep.box.half_extents = vec3(0.5f, 0.5f, 0.5f);
  sweep.direction = vec3(2, 0, 0);
  hs_hit hit;
  ASSERT_EQ(hs_box_cast(s.scene, &sweep, nullptr, &hit), HS_OK);
  EXPECT_TRUE(hit.hit);
  EXPECT_EQ(hit.collider, s.box);
  EXPECT_EQ(hit.user_id, 10u);
  EXPECT_NEAR(hit.distance, 3.5f, 1e-4f);
  expect_vec3_near(hit.normal, -1, 0, 0, 1e-4f, "normal");
  EXPECT_EQ(hit.flags, 0u);
  // Falling onto the square mesh (x in [10, 11], y in [0, 1], z = 0) from 3 up.
  sweep.box.center = vec3(10.5f, 0.5f, 3);
  sweep.box.half_extents = vec3(0.25f, 0.25f, 0.25f);
  sweep.direction = vec3(0, 0, -1);
  ASSERT_EQ(hs_box_cast(s.scene, &sweep, nullptr, &hit), HS_OK);
  EXPECT_EQ(hit.collider, s.square);
  EXPECT_NEAR(hit.distance, 2.75f, 1e-4f);
  EXPECT_LE(hit.primitive, 1u);
  expect_vec3_near(hit.face_normal, 0, 0, 1, 1e-5f, "face normal");
  // A zero rotation can hit nothing: a miss, not an error.
  sweep.box.rotation = {0, 0, 0, 0};
  ASSERT_EQ(hs_box_cast(s.scene, &sweep, nullptr, &hit), HS_OK);
  EXPECT_FALSE(hit.hit);
}

TEST(CapiHullBoxCast, BoxCastArgumentsAreChecked) {
  SmallScene s;
  const hs_box_sweep sweep = hs_box_sweep_default();
  hs_hit hit;
  hit.hit = 1;
  expect_failure(hs_box_cast(nullptr, &sweep, nullptr, &hit), HS_INVALID_ARGUMENT, "hs_box_cast", "scene");
  EXPECT_EQ(hit.hit, 0);
  EXPECT_EQ(hit.collider, HS_NO_COLLIDER);
  expect_failure(hs_box_cast(s.scene, nullptr, nullptr, &hit), HS_INVALID_ARGUMENT, "hs_box_cast", "sweep");
  expect_failure(hs_box_cast(s.scene, &sweep, nullptr, nullptr), HS_INVALID_ARGUMENT, "hs_box_cast", "out_hit");
  hs_query_options options = hs_query_options_default();
  options.max_distance = kNan;
  expect_failure(hs_box_cast(s.scene, &sweep, &options, &hit), HS_INVALID_ARGUMENT, "hs_box_cast", "max_distance");
  options = hs_query_options_default();
  options.faces = static_cast<hs_face_mode>(7);
  expect_failure(hs_box_cast(s.scene, &sweep, &options, &hit), HS_INVALID_ARGUMENT, "hs_box_cast", "faces");
  // Data that can hit nothing is a miss.
  hs_box_sweep bad = sweep;
  bad.box.center.x = kNan;
  ASSERT_EQ(hs_box_cast(s.scene, &bad, nullptr, &hit), HS_OK);
  EXPECT_FALSE(hit.hit);
  bad = sweep;
  bad.box.half_extents.y = -1;
  ASSERT_EQ(hs_box_cast(s.scene, &bad, nullptr, &hit), HS_OK);
  EXPECT_FALSE(hit.hit);
  bad = sweep;
  bad.direction = vec3(0, 0, 0);
  ASSERT_EQ(hs_box_cast(s.scene, &bad, nullptr, &hit), HS_OK);
  EXPECT_FALSE(hit.hit);
}

TEST(CapiHullBoxCast, HullShapesAreChecked) {
  SmallScene s;
  const hs_vec3 tetrahedron[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const hs_vec3 flat[5] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 3, 0}};
  const hs_vec3 with_nan[4] = {{0, 0, 0}, {1, 0, 0}, {0, kNan, 0}, {0, 0, 1}};
  hs_shape hull = hs_shape_default(HS_SHAPE_CONVEX_HULL);
  hs_transform aside = hs_transform_default();
  aside.translation = vec3(10, 0, 0);  // clear of the small scene's sphere and square
  std::uint32_t id = 7;
  auto add = [&](const hs_vec3* points, std::size_t count) {
    hull.data.convex_hull = {points, count};
    id = 7;
    return hs_scene_add_shape(s.scene, &hull, &aside, 0, 0, &id);
  };
  expect_failure(add(nullptr, 4), HS_INVALID_ARGUMENT, "hs_scene_add_shape", "convex_hull.points");
  EXPECT_EQ(id, HS_NO_COLLIDER);
  expect_failure(add(nullptr, 0), HS_INVALID_ARGUMENT, "hs_scene_add_shape", "at least 4 points");
  expect_failure(add(tetrahedron, 3), HS_INVALID_ARGUMENT, "hs_scene_add_shape", "at least 4 points");
  expect_failure(add(flat, 5), HS_INVALID_ARGUMENT, "hs_scene_add_shape", "coplanar");
  expect_failure(add(with_nan, 4), HS_INVALID_ARGUMENT, "hs_scene_add_shape", "not finite");
  expect_failure(add(tetrahedron, SIZE_MAX / 2), HS_OUT_OF_RANGE, "hs_scene_add_shape", "cannot exist");
  EXPECT_EQ(id, HS_NO_COLLIDER);

  // A good one, then made a flat one through set_shape: refused, the collider unchanged.
  ASSERT_EQ(add(tetrahedron, 4), HS_OK);
  const std::uint32_t good = id;
  hull.data.convex_hull = {flat, 5};
  expect_failure(hs_scene_set_shape(s.scene, good, &hull), HS_INVALID_ARGUMENT, "hs_scene_set_shape", "coplanar");
  ASSERT_EQ(hs_scene_commit(s.scene), HS_OK);
  const hs_ray down = ray_from(10.2f, 0.2f, 3, 0, 0, -1);
  hs_hit hit;
  ASSERT_EQ(hs_raycast(s.scene, &down, nullptr, &hit), HS_OK);
  EXPECT_EQ(hit.collider, good);
  EXPECT_NEAR(hit.distance, 3 - 0.6f, 1e-5f);  // the slanted face x + y + z = 1
  // The sphere of the small scene made a hull: a ray along +x from inside the sphere's old place.
  hull.data.convex_hull = {tetrahedron, 4};
  ASSERT_EQ(hs_scene_set_shape(s.scene, s.sphere, &hull), HS_OK);
  ASSERT_EQ(hs_scene_commit(s.scene), HS_OK);
  const hs_ray across = ray_from(-3, 0.1f, 0.1f, 1, 0, 0);
  ASSERT_EQ(hs_raycast(s.scene, &across, nullptr, &hit), HS_OK);
  EXPECT_NEAR(hit.distance, 3.0f, 1e-5f);
  expect_vec3_near(hit.normal, -1, 0, 0, 1e-5f, "normal");
}

}  // namespace
}  // namespace hitscan::test
