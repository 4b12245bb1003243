// hitscan::io from the installed package: a tetrahedron written as an OFF file, loaded through
// assimp, and a ray down onto its base. Exits 0 when the hit is the one worked out by hand.

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>

#include "hitscan/io/mesh_loader.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"

int main() {
  using namespace hitscan;
  // Base on z = 0 (wound to face -z), apex at (0, 0, 3); written into the working directory.
  const char* path = "tetrahedron.off";
  std::ofstream(path) << "OFF\n4 4 0\n0 0 0\n4 0 0\n0 4 0\n0 0 3\n3 0 2 1\n3 0 1 3\n3 1 2 3\n3 2 0 3\n";
  Result<TriangleMesh> mesh = io::load_mesh(path);
  if (!mesh) return std::printf("%s\n", mesh.status().message().c_str()), 1;
  const Result<MeshBvh> bvh = MeshBvh::build(std::make_shared<const TriangleMesh>(std::move(mesh).value()));
  if (!bvh) return std::printf("%s\n", bvh.status().message().c_str()), 1;
  // From (1, 1, -5) straight up: the base at t = 5, triangle 0.
  const MeshHit hit = bvh.value().intersect(Rayf{{1, 1, -5}, {0, 0, 1}});
  std::printf("hit %d, triangle %u, t %.6f\n", hit ? 1 : 0, static_cast<unsigned>(hit.triangle), hit.t);
  return hit && hit.triangle == 0 && hit.normal.z < 0 && std::fabs(hit.t - 5.0f) < 1e-6f ? 0 : 1;
}
