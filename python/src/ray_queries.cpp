// PyScene's ray queries, in Open3D's conventions: rays (..., 6) float32 as [ox, oy, oz, dx, dy, dz],
// t measured in units of the direction's length, misses as inf and INVALID_ID.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <mutex>

#include "hit_columns.hpp"
#include "py_scene.hpp"

namespace hitscan::python {
namespace {

constexpr std::size_t kGrain = 1024;  // rows per executor chunk
constexpr std::size_t kBlock = 256;   // rays handed to one scene batch call inside a chunk
constexpr float kInf = std::numeric_limits<float>::infinity();

QueryRay query_ray(const float* r) { return {{r[0], r[1], r[2]}, {r[3], r[4], r[5]}, kInf}; }

// |direction| in double: a float sum of squares would underflow for tiny directions.
double direction_length(const float* r) {
  const double x = r[3], y = r[4], z = r[5];
  return std::sqrt(x * x + y * y + z * z);
}

}  // namespace

py::dict PyScene::cast_rays(py::handle rays_arg, int nthreads) {
  const FloatRows rays = float_rows(rays_arg, "rays", 6, 2, 32);
  Executor& executor = executor_for(nthreads);
  commit_if_due();
  auto t_hit = make_array<float>(rays.shape);
  HitColumns columns(rays.shape, kGeometryIds | kPrimitiveIds | kPrimitiveUvs | kPrimitiveNormals);
  const float* in = rays.array.data();
  float* t = t_hit.mutable_data();
  for_blocks<kBlock, QueryRay, QueryHit>(
      rays.rows, executor, kGrain, [&](std::size_t i) { return query_ray(in + 6 * i); },
      [&](std::span<const QueryRay> block, std::span<QueryHit> hits, Executor& serial) {
        (void)scene_.raycast_batch(block, hits, {}, &serial);  // sizes match
      },
      [&](std::size_t i, const QueryHit& hit) {
        t[i] = hit ? static_cast<float>(hit.distance / direction_length(in + 6 * i)) : kInf;
        columns.put(i, hit);
      });
  py::dict out;
  out["t_hit"] = t_hit;
  columns.into(out);
  return out;
}

py::array PyScene::test_occlusions(py::handle rays_arg, float tnear, float tfar, int nthreads) {
  const FloatRows rays = float_rows(rays_arg, "rays", 6, 2, 32);
  if (std::isnan(tnear) || std::isnan(tfar)) throw py::value_error("tnear and tfar must not be NaN");
  Executor& executor = executor_for(nthreads);
  commit_if_due();
  auto occluded = make_array<bool>(rays.shape);
  const float* in = rays.array.data();
  bool* out = occluded.mutable_data();
  for_blocks<kBlock, QueryRay, std::uint8_t>(
      rays.rows, executor, kGrain,
      [&](std::size_t i) {
        // [tnear, tfar] in units of the direction: start tnear along it, reach (tfar - tnear)
        // times its length. tfar < tnear gives a negative reach, which sees nothing.
        const float* r = in + 6 * i;
        QueryRay ray = query_ray(r);
        if (tnear != 0.0f) {
          ray.origin = {static_cast<float>(r[0] + double(tnear) * r[3]), static_cast<float>(r[1] + double(tnear) * r[4]),
                        static_cast<float>(r[2] + double(tnear) * r[5])};
        }
        ray.max_distance = static_cast<float>((double(tfar) - double(tnear)) * direction_length(r));
        if (tfar < tnear) ray.max_distance = -1.0f;
        return ray;
      },
      [&](std::span<const QueryRay> block, std::span<std::uint8_t> hits, Executor& serial) {
        (void)scene_.raycast_any_batch(block, hits, {}, &serial);
      },
      [&](std::size_t i, std::uint8_t hit) { out[i] = hit != 0; });
  return occluded;
}

py::array PyScene::count_intersections(py::handle rays_arg, int nthreads) {
  const FloatRows rays = float_rows(rays_arg, "rays", 6, 2, 32);
  Executor& executor = executor_for(nthreads);
  commit_if_due();
  auto counts = make_array<std::int32_t>(rays.shape);
  const float* in = rays.array.data();
  std::int32_t* out = counts.mutable_data();
  const QueryOptions options = surface_options();
  for_rows(rays.rows, executor, kGrain, [&](std::size_t begin, std::size_t end) {
    std::array<QueryHit, 1> nearest;  // only the total is wanted
    for (std::size_t i = begin; i < end; ++i) {
      const RaycastAllCount count = scene_.raycast_all(query_ray(in + 6 * i), std::span{nearest}, options);
      out[i] = static_cast<std::int32_t>(std::min<std::size_t>(count.total, std::numeric_limits<std::int32_t>::max()));
    }
  });
  return counts;
}

py::dict PyScene::list_intersections(py::handle rays_arg, int nthreads) {
  const FloatRows rays = float_rows(rays_arg, "rays", 6, 2, 32);
  Executor& executor = executor_for(nthreads);
  commit_if_due();
  struct Record {
    std::uint32_t ray, geometry, primitive;
    float u, v, t;
  };
  struct Chunk {
    std::size_t begin;
    std::vector<Record> records;
  };
  std::vector<Chunk> chunks;
  const float* in = rays.array.data();
  std::mutex chunks_mutex;
  const QueryOptions options = surface_options();
  for_rows(rays.rows, executor, kGrain, [&](std::size_t begin, std::size_t end) {
    Chunk chunk{begin, {}};
    std::vector<QueryHit> hits;
    for (std::size_t i = begin; i < end; ++i) {
      scene_.raycast_all(query_ray(in + 6 * i), hits, options);
      const double length = direction_length(in + 6 * i);
      for (const QueryHit& hit : hits) {
        chunk.records.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(hit.user_id), primitive_id(hit),
                                 hit.u, hit.v, static_cast<float>(hit.distance / length)});
      }
    }
    std::lock_guard guard(chunks_mutex);
    chunks.push_back(std::move(chunk));
  });
  // Chunks are contiguous ranges of rays: in order of their first ray, the records are in ray order.
  std::sort(chunks.begin(), chunks.end(), [](const Chunk& a, const Chunk& b) { return a.begin < b.begin; });
  std::size_t total = 0;
  for (const Chunk& chunk : chunks) total += chunk.records.size();
  const auto count = static_cast<py::ssize_t>(total);
  py::array_t<std::uint32_t> ray_splits(static_cast<py::ssize_t>(rays.rows + 1));
  py::array_t<std::uint32_t> ray_ids(count), geometry_ids(count), primitive_ids(count);
  py::array_t<float> primitive_uvs({count, py::ssize_t{2}}), t_hit(count);
  std::uint32_t* splits = ray_splits.mutable_data();
  std::uint32_t* ray = ray_ids.mutable_data();
  std::uint32_t* geometry = geometry_ids.mutable_data();
  std::uint32_t* primitive = primitive_ids.mutable_data();
  float* uv = primitive_uvs.mutable_data();
  float* t = t_hit.mutable_data();
  std::size_t j = 0, next_ray = 0;
  for (const Chunk& chunk : chunks) {
    for (const Record& record : chunk.records) {
      while (next_ray <= record.ray) splits[next_ray++] = static_cast<std::uint32_t>(j);
      ray[j] = record.ray;
      geometry[j] = record.geometry;
      primitive[j] = record.primitive;
      uv[2 * j] = record.u;
      uv[2 * j + 1] = record.v;
      t[j] = record.t;
      ++j;
    }
  }
  while (next_ray <= rays.rows) splits[next_ray++] = static_cast<std::uint32_t>(j);
  py::dict out;
  out["ray_splits"] = ray_splits;
  out["ray_ids"] = ray_ids;
  out["geometry_ids"] = geometry_ids;
  out["primitive_ids"] = primitive_ids;
  out["primitive_uvs"] = primitive_uvs;
  out["t_hit"] = t_hit;
  return out;
}

}  // namespace hitscan::python
