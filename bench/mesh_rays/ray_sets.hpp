#pragma once
// The rays every backend answers: a coherent camera image and an incoherent cloud, both
// deterministic, both bounded by a tmax that reaches past the far side of the mesh's bounds (so
// that Bullet, which casts segments, sees the same rays as the others).

#include <string>
#include <vector>

#include "hitscan/geometry/ray.hpp"
#include "hitscan/math/aabb.hpp"
#include "hitscan/mesh/triangle_mesh.hpp"

namespace hitscan::bench {

struct RaySet {
  std::string name;
  std::vector<Rayf> rays;
  /// Stored in 8x8 pixel tiles of camera images (append_camera_rays): packets trace it too.
  bool tiled = false;
  /// The queries asked: closest hits, and whether anything is hit.
  bool closest = true;
  bool any = false;
};

/// A pinhole camera: an orthonormal frame at the eye and the image plane's half extents at
/// distance 1 along `forward`.
struct Camera {
  Vec3f eye, forward, right, up;
  float half_width = 1, half_height = 1;
  float tmax = kInfinity<float>;
};

/// Appends the camera's width x height rays (unit directions) in 8x8 pixel tiles (tile after
/// tile, row of tiles after row), each made of eight 4-wide, 2-tall sub-tiles, so that 8
/// consecutive rays form a small packet and 64 a large one. Width and height must be multiples
/// of 8.
void append_camera_rays(const Camera& camera, int width, int height, std::vector<Rayf>& rays);

/// "coherent": a width x height camera outside the mesh's bounds, looking at their centre, its
/// field of view just holding the mesh; tiled as append_camera_rays.
RaySet coherent_rays(const TriangleMesh& mesh, int width, int height);

/// "incoherent": `count` rays with origins uniform in the bounds and directions uniform on the
/// sphere (unit), from a fixed seed; asked for closest and any hits.
RaySet incoherent_rays(const Aabbf& bounds, std::size_t count);

}  // namespace hitscan::bench
