#include "scenario.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

#include "../common/random.hpp"

namespace hitscan::bench {
namespace {

constexpr float kTorusMajor = 0.8f;
constexpr float kTorusMinor = 0.3f;
constexpr std::uint32_t kTorusRings = 16;  // around the major circle
constexpr std::uint32_t kTorusSides = 8;   // around the tube

// A direction uniform on the unit sphere (Marsaglia's rejection from the cube's ball).
Vec3f random_direction(std::mt19937_64& rng) {
  for (;;) {
    const Vec3f v{uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)};
    const float n2 = dot(v, v);
    if (n2 > 1e-4f && n2 <= 1.0f) return v * (1.0f / std::sqrt(n2));
  }
}

Vec3f random_point(std::mt19937_64& rng, float side) {
  return {uniform(rng, 0, side), uniform(rng, 0, side), uniform(rng, 0, side)};
}

// A closed torus about the y axis: kTorusRings x kTorusSides quads, two triangles each, wound so
// that the normals point out of the tube.
std::shared_ptr<const TriangleMesh> make_torus() {
  std::vector<Vec3f> positions;
  std::vector<TriangleMesh::Indices> triangles;
  for (std::uint32_t i = 0; i < kTorusRings; ++i) {
    const double u = 2 * std::numbers::pi * i / kTorusRings;
    for (std::uint32_t j = 0; j < kTorusSides; ++j) {
      const double v = 2 * std::numbers::pi * j / kTorusSides;
      const double r = kTorusMajor + kTorusMinor * std::cos(v);
      positions.push_back({float(r * std::cos(u)), float(kTorusMinor * std::sin(v)), float(r * std::sin(u))});
    }
  }
  auto at = [](std::uint32_t i, std::uint32_t j) { return (i % kTorusRings) * kTorusSides + j % kTorusSides; };
  for (std::uint32_t i = 0; i < kTorusRings; ++i) {
    for (std::uint32_t j = 0; j < kTorusSides; ++j) {
      triangles.push_back({at(i, j), at(i, j + 1), at(i + 1, j)});
      triangles.push_back({at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)});
    }
  }
  Result<TriangleMesh> mesh = TriangleMesh::make(std::move(positions), std::move(triangles));
  if (!mesh) throw std::runtime_error("torus: " + mesh.status().message());
  return std::make_shared<const TriangleMesh>(std::move(mesh).value());
}

}  // namespace

const char* shape_kind_name(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::sphere: return "sphere";
    case ShapeKind::box: return "box";
    case ShapeKind::capsule: return "capsule";
    case ShapeKind::cylinder: return "cylinder";
    case ShapeKind::mesh: return "mesh";
  }
  return "?";
}

Scenario make_scenario(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Scenario scenario;
  scenario.side = kSidePerCbrt * float(std::cbrt(double(n)));
  scenario.mesh = make_torus();
  Result<MeshBvh> bvh = MeshBvh::build(scenario.mesh);
  if (!bvh) throw std::runtime_error("torus tree: " + bvh.status().message());
  scenario.mesh_bvh = std::make_shared<const MeshBvh>(std::move(bvh).value());
  scenario.mesh_radius = kTorusMajor + kTorusMinor;
  scenario.colliders.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    SceneCollider c;
    const float pick = uniform(rng, 0, 1);
    c.kind = pick < 0.25f   ? ShapeKind::sphere
             : pick < 0.45f ? ShapeKind::box
             : pick < 0.60f ? ShapeKind::capsule
             : pick < 0.75f ? ShapeKind::cylinder
                            : ShapeKind::mesh;
    switch (c.kind) {
      case ShapeKind::sphere: c.size = {uniform(rng, 0.3f, 1.2f), 0, 0}; break;
      case ShapeKind::box:
        c.size = {uniform(rng, 0.3f, 1.2f), uniform(rng, 0.3f, 1.2f), uniform(rng, 0.3f, 1.2f)};
        break;
      case ShapeKind::capsule: c.size = {uniform(rng, 0.2f, 0.6f), uniform(rng, 0.3f, 1.2f), 0}; break;
      case ShapeKind::cylinder: c.size = {uniform(rng, 0.3f, 1.0f), uniform(rng, 0.3f, 1.2f), 0}; break;
      case ShapeKind::mesh: c.size = {uniform(rng, 0.6f, 1.6f), 0, 0}; break;
    }
    c.rotation = random_rotation(rng);
    c.position = random_point(rng, scenario.side);
    scenario.colliders.push_back(c);
  }
  return scenario;
}

