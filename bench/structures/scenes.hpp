#pragma once
// The scenes of the structures suite: object boxes of three kinds, with the rays and the overlap
// boxes every structure is asked about.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hitscan/geometry/ray.hpp"
#include "hitscan/math/aabb.hpp"

namespace hitscan::bench {

enum class SceneKind { uniform, clustered, mesh };

struct StructureScene {
  std::string name;
  std::vector<Aabbf> boxes;
  /// The union of the boxes.
  Aabbf bounds;
  /// Incoherent rays: origins spread over the bounds (grown by a tenth), directions uniform on
  /// the sphere, unbounded.
  std::vector<Rayf> rays;
  /// Overlap boxes around random objects, about twice the typical object's size.
  std::vector<Aabbf> probes;
};

/// `objects`: boxes for the uniform and clustered scenes, triangles (about) for the mesh, a
/// noisy sphere of radius 100 whose triangles' boxes are the objects.
StructureScene make_structure_scene(SceneKind kind, std::size_t objects, std::size_t rays, std::size_t probes,
                                    std::uint64_t seed);

}  // namespace hitscan::bench
