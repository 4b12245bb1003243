// hs_overlap_sphere, hs_overlap_box and hs_overlap_capsule: field by field the C++ Scene's answer on
// seeded random scenes, under every option set, with and without contacts; and contacts worked out
// by hand for shapes resting on a box, a sphere and a mesh.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "capi/capi_test_support.hpp"
#include "capi/capi_twin_scene.hpp"

namespace hitscan::test {
namespace {

constexpr float kHand = 1e-5f;

// A query shape in both forms. Box rotations are scaled to have 1 as their largest component, which
// the C API's normalisation leaves as it is, so that both sides get the same bits.
struct QuerySphere {
  Spheref cpp;
  hs_sphere c;
};
struct QueryBox {
  Obbf cpp;
  hs_box c;
};
struct QueryCapsule {
  Capsulef cpp;
  hs_capsule c;
};

std::size_t cpp_overlap(const Scene& s, const QuerySphere& q, std::vector<OverlapHit>& out, const QueryOptions& o) {
  return s.overlap_sphere(q.cpp, out, o);
}
std::size_t cpp_overlap(const Scene& s, const QueryBox& q, std::vector<OverlapHit>& out, const QueryOptions& o) {
  return s.overlap_box(q.cpp, out, o);
}
std::size_t cpp_overlap(const Scene& s, const QueryCapsule& q, std::vector<OverlapHit>& out, const QueryOptions& o) {
  return s.overlap_capsule(q.cpp, out, o);
}
hs_status c_overlap(const hs_scene* s, const QuerySphere& q, const hs_query_options& o, hs_overlap_hit* buffer,
                    std::size_t capacity, std::size_t* written, std::size_t* total) {
  return hs_overlap_sphere(s, &q.c, &o, buffer, capacity, written, total);
}
hs_status c_overlap(const hs_scene* s, const QueryBox& q, const hs_query_options& o, hs_overlap_hit* buffer,
                    std::size_t capacity, std::size_t* written, std::size_t* total) {
  return hs_overlap_box(s, &q.c, &o, buffer, capacity, written, total);
}
hs_status c_overlap(const hs_scene* s, const QueryCapsule& q, const hs_query_options& o, hs_overlap_hit* buffer,
                    std::size_t capacity, std::size_t* written, std::size_t* total) {
  return hs_overlap_capsule(s, &q.c, &o, buffer, capacity, written, total);
}

std::vector<QuerySphere> random_spheres(std::size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2), radius(0.3f, 4.0f);
  std::vector<QuerySphere> out;
  for (std::size_t i = 0; i < count; ++i) {
    const Spheref s{{pos(gen), pos(gen), pos(gen)}, radius(gen)};
    out.push_back({s, to_c(s)});
  }
  return out;
}

std::vector<QueryBox> random_boxes(std::size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2), half(0.3f, 3.0f);
  std::normal_distribution<float> n(0, 1);
  std::vector<QueryBox> out;
  for (std::size_t i = 0; i < count; ++i) {
    hs_quat q{n(gen), n(gen), n(gen), n(gen)};
    const float largest = std::max({std::abs(q.w), std::abs(q.x), std::abs(q.y), std::abs(q.z)});
    q = {q.w / largest, q.x / largest, q.y / largest, q.z / largest};
    const Vec3f center{pos(gen), pos(gen), pos(gen)}, half_extents{half(gen), half(gen), half(gen)};
    out.push_back({Obbf::from_quat(center, half_extents, Quatf::from_components(q.w, q.x, q.y, q.z)),
                   hs_box{to_c(center), to_c(half_extents), q}});
  }
  return out;
}

std::vector<QueryCapsule> random_capsules(std::size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2), unit(-1, 1), size(0.3f, 3.0f);
  std::vector<QueryCapsule> out;
  for (std::size_t i = 0; i < count; ++i) {
    const Vec3f center{pos(gen), pos(gen), pos(gen)}, half{unit(gen) * 2, unit(gen) * 2, unit(gen) * 2};
    const Capsulef c{center - half, center + half, size(gen)};
    out.push_back({c, to_c(c)});
  }
  return out;
}

