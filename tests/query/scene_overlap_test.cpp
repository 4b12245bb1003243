// Scene overlap queries against brute force over every collider on seeded random scenes (world
// shapes built here from the descriptions; the pair kernels, other triangle fans, every mesh
// triangle in the world, and a sampled cylinder), options, hand-worked contacts, bad input,
// buffer counts and threads.

#include <gtest/gtest.h>

#include <optional>
#include <thread>

#include "hitscan/geometry/closest_point.hpp"
#include "hitscan/geometry/contact_box_box.hpp"
#include "hitscan/geometry/contact_capsule_box.hpp"
#include "hitscan/geometry/contact_round.hpp"
#include "hitscan/geometry/contact_triangle.hpp"
#include "query/scene_test_scenes.hpp"

namespace hitscan {
namespace {

constexpr float kExtent = 30.0f;
constexpr float kHuge = 1e6f;      // a margin that makes every kernel report its signed depth
constexpr float kUnsure = 1e-3f;   // pairs this near touching are not compared

using test::RandomScene;
RandomScene make_scene(int colliders, unsigned seed) { return test::make_random_scene(colliders, seed, kExtent); }

template <class A, class B>
Contactf signed_contact(const A& a, const B& b) {
  if constexpr (requires { contact(a, b, kHuge); }) {
    return contact(a, b, kHuge);
  } else {
    const Contactf c = contact(b, a, kHuge);
    return {c.touching, c.point_on_b, c.point_on_a, -c.normal, c.depth};
  }
}

float plane_depth(const Spheref& s, const Planef& p) {
  const float d = dot(p.normal, s.center) - p.offset;
  return min(s.radius - d, s.radius + d);
}
float plane_depth(const Capsulef& c, const Planef& p) {
  const float da = dot(p.normal, c.a) - p.offset, db = dot(p.normal, c.b) - p.offset;
  return min(max(da, db) + c.radius, c.radius - min(da, db));
}
float plane_depth(const Obbf& b, const Planef& p) {
  float low = kInfinity<float>, high = -kInfinity<float>;
  for (int k = 0; k < 8; ++k) {
    const Vec3f corner = b.center + b.rotation * Vec3f{k & 1 ? b.half_extents.x : -b.half_extents.x,
                                                       k & 2 ? b.half_extents.y : -b.half_extents.y,
                                                       k & 4 ? b.half_extents.z : -b.half_extents.z};
    low = min(low, dot(p.normal, corner) - p.offset), high = max(high, dot(p.normal, corner) - p.offset);
  }
  return min(high, -low);
}

// The cylinder as the union of its axis-parallel segments through a polar grid of its disc, whose
// points lie within r / kRings of every point of the disc: the distance to it is bracketed.
constexpr int kRings = 24;
template <class Q>
float distance_to_segment(const Q& q, const Segmentf& s) {
  if constexpr (std::is_same_v<Q, Spheref>) return length(q.center - closest_point_on_segment(s, q.center)) - q.radius;
  else if constexpr (std::is_same_v<Q, Capsulef>) return std::sqrt(closest_points_between_segments(Segmentf{q.a, q.b}, s).distance_squared) - q.radius;
  else return -contact(Capsulef{s.a, s.b, 0.0f}, q, kHuge).depth;
}
template <class Q>
float sampled_cylinder_separation(const Q& q, const Cylinderf& c) {
  const Vec3f u = normalize(c.b - c.a);
  const Vec3f e1 = normalize(cross(u, std::abs(u.x) < 0.9f ? Vec3f{1, 0, 0} : Vec3f{0, 1, 0})), e2 = cross(u, e1);
  float best = kInfinity<float>;
  for (int ring = 0; ring <= kRings; ++ring) {
    const float radius = c.radius * static_cast<float>(ring) / kRings;
    const int steps = std::max(1, static_cast<int>(std::ceil(6.3f * static_cast<float>(ring))));
    for (int k = 0; k < steps; ++k) {
      const float angle = 6.2831853f * static_cast<float>(k) / static_cast<float>(steps);
      const Vec3f offset = (e1 * std::cos(angle) + e2 * std::sin(angle)) * radius;
      best = min(best, distance_to_segment(q, Segmentf{c.a + offset, c.b + offset}));
    }
  }
  return best;
}

// The reference depth of the query against one collider, or nullopt when too near to call.
template <class Q>
std::optional<float> reference_depth(const Q& q, const ColliderDesc& d) {
  const Transformf& t = d.transform;
  const float s = std::abs(t.scale.x);
  float depth = -kInfinity<float>;
  if (const auto* sp = std::get_if<Spheref>(&d.shape)) depth = signed_contact(q, Spheref{t.apply_point(sp->center), sp->radius * s}).depth;
  else if (const auto* b = std::get_if<Obbf>(&d.shape)) {
    depth = signed_contact(q, Obbf{t.apply_point(b->center), mul(b->half_extents, abs(t.scale)), Mat3f::from_quat(t.rotation)}).depth;
  } else if (const auto* c = std::get_if<Capsulef>(&d.shape)) {
    depth = signed_contact(q, Capsulef{t.apply_point(c->a), t.apply_point(c->b), c->radius * s}).depth;
  } else if (const auto* c = std::get_if<Cylinderf>(&d.shape)) {
    const float sampled = sampled_cylinder_separation(q, Cylinderf{t.apply_point(c->a), t.apply_point(c->b), c->radius * s});
    const float error = c->radius * s / kRings;
    if (sampled - error > kUnsure) return -sampled;        // surely apart
    if (sampled < -kUnsure) return -sampled;               // surely touching
    return std::nullopt;
  } else if (const auto* p = std::get_if<Planef>(&d.shape)) {
    const Vec3f n = normalize(p->normal);
    depth = plane_depth(q, Planef::from_point_normal(t.apply_point(n * p->offset), t.apply_normal(n)));
  } else if (const auto* g = std::get_if<ConvexPolygonf>(&d.shape)) {
    // A fan from the second vertex, not the first as the scene's.
    std::vector<Vec3f> v;
    for (const Vec3f& x : g->vertices()) v.push_back(t.apply_point(x));
    for (std::size_t i = 2; i < v.size(); ++i) depth = max(depth, signed_contact(q, Trianglef{v[1], v[i], v[(i + 1) % v.size()]}).depth);
  } else {
    const TriangleMesh& mesh = std::get<MeshShape>(d.shape)->mesh();
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
      const Trianglef l = mesh.triangle(i);
      depth = max(depth, signed_contact(q, Trianglef{t.apply_point(l.v0), t.apply_point(l.v1), t.apply_point(l.v2)}).depth);
    }
  }
  if (std::abs(depth) < kUnsure) return std::nullopt;
  return depth;
}

Spheref random_sphere(std::mt19937& gen) {
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2), size(0.2f, 3.0f);
  return {{pos(gen), pos(gen), pos(gen)}, size(gen)};
}
Obbf random_box(std::mt19937& gen) {
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2), size(0.1f, 2.5f);
  return Obbf::from_quat({pos(gen), pos(gen), pos(gen)}, {size(gen), size(gen), size(gen)}, test::random_rotation(gen));
}
Capsulef random_capsule(std::mt19937& gen) {
  const Spheref s = random_sphere(gen);
  std::uniform_real_distribution<float> unit(-1, 1);
  const Vec3f half = Vec3f{unit(gen), unit(gen), unit(gen)} * 2.0f;
  return {s.center - half, s.center + half, s.radius * 0.5f};
}

