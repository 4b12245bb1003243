// PyScene: adding geometry, committing, and the per-mesh winding-number evaluators.

#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "py_scene.hpp"

namespace hitscan::python {

PyScene::PyScene(int nthreads) : build_executor_(&executor_for(nthreads)) {}

std::uint32_t PyScene::add_triangles(py::handle vertex_positions, py::handle triangle_indices_arg) {
  const FloatRows rows = float_rows(vertex_positions, "vertex_positions", 3, 2, 2);
  std::vector<TriangleMesh::Indices> indices = triangle_indices(triangle_indices_arg, "triangle_indices", rows.rows);
  std::vector<Vec3f> positions(rows.rows);
  for (std::size_t i = 0; i < rows.rows; ++i) positions[i] = rows.vec3(i);

  std::optional<Result<TriangleMesh>> mesh;
  std::optional<Result<MeshBvh>> bvh;
  {
    py::gil_scoped_release release;
    mesh.emplace(TriangleMesh::make(std::move(positions), std::move(indices)));
    if (mesh->ok()) {
      bvh.emplace(MeshBvh::build(std::make_shared<const TriangleMesh>(std::move(*mesh).value()), {}, build_executor_));
    }
  }
  if (!mesh->ok()) raise_status(mesh->status(), "add_triangles");
  if (!bvh->ok()) raise_status(bvh->status(), "add_triangles");
  return add_shape(std::make_shared<const MeshBvh>(std::move(*bvh).value()), kLayerMesh, "add_triangles");
}

std::uint32_t PyScene::add_shape(ColliderShape shape, std::uint32_t layer, const char* what) {
  const auto id = static_cast<std::uint32_t>(geometries_.size());
  Geometry geometry;
  geometry.layer = layer;
  if (const MeshShape* mesh = std::get_if<MeshShape>(&shape)) geometry.mesh = *mesh;
  Result<ColliderId> collider = scene_.add({std::move(shape), Transformf{}, layer, id});
  if (!collider.ok()) raise_status(collider.status(), what);
  geometry.collider = collider.value();
  geometries_.push_back(std::move(geometry));
  commit_due_ = true;
  return id;
}

void PyScene::commit() {
  commit_due_ = false;
  py::gil_scoped_release release;
  std::unique_lock lock(*query_mutex_);
  scene_.commit();
}

void PyScene::commit_if_due() {
  if (commit_due_) commit();
}

bool PyScene::has_solids() const {
  for (const Geometry& geometry : geometries_) {
    if (geometry.layer == kLayerSolid) return true;
  }
  return false;
}

std::vector<std::shared_ptr<const WindingNumber>> PyScene::windings() {
  for (; windings_cover_ < geometries_.size(); ++windings_cover_) {
    const MeshShape& mesh = geometries_[windings_cover_].mesh;
    if (!mesh) continue;
    // Made with the GIL held (it is linear in the mesh and done once), so that two threads
    // asking at once cannot both make the same one.
    Result<WindingNumber> winding = WindingNumber::make(mesh);
    if (!winding.ok()) raise_status(winding.status(), "winding numbers");
    windings_.push_back(std::make_shared<const WindingNumber>(std::move(winding).value()));
  }
  return windings_;
}

}  // namespace hitscan::python
