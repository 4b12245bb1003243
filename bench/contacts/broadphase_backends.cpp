// hitscan's broadphase backends: a uniform grid and a dynamic AABB tree over the boxes of all
// objects, spheres and boxes alike (objects 0 .. S-1 the spheres, S .. S+B-1 the boxes), as a
// physics engine would hold them. The broadphase returns every pair of objects whose boxes
// overlap; the (sphere, box) pairs among them take the two-stage overlap(Sphere, CachedObb) and,
// when they touch, contact(). Sphere-sphere and box-box candidates are dropped, as a collision
// filter would.

#include <algorithm>
#include <utility>

#include "backend.hpp"
#include "hitscan/bvh/broad_phase.hpp"
#include "hitscan/bvh/dynamic_tree.hpp"
#include "hitscan/bvh/uniform_grid.hpp"

namespace hitscan::bench {
namespace {

// The exact test of objects a and b (in either order) when one is a sphere and the other a box.
class PairTester {
 public:
  PairTester(const ContactScene& scene, std::vector<CachedObb<float>>& boxes)
      : scene_(scene), boxes_(boxes), spheres_(static_cast<std::uint32_t>(scene.sphere_count())) {}

  void test(std::uint32_t a, std::uint32_t b, const Frame& frame, std::vector<PairContact>& out) const {
    if (a > b) std::swap(a, b);
    if (a >= spheres_ || b < spheres_) return;
    const std::uint32_t j = b - spheres_;
    const Spheref sphere{frame.sphere_centers[a], scene_.radii[a]};
    // Most candidates do not touch: the two-stage overlap, no square root, before contact().
    if (overlap(sphere, boxes_[j])) out.push_back({a, j, contact(sphere, boxes_[j].box)});
  }

  // Moves the boxes to the frame's centres.
  void place_boxes(const Frame& frame) {
    for (std::size_t j = 0; j < boxes_.size(); ++j) boxes_[j].box.center = frame.box_centers[j];
  }

 private:
  const ContactScene& scene_;
  std::vector<CachedObb<float>>& boxes_;
  std::uint32_t spheres_;
};

class GridBackend final : public Backend {
 public:
  explicit GridBackend(const ContactScene& scene) : scene_(scene), boxes_(scene.boxes), tester_(scene, boxes_) {}

  const std::string& name() const override { return name_; }

  void pass(const Frame& frame, std::vector<PairContact>& out) override {
    out.clear();
    tester_.place_boxes(frame);
    broadphase_boxes(scene_, frame, bounds_);
    grid_.update(bounds_);
    grid_.find_pairs([&](std::uint32_t a, std::uint32_t b) { tester_.test(a, b, frame, out); });
  }

 private:
  const ContactScene& scene_;
  std::vector<CachedObb<float>> boxes_;
  PairTester tester_;
  std::vector<Aabbf> bounds_;
  bvh::UniformGrid grid_;
  std::string name_ = "uniform_grid";
};

enum class TreeMode {
  /// A new tree every pass, filled by insertion.
  cold,
  /// One tree, move() every pass, then find_pairs over the whole tree.
  warm,
  /// bvh::BroadPhase: one tree, move() every pass, and the (sphere, box) pairs whose fat boxes
  /// overlap kept from pass to pass.
  warm_pair_cache,
};

// The proxies carry their object's index as the user value (spheres first, then boxes);
// object_of_ maps a proxy id (a node index) back to it without going through the tree.
class TreeBackend final : public Backend {
 public:
  TreeBackend(const ContactScene& scene, TreeMode mode)
      : scene_(scene),
        boxes_(scene.boxes),
        tester_(scene, boxes_),
        mode_(mode),
        spheres_(static_cast<std::uint32_t>(scene.sphere_count())) {
    name_ = mode == TreeMode::cold ? "tree_cold" : mode == TreeMode::warm ? "tree_warm" : "tree_warm_pair_cache";
    if (mode_ == TreeMode::cold) return;
    // The warm tree starts from the first frame, outside the timed passes.
    const Frame& first = scene.frames.front();
    broadphase_boxes(scene_, first, bounds_);
    if (mode_ == TreeMode::warm_pair_cache) {
      proxies_.resize(bounds_.size());
      for (std::uint32_t k = 0; k < bounds_.size(); ++k) proxies_[k] = broad_phase_.add(bounds_[k], k);
      broad_phase_.update_pairs(sphere_box());
    } else {
      insert_all();
    }
    previous_ = first;
  }