std::size_t run(const Scene& scene, const Spheref& q, std::vector<OverlapHit>& out, const QueryOptions& o) { return scene.overlap_sphere(q, out, o); }
std::size_t run(const Scene& scene, const Obbf& q, std::vector<OverlapHit>& out, const QueryOptions& o) { return scene.overlap_box(q, out, o); }
std::size_t run(const Scene& scene, const Capsulef& q, std::vector<OverlapHit>& out, const QueryOptions& o) { return scene.overlap_capsule(q, out, o); }

// Every collider the reference is sure about is reported (or not) as it says; with contacts, the
// depth matches where the reference measures the same thing, and every contact is consistent.
template <class Q>
void check_against_brute_force(const RandomScene& r, const Q& q, int index, int& touching) {
  QueryOptions options;
  options.contacts = true;
  std::vector<OverlapHit> hits, plain;
  run(r.scene, q, hits, options);
  run(r.scene, q, plain, {});
  ASSERT_EQ(hits.size(), plain.size()) << "query " << index;
  for (std::size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i].collider, plain[i].collider) << "query " << index;
  for (const test::SceneEntry& e : r.entries) {
    const std::optional<float> expected = reference_depth(q, e.desc);
    const auto it = std::find_if(hits.begin(), hits.end(), [&](const OverlapHit& h) { return h.collider == e.id; });
    const bool found = it != hits.end();
    if (found) {
      EXPECT_EQ(it->user_id, e.desc.user_id);
      if (it->has_contact) {
        const Contactf& c = it->contact;
        EXPECT_NEAR(length(c.normal), 1.0f, 1e-4f) << "query " << index;
        EXPECT_NEAR(dot(c.point_on_b - c.point_on_a, c.normal), c.depth, 2e-3f * (1.0f + std::abs(c.depth))) << "query " << index;
        const bool same_measure = !std::holds_alternative<Cylinderf>(e.desc.shape) &&
                                  !(std::holds_alternative<ConvexPolygonf>(e.desc.shape) && std::is_same_v<Q, Obbf>);
        if (expected && same_measure) {
          EXPECT_NEAR(c.depth, *expected, 2e-3f * (1.0f + std::abs(*expected))) << "query " << index;
        }
      } else {
        const bool gjk_pair = std::holds_alternative<Cylinderf>(e.desc.shape) && !std::is_same_v<Q, Spheref>;
        EXPECT_TRUE(gjk_pair) << "query " << index;
      }
    }
    if (!expected) continue;
    EXPECT_EQ(found, *expected > 0.0f) << "query " << index << " collider " << e.id << " depth " << *expected << " kind "
                                       << e.desc.shape.index();
    touching += *expected > 0.0f;
  }
}

