// PyScene's point queries: closest points and distances in Open3D's conventions, and the sign and
// occupancy from generalised winding numbers (mesh/winding_number.hpp) instead of ray parity.

#include <cmath>
#include <limits>

#include "hit_columns.hpp"
#include "py_scene.hpp"

namespace hitscan::python {
namespace {

constexpr std::size_t kGrain = 256;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

}  // namespace

py::dict PyScene::compute_closest_points(py::handle query_points, int nthreads) {
  const FloatRows points = float_rows(query_points, "query_points", 3, 2, 32);
  Executor& executor = executor_for(nthreads);
  commit_if_due();
  HitColumns columns(points.shape, kPoints | kGeometryIds | kPrimitiveIds | kPrimitiveUvs | kPrimitiveNormals,
                     Vec3f{kNaN, kNaN, kNaN});
  const float* in = points.array.data();
  const QueryOptions options = surface_options();
  for_rows(points.rows, executor, kGrain, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      columns.put(i, scene_.closest_point({in[3 * i], in[3 * i + 1], in[3 * i + 2]}, options));
    }
  });
  py::dict out;
  columns.into(out);
  return out;
}

py::array PyScene::compute_distance(py::handle query_points, int nthreads) {
  return point_values(query_points, nthreads, PointValue::distance);
}
py::array PyScene::compute_signed_distance(py::handle query_points, int nthreads) {
  return point_values(query_points, nthreads, PointValue::signed_distance);
}
py::array PyScene::compute_occupancy(py::handle query_points, int nthreads) {
  return point_values(query_points, nthreads, PointValue::occupancy);
}
py::array PyScene::winding_number(py::handle query_points, int nthreads) {
  return point_values(query_points, nthreads, PointValue::winding);
}

py::array PyScene::point_values(py::handle query_points, int nthreads, PointValue value) {
  const FloatRows points = float_rows(query_points, "query_points", 3, 2, 32);
  Executor& executor = executor_for(nthreads);
  commit_if_due();
  const bool needs_distance = value == PointValue::distance || value == PointValue::signed_distance;
  const bool needs_inside = value != PointValue::distance;
  // Copied under the GIL: the evaluators stay alive through the query even if geometry is added.
  const std::vector<std::shared_ptr<const WindingNumber>> meshes =
      needs_inside ? windings() : std::vector<std::shared_ptr<const WindingNumber>>{};
  const bool solids = needs_inside && has_solids();
  auto result = make_array<float>(points.shape);
  const float* in = points.array.data();
  float* out = result.mutable_data();
  const QueryOptions options = surface_options();
  QueryOptions inside_solid;  // a point inside a solid is its own closest point
  inside_solid.layer_mask = 1u << kLayerSolid;
  inside_solid.max_distance = 0.0f;
  for_rows(points.rows, executor, kGrain, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const Vec3f p{in[3 * i], in[3 * i + 1], in[3 * i + 2]};
      if (!in_working_range(p)) {  // NaN, infinite, or beyond ±kMaxCoordinate
        out[i] = kNaN;
        continue;
      }
      float distance = 0.0f;
      if (needs_distance) {
        const QueryHit hit = scene_.closest_point(p, options);
        distance = hit ? hit.distance : kInf;
      }
      // The winding numbers of the meshes, plus one for each solid shape holding p.
      double winding = 0.0;
      if (needs_inside) {
        for (const auto& mesh : meshes) winding += (*mesh)(p);
        if (solids) {
          const QueryHit hit = scene_.closest_point(p, inside_solid);
          if (hit && hit.started_inside()) winding += 1.0;
        }
      }
      const bool inside = winding >= 0.5;
      switch (value) {
        case PointValue::distance: out[i] = distance; break;
        case PointValue::signed_distance: out[i] = inside ? -distance : distance; break;
        case PointValue::occupancy: out[i] = inside ? 1.0f : 0.0f; break;
        case PointValue::winding: out[i] = static_cast<float>(winding); break;
      }
    }
  });
  return result;
}

}  // namespace hitscan::python
