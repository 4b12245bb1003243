// Scene::box_cast and convex_cast (and their all-hits forms) against a brute-force reference over
// every collider kind (query/convex_sweep_reference.hpp: golden-section search and bisection on
// GJK distances in double along the path, planes analytically, meshes as world triangles), and
// hand-worked cases: resting on a plane and on a mesh floor, starting in contact, layers and
// filters, input that can hit nothing.

#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <random>

#include "query/convex_sweep_reference.hpp"
#include "query/scene_test_scenes.hpp"

namespace hitscan {
namespace {

using test::ConvexPiece;
using test::ReferenceContact;
using test::to_double;

constexpr float kExtent = 30.0f;
// Paths whose least distance to a collider (or whose start distance) is positive but below this
// graze it: the scene's tolerance may decide either way there, and they are not compared.
constexpr double kGrazing = 2e-3;

// One collider as the reference sees it, built from its description: convex pieces in double
// (one for a solid or a hull, a polygon's or a mesh's world triangles), or a plane.
struct ReferenceCollider {
  ColliderId id = kNoCollider;
  std::uint32_t layer = 0;
  std::uint64_t user_id = 0;
  std::size_t kind = 0;  // the index of its ColliderShape alternative
  std::vector<ConvexPiece> pieces;
  std::vector<Aabb<double>> boxes;
  std::optional<Plane<double>> plane;
};

ReferenceCollider reference_of(const test::SceneEntry& e) {
  ReferenceCollider r;
  r.id = e.id, r.layer = e.desc.layer, r.user_id = e.desc.user_id, r.kind = e.desc.shape.index();
  const Transform<double> t = to_double(e.desc.transform);
  if (const auto* hull = std::get_if<HullShape>(&e.desc.shape)) {
    r.pieces.push_back(test::world_hull(**hull, t));
  } else if (const auto* mesh = std::get_if<MeshShape>(&e.desc.shape)) {
    const TriangleMesh& m = (*mesh)->mesh();
    for (std::size_t i = 0; i < m.triangle_count(); ++i) {
      const Trianglef l = m.triangle(i);
      r.pieces.push_back(Triangle<double>{t.apply_point(to_double(l.v0)), t.apply_point(to_double(l.v1)),
                                          t.apply_point(to_double(l.v2))});
    }
  } else {
    const WorldShape w = test::reference_world_shape(e.desc);
    if (const auto* s = std::get_if<Spheref>(&w)) r.pieces.push_back(Sphere<double>{to_double(s->center), s->radius});
    if (const auto* b = std::get_if<Obbf>(&w)) r.pieces.push_back(to_double(*b));
    if (const auto* c = std::get_if<Capsulef>(&w)) r.pieces.push_back(Capsule<double>{to_double(c->a), to_double(c->b), c->radius});
    if (const auto* c = std::get_if<Cylinderf>(&w)) {
      r.pieces.push_back(Cylinder<double>{to_double(c->a), to_double(c->b), c->radius});
    }
    if (const auto* p = std::get_if<ConvexPolygonf>(&w)) {
      // Its fan of triangles (a polygon of float vertices is not flat to double's precision).
      const auto v = p->vertices();
      for (std::size_t i = 1; i + 1 < v.size(); ++i) {
        r.pieces.push_back(Triangle<double>{to_double(v[0]), to_double(v[i]), to_double(v[i + 1])});
      }
    }
    if (const auto* p = std::get_if<Planef>(&w)) r.plane = Plane<double>{to_double(p->normal), p->offset};
  }
  for (const ConvexPiece& p : r.pieces) r.boxes.push_back(test::bounds(p));
  return r;
}

bool accept_multiples_of_three(ColliderId, std::uint64_t user_id, std::uint32_t, void*) { return user_id % 3 == 0; }

bool visible(const ReferenceCollider& c, const QueryOptions& o) {
  return ((o.layer_mask >> c.layer) & 1u) != 0 && (!o.filter.accept || o.filter.accept(c.id, c.user_id, c.layer, nullptr));
}

// The reference's first contact with one collider, and whether the path grazes it.
struct ColliderContact {
  ReferenceContact contact;
  bool grazing = false;
};

ColliderContact contact_with(const ReferenceCollider& c, const ConvexPiece& moving, const Aabb<double>& swept,
                             Vec3d direction, double limit) {
  ColliderContact out;
  auto take = [&](const ReferenceContact& r) {
    out.grazing = out.grazing || (r.start_gap > 0 && r.start_gap < kGrazing) || (!r.hit && r.least_gap < kGrazing);
    if (r.hit && r.distance < out.contact.distance) out.contact = r;
  };
  if (c.plane) take(test::first_contact_with_plane(moving, direction, limit, *c.plane));
  for (std::size_t i = 0; i < c.pieces.size(); ++i) {
    if (c.boxes[i].overlaps(swept)) take(test::first_contact(moving, direction, limit, c.pieces[i]));
  }
  return out;
}

// The moving shape's box over the whole path, grown by the grazing distance.
Aabb<double> swept_box(const ConvexPiece& moving, Vec3d direction, double limit) {
  Aabb<double> box = test::bounds(moving);
  box.grow(box.min + direction * limit), box.grow(box.max + direction * limit);
  return {box.min - Vec3d{0.1, 0.1, 0.1}, box.max + Vec3d{0.1, 0.1, 0.1}};
}

struct Comparison {
  int compared = 0, hits = 0, started = 0, grazing = 0;
  std::array<int, std::variant_size_v<ColliderShape>> hits_by_kind{};
};

// Compares the scene's answer for one sweep with the reference over every collider.
void compare(const QueryHit& hit, const std::vector<ReferenceCollider>& colliders, const ConvexPiece& moving,
             Vec3f direction, float limit, const QueryOptions& options, double size, Comparison& stats) {
  const Vec3d d = normalize(to_double(normalize(direction)));
  const double path = std::min(limit, options.max_distance);
  const Aabb<double> swept = swept_box(moving, d, path);
  ReferenceContact best;
  std::optional<double> hit_collider_distance;
  std::size_t hit_kind = 0;
  for (const ReferenceCollider& c : colliders) {
    if (!visible(c, options)) continue;
    const ColliderContact r = contact_with(c, moving, swept, d, path);
    if (r.grazing) {
      ++stats.grazing;
      return;
    }
    if (r.contact.hit && r.contact.distance < best.distance) best = r.contact;
    if (c.id == hit.collider) hit_collider_distance = r.contact.distance, hit_kind = c.kind;
  }
  ++stats.compared;
  // Conservative advancement stops within the contact tolerance (1e-5 of the size) short of the
  // contact; the slower the approach, the further back along the path that lies. Measured: at
  // most 3e-5 for box casts, 3e-6 for convex casts on these seeds.
  const double tolerance = 1e-4 * (1.0 + size);
  ASSERT_EQ(hit.hit, best.hit) << "reference distance " << best.distance << ", scene " << hit.distance;
  if (!hit.hit) return;
  ++stats.hits;
  ++stats.hits_by_kind[hit_kind];
  EXPECT_NEAR(hit.distance, best.distance, tolerance);
  EXPECT_LE(hit.distance, best.distance + 1e-4 * (1.0 + size));  // never past the contact
  // The collider reported is one the reference meets at that distance.
  ASSERT_TRUE(hit_collider_distance.has_value());
  EXPECT_NEAR(*hit_collider_distance, hit.distance, tolerance);
  EXPECT_EQ(hit.started_inside(), best.distance == 0.0);
  stats.started += hit.started_inside();
  EXPECT_NEAR(length(hit.normal), 1.0f, 1e-4f);
  if (!hit.started_inside()) {
    EXPECT_LE(dot(hit.normal, normalize(direction)), 1e-3f);  // against the motion
    EXPECT_EQ(hit.depth, 0.0f);
  } else {
    EXPECT_GE(hit.depth, 0.0f);
  }
}

// A random scene of every collider kind (spheres, boxes, capsules, cylinders, polygons, meshes,
// planes, under uniform, non-uniform and mirroring scales), a few random hulls and a plane that
// cuts the cube's lower part.
struct HullScene {
  test::RandomScene random;
  std::vector<ReferenceCollider> reference;
};

void make_scene(unsigned seed, HullScene& s) {
  s.random = test::make_random_scene(70, seed, kExtent);
  std::mt19937 gen(seed + 1);
  std::normal_distribution<float> n(0, 1);
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2), scale(0.5f, 2.0f);
  for (int i = 0; i < 8; ++i) {
    std::vector<Vec3f> cloud;
    for (int k = 0; k < 20; ++k) cloud.push_back({n(gen), n(gen), n(gen)});
    test::SceneEntry e;
    e.desc.shape = std::make_shared<const ConvexHullf>(ConvexHullf::make(cloud).value());
    e.desc.transform = {test::random_rotation(gen), {pos(gen), pos(gen), pos(gen)}, {scale(gen), scale(gen), -scale(gen)}};
    e.desc.layer = static_cast<std::uint32_t>(gen() % 32);
    e.desc.user_id = gen();
    e.id = s.random.scene.add(e.desc).value();
    s.random.entries.push_back(e);
  }
  test::SceneEntry plane;
  plane.desc = {Planef::from_point_normal({0, 0, -kExtent / 3}, {0.3f, -0.2f, 1.0f}), {}, 3, 3};
  plane.id = s.random.scene.add(plane.desc).value();
  s.random.entries.push_back(plane);
  s.random.scene.commit();
  for (const test::SceneEntry& e : s.random.entries) s.reference.push_back(reference_of(e));
}

QueryOptions random_options(std::mt19937& gen, int q) {
  QueryOptions o;
  if (q % 4 == 1) o.layer_mask = static_cast<std::uint32_t>(gen());
  if (q % 4 == 2) o.filter.accept = &accept_multiples_of_three;
  if (q % 5 == 3) o.max_distance = 8.0f;
  return o;
}

TEST(SceneBoxCast, MatchesBruteForceOverEveryColliderKind) {
  HullScene s;
  make_scene(4242, s);
  std::mt19937 gen(77);
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2), unit(-1, 1), half(0.2f, 2.0f), limit(5, 40);
  Comparison stats;
  for (int q = 0; q < 200; ++q) {
    const Obbf box{{pos(gen), pos(gen), pos(gen)}, {half(gen), half(gen), half(gen)},
                   Mat3f::from_quat(test::random_rotation(gen))};
    const Vec3f direction{unit(gen), unit(gen), unit(gen)};
    const float max_distance = limit(gen);
    const QueryOptions options = random_options(gen, q);
    const QueryHit hit = s.random.scene.box_cast({box, direction, max_distance}, options);
    compare(hit, s.reference, to_double(box), direction, max_distance, options, max_component(box.half_extents), stats);
    if (HasFatalFailure()) FAIL() << "sweep " << q;
  }
  EXPECT_GE(stats.compared, 180);
  EXPECT_GE(stats.hits, 80);
  EXPECT_GE(stats.started, 5);
  for (std::size_t kind = 0; kind < stats.hits_by_kind.size(); ++kind) EXPECT_GT(stats.hits_by_kind[kind], 0) << kind;
}

