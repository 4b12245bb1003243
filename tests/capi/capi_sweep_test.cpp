// hs_sphere_cast, hs_capsule_cast and hs_sphere_cast_batch: field by field the C++ Scene's answer on
// seeded random scenes under every option set, batches equal to one at a time, sweeps worked out by
// hand onto a box, a sphere and a mesh, and the argument checks.

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "capi/capi_test_support.hpp"
#include "capi/capi_twin_scene.hpp"

namespace hitscan::test {
namespace {

constexpr float kHand = 1e-5f;

std::vector<SphereSweep> random_sphere_sweeps(std::size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> radius(0.1f, 2.0f);
  std::vector<SphereSweep> sweeps(count);
  for (SphereSweep& s : sweeps) {
    const QueryRay ray = random_query_ray(gen, kExtent);
    s = {Spheref{ray.origin, radius(gen)}, ray.direction, kExtent};
  }
  return sweeps;
}

std::vector<CapsuleSweep> random_capsule_sweeps(std::size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> unit(-1, 1), radius(0.1f, 1.5f);
  std::vector<CapsuleSweep> sweeps(count);
  for (CapsuleSweep& s : sweeps) {
    const QueryRay ray = random_query_ray(gen, kExtent);
    const Vec3f half{unit(gen), unit(gen), unit(gen)};
    s = {Capsulef{ray.origin - half, ray.origin + half, radius(gen)}, ray.direction, kExtent};
  }
  return sweeps;
}

QueryHit cpp_cast(const Scene& s, const SphereSweep& w, const QueryOptions& o) { return s.sphere_cast(w, o); }
QueryHit cpp_cast(const Scene& s, const CapsuleSweep& w, const QueryOptions& o) { return s.capsule_cast(w, o); }
hs_status c_cast(const hs_scene* s, const hs_sphere_sweep& w, const hs_query_options& o, hs_hit* out) {
  return hs_sphere_cast(s, &w, &o, out);
}
hs_status c_cast(const hs_scene* s, const hs_capsule_sweep& w, const hs_query_options& o, hs_hit* out) {
  return hs_capsule_cast(s, &w, &o, out);
}

template <class Sweep>
void expect_casts_agree(TwinScene& twin, const std::vector<Sweep>& sweeps) {
  FilterCheck check;
  for (const SceneEntry& e : twin.entries) check.colliders[e.id] = {e.desc.user_id, e.desc.layer};
  for (const auto& [c_options, cpp_options] : option_pairs(check)) {
    std::size_t hits = 0, started_inside = 0;
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
      hs_hit hit;
      ASSERT_EQ(c_cast(twin.c, to_c(sweeps[i]), c_options, &hit), HS_OK);
      expect_same_hit(hit, cpp_cast(twin.cpp, sweeps[i], cpp_options), 0.0f, static_cast<int>(i));
      hits += static_cast<std::size_t>(hit.hit);
      started_inside += (hit.flags & HS_HIT_STARTED_INSIDE) != 0 ? 1 : 0;
    }
    // Neither all misses nor all hits: the comparison means something under every option set.
    EXPECT_GT(hits, sweeps.size() / 10);
    EXPECT_LT(hits, sweeps.size());
    if (c_options.layer_mask == HS_ALL_LAYERS && c_options.filter == nullptr) {
      EXPECT_GT(started_inside, 0u);  // some sweeps start touching a collider
    }
  }
  EXPECT_EQ(check.wrong_arguments, 0);
}

TEST(CApiSweep, SphereCastsMatchTheCppSceneExactlyOnRandomScenes) {
  for (const bool rotated : {false, true}) {
    TwinScene twin(400, rotated ? 71 : 72, rotated);
    expect_casts_agree(twin, random_sphere_sweeps(1000, 73));
  }
}

TEST(CApiSweep, CapsuleCastsMatchTheCppSceneExactlyOnRandomScenes) {
  for (const bool rotated : {false, true}) {
    TwinScene twin(400, rotated ? 74 : 75, rotated);
    expect_casts_agree(twin, random_capsule_sweeps(1000, 76));
  }
}

TEST(CApiSweep, SphereCastBatchesEqualOneAtATimeAndTheCppBatch) {
  TwinScene twin(300, 77, true);
  std::vector<SphereSweep> sweeps = random_sphere_sweeps(3000, 78);
  sweeps[5].sphere.center.y = std::numeric_limits<float>::quiet_NaN();  // bad sweeps miss without failing it
  sweeps[6].direction = {};
  sweeps[7].sphere.radius = -1;
  std::vector<hs_sphere_sweep> c_sweeps;
  for (const SphereSweep& s : sweeps) c_sweeps.push_back(to_c(s));
  std::vector<hs_hit> c_hits(sweeps.size());
  std::vector<QueryHit> cpp_hits(sweeps.size());
  FilterCheck check;
  for (const SceneEntry& e : twin.entries) check.colliders[e.id] = {e.desc.user_id, e.desc.layer};
  for (const auto& [c_options, cpp_options] : option_pairs(check)) {
    ASSERT_EQ(hs_sphere_cast_batch(twin.c, c_sweeps.data(), c_sweeps.size(), &c_options, c_hits.data()), HS_OK);
    ASSERT_TRUE(twin.cpp.sphere_cast_batch(sweeps, cpp_hits, cpp_options).ok());
    std::size_t hits = 0;
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
      hs_hit one;
      ASSERT_EQ(hs_sphere_cast(twin.c, &c_sweeps[i], &c_options, &one), HS_OK);
      expect_same_hit(c_hits[i], cpp_hits[i], 0.0f, static_cast<int>(i));
      expect_same_hit(one, cpp_hits[i], 0.0f, static_cast<int>(i));
      hits += static_cast<std::size_t>(one.hit);
    }
    EXPECT_EQ(c_hits[5].hit, 0);
    EXPECT_EQ(c_hits[6].hit, 0);
    EXPECT_EQ(c_hits[7].hit, 0);
    EXPECT_GT(hits, sweeps.size() / 10);
    EXPECT_LT(hits, sweeps.size());
  }
  EXPECT_EQ(check.wrong_arguments, 0);
  EXPECT_EQ(hs_sphere_cast_batch(twin.c, nullptr, 0, nullptr, nullptr), HS_OK);  // empty, null arrays included
}

