#pragma once
/// The background of `hitscan drape`'s picture: the reconstructed scene as the AR camera sees it,
/// one ray per pixel through the pixel's centre (PinholeCamera::ray_through_pixel, all cast as one
/// Scene::raycast_batch), shaded by a light from above.

#include "hitscan/ar/camera.hpp"
#include "hitscan/executor.hpp"
#include "hitscan/io/image.hpp"
#include "hitscan/query/scene.hpp"
#include "hitscan/status.hpp"

namespace hitscan::tools {

/// Colour of a surface hit by a camera ray: surfaces facing up (floors, treads, ramps) grey,
/// others (walls, risers) sand-coloured; lit by a light from above and the camera's right
/// (0.35 ambient + 0.65 Lambert with the normal facing the ray), then faded towards the horizon's
/// colour with distance (half at about 55 m). `up` is unit, against gravity.
io::Rgb8 shade_hit(const QueryHit& hit, const hitscan::PinholeCamera& camera, Vec3f up);

/// Colour of a ray that hit nothing: sky above the horizon (a gradient from the horizon up),
/// dark grey below it, where a hole in the reconstruction shows.
io::Rgb8 shade_miss(Vec3f direction, Vec3f up);

/// Pixel (i, j) of `image` (resized to the camera's size) gets shade_hit of the nearest hit of the
/// ray through (i + 0.5, j + 0.5), or shade_miss. Casts over `executor` (the default pool when
/// null); fails only as Scene::raycast_batch does.
Status shade_scene(const Scene& scene, const hitscan::PinholeCamera& camera, Vec3f up, io::Image& image,
                   Executor* executor = nullptr);

}  // namespace hitscan::tools
