#pragma once
// The "watertight" suite: rays from points inside closed real meshes, aimed exactly at vertices,
// exactly at edge midpoints and in random directions. A ray from inside a closed surface must hit
// it; one that misses has slipped through a crack between triangles. hitscan's closest hit and
// Embree's rtcIntersect1 are counted side by side on the same rays, and hitscan's all-hits query
// must cross the surface an odd number of times on every ray.

#include <cstddef>
#include <cstdio>

namespace hitscan::bench {

/// Traces about `total_rays` rays spread over the closed meshes on `threads` threads, prints a
/// line per mesh and backend, and appends JSON lines (suite "watertight", metrics "escapes" and
/// "even_crossings", with the ray count) to `out` when it is not null. Returns the number of
/// hitscan rays that escaped or crossed evenly: 0 is the guarantee.
std::size_t run_watertight(std::size_t total_rays, int threads, std::FILE* out);

}  // namespace hitscan::bench