hs_sphere_sweep sphere_sweep(hs_vec3 center, float radius, hs_vec3 direction) {
  hs_sphere_sweep s = hs_sphere_sweep_default();
  s.sphere = {center, radius};
  s.direction = direction;
  return s;
}

TEST(CApiSweep, ASphereDroppedOntoTheBoxStopsAtTheHandWorkedDistance) {
  HandScene s;
  hs_hit hit;
  // Radius 0.5 from 5 up, falling (direction of length 3): it meets the top face z = 1 after 3.5.
  hs_sphere_sweep sweep = sphere_sweep(vec3(0, 0, 5), 0.5f, vec3(0, 0, -3));
  ASSERT_EQ(hs_sphere_cast(s.scene, &sweep, nullptr, &hit), HS_OK);
  ASSERT_EQ(hit.hit, 1);
  EXPECT_EQ(hit.collider, s.box);
  EXPECT_EQ(hit.user_id, 10u);
  EXPECT_EQ(hit.flags, 0u);
  EXPECT_EQ(hit.primitive, HS_NO_PRIMITIVE);
  EXPECT_NEAR(hit.distance, 3.5f, kHand);
  expect_vec3_near(hit.point, 0, 0, 1, kHand, "point");
  expect_vec3_near(hit.normal, 0, 0, 1, kHand, "normal");
  expect_vec3_near(hit.face_normal, 0, 0, 1, kHand, "face normal");
  EXPECT_EQ(hit.depth, 0.0f);
  // Limits: the sweep's own and the options', each short of 3.5, make it a miss.
  sweep.max_distance = 3.0f;
  ASSERT_EQ(hs_sphere_cast(s.scene, &sweep, nullptr, &hit), HS_OK);
  EXPECT_EQ(hit.hit, 0);
  sweep.max_distance = kInf;
  hs_query_options options = hs_query_options_default();
  options.max_distance = 3.0f;
  ASSERT_EQ(hs_sphere_cast(s.scene, &sweep, &options, &hit), HS_OK);
  EXPECT_EQ(hit.hit, 0);
  // From the side along +x: the face x = -1 after 3.5; beyond the box, the sphere at x = 5 after 1.
  sweep = sphere_sweep(vec3(-5, 0, 0), 0.5f, vec3(1, 0, 0));
  ASSERT_EQ(hs_sphere_cast(s.scene, &sweep, nullptr, &hit), HS_OK);
  EXPECT_EQ(hit.collider, s.box);
  EXPECT_NEAR(hit.distance, 3.5f, kHand);
  expect_vec3_near(hit.point, -1, 0, 0, kHand, "side point");
  expect_vec3_near(hit.normal, -1, 0, 0, kHand, "side normal");
  sweep = sphere_sweep(vec3(2.5f, 0, 0), 0.5f, vec3(1, 0, 0));
  ASSERT_EQ(hs_sphere_cast(s.scene, &sweep, nullptr, &hit), HS_OK);
  EXPECT_EQ(hit.collider, s.sphere);
  EXPECT_NEAR(hit.distance, 1.0f, kHand);
  expect_vec3_near(hit.point, 4, 0, 0, kHand, "sphere point");
  expect_vec3_near(hit.normal, -1, 0, 0, kHand, "sphere normal");
}

