// The C API's argument checks: null pointers, bad counts, out-of-range indices, stale ids, shapes
// and transforms the scene cannot hold, and NaN input with its documented result. Each failure
// returns its code, names the function in its message and leaves single-value outputs at
// "nothing"; nothing crashes, throws or prints.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "capi/capi_test_support.hpp"

namespace hitscan::test {
namespace {

TEST(CApiErrors, NullSceneIsAnErrorInEveryFunction) {
  const hs_shape shape = hs_shape_default(HS_SHAPE_SPHERE);
  const hs_transform transform = hs_transform_default();
  const hs_ray ray = hs_ray_default();
  hs_hit hit, hits[2];
  std::uint8_t any_hits[1];
  int any = 0;
  std::uint32_t id = 0;
  std::size_t written = 0;
  hs_mesh* mesh = nullptr;
  ASSERT_EQ(hs_mesh_create(kSquarePositions, 4, kSquareIndices, 2, &mesh), HS_OK);
  const char* detail = "scene is null";
  expect_failure(hs_scene_add_shape(nullptr, &shape, &transform, 0, 0, &id), HS_INVALID_ARGUMENT, "hs_scene_add_shape", detail);
  expect_failure(hs_scene_add_mesh_instance(nullptr, mesh, &transform, 0, 0, &id), HS_INVALID_ARGUMENT,
                 "hs_scene_add_mesh_instance", detail);
  expect_failure(hs_scene_add_mesh(nullptr, kSquarePositions, 4, kSquareIndices, 2, nullptr, 0, 0, &id),
                 HS_INVALID_ARGUMENT, "hs_scene_add_mesh", detail);
  expect_failure(hs_scene_remove(nullptr, 0), HS_INVALID_ARGUMENT, "hs_scene_remove", detail);
  expect_failure(hs_scene_set_transform(nullptr, 0, &transform), HS_INVALID_ARGUMENT, "hs_scene_set_transform", detail);
  expect_failure(hs_scene_set_shape(nullptr, 0, &shape), HS_INVALID_ARGUMENT, "hs_scene_set_shape", detail);
  expect_failure(hs_scene_set_layer(nullptr, 0, 0), HS_INVALID_ARGUMENT, "hs_scene_set_layer", detail);
  expect_failure(hs_scene_set_user_id(nullptr, 0, 0), HS_INVALID_ARGUMENT, "hs_scene_set_user_id", detail);
  expect_failure(hs_scene_reserve(nullptr, 10), HS_INVALID_ARGUMENT, "hs_scene_reserve", detail);
  expect_failure(hs_scene_commit(nullptr), HS_INVALID_ARGUMENT, "hs_scene_commit", detail);
  expect_failure(hs_raycast(nullptr, &ray, nullptr, &hit), HS_INVALID_ARGUMENT, "hs_raycast", detail);
  expect_failure(hs_raycast_any(nullptr, &ray, nullptr, &any), HS_INVALID_ARGUMENT, "hs_raycast_any", detail);
  expect_failure(hs_raycast_all(nullptr, &ray, nullptr, hits, 2, &written, nullptr), HS_INVALID_ARGUMENT,
                 "hs_raycast_all", detail);
  expect_failure(hs_raycast_batch(nullptr, &ray, 1, nullptr, hits), HS_INVALID_ARGUMENT, "hs_raycast_batch", detail);
  expect_failure(hs_raycast_any_batch(nullptr, &ray, 1, nullptr, any_hits), HS_INVALID_ARGUMENT, "hs_raycast_any_batch",
                 detail);
  hs_scene_destroy(nullptr);  // ignored, like free(NULL)
  hs_mesh_destroy(mesh);
  hs_mesh_destroy(nullptr);
}

TEST(CApiErrors, NullArgumentsAreErrorsAndFailuresLeaveOutputsAtNothing) {
  SmallScene s;
  const hs_ray ray = ray_from(0, 0, -5, 0, 0, 1);
  const hs_shape shape = hs_shape_default(HS_SHAPE_SPHERE);
  hs_hit hit;
  std::memset(&hit, 0x5A, sizeof hit);
  expect_failure(hs_raycast(s.scene, nullptr, nullptr, &hit), HS_INVALID_ARGUMENT, "hs_raycast", "ray is null");
  EXPECT_EQ(hit.hit, 0);
  EXPECT_EQ(hit.collider, HS_NO_COLLIDER);
  EXPECT_EQ(hit.primitive, HS_NO_PRIMITIVE);
  EXPECT_TRUE(std::isinf(hit.distance));
  expect_failure(hs_raycast(s.scene, &ray, nullptr, nullptr), HS_INVALID_ARGUMENT, "hs_raycast", "out_hit is null");
  int any = 7;
  expect_failure(hs_raycast_any(s.scene, nullptr, nullptr, &any), HS_INVALID_ARGUMENT, "hs_raycast_any", "ray is null");
  EXPECT_EQ(any, 0);
  expect_failure(hs_raycast_any(s.scene, &ray, nullptr, nullptr), HS_INVALID_ARGUMENT, "hs_raycast_any", "out_hit");
  std::size_t written = 9, total = 9;
  expect_failure(hs_raycast_all(s.scene, &ray, nullptr, nullptr, 4, &written, &total), HS_INVALID_ARGUMENT,
                 "hs_raycast_all", "buffer is null");
  EXPECT_EQ(written, 0u);
  EXPECT_EQ(total, 0u);
  expect_failure(hs_raycast_all(s.scene, &ray, nullptr, nullptr, 0, nullptr, &total), HS_INVALID_ARGUMENT,
                 "hs_raycast_all", "out_written is null");
  std::uint32_t id = 1234;
  expect_failure(hs_scene_add_shape(s.scene, nullptr, nullptr, 0, 0, &id), HS_INVALID_ARGUMENT, "hs_scene_add_shape",
                 "shape is null");
  EXPECT_EQ(id, HS_NO_COLLIDER);
  expect_failure(hs_scene_add_shape(s.scene, &shape, nullptr, 0, 0, nullptr), HS_INVALID_ARGUMENT, "hs_scene_add_shape",
                 "out_id is null");
  expect_failure(hs_scene_add_mesh_instance(s.scene, nullptr, nullptr, 0, 0, &id), HS_INVALID_ARGUMENT,
                 "hs_scene_add_mesh_instance", "mesh is null");
  expect_failure(hs_scene_set_transform(s.scene, s.sphere, nullptr), HS_INVALID_ARGUMENT, "hs_scene_set_transform",
                 "transform is null");
  expect_failure(hs_scene_set_shape(s.scene, s.sphere, nullptr), HS_INVALID_ARGUMENT, "hs_scene_set_shape",
                 "shape is null");
  expect_failure(hs_scene_create(nullptr), HS_INVALID_ARGUMENT, "hs_scene_create", "out_scene is null");
  // A null transform where one is optional is the identity; a null options pointer the defaults.
  ASSERT_EQ(hs_raycast(s.scene, &ray, nullptr, &hit), HS_OK);
  EXPECT_EQ(hit.collider, s.sphere);
  EXPECT_FLOAT_EQ(hit.distance, 4.0f);
}

TEST(CApiErrors, MeshCountsAndIndicesAreChecked) {
  hs_mesh* mesh = reinterpret_cast<hs_mesh*>(&mesh);  // any non-null value: a failure resets it
  const char* f = "hs_mesh_create";
  expect_failure(hs_mesh_create(nullptr, 4, kSquareIndices, 2, &mesh), HS_INVALID_ARGUMENT, f, "positions is null");
  EXPECT_EQ(mesh, nullptr);
  expect_failure(hs_mesh_create(kSquarePositions, 4, nullptr, 2, &mesh), HS_INVALID_ARGUMENT, f, "indices is null");
  expect_failure(hs_mesh_create(kSquarePositions, 4, kSquareIndices, 2, nullptr), HS_INVALID_ARGUMENT, f, "out_mesh");
  expect_failure(hs_mesh_create(kSquarePositions, 4, kSquareIndices, 0, &mesh), HS_INVALID_ARGUMENT, f,
                 "at least one triangle");
  // Index 3 with only 3 vertices; then the first offender is named.
  expect_failure(hs_mesh_create(kSquarePositions, 3, kSquareIndices, 2, &mesh), HS_OUT_OF_RANGE, f,
                 "triangle 1 refers to vertex 3, but there are 3 vertices");
  const std::uint32_t huge_index[] = {0, 1, 0xFFFFFFFFu};
  expect_failure(hs_mesh_create(kSquarePositions, 4, huge_index, 1, &mesh), HS_OUT_OF_RANGE, f, "vertex 4294967295");
  // Counts whose arrays could not exist fail before anything is read.
  const std::size_t too_many = std::numeric_limits<std::size_t>::max() / 4;
  expect_failure(hs_mesh_create(kSquarePositions, too_many, kSquareIndices, 2, &mesh), HS_OUT_OF_RANGE, f,
                 "vertex_count");
  expect_failure(hs_mesh_create(kSquarePositions, 4, kSquareIndices, too_many, &mesh), HS_OUT_OF_RANGE, f,
                 "triangle_count");
  expect_failure(hs_mesh_create(kSquarePositions, 4, kSquareIndices, std::size_t{0xFFFFFFFFu}, &mesh), HS_OUT_OF_RANGE,
                 f, "triangle_count");
  EXPECT_EQ(mesh, nullptr);
  // hs_scene_add_mesh checks the same way.
  hs_scene* scene = nullptr;
  ASSERT_EQ(hs_scene_create(&scene), HS_OK);
  std::uint32_t id = 0;
  expect_failure(hs_scene_add_mesh(scene, kSquarePositions, 3, kSquareIndices, 2, nullptr, 0, 0, &id), HS_OUT_OF_RANGE,
                 "hs_scene_add_mesh", "refers to vertex 3");
  EXPECT_EQ(id, HS_NO_COLLIDER);
  // A zero-area triangle is kept but never hit; the mesh is fine.
  const float sliver[] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0};
  const std::uint32_t with_degenerate[] = {0, 1, 2, 0, 1, 3};
  EXPECT_EQ(hs_scene_add_mesh(scene, sliver, 4, with_degenerate, 2, nullptr, 0, 0, &id), HS_OK) << last_error();
  // Room for more colliders than a scene can hold is refused; a count it can hold is fine.
  expect_failure(hs_scene_reserve(scene, std::size_t{1} << 30), HS_OUT_OF_RANGE, "hs_scene_reserve", "reserve");
  EXPECT_EQ(hs_scene_reserve(scene, 100), HS_OK) << last_error();
  hs_scene_destroy(scene);
}

TEST(CApiErrors, StaleAndUnknownIdsAreNotFound) {
  SmallScene s;
  const hs_transform t = hs_transform_default();
  const hs_shape shape = hs_shape_default(HS_SHAPE_BOX);
  ASSERT_EQ(hs_scene_remove(s.scene, s.sphere), HS_OK);
  // Stale at once, before the commit, and after it.
  for (int committed = 0; committed < 2; ++committed) {
    expect_failure(hs_scene_remove(s.scene, s.sphere), HS_NOT_FOUND, "hs_scene_remove", "does not exist");
    expect_failure(hs_scene_set_transform(s.scene, s.sphere, &t), HS_NOT_FOUND, "hs_scene_set_transform", "does not exist");
    expect_failure(hs_scene_set_shape(s.scene, s.sphere, &shape), HS_NOT_FOUND, "hs_scene_set_shape", "does not exist");
    expect_failure(hs_scene_set_layer(s.scene, s.sphere, 1), HS_NOT_FOUND, "hs_scene_set_layer", "does not exist");
    expect_failure(hs_scene_set_user_id(s.scene, s.sphere, 1), HS_NOT_FOUND, "hs_scene_set_user_id", "does not exist");
    ASSERT_EQ(hs_scene_commit(s.scene), HS_OK);
  }
  // The slot is reused by the next collider under a new id; the old id stays stale.
  std::uint32_t reused = HS_NO_COLLIDER;
  ASSERT_EQ(hs_scene_add_shape(s.scene, &shape, nullptr, 0, 0, &reused), HS_OK);
  EXPECT_NE(reused, s.sphere);
  EXPECT_EQ(hs_scene_set_layer(s.scene, s.sphere, 1), HS_NOT_FOUND);
  EXPECT_EQ(hs_scene_set_layer(s.scene, reused, 1), HS_OK);
  // Ids never issued.
  EXPECT_EQ(hs_scene_remove(s.scene, HS_NO_COLLIDER), HS_NOT_FOUND);
  EXPECT_EQ(hs_scene_remove(s.scene, 77), HS_NOT_FOUND);
}

TEST(CApiErrors, ShapesAndTransformsTheScenesCannotHoldAreRejected) {
  SmallScene s;
  std::uint32_t id = 0;
  auto add = [&](const hs_shape& shape, const hs_transform* t = nullptr, std::uint32_t layer = 0) {
    return hs_scene_add_shape(s.scene, &shape, t, layer, 0, &id);
  };
  const char* f = "hs_scene_add_shape";
  hs_shape sphere = hs_shape_default(HS_SHAPE_SPHERE);
  sphere.data.sphere.radius = -1;
  expect_failure(add(sphere), HS_INVALID_ARGUMENT, f, "negative");
  sphere.data.sphere.radius = kInf;
  expect_failure(add(sphere), HS_INVALID_ARGUMENT, f, "NaN or infinite");
  hs_shape unknown = hs_shape_default(HS_SHAPE_SPHERE);
  const int bad_type = 17;  // what a C caller may store; written as bytes, as C would
  std::memcpy(&unknown.type, &bad_type, sizeof bad_type);
  expect_failure(add(unknown), HS_INVALID_ARGUMENT, f, "shape type 17");
  expect_failure(add(hs_shape_default(HS_SHAPE_SPHERE), nullptr, HS_LAYER_COUNT), HS_INVALID_ARGUMENT, f, "layer 32");
  // Transforms: a zero scale, a zero or NaN rotation, a non-uniform scale on a sphere.
  hs_transform t = hs_transform_default();
  t.scale.y = 0;
  expect_failure(add(hs_shape_default(HS_SHAPE_BOX), &t), HS_INVALID_ARGUMENT, f, "not invertible");
  t = hs_transform_default();
  t.rotation = {0, 0, 0, 0};
  expect_failure(add(hs_shape_default(HS_SHAPE_BOX), &t), HS_INVALID_ARGUMENT, f, "rotation");
  t.rotation = {kNan, 0, 0, 1};
  expect_failure(add(hs_shape_default(HS_SHAPE_BOX), &t), HS_INVALID_ARGUMENT, f, "rotation");
  t = hs_transform_default();
  t.scale = {1, 2, 1};
  expect_failure(add(hs_shape_default(HS_SHAPE_SPHERE), &t), HS_INVALID_ARGUMENT, f, "not uniform");
  EXPECT_EQ(add(hs_shape_default(HS_SHAPE_BOX), &t), HS_OK);  // an unrotated box takes it
  hs_shape rotated_box = hs_shape_default(HS_SHAPE_BOX);
  rotated_box.data.box.rotation = {1, 1, 0, 0};  // any length: normalised
  expect_failure(add(rotated_box, &t), HS_INVALID_ARGUMENT, f, "uniform");
  EXPECT_EQ(add(rotated_box), HS_OK);
  // A scaled-down but finite rotation of tiny or huge components is normalised, not rejected.
  t = hs_transform_default();
  t.rotation = {1e-30f, 1e-30f, 0, 0};
  EXPECT_EQ(add(hs_shape_default(HS_SHAPE_SPHERE), &t), HS_OK);
  t.rotation = {3e38f, 3e38f, 0, 0};
  EXPECT_EQ(add(hs_shape_default(HS_SHAPE_SPHERE), &t), HS_OK);
  // Polygons: null vertices, too few, collinear, not convex.
  hs_shape polygon = hs_shape_default(HS_SHAPE_CONVEX_POLYGON);
  expect_failure(add(polygon), HS_INVALID_ARGUMENT, f, "3 vertices");
  polygon.data.convex_polygon.vertex_count = 3;
  expect_failure(add(polygon), HS_INVALID_ARGUMENT, f, "convex_polygon.vertices is null");
  const hs_vec3 line[3] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  polygon.data.convex_polygon.vertices = line;
  EXPECT_EQ(add(polygon), HS_DEGENERATE) << last_error();
  const hs_vec3 dart[4] = {{0, 0, 0}, {2, 0, 0}, {0.5f, 0.5f, 0}, {0, 2, 0}};
  polygon.data.convex_polygon.vertices = dart;
  polygon.data.convex_polygon.vertex_count = 4;
  EXPECT_EQ(add(polygon), HS_INVALID_ARGUMENT) << last_error();
  const hs_vec3 corners[4] = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}};
  polygon.data.convex_polygon.vertices = corners;
  EXPECT_EQ(add(polygon), HS_OK) << last_error();
  // The edits check the same way and leave the collider as it was.
  t = hs_transform_default();
  t.scale = {1, 2, 1};
  expect_failure(hs_scene_set_transform(s.scene, s.sphere, &t), HS_INVALID_ARGUMENT, "hs_scene_set_transform",
                 "not uniform");
  expect_failure(hs_scene_set_layer(s.scene, s.sphere, 40), HS_INVALID_ARGUMENT, "hs_scene_set_layer", "layer 40");
  expect_failure(hs_scene_set_shape(s.scene, s.sphere, &unknown), HS_INVALID_ARGUMENT, "hs_scene_set_shape", "shape type");
  ASSERT_EQ(hs_scene_commit(s.scene), HS_OK);
  const hs_ray ray = ray_from(0, 0, -5, 0, 0, 1);
  hs_hit hit;
  ASSERT_EQ(hs_raycast(s.scene, &ray, nullptr, &hit), HS_OK);
  EXPECT_EQ(hit.collider, s.sphere);
  EXPECT_FLOAT_EQ(hit.distance, 4.0f);
}

