#pragma once
// The rays a first-person shooter traces in one of its levels (Quake units, z up), from players
// standing on the level's floors:
//   - "view": what players see, 90-degree 4:3 camera images from 16 players' eyes, looking level
//     in random directions; closest hits, tiled for packets.
//   - "shots": hitscan shots from random players in random directions (any heading, aimed within
//     30 degrees of level); closest hits.
//   - "sight": line of sight between two random players, eye to eye, tmax the distance between
//     them; any hit.
// Players stand at points drawn uniformly by area over the walkable triangles (normal within
// acos(0.7) of up, Quake 3's MIN_WALK_NORMAL) where a standing player fits: nothing within the
// player's height (56) above the point, nor within 16 sideways at waist height. The eye is 50 above
// the floor (Quake 3: the player's origin 24 above the floor, the view height 26 above that).

#include <memory>
#include <vector>

#include "hitscan/mesh/triangle_mesh.hpp"
#include "ray_sets.hpp"

namespace hitscan::bench {

/// The three sets above, each of about `count` rays, from a fixed seed.
std::vector<RaySet> shooter_rays(std::shared_ptr<const TriangleMesh> level, std::size_t count);

}  // namespace hitscan::bench
