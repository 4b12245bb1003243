// hitscan's MeshBvh, the library under test.

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include "backend.hpp"
#include "hitscan/executor.hpp"
#include "statistics.hpp"

namespace hitscan::bench {
namespace {

class HitscanBackend final : public Backend {
 public:
  explicit HitscanBackend(MeshBvh bvh) : bvh_(std::move(bvh)) {}

  const std::string& name() const override { return name_; }
  std::size_t memory_bytes() const override { return bvh_.memory_bytes(); }
  const MeshBvh& bvh() const { return bvh_; }

  void closest(std::span<const Rayf> rays, ResultSpan out) const override {
    for (std::size_t i = 0; i < rays.size(); ++i) {
      // The record the baselines fill (distance, barycentrics, triangle): no point or normals.
      const MeshHit hit = bvh_.intersect(rays[i], FaceMode::both, HitFields::basic);
      out.t[i] = hit.t;
      out.triangle[i] = hit.triangle;
    }
  }

  void any(std::span<const Rayf> rays, ResultSpan out) const override {
    for (std::size_t i = 0; i < rays.size(); ++i) out.hit[i] = bvh_.occluded(rays[i]) ? 1 : 0;
  }

 private:
  MeshBvh bvh_;
  std::string name_ = "hitscan";
};

// The same tree answering closest queries with MeshBvh::intersect_coherent, 64 rays (an 8x8 tile
// of the coherent set) per call.
class HitscanPacketBackend final : public Backend {
 public:
  HitscanPacketBackend(const MeshBvh& bvh, std::string name) : bvh_(bvh), name_(std::move(name)) {}

  const std::string& name() const override { return name_; }
  std::size_t memory_bytes() const override { return bvh_.memory_bytes(); }
  bool has_any() const override { return false; }

  void closest(std::span<const Rayf> rays, ResultSpan out) const override {
    constexpr std::size_t kTile = 64;
    MeshHit hits[kTile];
    for (std::size_t first = 0; first < rays.size(); first += kTile) {
      const std::size_t n = std::min(kTile, rays.size() - first);
      static_cast<void>(bvh_.intersect_coherent(rays.subspan(first, n), std::span<MeshHit>(hits, n)));
      for (std::size_t k = 0; k < n; ++k) {
        out.t[first + k] = hits[k].t;
        out.triangle[first + k] = hits[k].triangle;
      }
    }
  }

  void any(std::span<const Rayf>, ResultSpan) const override {
    throw std::logic_error("hitscan packets answer closest queries only");
  }

 private:
  const MeshBvh& bvh_;
  std::string name_;
};

// The same tree answering a whole set per call through the batch functions on one thread; the
// hits go through buffers kept between calls.
class HitscanStreamBackend final : public Backend {
 public:
  HitscanStreamBackend(const MeshBvh& bvh, std::string name) : bvh_(bvh), name_(std::move(name)) {}

  const std::string& name() const override { return name_; }
  std::size_t memory_bytes() const override { return bvh_.memory_bytes(); }
  bool streams() const override { return true; }

  void closest(std::span<const Rayf> rays, ResultSpan out) const override {
    std::vector<MeshHit> hits = pool_.take(rays.size());
    SerialExecutor serial;
    static_cast<void>(bvh_.intersect_batch(rays, std::span(hits).first(rays.size()), FaceMode::both, &serial,
                                           HitFields::basic));
    for (std::size_t i = 0; i < rays.size(); ++i) out.t[i] = hits[i].t, out.triangle[i] = hits[i].triangle;
    pool_.give_back(std::move(hits));
  }

  void any(std::span<const Rayf> rays, ResultSpan out) const override {
    SerialExecutor serial;
    static_cast<void>(bvh_.occluded_batch(rays, std::span(out.hit, rays.size()), FaceMode::both, &serial));
  }

 private:
  const MeshBvh& bvh_;
  std::string name_;
  mutable BufferPool<MeshHit> pool_;
};

}  // namespace

std::unique_ptr<Backend> hitscan_stream(const Backend& hitscan, std::string name) {
  return std::make_unique<HitscanStreamBackend>(dynamic_cast<const HitscanBackend&>(hitscan).bvh(), std::move(name));
}

std::unique_ptr<Backend> hitscan_packets(const Backend& hitscan, std::string name) {
  return std::make_unique<HitscanPacketBackend>(dynamic_cast<const HitscanBackend&>(hitscan).bvh(), std::move(name));
}

BuildTiming build_hitscan(std::shared_ptr<const TriangleMesh> mesh, int threads, int builds) {
  std::unique_ptr<Backend> backend;
  SerialExecutor serial;
  std::unique_ptr<ThreadPool> pool;
  if (threads > 1) pool = std::make_unique<ThreadPool>(static_cast<unsigned>(threads));
  Executor* executor = pool ? static_cast<Executor*>(pool.get()) : &serial;
  std::optional<Result<MeshBvh>> bvh;
  const double ms = median_ms(builds, [&] { bvh.reset(); }, [&] { bvh.emplace(MeshBvh::build(mesh, {}, executor)); });
  if (!bvh || !*bvh) throw std::runtime_error("MeshBvh::build failed: " + (bvh ? bvh->status().message() : "no build"));
  return {std::make_unique<HitscanBackend>(std::move(*bvh).value()), ms};
}

}  // namespace hitscan::bench
