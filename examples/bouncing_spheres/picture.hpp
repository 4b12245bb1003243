#pragma once
// The picture: the paths, a side view above a top view, drawn by a tiny rasteriser of lines and
// discs.

#include <string>

#include "hitscan/status.hpp"
#include "run.hpp"

namespace bouncing {

/// The side view (looking along -z) above the top view (looking down), sharing the x axis, framed
/// on the obstacles and the spheres' starting points with 3 m to spare; the few paths that roll
/// further (towards the walls, not drawn) are cut at the frame.
Status draw(const World& world, const RunResult& result, const std::string& path);

}  // namespace bouncing
