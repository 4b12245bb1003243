#pragma once
// The interface every backend of the contacts suite implements: given where the objects are in
// a frame, every touching (sphere, box) pair and its contact. A backend keeps whatever it builds
// between passes (a warm tree, a Bullet world); a pass starts from the frame's centres, so
// updating that state is part of the pass.

#include <memory>
#include <string>
#include <vector>

#include "scene.hpp"

namespace hitscan::bench {

class Backend {
 public:
  virtual ~Backend() = default;
  /// The name written to the JSON lines ("two_stage_pack8", "bullet_sphere_box", ...).
  virtual const std::string& name() const = 0;
  /// True for hitscan's backends, false for the reference library's.
  virtual bool is_hitscan() const { return true; }
  /// One pass: every touching (sphere, box) pair of `frame` into `out` (cleared first), in any
  /// order, each pair once.
  virtual void pass(const Frame& frame, std::vector<PairContact>& out) = 0;
};

// hitscan, every pair (brute_force_backends.cpp). The scene must outlive the backend.

/// Every sphere against every box with the scalar overlap(Sphere, Obb), contact() for the
/// touching pairs.
std::unique_ptr<Backend> make_brute_force(const ContactScene& scene);
/// Every sphere against the boxes in 8-wide structure-of-arrays packs (ObbPack<Float8>), the
/// exact test alone: the packs' circumradii are set to +inf so that the bounding-sphere stage
/// never rejects.
std::unique_ptr<Backend> make_brute_force_soa8(const ContactScene& scene);
/// Every pair with the scalar two-stage test, overlap(Sphere, CachedObb).
std::unique_ptr<Backend> make_two_stage(const ContactScene& scene);
/// The two-stage test 8 boxes at a time, overlap_sphere_obbs over ObbPack<Float8>.
std::unique_ptr<Backend> make_two_stage_pack8(const ContactScene& scene);

// hitscan, broadphase then the exact test (broadphase_backends.cpp).

/// bvh::UniformGrid rebuilt every pass over all objects' boxes.
std::unique_ptr<Backend> make_uniform_grid(const ContactScene& scene);
/// bvh::DynamicTree over all objects, built once and updated with move() every pass.
std::unique_ptr<Backend> make_tree_warm(const ContactScene& scene);
/// The same warm tree with the (sphere, box) pairs whose fat boxes overlap kept between passes,
/// found again only for the objects whose proxies move() re-inserted, and move() called only for
/// objects that left their fat boxes (a pair cache as in Box2D's b2BroadPhase, kept by the
/// benchmark: the library has no pair manager).
std::unique_ptr<Backend> make_tree_warm_pair_cache(const ContactScene& scene);
/// bvh::DynamicTree over all objects, built by insertion every pass.
std::unique_ptr<Backend> make_tree_cold(const ContactScene& scene);

// Bullet 3 (bullet_backends.cpp).

struct BulletSettings {
  /// btSphereBoxCollisionAlgorithm registered for (sphere, box) and (box, sphere); otherwise
  /// the default configuration's GJK / EPA path (btConvexConvexAlgorithm).
  bool sphere_box_algorithm = true;
  /// A world made, filled, stepped once and destroyed every pass; otherwise one world kept.
  bool from_scratch = false;
};

std::unique_ptr<Backend> make_bullet(const ContactScene& scene, const BulletSettings& settings);

// Jolt Physics (jolt_backend.cpp), when the benchmark is built with it (HITSCAN_BENCH_JOLT).

/// The boxes as static bodies of a PhysicsSystem moved every pass, one CollideShape per sphere.
std::unique_ptr<Backend> make_jolt(const ContactScene& scene);

}  // namespace hitscan::bench
