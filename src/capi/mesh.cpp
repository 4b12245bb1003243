// Meshes: hs_mesh_create builds a triangle mesh and its BVH once; colliders share it.

#include <cstddef>
#include <limits>
#include <memory>
#include <vector>

#include "convert.hpp"
#include "handles.hpp"

namespace hitscan::capi {
namespace {

// Counts whose arrays could not exist in memory: more than the largest object divided by the
// size of one element, on our side (Vec3f, Indices) or the caller's (3 floats, 3 uint32s).
constexpr std::size_t kMaxVertices = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) / sizeof(Vec3f);
constexpr std::size_t kMaxTriangles = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) /
                                      sizeof(TriangleMesh::Indices);
static_assert(sizeof(Vec3f) == 3 * sizeof(float) && sizeof(TriangleMesh::Indices) == 3 * sizeof(std::uint32_t));

hs_status build_mesh(const Entry& entry, const float* positions, std::size_t vertex_count, const std::uint32_t* indices,
                     std::size_t triangle_count, MeshShape& out) {
  if (!positions) return entry.null("positions");
  if (!indices) return entry.null("indices");
  if (triangle_count == 0) return entry.fail(HS_INVALID_ARGUMENT, "a mesh needs at least one triangle");
  if (vertex_count > kMaxVertices) {
    return entry.fail(HS_OUT_OF_RANGE, "vertex_count %zu is more than an array can hold", vertex_count);
  }
  // Triangle indices are 32-bit, and one value is the mesh layer's "no triangle".
  if (triangle_count > kMaxTriangles || triangle_count >= kNoPrimitive) {
    return entry.fail(HS_OUT_OF_RANGE, "triangle_count %zu is more than a mesh can hold", triangle_count);
  }
  // Checked here rather than left to TriangleMesh::make so that the code says what went wrong.
  std::vector<TriangleMesh::Indices> triangles(triangle_count);
  for (std::size_t t = 0; t < triangle_count; ++t) {
    for (std::size_t corner = 0; corner < 3; ++corner) {
      const std::uint32_t index = indices[3 * t + corner];
      if (index >= vertex_count) {
        return entry.fail(HS_OUT_OF_RANGE, "triangle %zu refers to vertex %u, but there are %zu vertices", t,
                          static_cast<unsigned>(index), vertex_count);
      }
      triangles[t][corner] = index;
    }
  }
  std::vector<Vec3f> vertices(vertex_count);
  for (std::size_t i = 0; i < vertex_count; ++i) {
    vertices[i] = {positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]};
  }
  Result<TriangleMesh> mesh = TriangleMesh::make(std::move(vertices), std::move(triangles));
  if (!mesh) return entry.check(mesh.status());
  Result<MeshBvh> bvh = MeshBvh::build(std::make_shared<const TriangleMesh>(std::move(mesh).value()));
  if (!bvh) return entry.check(bvh.status());
  out = std::make_shared<const MeshBvh>(std::move(bvh).value());
  return HS_OK;
}

hs_status add_mesh_collider(const Entry& entry, hs_scene& scene, MeshShape mesh, const Transformf& transform,
                            std::uint32_t layer, std::uint64_t user_id, std::uint32_t& out_id) {
  Result<ColliderId> id = scene.scene.add(ColliderDesc{std::move(mesh), transform, layer, user_id});
  if (!id) return entry.check(id.status());
  out_id = id.value();
  return HS_OK;
}

}  // namespace
}  // namespace hitscan::capi

using hitscan::capi::add_mesh_collider;
using hitscan::capi::build_mesh;
using hitscan::capi::Entry;
using hitscan::capi::to_transform;

extern "C" {

hs_status hs_mesh_create(const float* positions, size_t vertex_count, const uint32_t* indices, size_t triangle_count,
                         hs_mesh** out_mesh) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!out_mesh) return entry.null("out_mesh");
    *out_mesh = nullptr;
    hitscan::MeshShape bvh;
    if (const hs_status s = build_mesh(entry, positions, vertex_count, indices, triangle_count, bvh); s != HS_OK) {
      return s;
    }
    *out_mesh = new hs_mesh{std::move(bvh)};
    return HS_OK;
  });
}

void hs_mesh_destroy(hs_mesh* mesh) { delete mesh; }

hs_status hs_scene_add_mesh_instance(hs_scene* scene, const hs_mesh* mesh, const hs_transform* transform,
                                     uint32_t layer, uint64_t user_id, uint32_t* out_id) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!out_id) return entry.null("out_id");
    *out_id = HS_NO_COLLIDER;
    if (!scene) return entry.null("scene");
    if (!mesh) return entry.null("mesh");
    hitscan::Transformf world;
    if (const hs_status s = to_transform(entry, transform, world); s != HS_OK) return s;
    return add_mesh_collider(entry, *scene, mesh->bvh, world, layer, user_id, *out_id);
  });
}

hs_status hs_scene_add_mesh(hs_scene* scene, const float* positions, size_t vertex_count, const uint32_t* indices,
                            size_t triangle_count, const hs_transform* transform, uint32_t layer, uint64_t user_id,
                            uint32_t* out_id) {
  const Entry entry{__func__};
  return entry.run([&] {
    if (!out_id) return entry.null("out_id");
    *out_id = HS_NO_COLLIDER;
    if (!scene) return entry.null("scene");
    hitscan::Transformf world;
    if (const hs_status s = to_transform(entry, transform, world); s != HS_OK) return s;
    hitscan::MeshShape bvh;
    if (const hs_status s = build_mesh(entry, positions, vertex_count, indices, triangle_count, bvh); s != HS_OK) {
      return s;
    }
    return add_mesh_collider(entry, *scene, std::move(bvh), world, layer, user_id, *out_id);
  });
}

}  // extern "C"
