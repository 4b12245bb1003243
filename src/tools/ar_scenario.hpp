#pragma once
/// The AR scenario of `hitscan drape`, frame by frame: a reconstruction arriving in chunks, a
/// route draped over it with arrows along it, signs placed, the virtual content tested for
/// occlusion against the depth rendered from the camera, and the picture of it all.
///
/// One frame, in order (each stage timed on its own):
/// - chunk update: one chunk rescanned (ReconstructionChunks::update_chunk), then Scene::commit;
/// - depth map: render_depth from the camera, at the picture's size;
/// - drape: drape_route (DrapeSettings defaults, but casts reaching kDrapeCastDepth below the
///   route), arrow_poses every kArrowSpacing metres, and each sign placed: by place() at its
///   anchor's pixel when the anchor is in the image and the placement lands within
///   kSignSnapDistance of it (the reconstruction's position and normal, as an app restoring a
///   saved anchor would), otherwise at the anchor with its own normal;
/// - occlusion: the route (a line kRouteLift above the draped points, left out next to a
///   no_surface point), arrows (flat triangles kArrowLift above the route) and signs (upright
///   boards kSignOffset off their surface) rasterised (ar_overlay.hpp), then occlusion_mask with a
///   bias of kOcclusionBias;
/// - render: the scene shaded by ray casting (ar_shading.hpp) and the content laid over it, at
///   kVisibleAlpha, or kHiddenAlpha where hidden.

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hitscan/ar/camera.hpp"
#include "hitscan/ar/drape.hpp"
#include "hitscan/io/image.hpp"
#include "hitscan/query/scene.hpp"
#include "hitscan/status.hpp"
#include "tools/ar_overlay.hpp"
#include "tools/street_scene.hpp"

namespace hitscan::tools {

inline constexpr float kDrapeCastDepth = 3.0f;
inline constexpr float kArrowSpacing = 1.0f;
inline constexpr float kRouteLift = 0.02f;
/// The route's line is as wide as a kRouteWidth stripe on the floor, but at least width / 320 and
/// at most width / 40 pixels for a picture `width` pixels wide.
inline constexpr float kRouteWidth = 0.08f;
inline constexpr float kArrowLift = 0.03f;
inline constexpr float kSignOffset = 0.02f;
inline constexpr float kSignSnapDistance = 0.25f;
inline constexpr float kOcclusionBias = 0.05f;
inline constexpr float kVisibleAlpha = 0.9f;
inline constexpr float kHiddenAlpha = 0.3f;
inline constexpr io::Rgb8 kRouteColour{0, 170, 255};
inline constexpr io::Rgb8 kArrowColour{255, 255, 255};
inline constexpr io::Rgb8 kSignColour{255, 190, 0};
inline constexpr io::Rgb8 kSignBorderColour{40, 40, 40};

/// A chunk that frame `frame` rescans: its index and its new geometry.
using ChunkRescan = std::function<Result<std::pair<std::size_t, StreetChunk>>(int frame)>;

struct ArInput {
  /// The reconstruction, in world coordinates; chunk k is ReconstructionChunks' chunk k.
  std::vector<StreetChunk> chunks;
  /// What each frame rescans; when empty, frame f submits chunk f % chunks.size() unchanged.
  ChunkRescan rescan;
  std::vector<Vec3f> route;
  /// Anchors of the signs (points on a surface and its normal towards the viewer), may be empty.
  std::vector<Vec3f> sign_points;
  std::vector<Vec3f> sign_normals;
  /// Unit, against gravity.
  Vec3f up{0, 0, 1};
  /// The AR camera; when empty, camera_behind_route_start at width x height.
  std::optional<hitscan::PinholeCamera> camera;
  int width = 640;
  int height = 480;
};

/// Stage times of each frame, milliseconds.
struct ArStageTimes {
  std::vector<double> chunk_update, depth_map, drape, occlusion, render;
};

/// What the last frame produced, and the times of all.
struct ArRun {
  hitscan::PinholeCamera camera;
  std::size_t triangles = 0;
  DrapedRoute route;
  std::vector<ArrowPose> arrows;
  /// Sign boards drawn (placed, with a corner in front of the camera).
  std::size_t signs = 0;
  io::Image image;
  /// Per pixel (j * width + i): the content drawn there, and whether it was hidden (0 or 1).
  std::vector<OverlayKind> content;
  std::vector<std::uint8_t> hidden;
  ArStageTimes times;
};

/// The camera placed behind a route's start, looking along it: `ground` is the surface under the
/// route's first point p0 (the hit of a cast from 1 m above p0 along gravity, reaching
/// kDrapeCastDepth below it; p0 itself when nothing is there); d is the horizontal (perpendicular
/// to up) direction from p0 to the first route point at least 0.5 m from it horizontally (the
/// horizontally farthest point if none is; any horizontal direction if the route is vertical).
/// With L the route's length (10 if it is 0), the camera stands at
/// ground + min(1.6, 0.2 L) up - min(2, 0.25 L) d, looks along d tilted 15 degrees down, up in the
/// image towards `up`, with a 60 degree horizontal field of view, width x height pixels (square
/// pixels, principal point at the centre). Fails with invalid_argument for fewer than 2 route
/// points or a size below 1.
Result<hitscan::PinholeCamera> camera_behind_route_start(const Scene& scene, std::span<const Vec3f> route, Vec3f up,
                                                         int width, int height);

/// Runs `frames` frames (at least 1) of the scenario. Fails with the failing stage's status
/// (invalid_argument for an input the library rejects: a chunk TriangleMesh::make refuses, a
/// route drape_route refuses, a camera that cannot be made), the message naming the stage.
Result<ArRun> run_ar_scenario(const ArInput& input, int frames);

}  // namespace hitscan::tools
