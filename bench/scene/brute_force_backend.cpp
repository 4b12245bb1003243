// Brute force: every query tests every collider with hitscan's per-shape kernels, in the world
// (the colliders taken there once by to_world). Meshes are tested as the scene tests them: rays
// through MeshInstance::intersect, overlaps in the mesh's frame through mesh_contact's overlap
// (the scale is uniform). A sphere cast tests a mesh instance's triangles one by one, taken to the
// world, once the swept sphere reaches the instance's bounding ball.

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

float BruteForce::sweep_distance(std::uint32_t index, const SphereSweep& sweep) const {
  const Vec3f direction = normalize(sweep.direction);
  return std::visit(
      [&](const auto& shape) -> float {
        using S = std::decay_t<decltype(shape)>;
        if constexpr (std::is_same_v<S, Spheref> || std::is_same_v<S, Obbf> || std::is_same_v<S, Capsulef> ||
                      std::is_same_v<S, Cylinderf>) {
          return hitscan::sphere_cast(sweep.sphere, direction, sweep.max_distance, shape, kTolerance).distance;
        }
        if constexpr (std::is_same_v<S, WorldMesh>) {
          // The ball that holds the instance, against the swept sphere's path.
          const Vec3f center = colliders_->centers[index];
          const Segment<float> path{sweep.sphere.center, sweep.sphere.center + direction * sweep.max_distance};
          const float reach = colliders_->radii[index] + sweep.sphere.radius + 1e-3f;
          if (distance(closest_point_on_segment(path, center), center) > reach) return kInfinity<float>;
          const TriangleMesh& mesh = shape.bvh->mesh();
          const std::span<const Vec3f> positions = mesh.positions();
          float nearest = kInfinity<float>;
          for (const TriangleMesh::Indices& t : mesh.triangles()) {
            const Triangle<float> world{shape.transform.apply_point(positions[t[0]]),
                                        shape.transform.apply_point(positions[t[1]]),
                                        shape.transform.apply_point(positions[t[2]])};
            const SweepHitf hit = hitscan::sphere_cast(sweep.sphere, direction, sweep.max_distance, world, kTolerance);
            nearest = std::min(nearest, hit.distance);
          }
          return nearest;
        }
        return kInfinity<float>;
      },
      colliders_->shapes[index]);
}

void BruteForce::raycast(std::span<const QueryRay> rays, std::span<CastAnswer> out) {
  const std::uint32_t n = std::uint32_t(colliders_->shapes.size());
  for (std::size_t i = 0; i < rays.size(); ++i) {
    CastAnswer best;
    for (std::uint32_t k = 0; k < n; ++k) {
      const float t = ray_distance(k, rays[i]);
      if (t < best.distance) best = {t, k};
    }
    out[i] = best;
  }
}

void BruteForce::raycast_any(std::span<const QueryRay> rays, std::span<std::uint8_t> out) {
  const std::uint32_t n = std::uint32_t(colliders_->shapes.size());
  for (std::size_t i = 0; i < rays.size(); ++i) {
    out[i] = 0;
    for (std::uint32_t k = 0; k < n && out[i] == 0; ++k) out[i] = ray_distance(k, rays[i]) < kInfinity<float> ? 1 : 0;
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
  const std::uint32_t n = std::uint32_t(colliders_->shapes.size());
  for (std::size_t i = 0; i < sweeps.size(); ++i) {
    CastAnswer best;
    for (std::uint32_t k = 0; k < n; ++k) {
      const float d = sweep_distance(k, sweeps[i]);
      if (d < best.distance) best = {d, k};
    }
    out[i] = best;
  }
}

}  // namespace hitscan::bench
