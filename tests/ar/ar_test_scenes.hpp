#pragma once
// Scenes for the AR tests, z up and gravity along -z: analytic surfaces built from Scene
// colliders (planes, boxes), height-field meshes (a ramp, a tilted plane) optionally with seeded
// vertex noise and holes, like a reconstruction from a depth sensor, and the exact heights and
// normals to check against, in double.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <utility>
#include <variant>
#include <vector>

#include "hitscan/mesh/mesh_bvh.hpp"
#include "hitscan/query/scene.hpp"

namespace hitscan::test {

inline constexpr Vec3f kGravity{0.0f, 0.0f, -9.81f};

/// Adds a collider and returns its id; fails the test on error. The description is built in
/// place, never moved: GCC 12 under the sanitizers reports a false -Wmaybe-uninitialized on moves
/// of a ColliderShape.
template <class Shape>
ColliderId add_collider(Scene& scene, Shape shape, std::uint32_t layer = 0) {
  const Result<ColliderId> id =
      scene.add(ColliderDesc{ColliderShape(std::in_place_type<Shape>, std::move(shape)), Transformf{}, layer, 0});
  EXPECT_TRUE(id.ok()) << id.status().message();
  return id.ok() ? id.value() : kNoCollider;
}

/// An axis-aligned box from lo to hi.
inline Obbf box(Vec3d lo, Vec3d hi) {
  const Vec3d c = (lo + hi) * 0.5, h = (hi - lo) * 0.5;
  return Obbf{vec3_cast<float>(c), vec3_cast<float>(h), Mat3f::identity()};
}

/// Straight stairs climbing along +x: a floor at z = 0 (a plane), then `steps` boxes, step k
/// covering x in [x0 + k run, x0 + (k + 1) run] with its top at (k + 1) rise; the last step goes on
/// as a landing to x = landing_end. All across y in [-2, 2].
struct Stairs {
  double x0 = 1.0, run = 0.3, rise = 0.17, landing_end = 8.0;
  int steps = 5;

  void add_to(Scene& scene) const {
    add_collider(scene, Planef{{0, 0, 1}, 0});
    for (int k = 0; k < steps; ++k) {
      const double end = k + 1 == steps ? landing_end : x0 + (k + 1) * run;
      add_collider(scene, box({x0 + k * run, -2, -1}, {end, 2, (k + 1) * rise}));
    }
  }
  /// Height of the surface at x (the higher tread on an edge).
  double height(double x) const {
    if (x < x0) return 0;
    const int k = std::min(steps - 1, static_cast<int>(std::floor((x - x0) / run)));
    return (k + 1) * rise;
  }
  double edge(int k) const { return x0 + k * run; }
};

/// A mesh over the rectangle [x0, x1] x [y0, y1] with cells_x x cells_y cells (two triangles
/// each, counter-clockwise from above), its vertices at height(x, y) plus uniform noise in
/// [-noise, noise] along z (seeded); cells whose centre `hole` accepts are left out.
inline MeshShape height_field(const std::function<double(double, double)>& height, double x0, double x1, double y0,
                              double y1, int cells_x, int cells_y, float noise = 0.0f, unsigned seed = 1,
                              const std::function<bool(double, double)>& hole = {}) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> jitter(-noise, noise);
  std::vector<Vec3f> positions;
  for (int j = 0; j <= cells_y; ++j) {
    for (int i = 0; i <= cells_x; ++i) {
      const double x = x0 + (x1 - x0) * i / cells_x, y = y0 + (y1 - y0) * j / cells_y;
      const float dz = noise > 0.0f ? jitter(gen) : 0.0f;
      positions.push_back({static_cast<float>(x), static_cast<float>(y), static_cast<float>(height(x, y)) + dz});
    }
  }
  std::vector<TriangleMesh::Indices> triangles;
  const auto index = [cells_x](int i, int j) { return static_cast<std::uint32_t>(j * (cells_x + 1) + i); };
  for (int j = 0; j < cells_y; ++j) {
    for (int i = 0; i < cells_x; ++i) {
      const double cx = x0 + (x1 - x0) * (i + 0.5) / cells_x, cy = y0 + (y1 - y0) * (j + 0.5) / cells_y;
      if (hole && hole(cx, cy)) continue;
      triangles.push_back({index(i, j), index(i + 1, j), index(i + 1, j + 1)});
      triangles.push_back({index(i, j), index(i + 1, j + 1), index(i, j + 1)});
    }
  }
  auto mesh = std::make_shared<const TriangleMesh>(TriangleMesh::make(std::move(positions), std::move(triangles)).value());
  return std::make_shared<const MeshBvh>(MeshBvh::build(std::move(mesh)).value());
}

/// A ramp along +x: flat at z = 0 up to x = start, rising `rise` over `run`, flat beyond.
struct Ramp {
  double start = 0.0, run = 4.0, rise = 1.0;

  double height(double x) const {
    if (x <= start) return 0;
    if (x >= start + run) return rise;
    return (x - start) / run * rise;
  }
  Vec3d slope_normal() const {
    const double n = std::sqrt(rise * rise + run * run);
    return {-rise / n, 0, run / n};
  }
  /// The mesh over x in [-4, 10], y in [-2, 2], with vertex columns on both kinks (cells of 0.5 m).
  MeshShape mesh() const {
    return height_field([this](double x, double) { return height(x); }, -4, 10, -2, 2, 28, 4);
  }
};

/// The plane through `point` with unit normal `normal`, as heights z(x, y) (normal.z > 0).
struct TiltedPlane {
  Vec3d normal;
  Vec3d point;

  static TiltedPlane make(Vec3d n, Vec3d p) {
    return {n / std::sqrt(dot(n, n)), p};
  }
  double height(double x, double y) const {
    return point.z - (normal.x * (x - point.x) + normal.y * (y - point.y)) / normal.z;
  }
  Planef collider() const {
    return Planef::from_point_normal(vec3_cast<float>(point), vec3_cast<float>(normal));
  }
};

/// Angle in radians between two directions, in double.
inline double angle_between(Vec3d a, Vec3d b) {
  const double c = dot(a, b) / std::sqrt(dot(a, a) * dot(b, b));
  return std::acos(std::clamp(c, -1.0, 1.0));
}

inline Vec3d to_double(Vec3f v) { return vec3_cast<double>(v); }

}  // namespace hitscan::test
