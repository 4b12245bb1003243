#pragma once
// The four structures of the suite behind one interface, each asked the same two questions about
// object boxes:
//   nearest  the object whose box a ray enters first (exact slab test; on equal entry the lower
//            index), through the structure's front-to-back ray walk, clipping tmax as it goes
//   overlap  the objects whose box overlaps a query box, as a count and an order-free hash of
//            their indices (a sum of SplitMix64 of each), so that sets compare without sorting
// The ray of the uniform grid is walked by the bench (a 3D DDA, Amanatides and Woo 1987, asking
// UniformGrid::query for the ray's segment in each cell), since the grid has no ray query.

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "hitscan/geometry/ray.hpp"
#include "hitscan/math/aabb.hpp"

namespace hitscan::bench {

inline constexpr std::uint32_t kNoObject = 0xFFFFFFFFu;

struct NearestAnswer {
  std::uint32_t object = kNoObject;
  float t = 0;
  friend bool operator==(const NearestAnswer&, const NearestAnswer&) = default;
};

struct OverlapAnswer {
  std::uint32_t count = 0;
  std::uint64_t hash = 0;
  friend bool operator==(const OverlapAnswer&, const OverlapAnswer&) = default;
};

class Structure {
 public:
  virtual ~Structure() = default;
  virtual const char* name() const = 0;
  /// Replaces the objects by `boxes` (object i is boxes[i]).
  virtual void build(std::span<const Aabbf> boxes) = 0;
  virtual void nearest(std::span<const Rayf> rays, std::span<NearestAnswer> out) = 0;
  virtual void overlap(std::span<const Aabbf> probes, std::span<OverlapAnswer> out) = 0;
  /// A line on the built structure's shape (depth, nodes, cells).
  virtual std::string describe() const = 0;
};

/// bvh::build_binned_sah + collapse_to_wide + traverse: the static BVH, leaves of up to 4 boxes.
std::unique_ptr<Structure> make_bvh();
/// bvh::Octree with its default settings (k = 2).
std::unique_ptr<Structure> make_octree();
/// bvh::UniformGrid with its default cell size.
std::unique_ptr<Structure> make_grid();
/// bvh::DynamicTree, boxes inserted one by one with no margin (the fat box is the box).
std::unique_ptr<Structure> make_dynamic_tree();

}  // namespace hitscan::bench