TEST(SceneBoxCast, ConvexCastMatchesBruteForceOverEveryColliderKind) {
  HullScene s;
  make_scene(5151, s);
  std::mt19937 gen(78);
  std::normal_distribution<float> n(0, 1);
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2), unit(-1, 1), limit(5, 40);
  Comparison stats;
  for (int q = 0; q < 60; ++q) {
    const Vec3f center{pos(gen), pos(gen), pos(gen)};
    std::vector<Vec3f> cloud;
    for (int k = 0; k < 12; ++k) cloud.push_back(center + Vec3f{n(gen), n(gen), n(gen)} * 0.8f);
    const ConvexHullf hull = ConvexHullf::make(cloud).value();
    std::vector<Vec3d> points;
    for (const Vec3f& v : hull.vertices()) points.push_back(to_double(v));
    const Vec3f direction{unit(gen), unit(gen), unit(gen)};
    const float max_distance = limit(gen);
    const QueryOptions options = random_options(gen, q);
    const QueryHit hit = s.random.scene.convex_cast({&hull, direction, max_distance}, options);
    compare(hit, s.reference, test::hull_of(points), direction, max_distance, options, size_of(hull), stats);
    if (HasFatalFailure()) FAIL() << "sweep " << q;
  }
  EXPECT_GE(stats.compared, 50);
  EXPECT_GE(stats.hits, 20);
}