TEST(SceneOverlap, RandomScenesMatchBruteForce) {
  const RandomScene r = make_scene(250, 5);
  std::mt19937 gen(17);
  int touching = 0;
  for (int i = 0; i < 60; ++i) {
    check_against_brute_force(r, random_sphere(gen), i, touching);
    check_against_brute_force(r, random_box(gen), i, touching);
    check_against_brute_force(r, random_capsule(gen), i, touching);
  }
  EXPECT_GT(touching, 100);
}

TEST(SceneOverlap, CylindersAgainstSampledReference) {
  // Many queries around a few cylinders, so that the GJK pairs are met near touching too.
  Scene scene;
  std::vector<test::SceneEntry> entries;
  std::mt19937 gen(23);
  for (int i = 0; i < 6; ++i) {
    test::SceneEntry e;
    e.desc.shape = Cylinderf{{0, 0, -1.5f}, {0, 0, 1.5f}, 1.0f};
    e.desc.transform.translation = {static_cast<float>(i) * 6.0f - 15.0f, 0, 0};
    e.desc.transform.rotation = test::random_rotation(gen);
    e.id = scene.add(e.desc).value();
    entries.push_back(e);
  }
  scene.commit();
  const RandomScene r{std::move(scene), entries};
  int touching = 0;
  std::uniform_real_distribution<float> near(-2.2f, 2.2f);
  for (int i = 0; i < 150; ++i) {
    const Vec3f c = entries[static_cast<std::size_t>(i) % entries.size()].desc.transform.translation + Vec3f{near(gen), near(gen), near(gen)};
    Spheref s{c, 0.4f};
    Obbf b = Obbf::from_quat(c, {0.5f, 0.3f, 0.8f}, test::random_rotation(gen));
    Capsulef k{c - Vec3f{0.5f, 0.2f, 0.3f}, c + Vec3f{0.5f, 0.2f, 0.3f}, 0.3f};
    check_against_brute_force(r, s, i, touching);
    check_against_brute_force(r, b, i, touching);
    check_against_brute_force(r, k, i, touching);
  }
  EXPECT_GT(touching, 80);
}

