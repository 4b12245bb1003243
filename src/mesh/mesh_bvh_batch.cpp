// MeshBvh's batches: many rays traced one by one, in an order that keeps rays from nearby origins
// together so that they find the tree's nodes and leaves still in cache, with each answer written
// to its ray's place.

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "hitscan/bvh/detail/prefetch.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "ray_order.hpp"

namespace hitscan {

namespace {
constexpr std::size_t kBatchGrain = 1024;  // rays per chunk: large enough to amortise a handoff
constexpr std::size_t kAhead = 8;          // rays between asking for a ray's lines and tracing it
}  // namespace

bool reorders(std::size_t rays, std::size_t tree_bytes) {
  return rays >= kLocalityOrderMinRays && tree_bytes >= kLocalityOrderMinTreeBytes;
}

std::vector<std::uint32_t> locality_order(std::span<const Rayf> rays, const Aabbf& bounds) {
  std::vector<std::uint32_t> order(rays.size());
  // 16 cells per axis; an origin outside the bounds (or not finite) falls in the nearest cell.
  constexpr int kCells = 16;
  float scale[3], low[3];
  for (int a = 0; a < 3; ++a) {
    const float extent = bounds.max[a] - bounds.min[a];
    low[a] = bounds.min[a];
    scale[a] = extent > 0.0f && extent < kInfinity<float> ? kCells / extent : 0.0f;
  }
  const auto cell = [&](const Vec3f& origin) {
    std::uint32_t key = 0;
    for (int a = 0; a < 3; ++a) {
      const float f = (origin[a] - low[a]) * scale[a];
      const auto c = static_cast<std::uint32_t>(f > 0.0f ? (f < kCells - 1 ? static_cast<int>(f) : kCells - 1) : 0);
      // The cell's Morton code: bit b of the coordinate on axis a goes to bit 3b + a.
      for (int bit = 0; bit < 4; ++bit) key |= ((c >> bit) & 1u) << (3 * bit + a);
    }
    return key;
  };
  constexpr std::size_t kKeys = kCells * kCells * kCells;
  std::vector<std::uint16_t> keys(rays.size());
  std::array<std::uint32_t, kKeys + 1> start{};
  for (std::size_t i = 0; i < rays.size(); ++i) {
    keys[i] = static_cast<std::uint16_t>(cell(rays[i].origin));
    ++start[keys[i] + 1];
  }
  for (std::size_t k = 0; k < kKeys; ++k) start[k + 1] += start[k];
  for (std::size_t i = 0; i < rays.size(); ++i) order[start[keys[i]]++] = static_cast<std::uint32_t>(i);
  return order;
}

namespace {

// Runs answer(i) for every ray over the executor: in the caller's order, or in locality_order
// with the ray and its answer's slot (`slot(i)`, `slot_bytes` long) asked for kAhead rays ahead.
template <class Answer, class Slot>
void for_each_ray(std::span<const Rayf> rays, bool reorder, const Aabbf& bounds, Executor* executor, Answer answer,
                  Slot slot, std::size_t slot_bytes) {
  Executor& run = executor ? *executor : default_executor();
  if (!reorder) {
    run.parallel_for(rays.size(), kBatchGrain, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) answer(i);
    });
    return;
  }
  const std::vector<std::uint32_t> order = locality_order(rays, bounds);
  run.parallel_for(rays.size(), kBatchGrain, [&](std::size_t b, std::size_t e) {
    for (std::size_t k = b; k < e; ++k) {
      if (k + kAhead < e) {
        bvh::prefetch_bytes(&rays[order[k + kAhead]], sizeof(Rayf));
        bvh::prefetch_bytes(slot(order[k + kAhead]), slot_bytes);
      }
      answer(order[k]);
    }
  });
}

Status size_mismatch(const char* function, std::size_t rays, std::size_t room, const char* what) {
  return Status{StatusCode::invalid_argument, std::string("MeshBvh::") + function + ": " + std::to_string(rays) +
                                                  " rays but room for " + std::to_string(room) + " " + what};
}

}  // namespace

Status MeshBvh::intersect_batch(std::span<const Rayf> rays, std::span<MeshHit> hits, FaceMode faces,
                                Executor* executor, HitFields fields) const {
  if (rays.size() != hits.size()) return size_mismatch("intersect_batch", rays.size(), hits.size(), "hits");
  const bool reorder = reorders(rays.size(), memory_bytes());
  for_each_ray(
      rays, reorder, reorder ? mesh_->bounds() : Aabbf{}, executor,
      [&](std::size_t i) { hits[i] = intersect(rays[i], faces, fields); }, [&](std::size_t i) { return &hits[i]; },
      sizeof(MeshHit));
  return Status::success();
}

Status MeshBvh::occluded_batch(std::span<const Rayf> rays, std::span<std::uint8_t> occluded, FaceMode faces,
                               Executor* executor) const {
  if (rays.size() != occluded.size()) {
    return size_mismatch("occluded_batch", rays.size(), occluded.size(), "results");
  }
  const bool reorder = reorders(rays.size(), memory_bytes());
  for_each_ray(
      rays, reorder, reorder ? mesh_->bounds() : Aabbf{}, executor,
      [&](std::size_t i) { occluded[i] = this->occluded(rays[i], faces) ? 1 : 0; },
      [&](std::size_t i) { return &occluded[i]; }, 1);
  return Status::success();
}

}  // namespace hitscan
