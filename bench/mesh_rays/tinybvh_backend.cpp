// tinybvh (Jacco Bikker, MIT) as a reference, configured as its author's speed test does: an 8-wide
// BVH8_CPU (AVX2 traversal specialised per ray octant, 4 triangles per leaf) converted from a
// BuildHQ tree (SAH with spatial splits), built on one thread from 3 bvhvec4 per triangle.
// Expanding the indexed mesh into that array counts as build time, as it would for a user.
// Compiled only when the build is given tinybvh's directory (HITSCAN_TINYBVH_DIR).
//
// tinybvh has no tmin: a ray starts at origin + tmin * dir and tmin is added back to its hit
// distance. It is not watertight, so rays through shared edges may miss both triangles; the
// cross-check counts those like any other disagreement.

#define TINYBVH_IMPLEMENTATION
#define INST_IDX_BITS 10
#define NO_THREADED_BUILDS
#include "tiny_bvh.h"

#include <mutex>
#include <unordered_map>
#include <vector>

#include "backend.hpp"
#include "statistics.hpp"

namespace hitscan::bench {
namespace {

// Net bytes tinybvh holds through its allocator hook. BVH8_CPU allocates its traversal data
// without the hook but frees it through it, so frees of unseen blocks are passed on uncounted.
struct AllocationCounter {
  std::mutex mutex;
  std::unordered_map<void*, std::size_t> sizes;
  std::size_t bytes = 0;
};

void* counted_malloc(std::size_t size, void* user) {
  void* block = tinybvh::malloc64(size);
  auto& counter = *static_cast<AllocationCounter*>(user);
  const std::lock_guard lock(counter.mutex);
  counter.sizes[block] = size;
  counter.bytes += size;
  return block;
}

void counted_free(void* block, void* user) {
  auto& counter = *static_cast<AllocationCounter*>(user);
  {
    const std::lock_guard lock(counter.mutex);
    const auto it = counter.sizes.find(block);
    if (it != counter.sizes.end()) {
      counter.bytes -= it->second;
      counter.sizes.erase(it);
    }
  }
  tinybvh::free64(block);
}

// The triangle array tinybvh reads and the tree over it. The counter is declared first so that
// it outlives the tree's frees.
struct TinybvhTree {
  AllocationCounter counter;
  std::vector<tinybvh::bvhvec4> vertices;
  tinybvh::BVH8_CPU bvh;

  TinybvhTree() : bvh(tinybvh::BVHContext{counted_malloc, counted_free, &counter}) {}

  void build(const TriangleMesh& mesh) {
    vertices.resize(mesh.triangle_count() * 3);
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
      const TriangleMesh::Indices& corners = mesh.triangles()[i];
      for (int k = 0; k < 3; ++k) {
        const Vec3f p = mesh.positions()[corners[k]];
        vertices[3 * i + k] = tinybvh::bvhvec4(p.x, p.y, p.z, 0.0f);
      }
    }
    bvh.BuildHQ(vertices.data(), static_cast<std::uint32_t>(mesh.triangle_count()));
  }

  // The BVH8_CPU data, the trees it was converted from (which it keeps) and the triangle array.
  std::size_t memory_bytes() const {
    return std::size_t(bvh.allocatedBlocks) * 64 + counter.bytes + vertices.size() * sizeof(tinybvh::bvhvec4);
  }
};

tinybvh::Ray to_tinybvh(const Rayf& r) {
  tinybvh::Ray ray;
  const Vec3f start = r.tmin > 0 ? r.origin + r.dir * r.tmin : r.origin;
  ray.O = tinybvh::bvhvec3(start.x, start.y, start.z);
  ray.D = tinybvh::bvhvec3(r.dir.x, r.dir.y, r.dir.z);
  ray.rD = tinybvh::tinybvh_rcp(ray.D);
  ray.hit.t = r.tmax - std::max(r.tmin, 0.0f);
  return ray;
}

class TinybvhBackend final : public Backend {
 public:
  explicit TinybvhBackend(std::unique_ptr<TinybvhTree> tree) : tree_(std::move(tree)) {}

  const std::string& name() const override { return name_; }
  std::size_t memory_bytes() const override { return tree_->memory_bytes(); }

  void closest(std::span<const Rayf> rays, ResultSpan out) const override {
    for (std::size_t i = 0; i < rays.size(); ++i) {
      tinybvh::Ray ray = to_tinybvh(rays[i]);
      const float tmax = ray.hit.t;
      tree_->bvh.Intersect(ray);
      const bool hit = ray.hit.t < tmax;
      out.t[i] = hit ? ray.hit.t + std::max(rays[i].tmin, 0.0f) : kInfinity<float>;
      out.triangle[i] = hit ? ray.hit.prim : kNoPrimitive;
    }
  }

  void any(std::span<const Rayf> rays, ResultSpan out) const override {
    for (std::size_t i = 0; i < rays.size(); ++i) out.hit[i] = tree_->bvh.IsOccluded(to_tinybvh(rays[i])) ? 1 : 0;
  }

 private:
  std::unique_ptr<TinybvhTree> tree_;
  std::string name_ = "tinybvh_bvh8";
};

}  // namespace

BuildTiming build_tinybvh(std::shared_ptr<const TriangleMesh> mesh, int builds) {
  std::unique_ptr<TinybvhTree> tree;
  const double ms = median_ms(
      builds, [&] { tree.reset(), tree = std::make_unique<TinybvhTree>(); }, [&] { tree->build(*mesh); });
  return {std::make_unique<TinybvhBackend>(std::move(tree)), ms};
}

}  // namespace hitscan::bench
