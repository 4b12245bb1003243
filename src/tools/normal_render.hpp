#pragma once
/// Rendering shapes or a mesh as a picture of their surface normals: one primary ray per pixel,
/// the closest hit of each, coloured by its normal.

#include <cstddef>
#include <span>

#include "hitscan/io/image.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "tools/any_shape.hpp"
#include "tools/camera.hpp"
#include "tools/progress.hpp"

namespace hitscan::tools {

struct NormalRender {
  io::Image image;
  /// Primary rays cast (one per pixel) and how many of them hit a shape.
  std::size_t rays = 0;
  std::size_t hits = 0;
  /// Wall-clock time spent in ray generation and finding the closest hits only, not in shading.
  double trace_seconds = 0;
};

/// Colour of a unit normal, rgb = 0.5 (n + 1) rounded to 8 bits: +x red, +y green, +z blue.
io::Rgb8 normal_colour(Vec3f normal);

/// Sky colour of a pixel no ray hit: a vertical gradient, blue at the top, whiter at the bottom.
io::Rgb8 background_colour(int y, int height);

/// Pixel (x, y) of the image gets normal_colour of closest_hit(shapes, ray_through_pixel(x, y)),
/// with the normal flipped for a back-face hit so that a surface shows the colour of the side
/// facing the viewer (a solid's normal already faces it), or background_colour on a miss.
/// Traces a row, then shades it, so the memory beyond the image is one row of hits; `progress`,
/// when given, is updated with the count of rows done.
NormalRender render_normals(std::span<const AnyShape> shapes, const PinholeCamera& camera,
                            Progress* progress = nullptr);

/// The same picture of a mesh: each pixel gets normal_colour of the shading normal of its ray's
/// closest hit on either face, flipped for a back-face hit, or background_colour on a miss.
NormalRender render_normals(const MeshBvh& mesh, const PinholeCamera& camera, Progress* progress = nullptr);

}  // namespace hitscan::tools