// NaN input's documented result: rays that can hit nothing miss (HS_OK), stored descriptions and
// options with a NaN are HS_INVALID_ARGUMENT.
TEST(CApiErrors, NanRaysMissAndNanDescriptionsAndOptionsAreRejected) {
  SmallScene s;
  const hs_ray good = ray_from(0, 0, -5, 0, 0, 1);
  std::vector<hs_ray> bad(6, good);
  bad[0].origin.y = kNan;
  bad[1].direction.z = kNan;
  bad[2].direction = {0, 0, 0};
  bad[3].origin.x = kInf;
  bad[4].max_distance = kNan;
  bad[5].max_distance = -1;
  for (const hs_ray& ray : bad) {
    hs_hit hit;
    int any = 1;
    std::size_t written = 1, total = 1;
    hs_hit all[4];
    EXPECT_EQ(hs_raycast(s.scene, &ray, nullptr, &hit), HS_OK);
    EXPECT_EQ(hit.hit, 0);
    EXPECT_EQ(hs_raycast_any(s.scene, &ray, nullptr, &any), HS_OK);
    EXPECT_EQ(any, 0);
    EXPECT_EQ(hs_raycast_all(s.scene, &ray, nullptr, all, 4, &written, &total), HS_OK);
    EXPECT_EQ(total, 0u);
  }
  bad.push_back(good);
  std::vector<hs_hit> hits(bad.size());
  ASSERT_EQ(hs_raycast_batch(s.scene, bad.data(), bad.size(), nullptr, hits.data()), HS_OK);
  for (std::size_t i = 0; i + 1 < bad.size(); ++i) EXPECT_EQ(hits[i].hit, 0);
  EXPECT_EQ(hits.back().hit, 1);

  hs_query_options options = hs_query_options_default();
  hs_hit hit;
  options.max_distance = kNan;
  expect_failure(hs_raycast(s.scene, &good, &options, &hit), HS_INVALID_ARGUMENT, "hs_raycast", "max_distance");
  options.max_distance = -1;
  expect_failure(hs_raycast(s.scene, &good, &options, &hit), HS_INVALID_ARGUMENT, "hs_raycast", "max_distance");
  options = hs_query_options_default();
  const int bad_faces = 3;
  std::memcpy(&options.faces, &bad_faces, sizeof bad_faces);
  expect_failure(hs_raycast_batch(s.scene, &good, 1, &options, &hit), HS_INVALID_ARGUMENT, "hs_raycast_batch",
                 "faces 3");
  options = hs_query_options_default();
  options.max_distance = 3.0f;  // a valid limit: the sphere at 4 is beyond it
  ASSERT_EQ(hs_raycast(s.scene, &good, &options, &hit), HS_OK);
  EXPECT_EQ(hit.hit, 0);

  std::uint32_t id = 0;
  const hs_shape box = hs_shape_default(HS_SHAPE_BOX);
  hs_transform t = hs_transform_default();
  t.translation.x = kNan;
  expect_failure(hs_scene_add_shape(s.scene, &box, &t, 0, 0, &id), HS_INVALID_ARGUMENT, "hs_scene_add_shape",
                 "not invertible");
  hs_shape nan_box = box;
  nan_box.data.box.half_extents.y = kNan;
  expect_failure(hs_scene_add_shape(s.scene, &nan_box, nullptr, 0, 0, &id), HS_INVALID_ARGUMENT, "hs_scene_add_shape",
                 "NaN or infinite");
  // A NaN on a vertex a triangle uses is rejected; on a vertex none uses it is ignored.
  float positions[15];
  std::memcpy(positions, kSquarePositions, sizeof kSquarePositions);
  positions[12] = positions[13] = positions[14] = kNan;
  EXPECT_EQ(hs_scene_add_mesh(s.scene, positions, 5, kSquareIndices, 2, nullptr, 0, 0, &id), HS_OK) << last_error();
  positions[4] = kNan;
  expect_failure(hs_scene_add_mesh(s.scene, positions, 5, kSquareIndices, 2, nullptr, 0, 0, &id), HS_INVALID_ARGUMENT,
                 "hs_scene_add_mesh", "");
}