TEST(SceneBoxCast, AllHitsAreSortedOncePerColliderAndEachIsItsOwnFirstContact) {
  HullScene s;
  make_scene(6262, s);
  std::mt19937 gen(79);
  std::uniform_real_distribution<float> pos(-kExtent / 2, kExtent / 2), unit(-1, 1), half(0.2f, 2.0f);
  int total = 0;
  for (int q = 0; q < 30; ++q) {
    const BoxSweep sweep{{{pos(gen), pos(gen), pos(gen)}, {half(gen), half(gen), half(gen)},
                          Mat3f::from_quat(test::random_rotation(gen))},
                         {unit(gen), unit(gen), unit(gen)},
                         40.0f};
    std::vector<QueryHit> all;
    s.random.scene.box_cast_all(sweep, all);
    total += static_cast<int>(all.size());
    const QueryHit first = s.random.scene.box_cast(sweep);
    ASSERT_EQ(first.hit, !all.empty());
    if (all.empty()) continue;
    EXPECT_EQ(first.distance, all[0].distance);
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (i > 0) {
        EXPECT_LE(all[i - 1].distance, all[i].distance);
      }
      for (std::size_t j = 0; j < i; ++j) EXPECT_NE(all[i].collider, all[j].collider);
      // The same collider alone (through a filter) gives the same first contact.
      ColliderId only = all[i].collider;
      QueryOptions o;
      o.filter = {[](ColliderId c, std::uint64_t, std::uint32_t, void* context) { return c == *static_cast<ColliderId*>(context); },
                  &only};
      const QueryHit alone = s.random.scene.box_cast(sweep, o);
      EXPECT_EQ(alone.collider, only);
      EXPECT_EQ(alone.distance, all[i].distance);
    }
  }
  EXPECT_GT(total, 30);
}

