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
};

/// A width x height pinhole camera outside the mesh's bounds, looking at their centre, its field
/// of view just holding the mesh. Rays are stored in 8x8 pixel tiles (tile after tile, row of tiles
/// after row), each made of eight 4-wide, 2-tall sub-tiles, so that 8 consecutive rays form a small
/// packet and 64 a large one. Unit directions; width and height must be multiples of 8.
RaySet coherent_rays(const TriangleMesh& mesh, int width, int height);

/// `count` rays with origins uniform in the bounds and directions uniform on the sphere (unit),
/// from a fixed seed.
RaySet incoherent_rays(const Aabbf& bounds, std::size_t count);

}  // namespace hitscan::bench