  const std::string& name() const override { return name_; }

  void pass(const Frame& frame, std::vector<PairContact>& out) override {
    out.clear();
    tester_.place_boxes(frame);
    broadphase_boxes(scene_, frame, bounds_);
    if (mode_ == TreeMode::cold) {
      tree_ = bvh::DynamicTree();
      insert_all();
    } else {
      move_all(frame);
    }
    if (mode_ == TreeMode::warm_pair_cache) {
      broad_phase_.update_pairs(sphere_box());
      // In object order (spheres, then boxes), so that the exact tests walk the arrays forwards.
      for (const bvh::BroadPhasePair& p : broad_phase_.pairs()) {
        tester_.test(static_cast<std::uint32_t>(p.first), static_cast<std::uint32_t>(p.second), frame, out);
      }
      return;
    }
    tree_.find_pairs([&](std::uint32_t a, std::uint32_t b) { tester_.test(object_of_[a], object_of_[b], frame, out); });
  }

 private:
  // Only the (sphere, box) pairs are kept.
  struct SphereBox {
    std::uint64_t spheres;
    bool operator()(std::uint64_t a, std::uint64_t b) const { return a < spheres && b >= spheres; }
  };
  SphereBox sphere_box() const { return {spheres_}; }

  void insert_all() {
    proxies_.resize(bounds_.size());
    for (std::uint32_t k = 0; k < bounds_.size(); ++k) proxies_[k] = tree_.insert(bounds_[k], k);
    object_of_.resize(2 * bounds_.size());
    for (std::uint32_t k = 0; k < bounds_.size(); ++k) object_of_[proxies_[k]] = k;
  }

  // Each object moves by its displacement since the last pass, passed on to the tree (or the
  // broad phase, which skips an object still inside its fat box).
  void move_all(const Frame& frame) {
    auto move = [&](std::uint32_t k, Vec3f displacement) {
      if (mode_ == TreeMode::warm_pair_cache) broad_phase_.move(proxies_[k], bounds_[k], displacement);
      else tree_.move(proxies_[k], bounds_[k], displacement);
    };
    for (std::uint32_t i = 0; i < spheres_; ++i) move(i, frame.sphere_centers[i] - previous_.sphere_centers[i]);
    for (std::uint32_t j = 0; j < scene_.box_count(); ++j) {
      move(spheres_ + j, frame.box_centers[j] - previous_.box_centers[j]);
    }
    previous_.sphere_centers.assign(frame.sphere_centers.begin(), frame.sphere_centers.end());
    previous_.box_centers.assign(frame.box_centers.begin(), frame.box_centers.end());
  }

  const ContactScene& scene_;
  std::vector<CachedObb<float>> boxes_;
  PairTester tester_;
  TreeMode mode_;
  std::uint32_t spheres_;
  std::string name_;
  std::vector<Aabbf> bounds_;
  bvh::DynamicTree tree_;
  bvh::BroadPhase broad_phase_;
  std::vector<std::uint32_t> proxies_;
  std::vector<std::uint32_t> object_of_;
  Frame previous_;
};

}  // namespace

std::unique_ptr<Backend> make_uniform_grid(const ContactScene& scene) { return std::make_unique<GridBackend>(scene); }

std::unique_ptr<Backend> make_tree_warm(const ContactScene& scene) {
  return std::make_unique<TreeBackend>(scene, TreeMode::warm);
}

std::unique_ptr<Backend> make_tree_warm_pair_cache(const ContactScene& scene) {
  return std::make_unique<TreeBackend>(scene, TreeMode::warm_pair_cache);
}

std::unique_ptr<Backend> make_tree_cold(const ContactScene& scene) {
  return std::make_unique<TreeBackend>(scene, TreeMode::cold);
}

}  // namespace hitscan::bench
