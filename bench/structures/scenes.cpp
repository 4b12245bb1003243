#include "scenes.hpp"

#include <cmath>
#include <numbers>
#include <random>

namespace hitscan::bench {
namespace {

// Uniform in a cube of side 200 (about a tenth of the volume covered), boxes of side 1 to 3.
void uniform_boxes(std::size_t n, std::mt19937_64& rng, std::vector<Aabbf>& boxes) {
  std::uniform_real_distribution<float> position(0.0f, 200.0f), half(0.5f, 1.5f);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3f c{position(rng), position(rng), position(rng)};
    boxes.push_back(Aabbf::from_center_half_extents(c, {half(rng), half(rng), half(rng)}));
  }
}

// Eight Gaussian clusters (sigma 4) in the same cube, boxes of side 0.5 to 1.5: dense lumps in
// empty space, the case a uniform grid's single cell size fits worst.
void clustered_boxes(std::size_t n, std::mt19937_64& rng, std::vector<Aabbf>& boxes) {
  std::uniform_real_distribution<float> position(20.0f, 180.0f), half(0.25f, 0.75f);
  std::normal_distribution<float> spread(0.0f, 4.0f);
  Vec3f centres[8];
  for (Vec3f& c : centres) c = {position(rng), position(rng), position(rng)};
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3f c = centres[i % 8] + Vec3f{spread(rng), spread(rng), spread(rng)};
    boxes.push_back(Aabbf::from_center_half_extents(c, {half(rng), half(rng), half(rng)}));
  }
}

// A latitude-longitude sphere of radius 100 about (100, 100, 100), its radius rippled by a few
// sines and a little noise so that no two triangles are alike: 2 rows columns triangles.
void mesh_boxes(std::size_t triangles, std::mt19937_64& rng, std::vector<Aabbf>& boxes) {
  const auto rows = static_cast<std::size_t>(std::sqrt(double(triangles) / 4.0));
  const std::size_t columns = 2 * rows;
  std::uniform_real_distribution<float> noise(-0.05f, 0.05f);
  std::vector<Vec3f> v((rows + 1) * columns);
  for (std::size_t r = 0; r <= rows; ++r) {
    const double theta = std::numbers::pi * double(r) / double(rows);
    for (std::size_t c = 0; c < columns; ++c) {
      const double phi = 2.0 * std::numbers::pi * double(c) / double(columns);
      const double radius = 100.0 + 3.0 * std::sin(5 * theta) * std::cos(7 * phi) + 1.5 * std::sin(17 * phi + 3 * theta) +
                            noise(rng);
      v[r * columns + c] = {float(100 + radius * std::sin(theta) * std::cos(phi)),
                            float(100 + radius * std::sin(theta) * std::sin(phi)), float(100 + radius * std::cos(theta))};
    }
  }
  auto triangle = [&](const Vec3f& a, const Vec3f& b, const Vec3f& c) {
    Aabbf box = Aabbf::from_point(a);
    box.grow(b), box.grow(c);
    boxes.push_back(box);
  };
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < columns; ++c) {
      const std::size_t c1 = (c + 1) % columns;
      const Vec3f& a = v[r * columns + c];
      const Vec3f& b = v[r * columns + c1];
      const Vec3f& d = v[(r + 1) * columns + c];
      const Vec3f& e = v[(r + 1) * columns + c1];
      triangle(a, b, e);
      triangle(a, e, d);
    }
  }
}

}  // namespace

StructureScene make_structure_scene(SceneKind kind, std::size_t objects, std::size_t rays, std::size_t probes,
                                    std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  StructureScene scene;
  const char* names[] = {"uniform", "clustered", "mesh"};
  scene.name = names[int(kind)];
  if (kind == SceneKind::uniform) uniform_boxes(objects, rng, scene.boxes);
  if (kind == SceneKind::clustered) clustered_boxes(objects, rng, scene.boxes);
  if (kind == SceneKind::mesh) mesh_boxes(objects, rng, scene.boxes);
  double log_side = 0;
  for (const Aabbf& b : scene.boxes) {
    scene.bounds.grow(b);
    const Vec3f e = b.extent();
    log_side += std::log(double(e.x + e.y + e.z) / 3.0 + 1e-6);
  }
  const float typical = float(std::exp(log_side / double(scene.boxes.size())));

  const Vec3f grow = scene.bounds.extent() * 0.1f;
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::normal_distribution<float> gauss(0.0f, 1.0f);
  const Vec3f lo = scene.bounds.min - grow, size = scene.bounds.extent() + grow * 2.0f;
  for (std::size_t i = 0; i < rays; ++i) {
    Rayf ray;
    ray.origin = lo + Vec3f{unit(rng) * size.x, unit(rng) * size.y, unit(rng) * size.z};
    do {
      ray.dir = {gauss(rng), gauss(rng), gauss(rng)};
    } while (!(length(ray.dir) > 1e-3f));
    ray.dir = normalize(ray.dir);
    scene.rays.push_back(ray);
  }
  std::uniform_int_distribution<std::size_t> pick(0, scene.boxes.size() - 1);
  for (std::size_t i = 0; i < probes; ++i) {
    const Vec3f c = scene.boxes[pick(rng)].center() + Vec3f{gauss(rng), gauss(rng), gauss(rng)} * typical;
    const float h = typical * (0.5f + 1.5f * unit(rng));
    scene.probes.push_back(Aabbf::from_center_half_extents(c, {h, h, h}));
  }
  return scene;
}

}  // namespace hitscan::bench
