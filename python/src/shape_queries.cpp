// PyScene's queries beyond Open3D's: sphere casts, sphere overlaps and route draping (AR).

#include <algorithm>
#include <array>
#include <limits>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "hitscan/ar/drape.hpp"
#include "hit_columns.hpp"
#include "py_scene.hpp"

namespace hitscan::python {
namespace {

constexpr std::size_t kGrain = 256;
constexpr std::size_t kBlock = 64;
constexpr float kInf = std::numeric_limits<float>::infinity();

// One DrapeSettings field from a keyword argument.
void set_drape_setting(DrapeSettings& settings, const std::string& name, py::handle value) {
  if (name == "gap_mode") {
    const std::string mode = py::str(value).cast<std::string>();
    if (mode == "interpolate") {
      settings.gap_mode = DrapeGapMode::interpolate;
    } else if (mode == "hold_last") {
      settings.gap_mode = DrapeGapMode::hold_last;
    } else {
      throw py::value_error("gap_mode must be 'interpolate' or 'hold_last', got '" + mode + "'");
    }
    return;
  }
  if (name == "max_points") {
    const long long count = py::int_(py::reinterpret_borrow<py::object>(value)).cast<long long>();
    if (count < 1) throw py::value_error("max_points must be positive, got " + std::to_string(count));
    settings.max_points = static_cast<std::size_t>(count);
    return;
  }
  float DrapeSettings::*field = nullptr;
  static const std::array<std::pair<const char*, float DrapeSettings::*>, 10> kFields{{
      {"near_spacing", &DrapeSettings::near_spacing},
      {"far_spacing", &DrapeSettings::far_spacing},
      {"near_distance", &DrapeSettings::near_distance},
      {"far_distance", &DrapeSettings::far_distance},
      {"cast_height", &DrapeSettings::cast_height},
      {"max_cast_depth", &DrapeSettings::max_cast_depth},
      {"refine_height", &DrapeSettings::refine_height},
      {"refine_angle", &DrapeSettings::refine_angle},
      {"min_refine_spacing", &DrapeSettings::min_refine_spacing},
      {"max_gap", &DrapeSettings::max_gap},
  }};
  for (const auto& [field_name, member] : kFields) {
    if (name == field_name) field = member;
  }
  if (!field) throw py::type_error("drape() got an unexpected keyword argument '" + name + "'");
  try {
    settings.*field = py::float_(py::reinterpret_borrow<py::object>(value)).cast<float>();
  } catch (py::error_already_set&) {
    throw py::type_error(name + " must be a number");
  }
}

}  // namespace

py::dict PyScene::sphere_cast(py::handle origins_arg, py::handle directions_arg, py::handle radius_arg,
                              float max_distance, int nthreads) {
  const FloatRows origins = float_rows(origins_arg, "origins", 3, 2, 32);
  const FloatRows directions = float_rows(directions_arg, "directions", 3, 2, 32);
  if (directions.shape != origins.shape) {
    throw py::value_error("directions must have the same shape as origins");
  }
  const std::vector<float> radius = float_per_row(radius_arg, "radius", origins.shape);
  Executor& executor = executor_for(nthreads);
  commit_if_due();
  auto distance = make_array<float>(origins.shape);
  HitColumns columns(origins.shape, kPoints | kNormals | kGeometryIds | kPrimitiveIds);
  auto started_inside = make_array<bool>(origins.shape);
  auto depth = make_array<float>(origins.shape);
  const float* origin = origins.array.data();
  const float* direction = directions.array.data();
  float* d = distance.mutable_data();
  bool* inside = started_inside.mutable_data();
  float* deep = depth.mutable_data();
  for_blocks<kBlock, SphereSweep, QueryHit>(
      origins.rows, executor, kGrain,
      [&](std::size_t i) {
        return SphereSweep{{{origin[3 * i], origin[3 * i + 1], origin[3 * i + 2]}, radius[i]},
                           {direction[3 * i], direction[3 * i + 1], direction[3 * i + 2]},
                           max_distance};
      },
      [&](std::span<const SphereSweep> sweeps, std::span<QueryHit> hits, Executor& serial) {
        (void)scene_.sphere_cast_batch(sweeps, hits, {}, &serial);
      },
      [&](std::size_t i, const QueryHit& hit) {
        d[i] = hit ? hit.distance : kInf;
        columns.put(i, hit);
        inside[i] = hit && hit.started_inside();
        deep[i] = hit ? hit.depth : 0.0f;
      });
  py::dict out;
  out["distance"] = distance;
  columns.into(out);
  out["started_inside"] = started_inside;
  out["depth"] = depth;
  return out;
}

py::array PyScene::overlap_sphere(py::handle center_arg, float radius) {
  const Vec3f center = vec3_argument(center_arg, "center");
  commit_if_due();
  std::vector<OverlapHit> hits;
  {
    py::gil_scoped_release release;
    std::shared_lock lock(*query_mutex_);
    scene_.overlap_sphere({center, radius}, hits);
  }
  py::array_t<std::uint32_t> ids(static_cast<py::ssize_t>(hits.size()));
  std::uint32_t* out = ids.mutable_data();
  for (std::size_t i = 0; i < hits.size(); ++i) out[i] = static_cast<std::uint32_t>(hits[i].user_id);
  std::sort(out, out + hits.size());
  return ids;
}

py::dict PyScene::drape(py::handle route_arg, py::handle gravity_arg, py::handle camera_arg, int nthreads,
                        const py::kwargs& kwargs) {
  const FloatRows route = float_rows(route_arg, "route", 3, 2, 2);
  const Vec3f gravity = vec3_argument(gravity_arg, "gravity");
  std::vector<Vec3f> points(route.rows);
  for (std::size_t i = 0; i < route.rows; ++i) points[i] = route.vec3(i);
  const Vec3f camera = camera_arg.is_none() ? (points.empty() ? Vec3f{} : points.front())
                                            : vec3_argument(camera_arg, "camera");
  DrapeSettings settings;
  for (const auto& [key, value] : kwargs) set_drape_setting(settings, py::str(key).cast<std::string>(), value);
  Executor& executor = executor_for(nthreads);
  commit_if_due();
  std::optional<Result<DrapedRoute>> draped;
  {
    py::gil_scoped_release release;
    std::shared_lock lock(*query_mutex_);
    draped.emplace(drape_route(scene_, points, gravity, camera, settings, &executor));
  }
  if (!draped->ok()) raise_status(draped->status(), "drape");
  const DrapedRoute& result = draped->value();
  const auto count = static_cast<py::ssize_t>(result.points.size());
  py::array_t<float> positions({count, py::ssize_t{3}}), normals({count, py::ssize_t{3}});
  py::array_t<float> route_points({count, py::ssize_t{3}}), distance(count);
  py::array_t<std::uint8_t> status(count);
  py::array_t<std::uint32_t> geometry_ids(count);
  float* position = positions.mutable_data();
  float* normal = normals.mutable_data();
  float* route_point = route_points.mutable_data();
  float* along = distance.mutable_data();
  std::uint8_t* state = status.mutable_data();
  std::uint32_t* geometry = geometry_ids.mutable_data();
  std::unordered_map<ColliderId, std::uint32_t> geometry_of;
  for (std::size_t g = 0; g < geometries_.size(); ++g) geometry_of[geometries_[g].collider] = static_cast<std::uint32_t>(g);
  for (std::size_t i = 0; i < result.points.size(); ++i) {
    const DrapedPoint& point = result.points[i];
    write3(position, i, point.position);
    write3(normal, i, point.normal);
    write3(route_point, i, point.route_point);
    along[i] = point.distance_along_route;
    state[i] = static_cast<std::uint8_t>(point.status);
    const auto found = point.status == DrapeStatus::on_surface ? geometry_of.find(point.collider) : geometry_of.end();
    geometry[i] = found != geometry_of.end() ? found->second : kInvalidId;
  }
  py::array_t<float> gaps({static_cast<py::ssize_t>(result.gaps.size()), py::ssize_t{2}});
  py::array_t<bool> gaps_bridged(static_cast<py::ssize_t>(result.gaps.size()));
  for (std::size_t i = 0; i < result.gaps.size(); ++i) {
    gaps.mutable_data()[2 * i] = result.gaps[i].start_distance;
    gaps.mutable_data()[2 * i + 1] = result.gaps[i].end_distance;
    gaps_bridged.mutable_data()[i] = result.gaps[i].bridged;
  }
  py::dict out;
  out["points"] = positions;
  out["normals"] = normals;
  out["route_points"] = route_points;
  out["distance"] = distance;
  out["status"] = status;
  out["geometry_ids"] = geometry_ids;
  out["gaps"] = gaps;
  out["gaps_bridged"] = gaps_bridged;
  out["route_length"] = result.route_length;
  return out;
}

}  // namespace hitscan::python