Scene one_collider(ColliderShape shape, Transformf transform = {}) {
  Scene scene;
  ColliderDesc d{std::move(shape)};
  d.transform = transform;
  EXPECT_TRUE(scene.add(d));
  scene.commit();
  return scene;
}

QueryOptions with_contacts() {
  QueryOptions o;
  o.contacts = true;
  return o;
}

TEST(SceneOverlap, SphereRestingOnBoxSinksByItsOverlap) {
  const Scene scene = one_collider(Obbf{{}, {2, 2, 1}, Mat3f::identity()});
  std::vector<OverlapHit> hits;
  ASSERT_EQ(scene.overlap_sphere(Spheref{{0.5f, 0, 1.4f}, 0.5f}, hits, with_contacts()), 1u);
  const Contactf& c = hits[0].contact;
  ASSERT_TRUE(hits[0].has_contact);
  EXPECT_NEAR(c.depth, 0.1f, 1e-5f);
  EXPECT_NEAR(c.normal.z, 1.0f, 1e-6f);
  EXPECT_NEAR(c.point_on_b.z, 1.0f, 1e-6f);
  EXPECT_NEAR(c.point_on_a.z, 0.9f, 1e-6f);
  EXPECT_EQ(hits[0].primitive, kNoPrimitive);
  // Just resting (to within the tolerance) counts; a hair above does not.
  EXPECT_EQ(scene.overlap_sphere(Spheref{{0.5f, 0, 1.5f}, 0.5f}, hits), 1u);
  EXPECT_EQ(scene.overlap_sphere(Spheref{{0.5f, 0, 1.501f}, 0.5f}, hits), 0u);
}

TEST(SceneOverlap, CapsuleCrossingMeshReportsDeepestTriangle) {
  // A quad of two triangles in z = 0 under a scale of 2 and a lift of 1: the world floor z = 1.
  std::vector<Vec3f> p = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  std::vector<TriangleMesh::Indices> t = {{0, 1, 2}, {0, 2, 3}};
  auto mesh = std::make_shared<const TriangleMesh>(TriangleMesh::make(std::move(p), std::move(t)).value());
  const MeshShape bvh = std::make_shared<const MeshBvh>(MeshBvh::build(mesh).value());
  for (const Vec3f scale : {Vec3f{2, 2, 2}, Vec3f{2, 2, 5}}) {  // the BVH path and the world-triangle path
    const Scene scene = one_collider(bvh, {Quatf::identity(), {0, 0, 1}, scale});
    std::vector<OverlapHit> hits;
    // Crossing the floor from z = 0.8 to 1.7 at x = 1, y = -0.5 (inside triangle 0): the lower end
    // is 0.2 below, so the capsule clears it upwards by 0.2 + radius.
    ASSERT_EQ(scene.overlap_capsule(Capsulef{{1, -0.5f, 0.8f}, {1, -0.5f, 1.7f}, 0.25f}, hits, with_contacts()), 1u);
    ASSERT_TRUE(hits[0].has_contact);
    EXPECT_EQ(hits[0].primitive, 0u);
    EXPECT_NEAR(hits[0].contact.depth, 0.45f, 1e-5f);
    EXPECT_NEAR(hits[0].contact.normal.z, 1.0f, 1e-6f);
    EXPECT_NEAR(hits[0].contact.point_on_b.z, 1.0f, 1e-5f);
    // Beside the quad (which spans x in [-2, 2]) it touches nothing.
    EXPECT_EQ(scene.overlap_capsule(Capsulef{{2.5f, 0, 0.8f}, {2.5f, 0, 1.7f}, 0.25f}, hits), 0u);
  }
}