TEST(CApiSweep, ASphereStartingInTheBoxReportsDistanceZeroAndItsDepth) {
  HandScene s;
  hs_hit hit;
  // Centre 1.25 up, radius 0.5: a quarter into the top face at the start.
  const hs_sphere_sweep sweep = sphere_sweep(vec3(0, 0, 1.25f), 0.5f, vec3(0, 0, -1));
  ASSERT_EQ(hs_sphere_cast(s.scene, &sweep, nullptr, &hit), HS_OK);
  ASSERT_EQ(hit.hit, 1);
  EXPECT_EQ(hit.collider, s.box);
  EXPECT_EQ(hit.distance, 0.0f);
  EXPECT_NE(hit.flags & HS_HIT_STARTED_INSIDE, 0u);
  EXPECT_NEAR(hit.depth, 0.25f, kHand);
  expect_vec3_near(hit.normal, 0, 0, 1, kHand, "normal");
}

TEST(CApiSweep, ASphereDroppedOntoTheMeshReportsTriangleAndBarycentrics) {
  HandScene s;
  hs_hit hit;
  // Onto (0.25, 0.5) of the square: triangle 1, u = v = 0.25 (see the closest-point test).
  const hs_sphere_sweep sweep = sphere_sweep(vec3(10.25f, 0.5f, 3), 0.25f, vec3(0, 0, -1));
  ASSERT_EQ(hs_sphere_cast(s.scene, &sweep, nullptr, &hit), HS_OK);
  ASSERT_EQ(hit.hit, 1);
  EXPECT_EQ(hit.collider, s.square);
  EXPECT_EQ(hit.primitive, 1u);
  EXPECT_NEAR(hit.distance, 2.75f, kHand);
  expect_vec3_near(hit.point, 10.25f, 0.5f, 0, kHand, "point");
  expect_vec3_near(hit.normal, 0, 0, 1, kHand, "normal");
  EXPECT_NEAR(hit.u, 0.25f, kHand);
  EXPECT_NEAR(hit.v, 0.25f, kHand);
}

TEST(CApiSweep, CapsulesDroppedOntoTheBoxStopAtTheHandWorkedDistance) {
  HandScene s;
  hs_hit hit;
  // Lying along x, axis 5 up, radius 0.5: its underside meets the top face after 3.5.
  hs_capsule_sweep sweep = hs_capsule_sweep_default();
  sweep.capsule = {vec3(-1, 0, 5), vec3(1, 0, 5), 0.5f};
  sweep.direction = vec3(0, 0, -1);
  ASSERT_EQ(hs_capsule_cast(s.scene, &sweep, nullptr, &hit), HS_OK);
  ASSERT_EQ(hit.hit, 1);
  EXPECT_EQ(hit.collider, s.box);
  EXPECT_NEAR(hit.distance, 3.5f, kHand);
  EXPECT_NEAR(hit.point.z, 1.0f, kHand);
  expect_vec3_near(hit.normal, 0, 0, 1, kHand, "normal");
  // Standing from 4 to 6, radius 0.5: its bottom at 3.5 meets the top face after 2.5, at the centre.
  sweep.capsule = {vec3(0, 0, 4), vec3(0, 0, 6), 0.5f};
  ASSERT_EQ(hs_capsule_cast(s.scene, &sweep, nullptr, &hit), HS_OK);
  ASSERT_EQ(hit.hit, 1);
  EXPECT_NEAR(hit.distance, 2.5f, kHand);
  expect_vec3_near(hit.point, 0, 0, 1, kHand, "standing point");
}