void expect_same_overlap(const hs_overlap_hit& c, const OverlapHit& cpp, float tolerance, int query) {
  EXPECT_EQ(c.collider, cpp.collider) << "query " << query;
  EXPECT_EQ(c.user_id, cpp.user_id) << "query " << query;
  EXPECT_EQ(c.primitive, cpp.primitive) << "query " << query;
  ASSERT_EQ(c.has_contact, cpp.has_contact ? 1 : 0) << "query " << query;
  if (!cpp.has_contact) {
    EXPECT_EQ(c.contact.depth, 0.0f) << "query " << query;
    return;
  }
  const float scale = 1.0f + std::abs(cpp.contact.depth);
  expect_same_vec3(c.contact.point_on_a, cpp.contact.point_on_a, tolerance * kExtent, "point_on_a", query);
  expect_same_vec3(c.contact.point_on_b, cpp.contact.point_on_b, tolerance * kExtent, "point_on_b", query);
  expect_same_vec3(c.contact.normal, cpp.contact.normal, tolerance * 10.0f, "normal", query);
  EXPECT_NEAR(c.contact.depth, cpp.contact.depth, tolerance * scale) << "query " << query;
}

// Every query through both sides under every option set, contacts off and on. Neither all nor none
// of the queries touch something, so that the comparison means something.
template <class Query>
void expect_overlaps_agree(TwinScene& twin, const std::vector<Query>& queries, float tolerance) {
  FilterCheck check;
  for (const SceneEntry& e : twin.entries) check.colliders[e.id] = {e.desc.user_id, e.desc.layer};
  std::size_t touched = 0, touching_nothing = 0;
  std::vector<OverlapHit> expected;
  std::vector<hs_overlap_hit> buffer(64);
  for (auto [c_options, cpp_options] : option_pairs(check)) {
    for (const int contacts : {0, 1}) {
      c_options.contacts = contacts;
      cpp_options.contacts = contacts != 0;
      for (std::size_t i = 0; i < queries.size(); ++i) {
        const int index = static_cast<int>(i);
        cpp_overlap(twin.cpp, queries[i], expected, cpp_options);
        std::size_t written = 0, total = 0;
        ASSERT_EQ(c_overlap(twin.c, queries[i], c_options, buffer.data(), buffer.size(), &written, &total), HS_OK)
            << hs_last_error();
        ASSERT_EQ(total, expected.size()) << "query " << i;
        ASSERT_EQ(written, std::min(total, buffer.size()));
        for (std::size_t k = 0; k < written; ++k) expect_same_overlap(buffer[k], expected[k], tolerance, index);
        touched += total;
        touching_nothing += total == 0 ? 1 : 0;
      }
    }
  }
  EXPECT_EQ(check.wrong_arguments, 0);
  EXPECT_GT(touching_nothing, 0u);
  EXPECT_GT(touched, queries.size());
}

TEST(CApiOverlap, MatchesTheCppSceneExactlyOnARandomAxisAlignedScene) {
  TwinScene twin(400, 51, false);
  expect_overlaps_agree(twin, random_spheres(300, 52), 0.0f);
  expect_overlaps_agree(twin, random_boxes(300, 53), 0.0f);
  expect_overlaps_agree(twin, random_capsules(300, 54), 0.0f);
}

TEST(CApiOverlap, MatchesTheCppSceneExactlyUnderRandomRotations) {
  TwinScene twin(400, 55, true);
  expect_overlaps_agree(twin, random_spheres(200, 56), 0.0f);
  expect_overlaps_agree(twin, random_boxes(200, 57), 0.0f);
  expect_overlaps_agree(twin, random_capsules(200, 58), 0.0f);
}

TEST(CApiOverlap, ASphereRestingOnTheBoxHasTheHandWorkedContact) {
  HandScene s;
  hs_query_options options = hs_query_options_default();
  options.contacts = 1;
  hs_overlap_hit hits[4];
  std::size_t written = 0, total = 0;
  // Centre 1.5 above the box's centre, radius 1: half a unit into its top face.
  const hs_sphere sphere{vec3(0, 0, 1.5f), 1.0f};
  ASSERT_EQ(hs_overlap_sphere(s.scene, &sphere, &options, hits, 4, &written, &total), HS_OK);
  ASSERT_EQ(total, 1u);
  ASSERT_EQ(written, 1u);
  EXPECT_EQ(hits[0].collider, s.box);
  EXPECT_EQ(hits[0].user_id, 10u);
  EXPECT_EQ(hits[0].primitive, HS_NO_PRIMITIVE);
  ASSERT_EQ(hits[0].has_contact, 1);
  expect_vec3_near(hits[0].contact.normal, 0, 0, 1, kHand, "normal");
  expect_vec3_near(hits[0].contact.point_on_a, 0, 0, 0.5f, kHand, "point_on_a");
  expect_vec3_near(hits[0].contact.point_on_b, 0, 0, 1, kHand, "point_on_b");
  EXPECT_NEAR(hits[0].contact.depth, 0.5f, kHand);
  // Without contacts: the same hit, no contact.
  ASSERT_EQ(hs_overlap_sphere(s.scene, &sphere, nullptr, hits, 4, &written, &total), HS_OK);
  ASSERT_EQ(written, 1u);
  EXPECT_EQ(hits[0].collider, s.box);
  EXPECT_EQ(hits[0].has_contact, 0);
  EXPECT_EQ(hits[0].contact.depth, 0.0f);
  // Raised to 2.5 it is half a unit clear.
  const hs_sphere clear{vec3(0, 0, 2.5f), 1.0f};
  ASSERT_EQ(hs_overlap_sphere(s.scene, &clear, &options, hits, 4, &written, &total), HS_OK);
  EXPECT_EQ(total, 0u);
  EXPECT_EQ(written, 0u);
}