TEST(SceneOverlap, BoxOverlappingPlaneClearsOnItsCentresSide) {
  const Scene scene = one_collider(Planef{{0, 0, 1}, 0});  // z = 0, two-sided
  std::vector<OverlapHit> hits;
  // A box turned 45 degrees about x: its lowest edge reaches sqrt(2)/2 below its centre.
  const Obbf box = Obbf::from_quat({3, 4, 0.5f}, {1, 0.5f, 0.5f}, Quatf::from_axis_angle({1, 0, 0}, 0.785398163f));
  ASSERT_EQ(scene.overlap_box(box, hits, with_contacts()), 1u);
  const Contactf& c = hits[0].contact;
  EXPECT_NEAR(c.depth, 0.70710678f - 0.5f, 1e-5f);
  EXPECT_NEAR(c.normal.z, 1.0f, 1e-6f);
  EXPECT_NEAR(c.point_on_a.x, 3.0f, 1e-5f);  // the middle of the lowest edge
  EXPECT_NEAR(c.point_on_a.z, 0.5f - 0.70710678f, 1e-5f);
  EXPECT_NEAR(c.point_on_b.z, 0.0f, 1e-5f);
  // Below the plane: cleared downwards.
  Obbf below = box;
  below.center.z = -0.5f;
  ASSERT_EQ(scene.overlap_box(below, hits, with_contacts()), 1u);
  EXPECT_NEAR(hits[0].contact.normal.z, -1.0f, 1e-6f);
  below.center.z = -0.8f;
  EXPECT_EQ(scene.overlap_box(below, hits), 0u);
}

TEST(SceneOverlap, CylinderContacts) {
  const Scene scene = one_collider(Cylinderf{{0, 0, -1}, {0, 0, 1}, 1.0f});
  std::vector<OverlapHit> hits;
  ASSERT_EQ(scene.overlap_sphere(Spheref{{1.3f, 0, 0.2f}, 0.5f}, hits, with_contacts()), 1u);  // against the side
  EXPECT_NEAR(hits[0].contact.depth, 0.2f, 1e-5f);
  EXPECT_NEAR(hits[0].contact.normal.x, 1.0f, 1e-6f);
  ASSERT_EQ(scene.overlap_sphere(Spheref{{0.2f, 0, 0.9f}, 0.5f}, hits, with_contacts()), 1u);  // centre inside, near the cap
  EXPECT_NEAR(hits[0].contact.depth, 0.6f, 1e-5f);
  EXPECT_NEAR(hits[0].contact.normal.z, 1.0f, 1e-6f);
  // A capsule whose rounding alone reaches over the rim: GJK's closest points.
  ASSERT_EQ(scene.overlap_capsule(Capsulef{{1.2f, 0, 1.2f}, {2, 0, 2}, 0.3f}, hits, with_contacts()), 1u);
  ASSERT_TRUE(hits[0].has_contact);
  EXPECT_NEAR(hits[0].contact.depth, 0.3f - std::sqrt(0.08f), 1e-5f);
  EXPECT_NEAR(hits[0].contact.normal.x, 0.70710678f, 1e-4f);
  // A box whose solid overlaps the cylinder: reported, without a contact.
  ASSERT_EQ(scene.overlap_box(Obbf{{1.2f, 0, 0}, {0.5f, 0.5f, 0.5f}, Mat3f::identity()}, hits, with_contacts()), 1u);
  EXPECT_FALSE(hits[0].has_contact);
  EXPECT_EQ(scene.overlap_box(Obbf{{1.8f, 0, 1.8f}, {0.5f, 0.5f, 0.5f}, Mat3f::identity()}, hits), 0u);
  // GJK at the threshold: a box face on the side touches, 1e-4 off it does not; apart, the gap.
  EXPECT_EQ(scene.overlap_box(Obbf{{1.5f, 0, 0}, {0.5f, 0.5f, 0.5f}, Mat3f::identity()}, hits), 1u);
  EXPECT_EQ(scene.overlap_box(Obbf{{1.5001f, 0, 0}, {0.5f, 0.5f, 0.5f}, Mat3f::identity()}, hits), 0u);
  // A box edge 5e-6 over the rim (within the tolerance): touching, with GJK's closest points.
  const Obbf turned = Obbf::from_quat({1.35355693f, 0, 1.35355693f}, {0.5f, 0.5f, 0.5f}, Quatf::from_axis_angle({0, 1, 0}, 0.785398163f));
  ASSERT_EQ(scene.overlap_box(turned, hits, with_contacts()), 1u);
  ASSERT_TRUE(hits[0].has_contact);
  EXPECT_NEAR(hits[0].contact.depth, -5e-6f, 1e-6f);
  // A face against the rim's curve: GJK's distance is exact long before its direction (the
  // distance is flat along the rim), so the normal is good to a few thousandths here.
  EXPECT_NEAR(hits[0].contact.normal.x, 0.70710678f, 5e-3f);
  EXPECT_NEAR(hits[0].contact.normal.z, 0.70710678f, 5e-3f);
}

