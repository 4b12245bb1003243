#include "tools/heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace hitscan::tools {

io::Rgb8 heat_colour(float s) {
  // Piecewise linear through five stops.
  constexpr float stops[5][3] = {{0.05f, 0.05f, 0.35f}, {0.0f, 0.6f, 0.9f}, {0.1f, 0.8f, 0.2f}, {1.0f, 0.9f, 0.0f},
                                 {0.9f, 0.05f, 0.05f}};
  const float t = std::clamp(std::isnan(s) ? 0.0f : s, 0.0f, 1.0f) * 4.0f;
  const int i = std::min(3, static_cast<int>(t));
  const float f = t - static_cast<float>(i);
  const auto channel = [&](int c) {
    return static_cast<std::uint8_t>(std::lround((stops[i][c] + (stops[i + 1][c] - stops[i][c]) * f) * 255.0f));
  };
  return {channel(0), channel(1), channel(2)};
}

Heatmap cost_heatmap(const MeshBvh& bvh, const PinholeCamera& camera) {
  const int width = camera.width(), height = camera.height();
  std::vector<std::uint32_t> cost(static_cast<std::size_t>(width) * static_cast<std::size_t>(height));
  Heatmap map;
  double nodes = 0, triangles = 0;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      MeshBvh::TraversalCost c;
      bvh.intersect(camera.ray_through_pixel(x, y), FaceMode::both, c);
      cost[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)] =
          c.nodes + c.triangles;
      nodes += c.nodes;
      triangles += c.triangles;
      map.max_cost = std::max(map.max_cost, c.nodes + c.triangles);
    }
  }
  const double pixels = static_cast<double>(cost.size());
  map.mean_nodes = nodes / pixels;
  map.mean_triangles = triangles / pixels;
  map.image = io::Image(width, height);
  const float scale = map.max_cost > 0 ? 1.0f / static_cast<float>(map.max_cost) : 0.0f;
  const int scale_start = std::max(0, width - kHeatScaleWidth);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const float s = x >= scale_start
                          ? (height > 1 ? 1.0f - static_cast<float>(y) / static_cast<float>(height - 1) : 1.0f)
                          : static_cast<float>(cost[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                                                    static_cast<std::size_t>(x)]) * scale;
      map.image.at(x, y) = heat_colour(s);
    }
  }
  return map;
}

io::Image side_by_side(const io::Image& left, const io::Image& right) {
  io::Image out(left.width() + right.width(), std::max(left.height(), right.height()));
  for (int y = 0; y < left.height(); ++y) {
    for (int x = 0; x < left.width(); ++x) out.at(x, y) = left.at(x, y);
  }
  for (int y = 0; y < right.height(); ++y) {
    for (int x = 0; x < right.width(); ++x) out.at(left.width() + x, y) = right.at(x, y);
  }
  return out;
}

}  // namespace hitscan::tools
