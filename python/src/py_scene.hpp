#pragma once
// The Python Scene: a hitscan::Scene whose geometries are numbered 0, 1, 2, ... in the order they
// were added (Open3D's geometry ids), with the queries of Open3D's RaycastingScene and more.
//
// Threads. Every query releases the GIL while it runs and spreads its rows over an executor.
// Bookkeeping (the geometry list, the winding-number evaluators, whether a commit is due) changes
// only under the GIL; a query copies what it needs before releasing it. A query holds this
// scene's lock shared and a commit holds it exclusively, so one query sees one commit's state
// from its first row to its last.
//
// Ctrl-C. A batch runs in slices of rows; between two slices the query takes the GIL back to run
// Python's signal handlers, and a KeyboardInterrupt (or any exception a handler raises) ends the
// query there. The scene's lock stays held across the slices: nothing waits for it while holding
// the GIL (commit releases the GIL first), so taking the GIL under it cannot deadlock.

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <span>
#include <vector>

#include "arrays.hpp"
#include "hitscan/mesh/winding_number.hpp"
#include "hitscan/query/scene.hpp"

namespace hitscan::python {

/// Layers that sort colliders by kind, so that a query can look at one kind alone.
inline constexpr std::uint32_t kLayerMesh = 0;
inline constexpr std::uint32_t kLayerSolid = 1;    // spheres, boxes, capsules, cylinders
inline constexpr std::uint32_t kLayerSurface = 2;  // planes

class PyScene {
 public:
  explicit PyScene(int nthreads);

  std::uint32_t add_triangles(py::handle vertex_positions, py::handle triangle_indices);
  std::uint32_t add_shape(ColliderShape shape, std::uint32_t layer, const char* what);
  void commit();
  std::size_t geometry_count() const { return geometries_.size(); }

  py::dict cast_rays(py::handle rays, int nthreads);
  py::array test_occlusions(py::handle rays, float tnear, float tfar, int nthreads);
  py::array count_intersections(py::handle rays, int nthreads);
  py::dict list_intersections(py::handle rays, int nthreads);

  py::dict compute_closest_points(py::handle query_points, int nthreads);
  py::array compute_distance(py::handle query_points, int nthreads);
  py::array compute_signed_distance(py::handle query_points, int nthreads);
  py::array compute_occupancy(py::handle query_points, int nthreads);
  py::array winding_number(py::handle query_points, int nthreads);

  py::dict sphere_cast(py::handle origins, py::handle directions, py::handle radius, float max_distance,
                       int nthreads);
  py::array overlap_sphere(py::handle center, float radius);
  py::dict drape(py::handle route, py::handle gravity, py::handle camera, int nthreads, const py::kwargs& settings);

 private:
  struct Geometry {
    ColliderId collider = kNoCollider;
    std::uint32_t layer = kLayerMesh;
    MeshShape mesh;  // null for analytic shapes
  };

  // Commits pending edits (GIL released); called under the GIL at the start of every query.
  void commit_if_due();
  // The winding-number evaluators of the mesh geometries, made when first needed.
  std::vector<std::shared_ptr<const WindingNumber>> windings();
  // Distance, and with `sign` the winding-number sign, or the occupancy: the three point queries
  // that share one walk.
  enum class PointValue { distance, signed_distance, occupancy, winding };
  py::array point_values(py::handle query_points, int nthreads, PointValue value);
  bool has_solids() const;
  // body(begin, end) over [0, rows) on `executor` in chunks of `grain`, with the GIL released and
  // this scene's lock held shared, in slices between which Python's signal handlers run (see the
  // file comment).
  template <class Body>
  void for_rows(std::size_t rows, Executor& executor, std::size_t grain, const Body& body);
  // for_rows for the scene's batch queries: rows go to `batch(queries, answers, executor)` kBlock
  // at a time (on the chunk's thread), row i's query made by `make(i)` and its answer handed to
  // `put(i, answer)`.
  template <std::size_t kBlock, class Query, class Answer, class Make, class Batch, class Put>
  void for_blocks(std::size_t rows, Executor& executor, std::size_t grain, const Make& make, const Batch& batch,
                  const Put& put);

  Executor* build_executor_;
  Scene scene_;
  std::vector<Geometry> geometries_;
  std::vector<std::shared_ptr<const WindingNumber>> windings_;
  std::size_t windings_cover_ = 0;  // geometries_[0, windings_cover_) have their evaluators made
  bool commit_due_ = false;
  // Shared by queries, exclusive for commit (see the file comment). Taken with the GIL released.
  std::unique_ptr<std::shared_mutex> query_mutex_ = std::make_unique<std::shared_mutex>();
};

template <class Body>
void PyScene::for_rows(std::size_t rows, Executor& executor, std::size_t grain, const Body& body) {
  // Eight chunks per thread keep every thread busy to the end of a slice, and a slice stays short
  // (the grains are sized for that): Ctrl-C is answered within a fraction of a second, and the
  // check between slices costs nothing measurable.
  const std::size_t slice = grain * std::max(1u, executor.concurrency()) * 8;
  bool interrupted = false;
  {
    py::gil_scoped_release release;
    std::shared_lock lock(*query_mutex_);
    for (std::size_t first = 0; first < rows && !interrupted; first += slice) {
      const std::size_t count = std::min(slice, rows - first);
      executor.parallel_for(count, grain, [&](std::size_t begin, std::size_t end) { body(first + begin, first + end); });
      if (first + count < rows) {
        py::gil_scoped_acquire acquire;
        interrupted = PyErr_CheckSignals() != 0;
      }
    }
  }
  if (interrupted) throw py::error_already_set();
}

template <std::size_t kBlock, class Query, class Answer, class Make, class Batch, class Put>
void PyScene::for_blocks(std::size_t rows, Executor& executor, std::size_t grain, const Make& make, const Batch& batch,
                         const Put& put) {
  for_rows(rows, executor, grain, [&](std::size_t begin, std::size_t end) {
    SerialExecutor serial;
    std::array<Query, kBlock> queries;
    std::array<Answer, kBlock> answers;
    for (std::size_t first = begin; first < end; first += kBlock) {
      const std::size_t n = std::min(kBlock, end - first);
      for (std::size_t k = 0; k < n; ++k) queries[k] = make(first + k);
      batch(std::span<const Query>{queries.data(), n}, std::span<Answer>{answers.data(), n}, serial);
      for (std::size_t k = 0; k < n; ++k) put(first + k, answers[k]);
    }
  });
}

/// Options for the queries that see surfaces only: a solid counts by its surface, so that a ray
/// crosses each surface once (one starting inside a solid only where it leaves) and a point inside
/// a sphere is at the distance of the sphere's surface, as for a closed mesh.
inline QueryOptions surface_options() {
  QueryOptions options;
  options.solid = false;
  return options;
}

}  // namespace hitscan::python
