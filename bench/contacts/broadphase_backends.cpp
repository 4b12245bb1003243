// hitscan's broadphase backends: a uniform grid and a dynamic AABB tree over the boxes of all
// objects, spheres and boxes alike (objects 0 .. S-1 the spheres, S .. S+B-1 the boxes), as a
// physics engine would hold them. The broadphase returns every pair of objects whose boxes
// overlap; the (sphere, box) pairs among them take the two-stage overlap(Sphere, CachedObb) and,
// when they touch, contact(). Sphere-sphere and box-box candidates are dropped, as a collision
// filter would.

#include <algorithm>
#include <utility>

#include "backend.hpp"
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
  /// One tree, move() every pass, and the (sphere, box) pairs whose fat boxes overlap kept from
  /// pass to pass.
  warm_pair_cache,
};

// The tree's proxies carry their object's index as the user value; object_of_ maps a proxy id
// (a node index) back to it without going through the tree.
//
// The pair cache (TreeMode::warm_pair_cache) is the scheme of Box2D's b2BroadPhase and of
// Bullet's btDbvtBroadphase, built here on DynamicTree's public interface: which fat boxes
// overlap changes only when move() re-inserts a proxy, so the pairs are kept, and after a pass
// in which some proxies were re-inserted, the pairs of those proxies are dropped and found again
// by querying the tree with their new fat boxes. The pairs are then exactly those find_pairs
// would report, filtered to (sphere, box).
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
    insert_all();
    previous_ = first;
    if (mode_ == TreeMode::warm_pair_cache) {
      moved_flag_.assign(bounds_.size(), 0);
      tree_.find_pairs([&](std::uint32_t a, std::uint32_t b) { keep_if_sphere_box(object_of_[a], object_of_[b]); });
      sort_pairs();
    }
  }

  const std::string& name() const override { return name_; }
  bool library_only() const override { return mode_ != TreeMode::warm_pair_cache; }

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
      if (!moved_.empty()) refresh_pairs();
      for (const CachedPair& p : pairs_) tester_.test(p.sphere, spheres_ + p.box, frame, out);
      return;
    }
    tree_.find_pairs([&](std::uint32_t a, std::uint32_t b) { tester_.test(object_of_[a], object_of_[b], frame, out); });
  }

 private:
  struct CachedPair {
    std::uint32_t sphere, box;
  };

  void insert_all() {
    proxies_.resize(bounds_.size());
    for (std::uint32_t k = 0; k < bounds_.size(); ++k) proxies_[k] = tree_.insert(bounds_[k], k);
    object_of_.resize(2 * bounds_.size());
    for (std::uint32_t k = 0; k < bounds_.size(); ++k) object_of_[proxies_[k]] = k;
  }

  // Each object moves by its displacement since the last pass, passed on to the tree; the
  // objects whose proxies were re-inserted go to moved_. With the pair cache, move() is called
  // only for an object whose box left its fat box, as Box2D's solver does before it moves a
  // proxy; a fat box is then never shrunk while its object stays inside (move() would re-insert
  // a proxy whose fat box has grown far too large for it, which jitter never causes).
  void move_all(const Frame& frame) {
    moved_.clear();
    const bool check_first = mode_ == TreeMode::warm_pair_cache;
    auto move = [&](std::uint32_t k, Vec3f displacement) {
      const std::uint32_t proxy = proxies_[k];
      const Aabbf& fat = tree_.fat_box(proxy);
      if (check_first && fat.contains(bounds_[k].min) && fat.contains(bounds_[k].max)) return;
      if (tree_.move(proxy, bounds_[k], displacement)) moved_.push_back(k);
    };
    for (std::uint32_t i = 0; i < spheres_; ++i) move(i, frame.sphere_centers[i] - previous_.sphere_centers[i]);
    for (std::uint32_t j = 0; j < scene_.box_count(); ++j) {
      move(spheres_ + j, frame.box_centers[j] - previous_.box_centers[j]);
    }
    previous_.sphere_centers.assign(frame.sphere_centers.begin(), frame.sphere_centers.end());
    previous_.box_centers.assign(frame.box_centers.begin(), frame.box_centers.end());
  }

  void keep_if_sphere_box(std::uint32_t a, std::uint32_t b) {
    if (a > b) std::swap(a, b);
    if (a < spheres_ && b >= spheres_) pairs_.push_back({a, b - spheres_});
  }

  void refresh_pairs() {
    for (const std::uint32_t k : moved_) moved_flag_[k] = 1;
    std::erase_if(pairs_, [&](const CachedPair& p) { return moved_flag_[p.sphere] || moved_flag_[spheres_ + p.box]; });
    for (const std::uint32_t k : moved_) {
      tree_.query(tree_.fat_box(proxies_[k]), [&](std::uint32_t proxy) {
        const std::uint32_t other = object_of_[proxy];
        // A pair of two moved objects is found from both; it is kept from the lower one's query.
        if (other != k && !(moved_flag_[other] && other < k)) keep_if_sphere_box(k, other);
        return true;
      });
    }
    for (const std::uint32_t k : moved_) moved_flag_[k] = 0;
    sort_pairs();
  }

  // In object order, so that the exact tests walk the spheres' and boxes' arrays forwards rather
  // than in the tree's order: at 10^5 objects the arrays no longer fit the caches.
  void sort_pairs() {
    std::sort(pairs_.begin(), pairs_.end(), [](const CachedPair& x, const CachedPair& y) {
      return x.sphere != y.sphere ? x.sphere < y.sphere : x.box < y.box;
    });
  }

  const ContactScene& scene_;
  std::vector<CachedObb<float>> boxes_;
  PairTester tester_;
  TreeMode mode_;
  std::uint32_t spheres_;
  std::string name_;
  std::vector<Aabbf> bounds_;
  bvh::DynamicTree tree_;
  std::vector<std::uint32_t> proxies_;
  std::vector<std::uint32_t> object_of_;
  Frame previous_;
  std::vector<std::uint32_t> moved_;
  std::vector<std::uint8_t> moved_flag_;
  std::vector<CachedPair> pairs_;
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
