#pragma once
// The C API tests' twin scenes: one seeded random scene built through the C++ Scene and through
// the C API, holding the same bits on both sides (rotations included), the C forms of the C++
// types, the same query options on both sides, and a field-by-field comparison of hits.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <unordered_map>
#include <utility>
#include <vector>

#include "hitscan/hitscan.h"
#include "query/scene_test_scenes.hpp"

namespace hitscan::test {

inline constexpr float kExtent = 40.0f;

inline hs_vec3 to_c(Vec3f v) { return {v.x, v.y, v.z}; }
// The C API scales a rotation by its largest component before it normalises it with
// Quatf::from_components. A quaternion whose largest component is already 1 passes that scaling
// unchanged, so the C form is q scaled so, and the C++ side that matches it bit for bit holds
// from_components of the same components (see TwinScene::add).
inline hs_quat to_c(const Quatf& q) {
  const float largest = std::max({std::abs(q.w), std::abs(q.x), std::abs(q.y), std::abs(q.z)});
  return {q.w / largest, q.x / largest, q.y / largest, q.z / largest};
}
inline hs_transform to_c(const Transformf& t) { return {to_c(t.rotation), to_c(t.translation), to_c(t.scale)}; }

// The C form of an analytic shape; a polygon's vertices (a hull's) go to `storage`, which must
// outlive the use.
inline hs_shape to_c(const ColliderShape& shape, std::vector<hs_vec3>& storage) {
  hs_shape c{};
  if (const auto* s = std::get_if<Spheref>(&shape)) {
    c.type = HS_SHAPE_SPHERE;
    c.data.sphere = {to_c(s->center), s->radius};
  } else if (const auto* b = std::get_if<Obbf>(&shape)) {
    EXPECT_EQ(b->rotation.col[0], Mat3f::identity().col[0]);  // the random scenes' boxes are unrotated
    c.type = HS_SHAPE_BOX;
    c.data.box = {to_c(b->center), to_c(b->half_extents), hs_quat_default()};
  } else if (const auto* cap = std::get_if<Capsulef>(&shape)) {
    c.type = HS_SHAPE_CAPSULE;
    c.data.capsule = {to_c(cap->a), to_c(cap->b), cap->radius};
  } else if (const auto* cyl = std::get_if<Cylinderf>(&shape)) {
    c.type = HS_SHAPE_CYLINDER;
    c.data.cylinder = {to_c(cyl->a), to_c(cyl->b), cyl->radius};
  } else if (const auto* p = std::get_if<Planef>(&shape)) {
    c.type = HS_SHAPE_PLANE;
    c.data.plane = {to_c(p->normal), p->offset};
  } else if (const auto* h = std::get_if<HullShape>(&shape)) {
    storage.clear();
    for (const Vec3f& v : (*h)->vertices()) storage.push_back(to_c(v));
    c.type = HS_SHAPE_CONVEX_HULL;
    c.data.convex_hull = {storage.data(), storage.size()};
  } else {
    const ConvexPolygonf& polygon = std::get<ConvexPolygonf>(shape);
    storage.clear();
    for (const Vec3f& v : polygon.vertices()) storage.push_back(to_c(v));
    c.type = HS_SHAPE_CONVEX_POLYGON;
    c.data.convex_polygon = {storage.data(), storage.size()};
  }
  return c;
}

inline hs_ray to_c(const QueryRay& r) { return {to_c(r.origin), to_c(r.direction), r.max_distance}; }
inline hs_sphere to_c(const Spheref& s) { return {to_c(s.center), s.radius}; }
inline hs_capsule to_c(const Capsulef& c) { return {to_c(c.a), to_c(c.b), c.radius}; }
inline hs_sphere_sweep to_c(const SphereSweep& s) { return {to_c(s.sphere), to_c(s.direction), s.max_distance}; }
inline hs_capsule_sweep to_c(const CapsuleSweep& s) { return {to_c(s.capsule), to_c(s.direction), s.max_distance}; }

// A mesh as the C API takes it: flat xyz floats and flat index triples.
struct FlatMesh {
  std::vector<float> positions;
  std::vector<std::uint32_t> indices;

  explicit FlatMesh(const TriangleMesh& mesh) {
    for (const Vec3f& p : mesh.positions()) positions.insert(positions.end(), {p.x, p.y, p.z});
    for (const TriangleMesh::Indices& t : mesh.triangles()) indices.insert(indices.end(), t.begin(), t.end());
  }
  hs_status create(hs_mesh** out) const {
    return hs_mesh_create(positions.data(), positions.size() / 3, indices.data(), indices.size() / 3, out);
  }
};

// One random scene built twice: through the C++ Scene and through the C API. Mesh colliders share
// one icosphere, a MeshShape on one side and an hs_mesh built from the same arrays on the other.
struct TwinScene {
  Scene cpp;
  hs_scene* c = nullptr;
  hs_mesh* c_mesh = nullptr;
  MeshShape mesh;
  std::vector<test::SceneEntry> entries;

  TwinScene(int colliders, unsigned seed, bool rotated) {
    const std::shared_ptr<const TriangleMesh> sphere = test::icosphere(2, 1.5f);
    mesh = std::make_shared<const MeshBvh>(MeshBvh::build(sphere).value());
    EXPECT_EQ(FlatMesh(*sphere).create(&c_mesh), HS_OK);
    EXPECT_EQ(hs_scene_create(&c), HS_OK);
    std::mt19937 gen(seed);
    for (int i = 0; i < colliders; ++i) {
      test::SceneEntry e;
      e.desc = test::random_collider(gen, kExtent, mesh, i % 50 == 0);
      if (!rotated) e.desc.transform.rotation = Quatf::identity();
      add(e.desc);
    }
    commit();
  }
  ~TwinScene() {
    hs_scene_destroy(c);
    hs_mesh_destroy(c_mesh);
  }
  TwinScene(const TwinScene&) = delete;
  TwinScene& operator=(const TwinScene&) = delete;