// A floor as a two-triangle mesh at y = 0 and as a plane, in two scenes.
MeshShape floor_mesh() {
  auto mesh = std::make_shared<TriangleMesh>(
      TriangleMesh::make({{-10, 0, -10}, {10, 0, -10}, {10, 0, 10}, {-10, 0, 10}}, {{{0, 2, 1}}, {{0, 3, 2}}}).value());
  return std::make_shared<const MeshBvh>(MeshBvh::build(mesh).value());
}

TEST(SceneBoxCast, BoxFallsOntoPlaneAndMeshFloor) {
  Scene plane_scene, mesh_scene;
  const ColliderId plane = plane_scene.add({Planef{{0, 2, 0}, 0}}).value();
  const ColliderId mesh = mesh_scene.add({floor_mesh()}).value();
  plane_scene.commit();
  mesh_scene.commit();
  // Tilted about z by a quarter turn's half: its lowest edge, 0.5 * sqrt(2) below the centre.
  const Obbf tilted = Obbf::from_quat({1, 5, 2}, {0.5f, 0.5f, 2}, Quatf::from_axis_angle({0, 0, 1}, 0.78539816f));
  const float lowest = 0.5f * std::sqrt(2.0f);
  const BoxSweep sweep{tilted, {0, -3, 0}, 100.0f};
  const QueryHit on_plane = plane_scene.box_cast(sweep);
  ASSERT_TRUE(on_plane.hit);
  EXPECT_EQ(on_plane.collider, plane);
  EXPECT_NEAR(on_plane.distance, 5.0f - lowest, 1e-5f);
  EXPECT_NEAR(on_plane.point.y, 0.0f, 1e-5f);
  EXPECT_NEAR(on_plane.point.x, 1.0f, 1e-5f);  // the middle of the lowest edge
  EXPECT_NEAR(on_plane.point.z, 2.0f, 1e-5f);
  EXPECT_EQ(on_plane.normal, (Vec3f{0, 1, 0}));
  EXPECT_EQ(on_plane.flags, 0);
  const QueryHit on_mesh = mesh_scene.box_cast(sweep);
  ASSERT_TRUE(on_mesh.hit);
  EXPECT_EQ(on_mesh.collider, mesh);
  EXPECT_NEAR(on_mesh.distance, 5.0f - lowest, 1e-4f);
  EXPECT_LE(on_mesh.distance, 5.0f - lowest);
  EXPECT_NEAR(on_mesh.point.y, 0.0f, 1e-4f);
  EXPECT_NEAR(on_mesh.normal.y, 1.0f, 1e-3f);
  EXPECT_NEAR(on_mesh.face_normal.y, 1.0f, 1e-6f);
  EXPECT_LE(on_mesh.primitive, 1u);
  EXPECT_GE(on_mesh.u, 0.0f);
  EXPECT_GE(on_mesh.v, 0.0f);
  EXPECT_LE(on_mesh.u + on_mesh.v, 1.0f);
  // Rising from below the plane, it meets it from behind: the normal faces down.
  const QueryHit from_below = plane_scene.box_cast({Obbf{{0, -4, 0}, {1, 1, 1}, {}}, {0, 1, 0}, 100.0f});
  ASSERT_TRUE(from_below.hit);
  EXPECT_NEAR(from_below.distance, 3.0f, 1e-6f);
  EXPECT_EQ(from_below.normal, (Vec3f{0, -1, 0}));
  // Moving along the plane, it never meets it.
  EXPECT_FALSE(plane_scene.box_cast({tilted, {1, 0, 0}, 100.0f}).hit);
}

