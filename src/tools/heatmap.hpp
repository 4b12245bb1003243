#pragma once
/// `hitscan render MESH --heatmap`: what each pixel's ray cost the BVH, as a picture beside the
/// shaded one — how a user finds out where a tree is slow.

#include <cstdint>

#include "hitscan/io/image.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "tools/camera.hpp"

namespace hitscan::tools {

/// Width in pixels of the colour scale drawn at the right edge of a heat map.
inline constexpr int kHeatScaleWidth = 12;

struct Heatmap {
  /// Per pixel, heat_colour(cost / max_cost), cost = wide nodes tested + triangles tested by the
  /// pixel's closest-hit ray (MeshBvh::TraversalCost); the rightmost kHeatScaleWidth columns are
  /// the scale, 0 at the bottom row to max_cost at the top.
  io::Image image;
  std::uint32_t max_cost = 0;
  double mean_nodes = 0;
  double mean_triangles = 0;
};

/// The colour of s in [0, 1] (clamped): dark blue, through cyan, green and yellow, to red.
io::Rgb8 heat_colour(float s);

Heatmap cost_heatmap(const MeshBvh& bvh, const PinholeCamera& camera);

/// `left` and `right` (of the same height) side by side in one image.
io::Image side_by_side(const io::Image& left, const io::Image& right);

}  // namespace hitscan::tools