TEST(CApiSweepErrors, NullPointersAndBadOptionsFailAndLeaveAMiss) {
  HandScene s;
  const hs_sphere_sweep sphere = sphere_sweep(vec3(0, 0, 5), 0.5f, vec3(0, 0, -1));
  hs_capsule_sweep capsule = hs_capsule_sweep_default();
  capsule.capsule.a.z = 4;
  capsule.capsule.b.z = 6;
  capsule.capsule.radius = 0.5f;
  capsule.direction = vec3(0, 0, -1);
  hs_hit hit;
  const auto expect_miss = [&] {
    EXPECT_EQ(hit.hit, 0);
    EXPECT_EQ(hit.collider, HS_NO_COLLIDER);
    EXPECT_TRUE(std::isinf(hit.distance));
  };
  std::memset(&hit, 0x5A, sizeof hit);
  expect_failure(hs_sphere_cast(nullptr, &sphere, nullptr, &hit), HS_INVALID_ARGUMENT, "hs_sphere_cast", "scene is null");
  expect_miss();
  std::memset(&hit, 0x5A, sizeof hit);
  expect_failure(hs_sphere_cast(s.scene, nullptr, nullptr, &hit), HS_INVALID_ARGUMENT, "hs_sphere_cast", "sweep is null");
  expect_miss();
  expect_failure(hs_sphere_cast(s.scene, &sphere, nullptr, nullptr), HS_INVALID_ARGUMENT, "hs_sphere_cast",
                 "out_hit is null");
  std::memset(&hit, 0x5A, sizeof hit);
  expect_failure(hs_capsule_cast(nullptr, &capsule, nullptr, &hit), HS_INVALID_ARGUMENT, "hs_capsule_cast",
                 "scene is null");
  expect_miss();
  expect_failure(hs_capsule_cast(s.scene, nullptr, nullptr, &hit), HS_INVALID_ARGUMENT, "hs_capsule_cast",
                 "sweep is null");
  expect_failure(hs_capsule_cast(s.scene, &capsule, nullptr, nullptr), HS_INVALID_ARGUMENT, "hs_capsule_cast",
                 "out_hit is null");
  hs_query_options options = hs_query_options_default();
  options.max_distance = kNan;
  std::memset(&hit, 0x5A, sizeof hit);
  expect_failure(hs_sphere_cast(s.scene, &sphere, &options, &hit), HS_INVALID_ARGUMENT, "hs_sphere_cast", "max_distance");
  expect_miss();
  options.max_distance = -1;
  expect_failure(hs_capsule_cast(s.scene, &capsule, &options, &hit), HS_INVALID_ARGUMENT, "hs_capsule_cast",
                 "max_distance");
  // The same sweeps, valid, hit the box.
  ASSERT_EQ(hs_sphere_cast(s.scene, &sphere, nullptr, &hit), HS_OK);
  EXPECT_EQ(hit.collider, s.box);
  ASSERT_EQ(hs_capsule_cast(s.scene, &capsule, nullptr, &hit), HS_OK);
  EXPECT_EQ(hit.collider, s.box);
}

