#pragma once
/// A generated "scanned" street: the embedded default of `make demo` (the AR scenario) and the
/// reconstructed mesh of the AR benchmarks. z is up and gravity points along -z; the street runs
/// along +x.
///
/// What it holds, in every 40 m of its length (the profile repeats): a pavement 0.15 m high
/// (x in [0, 6)), a curb down to the road (z = 0, [6, 12)) and back up, a ramp up to a raised level
/// at 0.65 m ([16, 20)), a hole in the floor across the middle (x in [22.2, 22.8), |y| < 1.5: an
/// unscanned patch, as a phone leaves behind), five stairs up (rise 0.17 m, run 0.3 m, from x = 26)
/// to a landing at 1.5 m, and a long ramp back down to the pavement ([32, 40)); walls along both
/// sides; and a pillar 2.5 m tall on the road (x in [10.4, 11], y in [-2.1, -1.5]), which hides
/// the sign at x = 24 on the y < 0 wall from the camera. The surface is a height field sampled on a grid
/// of `cell` metres, with seeded noise along z on every vertex (a depth sensor's reconstruction
/// noise), split into chunks along x the way AR frameworks deliver a reconstruction (ARKit's mesh
/// anchors); the walls are vertical grids with the same noise across them. Steps, curbs and the
/// ramp's ends fall exactly on grid lines, so the noise-free surface is exact at them.
///
/// The route runs along the street's middle over everything above, at about head height, so that
/// draping has a step, a curb, a ramp and a gap to deal with. Signs are points on the walls at
/// which a virtual sign is to be placed.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hitscan/ar/camera.hpp"
#include "hitscan/math/vec3.hpp"
#include "hitscan/mesh/triangle_mesh.hpp"
#include "hitscan/status.hpp"

namespace hitscan::tools {

struct StreetOptions {
  /// Street length along +x and width along y (walls at y = ±width/2), metres.
  float length = 40.0f;
  float width = 8.0f;
  /// Wall height, metres.
  float wall_height = 3.0f;
  /// Grid spacing of the reconstructed surface, metres. The mesh holds about
  /// 2 (length / cell) (width / cell) + 4 (length / cell) (wall_height / cell) triangles.
  float cell = 0.1f;
  /// Reconstruction noise: every vertex moved by a uniform offset in [-noise, noise] along the
  /// surface's normal axis (z on the floor, y on the walls), seeded.
  float noise = 0.01f;
  std::uint32_t seed = 1;
  /// Length of a chunk along x, metres (the last may be shorter).
  float chunk_length = 5.0f;
};

/// Options for about `triangles` triangles: the default street with `cell` chosen to reach the
/// count (within a few percent). triangles must be at least 1000.
StreetOptions street_options_for_triangles(std::size_t triangles);

struct StreetChunk {
  /// World positions and triangles (counter-clockwise seen from the open side: up on the floor,
  /// into the street on the walls), as ReconstructionChunks::update_chunk takes them.
  std::vector<Vec3f> positions;
  std::vector<TriangleMesh::Indices> triangles;
};

struct StreetScene {
  StreetOptions options;
  /// The reconstruction, in chunks along x; together they are the whole mesh.
  std::vector<StreetChunk> chunks;
  /// The route to drape, as a planner would give it: waypoints every 2 m along the street's
  /// middle (y = 0), from x = 1 to x = length - 1, each 0.3 m above the noise-free floor there
  /// (the higher side at a step), so that the default DrapeSettings' casts (from 1 m above the
  /// route to 2 m below it) bracket the surface everywhere along it.
  std::vector<Vec3f> route;
  /// Points on the walls where signs hang, with the wall's normal pointing into the street.
  std::vector<Vec3f> sign_points;
  std::vector<Vec3f> sign_normals;
  /// A phone held at eye height (1.6 m above the floor) at the start of the street, looking
  /// down the street and slightly down, 640 x 480 with a 60 degree horizontal field of view.
  /// (Qualified: in a file that also includes tools/camera.hpp, a bare PinholeCamera would name
  /// tools::PinholeCamera and give StreetScene another layout there.)
  hitscan::PinholeCamera camera;
  Vec3f gravity{0.0f, 0.0f, -9.81f};

  std::size_t triangle_count() const;
  /// All chunks as one mesh (for `hitscan drape`'s picture of the built-in street, and tests).
  Result<TriangleMesh> merged_mesh() const;
};

/// Height of the noise-free surface seen from above at (x, y): the floor the reconstruction
/// approximates, or the pillar's top over its footprint. NaN inside the hole (no surface there).
double street_floor_height(const StreetOptions& options, double x, double y);

/// Builds the street. Fails with invalid_argument for a non-positive or non-finite length,
/// width, wall height, cell or chunk length, a negative noise, or a cell so small that the mesh
/// would exceed 2^31 vertices.
Result<StreetScene> make_street_scene(const StreetOptions& options = {});

}  // namespace hitscan::tools
