#include "scene.hpp"

#include <cmath>
#include <numbers>
#include <random>

#include "../common/random.hpp"
#include "hitscan/math/quat.hpp"

namespace hitscan::bench {
namespace {

constexpr float kMinSize = 0.5f;
constexpr float kMaxSize = 5.0f;
// The cube's side for 1000 objects.
constexpr double kSideAt1000 = 100.0;

}  // namespace

ContactScene make_contact_scene(std::size_t objects, std::size_t frames, float jitter, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  ContactScene scene;
  scene.side = float(kSideAt1000 * std::cbrt(double(objects) / 1000.0));
  const std::size_t spheres = objects / 2, boxes = objects - spheres;
  auto random_point = [&] {
    const float x = uniform(rng, 0, scene.side), y = uniform(rng, 0, scene.side);
    return Vec3f{x, y, uniform(rng, 0, scene.side)};
  };
  std::vector<Vec3f> sphere_base(spheres), box_base(boxes);
  for (std::size_t i = 0; i < spheres; ++i) {
    sphere_base[i] = random_point();
    scene.radii.push_back(uniform(rng, kMinSize, kMaxSize));
  }
  for (std::size_t j = 0; j < boxes; ++j) {
    box_base[j] = random_point();
    const float hx = uniform(rng, kMinSize, kMaxSize), hy = uniform(rng, kMinSize, kMaxSize);
    const Vec3f half_extents{hx, hy, uniform(rng, kMinSize, kMaxSize)};
    const Quatf rotation = j % 2 == 0 ? random_rotation(rng) : Quatf::identity();
    scene.boxes.push_back(CachedObb<float>::from_obb(Obbf::from_quat({}, half_extents, rotation)));
  }
  auto jittered = [&](Vec3f p) {
    const float dx = uniform(rng, -jitter, jitter), dy = uniform(rng, -jitter, jitter);
    return p + Vec3f{dx, dy, uniform(rng, -jitter, jitter)};
  };
  scene.frames.resize(frames);
  for (Frame& frame : scene.frames) {
    for (const Vec3f p : sphere_base) frame.sphere_centers.push_back(jittered(p));
    for (const Vec3f p : box_base) frame.box_centers.push_back(jittered(p));
  }
  return scene;
}

Vec3f rotated_half_extents(const Mat3f& rotation, Vec3f h) {
  return abs(rotation.col[0]) * h.x + abs(rotation.col[1]) * h.y + abs(rotation.col[2]) * h.z;
}

Aabbf broadphase_box(Vec3f center, Vec3f extent, float size) {
  const ContactTolerancef tol;
  // The tolerance of a pair is taken at the larger object's size, at most the sum of the two
  // objects' own tolerances; 8 ulps (2^-20) of the largest coordinate cover the rounding of the
  // box's corners and of the exact test's differences of centres.
  const float largest = max_component(abs(center)) + max_component(extent);
  const float pad = tol.at_size(size) + largest * 0x1p-20f;
  const Vec3f grow{pad, pad, pad};
  return {center - extent - grow, center + extent + grow};
}

void broadphase_boxes(const ContactScene& scene, const Frame& frame, std::vector<Aabbf>& out) {
  const std::size_t spheres = scene.sphere_count(), boxes = scene.box_count();
  out.resize(spheres + boxes);
  for (std::size_t i = 0; i < spheres; ++i) {
    const float r = scene.radii[i];
    out[i] = broadphase_box(frame.sphere_centers[i], {r, r, r}, r);
  }
  for (std::size_t j = 0; j < boxes; ++j) {
    const Obbf& box = scene.boxes[j].box;
    out[spheres + j] = broadphase_box(frame.box_centers[j], rotated_half_extents(box.rotation, box.half_extents),
                                      max_component(box.half_extents));
  }
}

}  // namespace hitscan::bench