  // Adds the collider to both sides, its rotation first taken to the form the C API computes from
  // its C form, so that both sides hold the same bits.
  void add(ColliderDesc desc) {
    const hs_transform t = to_c(desc.transform);
    desc.transform.rotation = Quatf::from_components(t.rotation.w, t.rotation.x, t.rotation.y, t.rotation.z);
    const ColliderId id = cpp.add(desc).value();
    std::uint32_t c_id = HS_NO_COLLIDER;
    if (std::holds_alternative<MeshShape>(desc.shape)) {
      ASSERT_EQ(hs_scene_add_mesh_instance(c, c_mesh, &t, desc.layer, desc.user_id, &c_id), HS_OK) << hs_last_error();
    } else {
      std::vector<hs_vec3> storage;
      const hs_shape shape = to_c(desc.shape, storage);
      ASSERT_EQ(hs_scene_add_shape(c, &shape, &t, desc.layer, desc.user_id, &c_id), HS_OK) << hs_last_error();
    }
    ASSERT_EQ(c_id, id);  // the same slots in the same order
    entries.push_back({id, desc});
  }

  void commit() {
    cpp.commit();
    ASSERT_EQ(hs_scene_commit(c), HS_OK);
  }
};

inline void expect_same_vec3(const hs_vec3& c, Vec3f cpp, float tolerance, const char* what, int query) {
  EXPECT_NEAR(c.x, cpp.x, tolerance) << what << ", query " << query;
  EXPECT_NEAR(c.y, cpp.y, tolerance) << what << ", query " << query;
  EXPECT_NEAR(c.z, cpp.z, tolerance) << what << ", query " << query;
}

// Every field; tolerance 0 asks for the same bits (through EXPECT_NEAR, which also accepts equal
// infinities).
inline void expect_same_hit(const hs_hit& c, const QueryHit& cpp, float tolerance, int query) {
  ASSERT_EQ(c.hit, cpp.hit ? 1 : 0) << "query " << query;
  EXPECT_EQ(c.collider, cpp.collider) << "query " << query;
  EXPECT_EQ(c.user_id, cpp.user_id) << "query " << query;
  EXPECT_EQ(c.primitive, cpp.primitive) << "query " << query;
  EXPECT_EQ(c.flags, cpp.flags) << "query " << query;
  if (tolerance == 0.0f) {
    EXPECT_EQ(c.feature, static_cast<hs_feature>(cpp.feature)) << "query " << query;
  }
  if (!cpp.hit) {
    EXPECT_TRUE(std::isinf(c.distance)) << "query " << query;
    return;
  }
  EXPECT_NEAR(c.distance, cpp.distance, tolerance * (1.0f + cpp.distance)) << "query " << query;
  expect_same_vec3(c.point, cpp.point, tolerance * (1.0f + cpp.distance), "point", query);
  expect_same_vec3(c.normal, cpp.normal, tolerance * 10.0f, "normal", query);
  expect_same_vec3(c.face_normal, cpp.face_normal, tolerance * 10.0f, "face normal", query);
  EXPECT_NEAR(c.u, cpp.u, tolerance * 10.0f) << "query " << query;
  EXPECT_NEAR(c.v, cpp.v, tolerance * 10.0f) << "query " << query;
  EXPECT_NEAR(c.depth, cpp.depth, tolerance * 10.0f) << "query " << query;
}

inline std::vector<QueryRay> random_rays(std::size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<QueryRay> rays(count);
  for (QueryRay& q : rays) q = test::random_query_ray(gen, kExtent);
  return rays;
}

// The filters of both sides accept odd user ids. The C one also checks that the arguments it
// receives are those of the collider it is asked about.
struct FilterCheck {
  std::unordered_map<std::uint32_t, std::pair<std::uint64_t, std::uint32_t>> colliders;  // id -> user id, layer
  std::atomic<int> wrong_arguments{0};
};

inline int c_odd_users(std::uint32_t collider, std::uint64_t user_id, std::uint32_t layer, void* context) {
  FilterCheck& check = *static_cast<FilterCheck*>(context);
  const auto it = check.colliders.find(collider);
  if (it == check.colliders.end() || it->second != std::make_pair(user_id, layer)) ++check.wrong_arguments;
  return static_cast<int>(user_id & 1u);
}
inline bool cpp_odd_users(ColliderId, std::uint64_t user_id, std::uint32_t, void*) { return (user_id & 1u) != 0; }

// The same options on both sides: defaults, a layer mask, a short range with front faces only and
// hollow solids, and a filter.
inline std::vector<std::pair<hs_query_options, QueryOptions>> option_pairs(FilterCheck& check) {
  std::vector<std::pair<hs_query_options, QueryOptions>> pairs;
  pairs.emplace_back(hs_query_options_default(), QueryOptions{});
  hs_query_options c = hs_query_options_default();
  QueryOptions cpp;
  c.layer_mask = cpp.layer_mask = 0x5A5A00FFu;
  pairs.emplace_back(c, cpp);
  c = hs_query_options_default();
  cpp = {};
  c.max_distance = cpp.max_distance = 12.0f;
  c.faces = HS_FACES_FRONT_ONLY;
  cpp.faces = FaceMode::front_only;
  c.solid = 0;
  cpp.solid = false;
  pairs.emplace_back(c, cpp);
  c = hs_query_options_default();
  cpp = {};
  c.filter = c_odd_users;
  c.filter_context = &check;
  cpp.filter = {cpp_odd_users, nullptr};
  pairs.emplace_back(c, cpp);
  return pairs;
}

}  // namespace hitscan::test
