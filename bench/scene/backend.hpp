#pragma once
// The interface every backend of the scene suite implements: the scenario's colliders held in the
// backend's own structure, and the suite's four queries asked of it in batches. Answers name
// colliders by their index in the scenario.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "hitscan/query/scene.hpp"
#include "scenario.hpp"

namespace hitscan::bench {

inline constexpr std::uint32_t kNoIndex = 0xFFFFFFFFu;

/// A ray's or a sweep's answer: how far it went to the first contact (+inf on a miss) and what it
/// met there.
struct CastAnswer {
  float distance = std::numeric_limits<float>::infinity();
  std::uint32_t collider = kNoIndex;
};

class Backend {
 public:
  virtual ~Backend() = default;
  /// The name written to the JSON lines: "hitscan", "bullet", "jolt", "brute_force".
  virtual const std::string& name() const = 0;

  /// Closest hit of every ray, on the calling thread.
  virtual void raycast(std::span<const QueryRay> rays, std::span<CastAnswer> out) = 0;
  /// The same over `threads` threads; false when the backend does not run on several.
  virtual bool raycast_threads(std::span<const QueryRay> rays, std::span<CastAnswer> out, int threads) = 0;
  /// Whether each ray hits anything within its distance (1) or not (0), stopping at the first
  /// hit found, on the calling thread.
  virtual void raycast_any(std::span<const QueryRay> rays, std::span<std::uint8_t> out) = 0;
  /// How many colliders each ray meets within its distance, every hit listed (hitscan's
  /// raycast_all; the libraries' all-hit collectors), on the calling thread.
  void raycast_all(std::span<const QueryRay> rays, std::span<std::uint32_t> counts) {
    for (std::size_t i = 0; i < rays.size(); ++i) {
      all_hits(rays[i], ids_);
      counts[i] = distinct(ids_);
    }
  }
  /// The colliders one ray meets, sorted, each once (for the cross-check).
  std::vector<std::uint32_t> raycast_all_ids(const QueryRay& ray) {
    std::vector<std::uint32_t> ids;
    all_hits(ray, ids);
    ids.resize(distinct(ids));
    return ids;
  }
  /// How many colliders each sphere touches, on the calling thread.
  virtual void overlap_count(std::span<const Spheref> spheres, std::span<std::uint32_t> counts) = 0;
  /// The colliders one sphere touches, sorted by index (for the cross-check).
  virtual std::vector<std::uint32_t> overlap_ids(const Spheref& sphere) = 0;
  /// First contact of every sphere cast, on the calling thread.
  virtual void sphere_cast(std::span<const SphereSweep> sweeps, std::span<CastAnswer> out) = 0;
  /// First contact of every capsule cast, on the calling thread.
  virtual void capsule_cast(std::span<const CapsuleCast> sweeps, std::span<CastAnswer> out) = 0;
  /// Applies the moves and makes them visible to the next query; false when the backend has no
  /// incremental update (brute force).
  virtual bool move(std::span<const Move> moves) = 0;

 protected:
  /// Every hit of one ray as the backend lists them (a collider may appear more than once: a
  /// solid's entry and exit, a mesh's triangles), by collider index.
  virtual void all_hits(const QueryRay& ray, std::vector<std::uint32_t>& ids) = 0;

 private:
  /// Sorts ids and keeps each once; returns how many remain.
  static std::uint32_t distinct(std::vector<std::uint32_t>& ids) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return std::uint32_t(ids.size());
  }
  std::vector<std::uint32_t> ids_;
};