TEST(CApiErrors, BatchArgumentsAreChecked) {
  SmallScene s;
  const hs_ray rays[2] = {ray_from(0, 0, -5, 0, 0, 1), ray_from(0.5f, 0.5f, 10, 0, 0, -1)};
  hs_hit hits[2];
  std::uint8_t any[2] = {7, 7};
  expect_failure(hs_raycast_batch(s.scene, nullptr, 2, nullptr, hits), HS_INVALID_ARGUMENT, "hs_raycast_batch",
                 "rays is null");
  expect_failure(hs_raycast_batch(s.scene, rays, 2, nullptr, nullptr), HS_INVALID_ARGUMENT, "hs_raycast_batch",
                 "output array is null");
  expect_failure(hs_raycast_any_batch(s.scene, rays, 2, nullptr, nullptr), HS_INVALID_ARGUMENT, "hs_raycast_any_batch",
                 "output array is null");
  const std::size_t too_many = std::numeric_limits<std::size_t>::max() / 8;
  expect_failure(hs_raycast_batch(s.scene, rays, too_many, nullptr, hits), HS_OUT_OF_RANGE, "hs_raycast_batch", "count");
  expect_failure(hs_raycast_any_batch(s.scene, rays, too_many, nullptr, any), HS_OUT_OF_RANGE, "hs_raycast_any_batch",
                 "count");
  EXPECT_EQ(any[0], 7);  // arrays are left as they were
  ASSERT_EQ(hs_raycast_any_batch(s.scene, rays, 2, nullptr, any), HS_OK);
  EXPECT_EQ(any[0], 1);
  EXPECT_EQ(any[1], 1);
  ASSERT_EQ(hs_raycast_batch(s.scene, rays, 2, nullptr, hits), HS_OK);
  EXPECT_EQ(hits[0].collider, s.sphere);
  EXPECT_EQ(hits[1].collider, s.square);
  EXPECT_EQ(hits[1].flags, 0u);  // the square faces +z, where the ray comes from
}

}  // namespace
}  // namespace hitscan::test