TEST(SceneOverlap, LayerMaskFilterAndStats) {
  Scene scene;
  std::vector<ColliderId> ids;
  for (std::uint32_t i = 0; i < 4; ++i) {
    ColliderDesc d{Spheref{{static_cast<float>(i), 0, 0}, 0.4f}};
    d.layer = i;
    d.user_id = 100 + i;
    ids.push_back(scene.add(d).value());
  }
  scene.commit();
  const Spheref all{{1.5f, 0, 0}, 2.0f};
  std::vector<OverlapHit> hits;
  QueryStats stats;
  EXPECT_EQ(scene.overlap_sphere(all, hits, {}, &stats), 4u);
  EXPECT_EQ(stats.shapes_tested, 4u);
  EXPECT_GT(stats.tree_nodes, 0u);
  QueryOptions o;
  o.layer_mask = 0b1010;
  ASSERT_EQ(scene.overlap_sphere(all, hits, o), 2u);
  EXPECT_EQ(hits[0].collider, ids[1]);
  EXPECT_EQ(hits[1].user_id, 103u);
  o = {};
  o.filter.accept = [](ColliderId, std::uint64_t user_id, std::uint32_t, void*) { return user_id % 2 == 0; };
  ASSERT_EQ(scene.overlap_capsule(Capsulef{{0, 0, 1}, {3, 0, 1}, 1.0f}, hits, o), 2u);
  EXPECT_EQ(hits[0].user_id, 100u);
  EXPECT_EQ(hits[1].user_id, 102u);
}