// Found by fuzz_capi (fuzz/regressions/fuzz_capi/box_cast_along_a_plane_tilted_by_a_denormal_hits_at_infinity):
// a path tilted by e toward the plane x = 2 meets it after (2 - 0.5) / e, beyond the largest
// float for e = 2^-128: a miss, not a hit at infinity. For e = 2^-126 it is 1.5 * 2^126.
TEST(SceneBoxCast, PathsNearlyParallelToAPlaneMissWhenTheContactIsBeyondTheLargestFiniteDistance) {
  for (const int exponent : {-126, -128}) {
    SCOPED_TRACE(exponent);
    Scene scene;
    scene.add({Planef{{1, 0, std::ldexp(1.0f, exponent)}, 2}});
    scene.commit();
    const BoxSweep sweep{{{0, 0, 0}, {0.5f, 0.5f, 0.5f}, {}}, {0, 0, 1}};
    const QueryHit hit = scene.box_cast(sweep);
    std::vector<QueryHit> all;
    if (exponent == -128) {
      EXPECT_FALSE(hit.hit) << hit.distance;
      EXPECT_EQ(scene.box_cast_all(sweep, all), 0u);
      continue;
    }
    ASSERT_TRUE(hit.hit);
    EXPECT_NEAR(double(hit.distance) / std::ldexp(1.5, -exponent), 1.0, 1e-6);
    EXPECT_EQ(hit.normal, (Vec3f{-1, 0, -std::ldexp(1.0f, exponent)}));
    EXPECT_EQ(scene.box_cast_all(sweep, all), 1u);
  }
}

TEST(SceneBoxCast, StartingInContactReportsDistanceZeroDepthAndNormal) {
  const Obbf unit_box{{}, {1, 1, 1}, {}};
  const Vec3f cube[8] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1}};
  const HullShape hull = std::make_shared<const ConvexHullf>(ConvexHullf::make(cube).value());
  // A half-unit box sunk 0.2 into the top face, moving sideways.
  const BoxSweep sweep{{{0.3f, 0.1f, 1.3f}, {0.5f, 0.5f, 0.5f}, {}}, {1, 0, 0}, 10.0f};
  for (const ColliderShape& shape : {ColliderShape(unit_box), ColliderShape(hull)}) {
    Scene scene;
    const ColliderId id = scene.add({shape}).value();
    scene.commit();
    const QueryHit hit = scene.box_cast(sweep);
    ASSERT_TRUE(hit.hit);
    EXPECT_EQ(hit.collider, id);
    EXPECT_EQ(hit.distance, 0.0f);
    EXPECT_TRUE(hit.started_inside());
    EXPECT_NEAR(hit.depth, 0.2f, 1e-5f);
    EXPECT_NEAR(hit.normal.z, 1.0f, 1e-5f);
    std::vector<QueryHit> all;
    ASSERT_EQ(scene.box_cast_all(sweep, all), 1u);
    EXPECT_TRUE(all[0].started_inside());
  }
  // Across a plane: the depth is how far it must rise to clear it.
  Scene scene;
  scene.add({Planef{{0, 0, 1}, 0}});
  scene.commit();
  const QueryHit across = scene.box_cast({{{0, 0, 0.3f}, {0.5f, 0.5f, 0.5f}, {}}, {1, 0, 0}, 10.0f});
  ASSERT_TRUE(across.hit);
  EXPECT_TRUE(across.started_inside());
  EXPECT_NEAR(across.depth, 0.2f, 1e-6f);
  EXPECT_EQ(across.normal, (Vec3f{0, 0, 1}));
}

