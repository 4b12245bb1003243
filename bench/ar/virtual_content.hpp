#pragma once
// The virtual content of an AR frame and the pixels it covers: a ribbon along the draped route,
// arrows on it and signs on the walls, each a flat quad, rasterised by casting every pixel's ray
// against the quads (what the app's renderer does on the GPU; here it is set-up, never timed).
// The result is the input of the occlusion test: the covered pixels and the content's depth
// there, the nearest quad's where several overlap.

#include <array>
#include <cstddef>
#include <vector>

#include "hitscan/ar/camera.hpp"
#include "hitscan/ar/drape.hpp"
#include "hitscan/ar/occlusion.hpp"

namespace hitscan::bench {

/// A flat convex quad, corners in order around it.
using Quad = std::array<Vec3f, 4>;

struct VirtualContent {
  std::vector<Quad> quads;
  std::size_t ribbon_quads = 0, arrows = 0, signs = 0;
};

/// The content of one frame: a 0.2 m ribbon between consecutive draped points (left out where a
/// point found no surface), a 0.6 m x 0.4 m arrow every 2 m of route, 1 cm and 2 cm above the
/// surface, and a 1.0 m x 0.6 m sign 5 cm off the wall at each sign point.
VirtualContent make_virtual_content(const DrapedRoute& draped, const std::vector<Vec3f>& sign_points,
                                    const std::vector<Vec3f>& sign_normals, Vec3f up);

/// The pixels the quads cover in `camera`'s image, each once, with the nearest quad's depth along
/// the viewing axis, in row order. Quads with a corner at or behind the camera plane are left out.
std::vector<PixelDepth> covered_pixels(const VirtualContent& content, const PinholeCamera& camera);

}  // namespace hitscan::bench