TEST(SceneOverlap, BadInputTouchesNothing) {
  const Scene scene = one_collider(Planef{{0, 0, 1}, 0});
  std::vector<OverlapHit> hits;
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = kInfinity<float>;
  EXPECT_EQ(scene.overlap_sphere(Spheref{{0, 0, 0}, -1.0f}, hits), 0u);
  EXPECT_EQ(scene.overlap_sphere(Spheref{{0, 0, 0}, nan}, hits), 0u);
  EXPECT_EQ(scene.overlap_sphere(Spheref{{nan, 0, 0}, 1.0f}, hits), 0u);
  EXPECT_EQ(scene.overlap_sphere(Spheref{{inf, 0, 0}, 1.0f}, hits), 0u);
  EXPECT_EQ(scene.overlap_capsule(Capsulef{{0, 0, 0}, {0, 0, 1}, -0.1f}, hits), 0u);
  EXPECT_EQ(scene.overlap_capsule(Capsulef{{0, 0, 0}, {0, nan, 1}, 0.1f}, hits), 0u);
  EXPECT_EQ(scene.overlap_box(Obbf{{}, {1, -1, 1}, Mat3f::identity()}, hits), 0u);
  EXPECT_EQ(scene.overlap_box(Obbf{{}, {1, nan, 1}, Mat3f::identity()}, hits), 0u);
  Obbf bad_rotation{};
  bad_rotation.rotation.col[1].y = nan;
  EXPECT_EQ(scene.overlap_box(bad_rotation, hits), 0u);
  OverlapHit buffer[2];
  const OverlapCount n = scene.overlap_sphere(Spheref{{0, 0, 0}, nan}, buffer);
  EXPECT_EQ(n.written, 0u);
  EXPECT_EQ(n.total, 0u);
  // Degenerate but valid: a point sphere on the plane, a capsule of radius 0, a flat box.
  EXPECT_EQ(scene.overlap_sphere(Spheref{{0, 0, 0}, 0.0f}, hits), 1u);
  EXPECT_EQ(scene.overlap_capsule(Capsulef{{0, 0, -1}, {0, 0, 1}, 0.0f}, hits), 1u);
  EXPECT_EQ(scene.overlap_box(Obbf{{}, {1, 1, 0}, Mat3f::identity()}, hits), 1u);
}

TEST(SceneOverlap, BufferFormCountsWhatItDrops) {
  const RandomScene r = make_scene(250, 9);
  const Spheref big{{0, 0, 0}, 8.0f};
  std::vector<OverlapHit> all;
  const std::size_t total = r.scene.overlap_sphere(big, all, with_contacts());
  ASSERT_GT(total, 5u);
  std::vector<OverlapHit> buffer(total + 3);
  for (const std::size_t size : {std::size_t{0}, std::size_t{3}, total, total + 3}) {
    const OverlapCount n = r.scene.overlap_sphere(big, std::span(buffer.data(), size), with_contacts());
    EXPECT_EQ(n.total, total);
    EXPECT_EQ(n.written, std::min(size, total));
    for (std::size_t i = 0; i < n.written; ++i) {
      EXPECT_EQ(buffer[i].collider, all[i].collider);
      EXPECT_EQ(buffer[i].contact.depth, all[i].contact.depth);
    }
  }
  OverlapHit small[2];
  const Obbf box{{}, {6, 6, 6}, Mat3f::identity()};
  const OverlapCount b = r.scene.overlap_box(box, small);
  EXPECT_EQ(b.written, 2u);
  EXPECT_EQ(b.total, r.scene.overlap_box(box, all));
  const Capsulef capsule{{-5, 0, 0}, {5, 0, 0}, 4.0f};
  const OverlapCount c = r.scene.overlap_capsule(capsule, small);
  EXPECT_EQ(c.total, r.scene.overlap_capsule(capsule, all));
}

TEST(SceneOverlap, ManyThreadsGetTheSameAnswers) {
  const RandomScene r = make_scene(300, 11);
  std::mt19937 gen(3);
  std::vector<Spheref> queries;
  for (int i = 0; i < 200; ++i) queries.push_back(random_sphere(gen));
  std::vector<std::vector<OverlapHit>> expected(queries.size());
  for (std::size_t i = 0; i < queries.size(); ++i) r.scene.overlap_sphere(queries[i], expected[i], with_contacts());
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (std::size_t t = 0; t < mismatches.size(); ++t) {
    threads.emplace_back([&, t] {
      std::vector<OverlapHit> hits;
      for (std::size_t i = 0; i < queries.size(); ++i) {
        r.scene.overlap_sphere(queries[i], hits, with_contacts());
        bool same = hits.size() == expected[i].size();
        for (std::size_t k = 0; same && k < hits.size(); ++k) same = hits[k].collider == expected[i][k].collider;
        mismatches[t] += !same;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const int m : mismatches) EXPECT_EQ(m, 0);
}

}  // namespace
}  // namespace hitscan
