// hitscan's backends that test every (sphere, box) pair: the scalar exact test, the scalar
// two-stage test, and both 8 boxes at a time in structure-of-arrays packs. Each pass moves the
// boxes to the frame's centres (their rotations are fixed, prepared once in the scene), then
// tests every sphere against every box and takes contact() of each touching pair.

#include <limits>
#include <span>

#include "backend.hpp"
#include "hitscan/geometry/contact_box_pack.hpp"
#include "hitscan/geometry/contact_sphere_box.hpp"
#include "hitscan/math/simd.hpp"

namespace hitscan::bench {
namespace {

using Pack = ObbPack<simd::Float8>;

class ScalarBruteForce final : public Backend {
 public:
  ScalarBruteForce(const ContactScene& scene, bool two_stage)
      : scene_(scene), boxes_(scene.boxes), two_stage_(two_stage), name_(two_stage ? "two_stage" : "brute_force") {}

  const std::string& name() const override { return name_; }

  void pass(const Frame& frame, std::vector<PairContact>& out) override {
    out.clear();
    for (std::size_t j = 0; j < boxes_.size(); ++j) boxes_[j].box.center = frame.box_centers[j];
    const auto boxes = static_cast<std::uint32_t>(boxes_.size());
    for (std::uint32_t i = 0; i < scene_.sphere_count(); ++i) {
      const Spheref sphere{frame.sphere_centers[i], scene_.radii[i]};
      for (std::uint32_t j = 0; j < boxes; ++j) {
        const bool touching = two_stage_ ? overlap(sphere, boxes_[j]) : overlap(sphere, boxes_[j].box);
        if (touching) out.push_back({i, j, contact(sphere, boxes_[j].box)});
      }
    }
  }

 private:
  const ContactScene& scene_;
  std::vector<CachedObb<float>> boxes_;
  bool two_stage_;
  std::string name_;
};

class PackedBruteForce final : public Backend {
 public:
  PackedBruteForce(const ContactScene& scene, bool two_stage)
      : scene_(scene),
        boxes_(scene.boxes),
        packs_(obb_pack_count<simd::Float8>(scene.box_count())),
        touching_(scene.box_count()),
        two_stage_(two_stage),
        name_(two_stage ? "two_stage_pack8" : "brute_force_soa8") {}

  const std::string& name() const override { return name_; }

  void pass(const Frame& frame, std::vector<PairContact>& out) override {
    out.clear();
    for (std::size_t j = 0; j < boxes_.size(); ++j) boxes_[j].box.center = frame.box_centers[j];
    pack_obbs<simd::Float8>(boxes_, packs_);
    if (!two_stage_) {
      // A bounding sphere of infinite radius rejects nothing: every lane takes the exact test.
      for (Pack& pack : packs_) pack.circumradius = simd::Float8(std::numeric_limits<float>::infinity());
    }
    for (std::uint32_t i = 0; i < scene_.sphere_count(); ++i) {
      const Spheref sphere{frame.sphere_centers[i], scene_.radii[i]};
      const std::size_t count = overlap_sphere_obbs<simd::Float8>(packs_, sphere, touching_);
      for (std::size_t k = 0; k < count; ++k) {
        const std::uint32_t j = touching_[k];
        out.push_back({i, j, contact(sphere, boxes_[j].box)});
      }
    }
  }

 private:
  const ContactScene& scene_;
  std::vector<CachedObb<float>> boxes_;
  std::vector<Pack> packs_;
  // As many entries as boxes: the touching boxes of one sphere always fit.
  std::vector<std::uint32_t> touching_;
  bool two_stage_;
  std::string name_;
};

}  // namespace

std::unique_ptr<Backend> make_brute_force(const ContactScene& scene) {
  return std::make_unique<ScalarBruteForce>(scene, false);
}

std::unique_ptr<Backend> make_brute_force_soa8(const ContactScene& scene) {
  return std::make_unique<PackedBruteForce>(scene, false);
}

std::unique_ptr<Backend> make_two_stage(const ContactScene& scene) {
  return std::make_unique<ScalarBruteForce>(scene, true);
}

std::unique_ptr<Backend> make_two_stage_pack8(const ContactScene& scene) {
  return std::make_unique<PackedBruteForce>(scene, true);
}

}  // namespace hitscan::bench
