// Brute force: every query tests every collider with hitscan's per-shape kernels, in the world
// (the colliders taken there once by to_world). Meshes are tested as the scene tests them: rays
// through MeshInstance::intersect, overlaps in the mesh's frame through mesh_contact's overlap
// (the scale is uniform). A sphere or capsule cast tests a mesh instance's triangles one by one,
// taken to the world, once the ball around the moving shape reaches the instance's bounding ball.

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "backend.hpp"
#include "hitscan/geometry/contact_round.hpp"
#include "hitscan/geometry/contact_sphere_box.hpp"
#include "hitscan/geometry/ray_capsule.hpp"
#include "hitscan/geometry/ray_cylinder.hpp"
#include "hitscan/geometry/ray_obb.hpp"
#include "hitscan/geometry/ray_sphere.hpp"
#include "hitscan/geometry/sweep.hpp"
#include "hitscan/mesh/mesh_contact.hpp"

namespace hitscan::bench {
namespace {

constexpr ContactTolerancef kTolerance{};

// Whether a sphere touches a solid cylinder: its centre's distance to the cylinder's closest
// point (clamped along the axis, then radially) within the radius and the contact tolerance.
bool sphere_touches_cylinder(const Spheref& s, const Cylinderf& c) {
  const Vec3f axis = c.b - c.a;
  const float length_axis = length(axis);
  if (!(length_axis > 0)) return false;
  const Vec3f u = axis * (1.0f / length_axis);
  const Vec3f rel = s.center - c.a;
  const float along = dot(rel, u);
  Vec3f radial = rel - u * along;
  const float radial_length = length(radial);
  if (radial_length > c.radius) radial = radial * (c.radius / radial_length);
  const Vec3f closest = c.a + u * std::clamp(along, 0.0f, length_axis) + radial;
  const float size = std::max(s.radius, std::max(c.radius, 0.5f * length_axis));
  return distance(s.center, closest) <= s.radius + kTolerance.at_size(size);
}

}  // namespace

struct BruteForce::Colliders {
  std::vector<WorldShape> shapes;
  std::vector<ShapeKind> kinds;
  // Mesh instances: centre and radius of a ball that holds the instance.
  std::vector<Vec3f> centers;
  std::vector<float> radii;
};

BruteForce::BruteForce(const Scenario& scenario) : colliders_(std::make_unique<Colliders>()) {
  Colliders& c = *colliders_;
  for (std::size_t i = 0; i < scenario.colliders.size(); ++i) {
    const ColliderDesc desc = to_collider_desc(scenario, i);
    WorldShape shape;
    const Status status = to_world(desc.shape, desc.transform, shape);
    if (!status.ok()) throw std::runtime_error("brute force: to_world: " + status.message());
    c.shapes.push_back(std::move(shape));
    c.kinds.push_back(scenario.colliders[i].kind);
    c.centers.push_back(scenario.colliders[i].position);
    c.radii.push_back(scenario.mesh_radius * scenario.colliders[i].size.x);
  }
}

BruteForce::~BruteForce() = default;

ShapeKind BruteForce::kind(std::uint32_t index) const { return colliders_->kinds[index]; }

float BruteForce::ray_distance(std::uint32_t index, const QueryRay& query) const {
  const Rayf ray{query.origin, normalize(query.direction), 0.0f, query.max_distance};
  return std::visit(
      [&](const auto& shape) -> float {
        using S = std::decay_t<decltype(shape)>;
        if constexpr (std::is_same_v<S, Spheref>) return ray_vs_sphere(shape, ray).t;
        if constexpr (std::is_same_v<S, Obbf>) return ray_vs_obb(shape, ray).t;
        if constexpr (std::is_same_v<S, Capsulef>) return ray_vs_capsule(shape, ray).t;
        if constexpr (std::is_same_v<S, Cylinderf>) return ray_vs_cylinder(shape, ray).t;
        if constexpr (std::is_same_v<S, WorldMesh>) return shape.intersect(ray).t;
        return kInfinity<float>;  // planes and polygons: not in the scenario
      },
      colliders_->shapes[index]);
}

bool BruteForce::touches(std::uint32_t index, const Spheref& sphere) const {
  return std::visit(
      [&](const auto& shape) -> bool {
        using S = std::decay_t<decltype(shape)>;
        if constexpr (std::is_same_v<S, Spheref> || std::is_same_v<S, Obbf> || std::is_same_v<S, Capsulef>) {
          return overlap(sphere, shape, kTolerance);
        }
        if constexpr (std::is_same_v<S, Cylinderf>) return sphere_touches_cylinder(sphere, shape);
        if constexpr (std::is_same_v<S, WorldMesh>) {
          const float scale = shape.transform.scale.x;
          const Spheref local{shape.transform.inverse_point(sphere.center), sphere.radius / scale};
          return overlap(local, *shape.bvh, kTolerance);
        }
        return false;
      },
      colliders_->shapes[index]);
}

namespace {

// The moving shapes of the casts: their kernel against one target, and the centre and reach of
// the ball that holds them.
SweepHitf cast_kernel(const Spheref& moving, Vec3f direction, float max_distance, const auto& target) {
  return hitscan::sphere_cast(moving, direction, max_distance, target, kTolerance);
}
SweepHitf cast_kernel(const Capsulef& moving, Vec3f direction, float max_distance, const auto& target) {
  return hitscan::capsule_cast(moving, direction, max_distance, target, kTolerance);
}
Spheref bounding_ball(const Spheref& s) { return s; }
Spheref bounding_ball(const Capsulef& c) { return {(c.a + c.b) * 0.5f, c.radius + 0.5f * distance(c.a, c.b)}; }

// The first contact of `moving` cast along `sweep_direction` with one collider: the shapes'
// kernels, or a mesh instance's triangles one by one, taken to the world, once the moving shape's
// ball reaches the instance's (mesh_center, mesh_radius).
template <class Moving>
float cast_distance(const WorldShape& collider, const Moving& moving, Vec3f sweep_direction, float max_distance,
                    Vec3f mesh_center, float mesh_radius) {
  const Vec3f direction = normalize(sweep_direction);
  return std::visit(
      [&](const auto& shape) -> float {
        using S = std::decay_t<decltype(shape)>;
        if constexpr (std::is_same_v<S, Spheref> || std::is_same_v<S, Obbf> || std::is_same_v<S, Capsulef> ||
                      std::is_same_v<S, Cylinderf>) {
          return cast_kernel(moving, direction, max_distance, shape).distance;
        }
        if constexpr (std::is_same_v<S, WorldMesh>) {
          const Spheref ball = bounding_ball(moving);
          const Segment<float> path{ball.center, ball.center + direction * max_distance};
          const float reach = mesh_radius + ball.radius + 1e-3f;
          if (distance(closest_point_on_segment(path, mesh_center), mesh_center) > reach) return kInfinity<float>;
          const TriangleMesh& mesh = shape.bvh->mesh();
          const std::span<const Vec3f> positions = mesh.positions();
          float nearest = kInfinity<float>;
          for (const TriangleMesh::Indices& t : mesh.triangles()) {
            const Triangle<float> world{shape.transform.apply_point(positions[t[0]]),
                                        shape.transform.apply_point(positions[t[1]]),
                                        shape.transform.apply_point(positions[t[2]])};
            nearest = std::min(nearest, cast_kernel(moving, direction, max_distance, world).distance);
          }
          return nearest;
        }
        return kInfinity<float>;
      },
      collider);
}

// The nearest first contact of each ray or sweep over every collider.
template <class Sweep, class Distance>
void nearest_contacts(std::span<const Sweep> sweeps, std::uint32_t n, std::span<CastAnswer> out, Distance distance_to) {
  for (std::size_t i = 0; i < sweeps.size(); ++i) {
    CastAnswer best;
    for (std::uint32_t k = 0; k < n; ++k) {
      const float d = distance_to(k, sweeps[i]);
      if (d < best.distance) best = {d, k};
    }
    out[i] = best;
  }
}

}  // namespace

float BruteForce::sweep_distance(std::uint32_t index, const SphereSweep& sweep) const {
  const Colliders& c = *colliders_;
  return cast_distance(c.shapes[index], sweep.sphere, sweep.direction, sweep.max_distance, c.centers[index],
                       c.radii[index]);
}

float BruteForce::sweep_distance(std::uint32_t index, const CapsuleSweep& sweep) const {
  const Colliders& c = *colliders_;
  return cast_distance(c.shapes[index], sweep.capsule, sweep.direction, sweep.max_distance, c.centers[index],
                       c.radii[index]);
}

void BruteForce::raycast(std::span<const QueryRay> rays, std::span<CastAnswer> out) {
  nearest_contacts(rays, std::uint32_t(colliders_->shapes.size()), out,
                   [&](std::uint32_t k, const QueryRay& r) { return ray_distance(k, r); });
}

void BruteForce::raycast_any(std::span<const QueryRay> rays, std::span<std::uint8_t> out) {
  const std::uint32_t n = std::uint32_t(colliders_->shapes.size());
  for (std::size_t i = 0; i < rays.size(); ++i) {
    out[i] = 0;
    for (std::uint32_t k = 0; k < n && out[i] == 0; ++k) out[i] = ray_distance(k, rays[i]) < kInfinity<float> ? 1 : 0;
  }
}

void BruteForce::all_hits(const QueryRay& ray, std::vector<std::uint32_t>& ids) {
  ids.clear();
  const std::uint32_t n = std::uint32_t(colliders_->shapes.size());
  for (std::uint32_t k = 0; k < n; ++k) {
    if (ray_distance(k, ray) < kInfinity<float>) ids.push_back(k);
  }
}

void BruteForce::overlap_count(std::span<const Spheref> spheres, std::span<std::uint32_t> counts) {
  const std::uint32_t n = std::uint32_t(colliders_->shapes.size());
  for (std::size_t i = 0; i < spheres.size(); ++i) {
    std::uint32_t count = 0;
    for (std::uint32_t k = 0; k < n; ++k) count += touches(k, spheres[i]) ? 1 : 0;
    counts[i] = count;
  }
}

std::vector<std::uint32_t> BruteForce::overlap_ids(const Spheref& sphere) {
  std::vector<std::uint32_t> ids;
  const std::uint32_t n = std::uint32_t(colliders_->shapes.size());
  for (std::uint32_t k = 0; k < n; ++k) {
    if (touches(k, sphere)) ids.push_back(k);
  }
  return ids;
}

void BruteForce::sphere_cast(std::span<const SphereSweep> sweeps, std::span<CastAnswer> out) {
  nearest_contacts(sweeps, std::uint32_t(colliders_->shapes.size()), out,
                   [&](std::uint32_t k, const SphereSweep& s) { return sweep_distance(k, s); });
}

void BruteForce::capsule_cast(std::span<const CapsuleCast> sweeps, std::span<CastAnswer> out) {
  nearest_contacts(sweeps, std::uint32_t(colliders_->shapes.size()), out,
                   [&](std::uint32_t k, const CapsuleCast& s) { return sweep_distance(k, s.sweep); });
}

}  // namespace hitscan::bench
