#pragma once
// The interface every backend of the mesh ray benchmark implements: hitscan's MeshBvh, Embree,
// tinybvh, Bullet and brute force answer the same rays, a chunk at a time, into plain result
// arrays that the cross-check compares ray by ray.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "hitscan/geometry/ray.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "hitscan/mesh/triangle_mesh.hpp"

namespace hitscan::bench {

/// The answers of a backend for a range of rays. Closest queries fill t (+inf on a miss) and
/// triangle; any-hit queries fill hit (1 or 0).
struct ResultSpan {
  float* t = nullptr;
  std::uint32_t* triangle = nullptr;
  std::uint8_t* hit = nullptr;
};

class Backend {
 public:
  virtual ~Backend() = default;
  /// The name written to the JSON lines ("hitscan", "embree_high", ...).
  virtual const std::string& name() const = 0;
  /// Closest hit of every ray, out.t[i] and out.triangle[i] for rays[i].
  virtual void closest(std::span<const Rayf> rays, ResultSpan out) const = 0;
  /// Whether each ray hits anything, out.hit[i] for rays[i].
  virtual void any(std::span<const Rayf> rays, ResultSpan out) const = 0;
  virtual bool has_any() const { return true; }
  /// A stream backend takes a set's rays in as few calls as it can: all of them on one thread, an
  /// even share per thread on several (others get chunks of up to 1024 rays).
  virtual bool streams() const { return false; }
  /// Bytes of the acceleration structure (not counting the mesh), 0 when unknown.
  virtual std::size_t memory_bytes() const = 0;
};

/// Buffers a stream backend fills on each call, kept between calls (and between the threads that
/// come and go from one timed run to the next) so that their pages are not faulted in while
/// timed. take() hands out a buffer of at least n elements that no other thread holds;
/// give_back() returns it.
template <class T>
class BufferPool {
 public:
  std::vector<T> take(std::size_t n) {
    std::vector<T> buffer;
    {
      const std::lock_guard lock(mutex_);
      if (!free_.empty()) buffer = std::move(free_.back()), free_.pop_back();
    }
    if (buffer.size() < n) buffer.resize(n);
    return buffer;
  }
  void give_back(std::vector<T> buffer) {
    const std::lock_guard lock(mutex_);
    free_.push_back(std::move(buffer));
  }

 private:
  std::mutex mutex_;
  std::vector<std::vector<T>> free_;
};

struct BuildTiming {
  std::unique_ptr<Backend> backend;  // the last of the timed builds, kept for tracing
  double median_ms = 0;
};

/// MeshBvh::build over the mesh, `builds` times, on `threads` threads (1: a SerialExecutor, as
/// Embree's single-thread device; more: a ThreadPool of that many).
BuildTiming build_hitscan(std::shared_ptr<const TriangleMesh> mesh, int threads, int builds);

/// The same hitscan tree answering closest queries with MeshBvh::intersect_coherent on
/// consecutive groups of 64 rays (the 8x8 pixel tiles of the coherent set). `hitscan` must come
/// from build_hitscan and outlive the result.
std::unique_ptr<Backend> hitscan_packets(const Backend& hitscan, std::string name);

/// The same hitscan tree answering a whole set per call with MeshBvh::intersect_batch /
/// occluded_batch on the calling thread, which trace the rays reordered by their origins.
std::unique_ptr<Backend> hitscan_stream(const Backend& hitscan, std::string name);

/// Embree 3 at build quality medium or high, on its own device limited to `threads` build threads
/// (0: Embree's default, every hardware thread). The index buffer is shared with the mesh.
BuildTiming build_embree(std::shared_ptr<const TriangleMesh> mesh, bool high_quality, int threads, int builds);

/// The same Embree scene answering closest queries with rtcIntersect8 on consecutive groups of 8
/// rays (the 2x4 pixel tiles of the coherent set), flagged coherent. `embree` must come from
/// build_embree; the scene is shared.
std::unique_ptr<Backend> embree_packet8(const Backend& embree, std::string name);

/// The same Embree scene answering a whole set per call with its stream API, rtcIntersect1M /
/// rtcOccluded1M (incoherent context). `embree` must come from build_embree.
std::unique_ptr<Backend> embree_stream(const Backend& embree, std::string name);

/// tinybvh's BVH8_CPU from BuildHQ over the mesh's triangles expanded to 3 bvhvec4 each, built on
/// one thread. Defined only in builds given tinybvh's directory (HITSCAN_BENCH_TINYBVH is then 1).
BuildTiming build_tinybvh(std::shared_ptr<const TriangleMesh> mesh, int builds);

/// btBvhTriangleMeshShape with quantized nodes; closest hits through performRaycast.
BuildTiming build_bullet(std::shared_ptr<const TriangleMesh> mesh, int builds);

/// Every ray against every usable triangle with the scalar watertight kernel.
std::unique_ptr<Backend> make_brute_force(std::shared_ptr<const TriangleMesh> mesh);

}  // namespace hitscan::bench
