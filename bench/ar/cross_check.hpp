#pragma once
// The suite's correctness checks, run before anything is timed: each answer the timed cases give
// is compared with something computed another way. Each check prints one line and returns how
// many comparisons failed.

#include <cstddef>
#include <cstdint>
#include <span>

#include "ar_world.hpp"
#include "hitscan/ar/drape.hpp"
#include "hitscan/ar/occlusion.hpp"

namespace hitscan::bench {

/// Every on_surface draped point lies on the noise-free floor (street_floor_height) within the
/// reconstruction noise plus a millimetre, taking the floor's range over half a cell around the
/// point (a step's edge falls on a grid line); and no point found no surface where the floor
/// exists within the casts' reach.
std::size_t check_drape(const ArWorld& world, const DrapedRoute& draped, const DrapeSettings& settings);

/// At a grid of pixels, the depth map equals a single Scene::raycast through the pixel, and both
/// equal a brute-force cast against every triangle of the world (double precision).
std::size_t check_depth_map(const ArWorld& world, const DepthMap& map);

/// occlusion_mask's answers (on one thread and split over threads) equal the comparison of the
/// real depth with the content's, written out here.
std::size_t check_occlusion(const DepthMap& map, std::span<const PixelDepth> covered,
                            std::span<const std::uint8_t> hidden_one_thread,
                            std::span<const std::uint8_t> hidden_threads, float bias);

/// Updates the chunk three times (built, then refit twice: the third update leaves the fresh noise
/// in the scene) and checks that the last two were refits and that vertical rays over the chunk
/// hit where brute force against the updated positions does.
std::size_t check_chunk_update(ArWorld& world);

}  // namespace hitscan::bench
