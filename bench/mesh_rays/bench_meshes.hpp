#pragma once
// The meshes of the mesh ray benchmark: four real scans and models from Debian packages, four
// Quake 3 levels (Debian's openarena-081-maps), a generated sphere of more than a million
// triangles and a generated terrain of more than four million, whose tree is far larger than any
// cache.

#include <memory>
#include <string>
#include <vector>

#include "hitscan/mesh/triangle_mesh.hpp"

namespace hitscan::bench {

/// armadillo, bunny (CGAL's demo data), wuson, spider (assimp's test models), the levels
/// oasago2, ctf_inyard, wrackdm17, aggressor, noisy_sphere and terrain.
std::vector<std::string> bench_mesh_names();

/// Whether the named mesh is a game level (which the shooter's ray sets are traced in).
bool is_game_level(const std::string& name);

/// Loads or generates the named mesh; throws std::runtime_error with the reason when it cannot.
std::shared_ptr<const TriangleMesh> make_bench_mesh(const std::string& name);

/// An icosahedron subdivided `levels` times (20 * 4^levels triangles), its vertices pushed onto a
/// sphere with a deterministic bumpy radius: a closed, consistently wound surface.
TriangleMesh noisy_sphere(int levels);

/// A height field over the square [-1, 1]^2 (z up, heights within about +-0.3): quads x quads
/// cells of two triangles each, the heights deterministic fractal noise.
TriangleMesh terrain(int quads);

}  // namespace hitscan::bench
