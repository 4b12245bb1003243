#pragma once
// Seeded random scenes for the Scene tests, and a brute-force reference that tests every collider
// with the geometry and mesh kernels directly, its world shape built here independently of the
// scene's own conversion.

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <vector>

#include "hitscan/geometry/ray_capsule.hpp"
#include "hitscan/geometry/ray_cylinder.hpp"
#include "hitscan/geometry/ray_obb.hpp"
#include "hitscan/geometry/ray_plane.hpp"
#include "hitscan/geometry/ray_polygon.hpp"
#include "hitscan/geometry/ray_sphere.hpp"
#include "hitscan/query/scene.hpp"
#include "mesh/mesh_test_meshes.hpp"

namespace hitscan::test {

struct SceneEntry {
  ColliderId id = kNoCollider;
  ColliderDesc desc;
};

inline Quatf random_rotation(std::mt19937& gen) {
  std::normal_distribution<float> n(0, 1);
  return Quatf::from_components(n(gen), n(gen), n(gen), n(gen));
}

/// A collider of a random kind in a cube of side `extent`, on a random layer, with a random
/// rigid transform and uniform scale (boxes also non-uniform). Meshes share `mesh`.
inline ColliderDesc random_collider(std::mt19937& gen, float extent, const MeshShape& mesh, bool with_planes) {
  std::uniform_real_distribution<float> pos(-extent / 2, extent / 2), size(0.3f, 3.0f), unit(-1, 1);
  std::uniform_int_distribution<int> kind(0, with_planes ? 6 : 5), layer(0, 31);
  ColliderDesc d;
  d.layer = static_cast<std::uint32_t>(layer(gen));
  d.user_id = gen();
  d.transform.translation = {pos(gen), pos(gen), pos(gen)};
  d.transform.rotation = random_rotation(gen);
  const float s = size(gen) * 0.5f;
  d.transform.scale = {s, s, s};
  switch (kind(gen)) {
    case 0: d.shape = Spheref{{unit(gen), unit(gen), unit(gen)}, size(gen)}; break;
    case 1:
      d.shape = Obbf{{}, {size(gen), size(gen), size(gen)}, Mat3f::identity()};
      d.transform.scale = {size(gen), size(gen), size(gen)};
      break;
    case 2: d.shape = Capsulef{{0, 0, -size(gen)}, {0, 0, size(gen)}, size(gen) * 0.5f}; break;
    case 3: d.shape = Cylinderf{{0, 0, -size(gen)}, {0, 0, size(gen)}, size(gen) * 0.5f}; break;
    case 4: {
      const float r = size(gen);
      const Vec3f square[4] = {{-r, -r, 0}, {r, -r, 0}, {r, r, 0}, {-r, r, 0}};
      d.shape = ConvexPolygonf::make(square).value();
      break;
    }
    case 5: d.shape = mesh; break;
    default: d.shape = Planef::from_point_normal({0, 0, -extent}, {unit(gen), unit(gen), 1.0f}); break;
  }
  return d;
}

/// A committed scene of random colliders and their descriptions.
struct RandomScene {
  Scene scene;
  std::vector<SceneEntry> entries;
};

/// `colliders` random colliders in a cube of side `extent` (a plane every 40th), some with a
/// non-uniform (every 7th) or mirroring (every 11th) scale; those a shape cannot take are left out.
inline RandomScene make_random_scene(int colliders, unsigned seed, float extent) {
  RandomScene r;
  std::mt19937 gen(seed);
  const MeshShape mesh = std::make_shared<const MeshBvh>(MeshBvh::build(icosphere(1, 1.5f)).value());
  for (int i = 0; i < colliders; ++i) {
    SceneEntry e;
    e.desc = random_collider(gen, extent, mesh, i % 40 == 0);
    if (i % 7 == 3) e.desc.transform.scale = {0.6f, 1.3f, 0.9f};
    if (i % 11 == 5) e.desc.transform.scale = {-0.8f, 0.8f, 0.8f};
    const Result<ColliderId> id = r.scene.add(e.desc);
    if (!id) continue;
    e.id = id.value();
    r.entries.push_back(e);
  }
  r.scene.commit();
  return r;
}

/// The world shape of a collider, from its description alone (independently of the scene's own
/// to_world).
inline WorldShape reference_world_shape(const ColliderDesc& d) {
  const Transformf& t = d.transform;
  const float s = std::abs(t.scale.x);
  if (const auto* sp = std::get_if<Spheref>(&d.shape)) return Spheref{t.apply_point(sp->center), sp->radius * s};
  if (const auto* b = std::get_if<Obbf>(&d.shape)) {
    return Obbf{t.apply_point(b->center), mul(b->half_extents, abs(t.scale)), Mat3f::from_quat(t.rotation)};
  }
  if (const auto* c = std::get_if<Capsulef>(&d.shape)) {
    return Capsulef{t.apply_point(c->a), t.apply_point(c->b), c->radius * s};
  }
  if (const auto* c = std::get_if<Cylinderf>(&d.shape)) {
    return Cylinderf{t.apply_point(c->a), t.apply_point(c->b), c->radius * s};
  }
  if (const auto* p = std::get_if<ConvexPolygonf>(&d.shape)) {
    std::vector<Vec3f> v;
    for (const Vec3f& x : p->vertices()) v.push_back(t.apply_point(x));
    return ConvexPolygonf::make(v).value();
  }
  if (const auto* p = std::get_if<Planef>(&d.shape)) {
    const Vec3f n = normalize(p->normal);
    return Planef::from_point_normal(t.apply_point(n * p->offset), t.apply_normal(n));
  }
  return MeshInstance{std::get<MeshShape>(d.shape), t};
}

/// The nearest hit on one collider, from its description alone, for the default options (solid,
/// both faces); solids started inside hit at 0.
inline float reference_distance(const ColliderDesc& d, const Rayf& ray) {
  const WorldShape w = reference_world_shape(d);
  if (const auto* s = std::get_if<Spheref>(&w)) return ray_vs_sphere(*s, ray).t;
  if (const auto* b = std::get_if<Obbf>(&w)) return ray_vs_obb(*b, ray).t;
  if (const auto* c = std::get_if<Capsulef>(&w)) return ray_vs_capsule(*c, ray).t;
  if (const auto* c = std::get_if<Cylinderf>(&w)) return ray_vs_cylinder(*c, ray).t;
  if (const auto* p = std::get_if<ConvexPolygonf>(&w)) return ray_vs_polygon(*p, ray).t;
  if (const auto* p = std::get_if<Planef>(&w)) return ray_vs_plane(*p, ray).t;
  return std::get<WorldMesh>(w).intersect(ray).t;
}

/// Random rays through the cube: origins inside it, directions of random length.
inline QueryRay random_query_ray(std::mt19937& gen, float extent) {
  std::uniform_real_distribution<float> pos(-extent / 2, extent / 2), unit(-1, 1), length(0.1f, 10.0f);
  return {{pos(gen), pos(gen), pos(gen)}, Vec3f{unit(gen), unit(gen), unit(gen)} * length(gen)};
}

/// Two query hits alike in every field, floats to the bit.
inline bool same_bits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }
inline bool same_bits(Vec3f a, Vec3f b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z); }
inline bool same_bits(const QueryHit& a, const QueryHit& b) {
  return a.hit == b.hit && a.flags == b.flags && a.feature == b.feature && same_bits(a.distance, b.distance) &&
         same_bits(a.point, b.point) && same_bits(a.normal, b.normal) && same_bits(a.face_normal, b.face_normal) &&
         a.collider == b.collider && a.user_id == b.user_id && a.primitive == b.primitive && same_bits(a.u, b.u) &&
         same_bits(a.v, b.v) && same_bits(a.depth, b.depth);
}

}  // namespace hitscan::test