// Sweeps aimed at the box that can hit nothing are a miss and the call succeeds; a direction of any
// non-zero length is normalised.
TEST(CApiSweepErrors, NonFiniteZeroOrNegativeSweepsMiss) {
  HandScene s;
  const hs_sphere_sweep good = sphere_sweep(vec3(0, 0, 5), 0.5f, vec3(0, 0, -1));
  std::vector<hs_sphere_sweep> bad(9, good);
  bad[0].sphere.center.x = kNan;
  bad[1].sphere.center.z = kInf;
  bad[2].sphere.radius = kNan;
  bad[3].sphere.radius = -0.5f;
  bad[4].direction = vec3(0, 0, 0);
  bad[5].direction.z = kNan;
  bad[6].direction.z = -kInf;
  bad[7].max_distance = kNan;
  bad[8].max_distance = -1;
  for (std::size_t k = 0; k < bad.size(); ++k) {
    hs_hit hit;
    ASSERT_EQ(hs_sphere_cast(s.scene, &bad[k], nullptr, &hit), HS_OK) << last_error();
    EXPECT_EQ(hit.hit, 0) << "sweep " << k;
    hs_capsule_sweep capsule = hs_capsule_sweep_default();
    capsule.capsule = {bad[k].sphere.center, bad[k].sphere.center, bad[k].sphere.radius};
    capsule.direction = bad[k].direction;
    capsule.max_distance = bad[k].max_distance;
    ASSERT_EQ(hs_capsule_cast(s.scene, &capsule, nullptr, &hit), HS_OK) << last_error();
    EXPECT_EQ(hit.hit, 0) << "capsule sweep " << k;
  }
  bad.push_back(good);
  std::vector<hs_hit> hits(bad.size());
  ASSERT_EQ(hs_sphere_cast_batch(s.scene, bad.data(), bad.size(), nullptr, hits.data()), HS_OK);
  for (std::size_t k = 0; k + 1 < bad.size(); ++k) EXPECT_EQ(hits[k].hit, 0) << "sweep " << k;
  EXPECT_EQ(hits.back().hit, 1);
  // Tiny and huge directions are normalised: the same hit at the same distance.
  for (const float length : {1e-3f, 1e4f}) {
    hs_sphere_sweep scaled = good;
    scaled.direction = vec3(0, 0, -length);
    hs_hit hit;
    ASSERT_EQ(hs_sphere_cast(s.scene, &scaled, nullptr, &hit), HS_OK);
    EXPECT_EQ(hit.collider, s.box) << length;
    EXPECT_NEAR(hit.distance, 3.5f, kHand) << length;
  }
}

TEST(CApiSweepErrors, BatchArgumentsAreChecked) {
  HandScene s;
  const hs_sphere_sweep sweeps[2] = {sphere_sweep(vec3(0, 0, 5), 0.5f, vec3(0, 0, -1)),
                                     sphere_sweep(vec3(2.5f, 0, 0), 0.5f, vec3(1, 0, 0))};
  hs_hit hits[2];
  hits[0] = hits[1] = hs_hit_default();
  hits[0].collider = 77;
  const char* f = "hs_sphere_cast_batch";
  expect_failure(hs_sphere_cast_batch(nullptr, sweeps, 2, nullptr, hits), HS_INVALID_ARGUMENT, f, "scene is null");
  expect_failure(hs_sphere_cast_batch(s.scene, nullptr, 2, nullptr, hits), HS_INVALID_ARGUMENT, f, "sweeps is null");
  expect_failure(hs_sphere_cast_batch(s.scene, sweeps, 2, nullptr, nullptr), HS_INVALID_ARGUMENT, f,
                 "output array is null");
  const std::size_t too_many = std::numeric_limits<std::size_t>::max() / 8;
  expect_failure(hs_sphere_cast_batch(s.scene, sweeps, too_many, nullptr, hits), HS_OUT_OF_RANGE, f, "count");
  hs_query_options options = hs_query_options_default();
  options.max_distance = kNan;
  expect_failure(hs_sphere_cast_batch(s.scene, sweeps, 2, &options, hits), HS_INVALID_ARGUMENT, f, "max_distance");
  EXPECT_EQ(hits[0].collider, 77u);  // failures leave the array as it was
  ASSERT_EQ(hs_sphere_cast_batch(s.scene, sweeps, 2, nullptr, hits), HS_OK);
  EXPECT_EQ(hits[0].collider, s.box);
  EXPECT_EQ(hits[1].collider, s.sphere);
}

}  // namespace
}  // namespace hitscan::test
