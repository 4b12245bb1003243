// hitscan::Scene as the library's users see it: every collider added, one commit, then the
// queries with default options (solid solids, all layers, no filter) and moves as set_transform
// and commit. Overlap queries reuse one output vector, as a game loop would.

#include <algorithm>
#include <stdexcept>

#include "backend.hpp"

namespace hitscan::bench {
namespace {

CastAnswer to_answer(const QueryHit& hit) {
  if (!hit) return {};
  return {hit.distance, std::uint32_t(hit.user_id)};
}

class HitscanBackend final : public Backend {
 public:
  HitscanBackend(const Scenario& scenario, int threads)
      : pool_(unsigned(threads)), ids_(scenario.colliders.size()), scales_(ids_.size()) {
    // As Jolt's PhysicsSystem::Init is told its number of bodies.
    if (!scene_.reserve(scenario.colliders.size()).ok()) throw std::runtime_error("hitscan: Scene::reserve failed");
    for (std::size_t i = 0; i < scenario.colliders.size(); ++i) {
      Result<ColliderId> id = scene_.add(to_collider_desc(scenario, i));
      if (!id) throw std::runtime_error("hitscan: add: " + id.status().message());
      ids_[i] = id.value();
      scales_[i] = to_collider_desc(scenario, i).transform.scale;
    }
    scene_.commit();
  }

  const std::string& name() const override { return name_; }

  void raycast(std::span<const QueryRay> rays, std::span<CastAnswer> out) override {
    for (std::size_t i = 0; i < rays.size(); ++i) out[i] = to_answer(scene_.raycast(rays[i]));
  }

  bool raycast_threads(std::span<const QueryRay> rays, std::span<CastAnswer> out, int) override {
    hits_.resize(rays.size());
    const Status status = scene_.raycast_batch(rays, hits_, {}, &pool_);
    if (!status.ok()) throw std::runtime_error("hitscan: raycast_batch: " + status.message());
    for (std::size_t i = 0; i < rays.size(); ++i) out[i] = to_answer(hits_[i]);
    return true;
  }

  void raycast_any(std::span<const QueryRay> rays, std::span<std::uint8_t> out) override {
    for (std::size_t i = 0; i < rays.size(); ++i) out[i] = scene_.raycast_any(rays[i]) ? 1 : 0;
  }

  void all_hits(const QueryRay& ray, std::vector<std::uint32_t>& ids) override {
    scene_.raycast_all(ray, all_);
    ids.clear();
    for (const QueryHit& hit : all_) ids.push_back(std::uint32_t(hit.user_id));
  }

  void overlap_count(std::span<const Spheref> spheres, std::span<std::uint32_t> counts) override {
    for (std::size_t i = 0; i < spheres.size(); ++i) {
      counts[i] = std::uint32_t(scene_.overlap_sphere(spheres[i], overlaps_));
    }
  }

  std::vector<std::uint32_t> overlap_ids(const Spheref& sphere) override {
    scene_.overlap_sphere(sphere, overlaps_);
    std::vector<std::uint32_t> ids;
    for (const OverlapHit& hit : overlaps_) ids.push_back(std::uint32_t(hit.user_id));
    std::sort(ids.begin(), ids.end());
    return ids;
  }

  void sphere_cast(std::span<const SphereSweep> sweeps, std::span<CastAnswer> out) override {
    for (std::size_t i = 0; i < sweeps.size(); ++i) out[i] = to_answer(scene_.sphere_cast(sweeps[i]));
  }

  void capsule_cast(std::span<const CapsuleCast> sweeps, std::span<CastAnswer> out) override {
    for (std::size_t i = 0; i < sweeps.size(); ++i) out[i] = to_answer(scene_.capsule_cast(sweeps[i].sweep));
  }

  bool move(std::span<const Move> moves) override {
    for (const Move& m : moves) {
      const Transformf transform{m.rotation, m.position, scales_[m.index]};
      const Status status = scene_.set_transform(ids_[m.index], transform);
      if (!status.ok()) throw std::runtime_error("hitscan: set_transform: " + status.message());
    }
    scene_.commit();
    return true;
  }

 private:
  Scene scene_;
  ThreadPool pool_;
  std::vector<ColliderId> ids_;
  std::vector<Vec3f> scales_;
  std::vector<QueryHit> hits_, all_;
  std::vector<OverlapHit> overlaps_;
  std::string name_ = "hitscan";
};

}  // namespace

std::unique_ptr<Backend> make_hitscan(const Scenario& scenario, int threads) {
  return std::make_unique<HitscanBackend>(scenario, threads);
}

}  // namespace hitscan::bench