TEST(SceneBoxCast, LayerMaskFilterAndDistanceLimitAreRespected) {
  Scene scene;
  const ColliderId near_box = scene.add({Obbf{{5, 0, 0}, {1, 1, 1}, {}}, {}, 1, 10}).value();
  const Vec3f cube[8] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1}};
  const Transformf far_place{Quatf::identity(), {10, 0, 0}, {1, 1, 1}};
  const ColliderId far_hull =
      scene.add({std::make_shared<const ConvexHullf>(ConvexHullf::make(cube).value()), far_place, 2, 21}).value();
  scene.commit();
  const BoxSweep sweep{{{0, 0, 0}, {0.5f, 0.5f, 0.5f}, {}}, {1, 0, 0}, 100.0f};
  EXPECT_EQ(scene.box_cast(sweep).collider, near_box);
  EXPECT_NEAR(scene.box_cast(sweep).distance, 3.5f, 1e-4f);
  QueryOptions only_layer_2;
  only_layer_2.layer_mask = 1u << 2;
  EXPECT_EQ(scene.box_cast(sweep, only_layer_2).collider, far_hull);
  EXPECT_NEAR(scene.box_cast(sweep, only_layer_2).distance, 8.5f, 1e-4f);
  QueryOptions filtered;
  filtered.filter.accept = &accept_multiples_of_three;  // user 21, not 10
  EXPECT_EQ(scene.box_cast(sweep, filtered).collider, far_hull);
  QueryOptions none;
  none.layer_mask = 1u << 5;
  EXPECT_FALSE(scene.box_cast(sweep, none).hit);
  QueryOptions short_reach;
  short_reach.max_distance = 3.0f;
  EXPECT_FALSE(scene.box_cast(sweep, short_reach).hit);
  EXPECT_FALSE(scene.box_cast({sweep.box, sweep.direction, 3.0f}).hit);
  std::vector<QueryHit> all;
  EXPECT_EQ(scene.box_cast_all(sweep, all, filtered), 1u);
  EXPECT_EQ(scene.box_cast_all(sweep, all), 2u);
}

TEST(SceneBoxCast, InputThatCanHitNothingMisses) {
  Scene scene;
  scene.add({Obbf{{5, 0, 0}, {1, 1, 1}, {}}});
  scene.commit();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Obbf good{{0, 0, 0}, {0.5f, 0.5f, 0.5f}, {}};
  EXPECT_TRUE(scene.box_cast({good, {1, 0, 0}}).hit);
  EXPECT_FALSE(scene.box_cast({good, {0, 0, 0}}).hit);
  EXPECT_FALSE(scene.box_cast({good, {nan, 0, 0}}).hit);
  EXPECT_FALSE(scene.box_cast({good, {1, 0, 0}, -1.0f}).hit);
  EXPECT_FALSE(scene.box_cast({{{nan, 0, 0}, {0.5f, 0.5f, 0.5f}, {}}, {1, 0, 0}}).hit);
  EXPECT_FALSE(scene.box_cast({{{0, 0, 0}, {-0.5f, 0.5f, 0.5f}, {}}, {1, 0, 0}}).hit);
  EXPECT_FALSE(scene.convex_cast({nullptr, {1, 0, 0}}).hit);
  std::vector<QueryHit> all{QueryHit{}};
  EXPECT_EQ(scene.convex_cast_all({nullptr, {1, 0, 0}}, all), 0u);
  EXPECT_TRUE(all.empty());
}

}  // namespace
}  // namespace hitscan