ColliderDesc to_collider_desc(const Scenario& scenario, std::size_t index) {
  const SceneCollider& c = scenario.colliders[index];
  ColliderDesc desc;
  desc.transform.rotation = c.rotation;
  desc.transform.translation = c.position;
  desc.user_id = index;
  switch (c.kind) {
    case ShapeKind::sphere: desc.shape = Spheref{{0, 0, 0}, c.size.x}; break;
    case ShapeKind::box: desc.shape = Obbf{{0, 0, 0}, c.size, Mat3f::identity()}; break;
    case ShapeKind::capsule: desc.shape = Capsulef{{0, -c.size.y, 0}, {0, c.size.y, 0}, c.size.x}; break;
    case ShapeKind::cylinder: desc.shape = Cylinderf{{0, -c.size.y, 0}, {0, c.size.y, 0}, c.size.x}; break;
    case ShapeKind::mesh:
      desc.shape = MeshShape(scenario.mesh_bvh);
      desc.transform.scale = {c.size.x, c.size.x, c.size.x};
      break;
  }
  return desc;
}

QuerySet make_queries(const Scenario& scenario, const QueryCounts& counts, std::uint64_t seed, TouchesAnything touches,
                      const void* context) {
  std::mt19937_64 rng(seed);
  QuerySet set;
  const float side = scenario.side;
  // A start outside every collider, so that no backend's convention for starting inside a solid
  // (hit at 0, exit, or nothing) enters the comparison.
  auto clear_start = [&](float radius) {
    for (;;) {
      const Vec3f p = random_point(rng, side);
      if (!touches(context, Spheref{p, radius})) return p;
    }
  };
  set.rays.reserve(counts.rays);
  for (std::size_t i = 0; i < counts.rays; ++i) {
    const Vec3f origin = clear_start(0.0f);
    set.rays.push_back({origin, random_direction(rng), side / 4});
  }
  set.spheres.reserve(counts.spheres);
  for (std::size_t i = 0; i < counts.spheres; ++i) {
    const Vec3f center = random_point(rng, side);
    set.spheres.push_back({center, uniform(rng, 0.5f, 2.0f)});
  }
  set.sweeps.reserve(counts.sweeps);
  for (std::size_t i = 0; i < counts.sweeps; ++i) {
    const float radius = uniform(rng, 0.2f, 0.6f);
    const Vec3f center = clear_start(radius);
    set.sweeps.push_back({{center, radius}, random_direction(rng), side / 8});
  }
  set.capsule_sweeps.reserve(counts.capsule_sweeps);
  for (std::size_t i = 0; i < counts.capsule_sweeps; ++i) {
    const float radius = uniform(rng, 0.2f, 0.5f), half_length = uniform(rng, 0.3f, 1.0f);
    const Quatf rotation = random_rotation(rng);
    // Clear when the ball around the whole capsule is.
    const Vec3f center = clear_start(radius + half_length);
    const Vec3f axis = rotation.rotate(Vec3f{0, 1, 0}) * half_length;
    set.capsule_sweeps.push_back(
        {{{center - axis, center + axis, radius}, random_direction(rng), side / 8}, rotation, half_length});
  }
  return set;
}

void make_moves(const Scenario& scenario, std::size_t count, std::uint64_t seed, std::vector<Move>& out,
                std::vector<Move>& back) {
  std::mt19937_64 rng(seed);
  const std::size_t n = scenario.colliders.size();
  count = std::min(count, n);
  // Distinct indices: a partial Fisher-Yates shuffle.
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = std::uint32_t(i);
  out.clear();
  back.clear();
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t j = i + std::size_t(rng() % (n - i));
    std::swap(order[i], order[j]);
    const SceneCollider& c = scenario.colliders[order[i]];
    out.push_back({order[i], random_point(rng, scenario.side), random_rotation(rng)});
    back.push_back({order[i], c.position, c.rotation});
  }
}

std::vector<std::vector<Move>> make_drift(const Scenario& scenario, std::size_t count, int frames, float step,
                                          std::uint64_t seed) {
  std::vector<Move> start, unused;
  make_moves(scenario, count, seed, unused, start);  // `start`: the chosen colliders as they are
  std::mt19937_64 rng(seed ^ 0xD21F7ull);
  std::vector<Vec3f> directions(start.size());
  for (Vec3f& d : directions) d = random_direction(rng);
  std::vector<std::vector<Move>> batches;
  for (int k = 1; k <= 2 * frames; ++k) {
    const int frame = k <= frames ? k : 2 * frames - k;  // out to `frames`, then back to 0
    std::vector<Move>& batch = batches.emplace_back(start);
    for (std::size_t i = 0; i < batch.size(); ++i) batch[i].position += directions[i] * (step * float(frame));
  }
  return batches;
}

}  // namespace hitscan::bench