TEST(CApiOverlap, ASphereBetweenTwoCollidersTouchesBothInIdOrderAndTruncatesToTheBuffer) {
  HandScene s;
  hs_query_options options = hs_query_options_default();
  options.contacts = 1;
  hs_overlap_hit hits[4];
  std::size_t written = 0, total = 0;
  // Centre (2.5, 0, 0), radius 1.6: 0.1 into the box's +x face and 0.1 into the sphere at x = 5.
  const hs_sphere between{vec3(2.5f, 0, 0), 1.6f};
  ASSERT_EQ(hs_overlap_sphere(s.scene, &between, &options, hits, 4, &written, &total), HS_OK);
  ASSERT_EQ(total, 2u);
  ASSERT_EQ(written, 2u);
  EXPECT_EQ(hits[0].collider, s.box);
  expect_vec3_near(hits[0].contact.normal, 1, 0, 0, kHand, "box normal");
  expect_vec3_near(hits[0].contact.point_on_a, 0.9f, 0, 0, kHand, "box point_on_a");
  expect_vec3_near(hits[0].contact.point_on_b, 1, 0, 0, kHand, "box point_on_b");
  EXPECT_NEAR(hits[0].contact.depth, 0.1f, kHand);
  EXPECT_EQ(hits[1].collider, s.sphere);
  EXPECT_EQ(hits[1].user_id, 20u);
  expect_vec3_near(hits[1].contact.normal, -1, 0, 0, kHand, "sphere normal");
  expect_vec3_near(hits[1].contact.point_on_a, 4.1f, 0, 0, kHand, "sphere point_on_a");
  expect_vec3_near(hits[1].contact.point_on_b, 4, 0, 0, kHand, "sphere point_on_b");
  EXPECT_NEAR(hits[1].contact.depth, 0.1f, kHand);
  // A buffer of one keeps the lower id and still counts both; a null one counts alone.
  hits[1] = hs_overlap_hit_default();
  ASSERT_EQ(hs_overlap_sphere(s.scene, &between, &options, hits, 1, &written, &total), HS_OK);
  EXPECT_EQ(written, 1u);
  EXPECT_EQ(total, 2u);
  EXPECT_EQ(hits[0].collider, s.box);
  EXPECT_EQ(hits[1].collider, HS_NO_COLLIDER);  // beyond the capacity: untouched
  ASSERT_EQ(hs_overlap_sphere(s.scene, &between, &options, nullptr, 0, &written, &total), HS_OK);
  EXPECT_EQ(written, 0u);
  EXPECT_EQ(total, 2u);
  written = 9;
  ASSERT_EQ(hs_overlap_sphere(s.scene, &between, &options, nullptr, 0, &written, nullptr), HS_OK);
  EXPECT_EQ(written, 0u);
  // A layer mask that sees no layer touches nothing.
  options.layer_mask = 0;
  ASSERT_EQ(hs_overlap_sphere(s.scene, &between, &options, hits, 4, &written, &total), HS_OK);
  EXPECT_EQ(total, 0u);
}

