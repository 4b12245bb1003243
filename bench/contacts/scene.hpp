#pragma once
// The scenario of the contacts suite: n / 2 spheres and n / 2 boxes, every
// other box rotated by a random quaternion and the rest axis-aligned, centres uniform in a cube,
// radii and half extents uniform in [0.5, 5]. The cube's side is 100 for 1000 objects and grows
// as the cube root of n, so that the density, and with it the number of touching pairs per
// object, stays the same at every size.
//
// Objects jitter between passes: frame f places each object at its base position plus an offset
// uniform in [-jitter, jitter] per axis, drawn afresh for every frame (not a random walk, so a
// backend going from the last frame back to the first sees a jump no larger than between any two
// frames). Rotations stay fixed. Every backend runs the same frames in the same order.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hitscan/geometry/contact.hpp"
#include "hitscan/geometry/contact_sphere_box.hpp"
#include "hitscan/math/aabb.hpp"
#include "hitscan/math/mat3.hpp"

namespace hitscan::bench {

/// The default largest per-axis offset of an object from its base position in a frame: within
/// both Bullet's absolute broadphase margin (0.05) and the dynamic tree's (a tenth of the box's
/// mean side, at least 0.1 here), so that neither re-inserts anything in the warm passes.
inline constexpr float kDefaultJitter = 0.02f;

/// Where the objects are in one pass: sphere_centers[i] for sphere i, box_centers[j] for box j.
struct Frame {
  std::vector<Vec3f> sphere_centers;
  std::vector<Vec3f> box_centers;
};

struct ContactScene {
  /// Side of the cube the base positions are drawn in.
  float side = 0;
  std::vector<float> radii;
  /// Box j centred at the origin, prepared once by CachedObb::from_obb from quaternion j (the
  /// identity for odd j): every backend, Bullet's included, takes its half extents and its
  /// re-orthonormalised rotation from here, so that all of them test the same boxes.
  std::vector<CachedObb<float>> boxes;
  std::vector<Frame> frames;

  std::size_t sphere_count() const { return radii.size(); }
  std::size_t box_count() const { return boxes.size(); }
};

/// The scene of `objects` objects (objects / 2 spheres, the rest boxes) and `frames` frames
/// jittered by up to `jitter`, from `seed`. Deterministic.
ContactScene make_contact_scene(std::size_t objects, std::size_t frames, float jitter, std::uint64_t seed);

/// One touching (sphere, box) pair and its contact, the sphere as shape A, the box as B (normal
/// from the box towards the sphere, depth > 0 overlapping).
struct PairContact {
  std::uint32_t sphere = 0;
  std::uint32_t box = 0;
  Contactf contact;
};

/// The box a broadphase is given for an object of world half extents `extent` (a sphere's radius
/// on every axis, rotated_half_extents for a box) and size `size` (radius, largest half extent):
/// the tight box grown by the contact tolerance at that size and by a few ulps of its coordinates,
/// so that no pair the exact test calls touching (a separation up to the tolerance) is culled by a
/// box test.
Aabbf broadphase_box(Vec3f center, Vec3f extent, float size);

/// Half extents of the world box of an oriented box: |R| h.
Vec3f rotated_half_extents(const Mat3f& rotation, Vec3f half_extents);

/// Every broadphase box of a frame into `out` (resized): the spheres first (object i), then the
/// boxes (object sphere_count + j), the boxes' world extents computed from their rotations.
void broadphase_boxes(const ContactScene& scene, const Frame& frame, std::vector<Aabbf>& out);

}  // namespace hitscan::bench