/// Runs trace(thread, first, count) over [0, total) in chunks of 256 that `threads` threads (the
/// calling one, thread 0, among them) take in turn: the baselines' all-thread rays.
template <class Trace>
void run_in_chunks(std::size_t total, int threads, Trace trace) {
  constexpr std::size_t kChunk = 256;
  std::atomic<std::size_t> next{0};
  auto worker = [&](int t) {
    for (;;) {
      const std::size_t first = next.fetch_add(kChunk, std::memory_order_relaxed);
      if (first >= total) return;
      trace(t, first, std::min(total - first, kChunk));
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (std::thread& t : pool) t.join();
}

/// The overlaps of a backend that answers one sphere at a time: Derived::touching(sphere, ids)
/// counts the colliders the sphere touches and, given `ids`, lists them.
template <class Derived>
class TouchingOverlaps : public Backend {
 public:
  void overlap_count(std::span<const Spheref> spheres, std::span<std::uint32_t> counts) override {
    for (std::size_t i = 0; i < spheres.size(); ++i) counts[i] = self().touching(spheres[i], nullptr);
  }
  std::vector<std::uint32_t> overlap_ids(const Spheref& sphere) override {
    std::vector<std::uint32_t> ids;
    self().touching(sphere, &ids);
    std::sort(ids.begin(), ids.end());
    return ids;
  }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
};

/// hitscan::Scene with every collider added and committed; all-thread batches run on a pool of
/// `threads` threads (hitscan_backend.cpp).
std::unique_ptr<Backend> make_hitscan(const Scenario& scenario, int threads);

/// Bullet 3: a btCollisionWorld with a btDbvtBroadphase, one per thread for the all-thread rays
/// (bullet_backend.cpp; see there for the settings).
std::unique_ptr<Backend> make_bullet(const Scenario& scenario, int threads);

/// Jolt Physics: a PhysicsSystem of static bodies queried through its NarrowPhaseQuery, shared by
/// the threads of the all-thread rays (jolt_backend.cpp; see there for the settings). Compiled
/// only when the benchmark is configured with HITSCAN_BENCH_JOLT_DIR (HITSCAN_BENCH_JOLT defined).
std::unique_ptr<Backend> make_jolt(const Scenario& scenario, int threads);
/// Jolt's process-wide setup (common/jolt_setup.hpp), which make_jolt does; a caller timing
/// make_jolt calls it first.
void set_up_jolt();

/// Every collider tested with hitscan's per-shape kernels, no acceleration structure
/// (brute_force_backend.cpp).
class BruteForce final : public Backend {
 public:
  explicit BruteForce(const Scenario& scenario);
  ~BruteForce() override;

  const std::string& name() const override { return name_; }
  void raycast(std::span<const QueryRay> rays, std::span<CastAnswer> out) override;
  bool raycast_threads(std::span<const QueryRay>, std::span<CastAnswer>, int) override { return false; }
  void raycast_any(std::span<const QueryRay> rays, std::span<std::uint8_t> out) override;
  void overlap_count(std::span<const Spheref> spheres, std::span<std::uint32_t> counts) override;
  std::vector<std::uint32_t> overlap_ids(const Spheref& sphere) override;
  void sphere_cast(std::span<const SphereSweep> sweeps, std::span<CastAnswer> out) override;
  void capsule_cast(std::span<const CapsuleCast> sweeps, std::span<CastAnswer> out) override;
  bool move(std::span<const Move>) override { return false; }

  /// Whether collider `index` touches the sphere, by the pair kernel.
  bool touches(std::uint32_t index, const Spheref& sphere) const;
  /// The first contact of one sweep with collider `index` (+inf when it misses it).
  float sweep_distance(std::uint32_t index, const SphereSweep& sweep) const;
  float sweep_distance(std::uint32_t index, const CapsuleSweep& sweep) const;
  /// The first hit of one ray on collider `index` (+inf when it misses it).
  float ray_distance(std::uint32_t index, const QueryRay& ray) const;
  ShapeKind kind(std::uint32_t index) const;

 protected:
  void all_hits(const QueryRay& ray, std::vector<std::uint32_t>& ids) override;

 private:
  struct Colliders;
  std::unique_ptr<Colliders> colliders_;
  std::string name_ = "brute_force";
};

}  // namespace hitscan::bench