TEST(CApiOverlap, ASphereOnTheMeshReportsItsDeepestTriangle) {
  HandScene s;
  hs_query_options options = hs_query_options_default();
  options.contacts = 1;
  hs_overlap_hit hits[4];
  std::size_t written = 0, total = 0;
  // Over (0.25, 0.5) of the square, in triangle 1 (0, 2, 3); 0.2 into the surface. Triangle 0's
  // nearest point is (0.375, 0.375) on the diagonal, 0.348 away: shallower.
  const hs_sphere sphere{vec3(10.25f, 0.5f, 0.3f), 0.5f};
  ASSERT_EQ(hs_overlap_sphere(s.scene, &sphere, &options, hits, 4, &written, &total), HS_OK);
  ASSERT_EQ(total, 1u);
  EXPECT_EQ(hits[0].collider, s.square);
  EXPECT_EQ(hits[0].user_id, 30u);
  EXPECT_EQ(hits[0].primitive, 1u);
  ASSERT_EQ(hits[0].has_contact, 1);
  expect_vec3_near(hits[0].contact.normal, 0, 0, 1, kHand, "normal");
  expect_vec3_near(hits[0].contact.point_on_b, 10.25f, 0.5f, 0, kHand, "point_on_b");
  expect_vec3_near(hits[0].contact.point_on_a, 10.25f, 0.5f, -0.2f, kHand, "point_on_a");
  EXPECT_NEAR(hits[0].contact.depth, 0.2f, kHand);
  // Without contacts no triangle is named.
  ASSERT_EQ(hs_overlap_sphere(s.scene, &sphere, nullptr, hits, 4, &written, &total), HS_OK);
  ASSERT_EQ(total, 1u);
  EXPECT_EQ(hits[0].primitive, HS_NO_PRIMITIVE);
}

TEST(CApiOverlap, BoxesAndCapsulesOnTheBoxHaveTheHandWorkedDepth) {
  HandScene s;
  hs_query_options options = hs_query_options_default();
  options.contacts = 1;
  hs_overlap_hit hits[4];
  std::size_t written = 0, total = 0;
  // A cube of half size 0.5 centred 1.25 up: a quarter into the top face.
  hs_box box{vec3(0, 0, 1.25f), vec3(0.5f, 0.5f, 0.5f), hs_quat_default()};
  ASSERT_EQ(hs_overlap_box(s.scene, &box, &options, hits, 4, &written, &total), HS_OK);
  ASSERT_EQ(total, 1u);
  EXPECT_EQ(hits[0].collider, s.box);
  ASSERT_EQ(hits[0].has_contact, 1);
  expect_vec3_near(hits[0].contact.normal, 0, 0, 1, kHand, "normal");
  EXPECT_NEAR(hits[0].contact.depth, 0.25f, kHand);
  // Turned 45 degrees about x (the quaternion given at twice unit length) and centred 1.5 up, its
  // lowest edge is at 1.5 - 0.5 sqrt(2): 0.5 sqrt(2) - 0.5 deep.
  const float half_angle = 0.25f * 3.14159265f;
  box.center = vec3(0, 0, 1.5f);
  box.rotation = {2 * std::cos(half_angle * 0.5f), 2 * std::sin(half_angle * 0.5f), 0, 0};
  ASSERT_EQ(hs_overlap_box(s.scene, &box, &options, hits, 4, &written, &total), HS_OK);
  ASSERT_EQ(total, 1u);
  expect_vec3_near(hits[0].contact.normal, 0, 0, 1, kHand, "turned normal");
  EXPECT_NEAR(hits[0].contact.depth, 0.5f * std::sqrt(2.0f) - 0.5f, kHand);
  EXPECT_NEAR(hits[0].contact.point_on_a.z, 1.5f - 0.5f * std::sqrt(2.0f), kHand);
  // A capsule lying across the top, its axis 1.25 up, radius 0.5: a quarter deep; it does not reach
  // the sphere at x = 5.
  const hs_capsule capsule{vec3(-3, 0, 1.25f), vec3(3, 0, 1.25f), 0.5f};
  ASSERT_EQ(hs_overlap_capsule(s.scene, &capsule, &options, hits, 4, &written, &total), HS_OK);
  ASSERT_EQ(total, 1u);
  EXPECT_EQ(hits[0].collider, s.box);
  expect_vec3_near(hits[0].contact.normal, 0, 0, 1, kHand, "capsule normal");
  EXPECT_NEAR(hits[0].contact.depth, 0.25f, kHand);
  EXPECT_NEAR(hits[0].contact.point_on_a.z, 0.75f, kHand);
  EXPECT_NEAR(hits[0].contact.point_on_b.z, 1.0f, kHand);
}

}  // namespace
}  // namespace hitscan::test
