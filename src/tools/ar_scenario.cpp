#include "tools/ar_scenario.hpp"

#include <chrono>
#include <cmath>
#include <numbers>

#include "hitscan/ar/chunks.hpp"
#include "hitscan/ar/occlusion.hpp"
#include "hitscan/ar/placement.hpp"
#include "tools/ar_shading.hpp"

namespace hitscan::tools {
namespace {

using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

Status stage_failure(const char* stage, const Status& status) {
  return {status.code(), std::string(stage) + ": " + status.message()};
}

Vec3f horizontal(Vec3f v, Vec3f up) { return v - up * dot(v, up); }

float route_length(std::span<const Vec3f> route) {
  float length = 0;
  for (std::size_t k = 1; k < route.size(); ++k) length += distance(route[k - 1], route[k]);
  return length;
}

// Where a sign board goes: its centre on the surface and the surface's normal.
struct SignAnchor {
  Vec3f point{};
  Vec3f normal{};
};

SignAnchor place_sign(const Scene& scene, const hitscan::PinholeCamera& camera, Vec3f point, Vec3f normal) {
  const PixelProjection pixel = camera.project(point);
  if (pixel.in_image) {
    const Placement placement = place(scene, camera, pixel.u, pixel.v);
    if (placement && distance(placement.position, point) <= kSignSnapDistance) {
      return {placement.position, placement.normal};
    }
  }
  return {point, normalize(normal)};
}

// An upright board of width x height centred `offset` off the anchor along its normal; whether a
// corner of it is in the image.
bool draw_board(Overlay& overlay, const hitscan::PinholeCamera& camera, const SignAnchor& anchor, Vec3f up,
                float width, float height, float offset, io::Rgb8 colour) {
  Vec3f vertical = up - anchor.normal * dot(up, anchor.normal);
  vertical = length_squared(vertical) > 1e-6f ? normalize(vertical) : camera.up();
  const Vec3f across = normalize(cross(vertical, anchor.normal));
  const Vec3f centre = anchor.point + anchor.normal * offset;
  const Vec3f a = centre - across * (0.5f * width) - vertical * (0.5f * height);
  const Vec3f b = centre + across * (0.5f * width) - vertical * (0.5f * height);
  const Vec3f c = centre + across * (0.5f * width) + vertical * (0.5f * height);
  const Vec3f d = centre - across * (0.5f * width) + vertical * (0.5f * height);
  overlay.draw_triangle(a, b, c, colour, OverlayKind::sign);
  overlay.draw_triangle(a, c, d, colour, OverlayKind::sign);
  bool seen = false;
  for (const Vec3f corner : {a, b, c, d}) seen = seen || camera.project(corner).in_image;
  return seen;
}

void draw_route(Overlay& overlay, const DrapedRoute& route, const LineWidth& width) {
  for (std::size_t k = 1; k < route.points.size(); ++k) {
    const DrapedPoint& p = route.points[k - 1];
    const DrapedPoint& q = route.points[k];
    if (p.status == DrapeStatus::no_surface || q.status == DrapeStatus::no_surface) continue;
    overlay.draw_line(p.position + p.normal * kRouteLift, q.position + q.normal * kRouteLift, width, kRouteColour,
                      OverlayKind::route);
  }
}

void draw_arrow(Overlay& overlay, const ArrowPose& arrow) {
  const Vec3f base = arrow.position + arrow.up * kArrowLift;
  overlay.draw_triangle(base + arrow.forward * 0.25f, base - arrow.forward * 0.15f + arrow.right * 0.15f,
                        base - arrow.forward * 0.15f - arrow.right * 0.15f, kArrowColour, OverlayKind::arrow);
}

}  // namespace

Result<hitscan::PinholeCamera> camera_behind_route_start(const Scene& scene, std::span<const Vec3f> route, Vec3f up,
                                                         int width, int height) {
  if (route.size() < 2 || width < 1 || height < 1) {
    return Status{StatusCode::invalid_argument, "camera_behind_route_start: needs 2 route points and a size of 1 or more"};
  }
  up = normalize(up);
  const Vec3f start = route.front();
  QueryRay down{start + up, -up, 1.0f + kDrapeCastDepth};
  const QueryHit ground_hit = scene.raycast(down);
  const Vec3f ground = ground_hit ? ground_hit.point : start;

  Vec3f along{};
  for (const Vec3f p : route) {
    const Vec3f h = horizontal(p - start, up);
    if (length_squared(h) > length_squared(along)) along = h;
    if (length_squared(along) >= 0.25f) break;
  }
  if (length_squared(along) > 1e-12f) {
    along = normalize(along);
  } else {
    Vec3f other;
    orthonormal_basis(up, along, other);
  }

  float length = route_length(route);
  if (!(length > 0.0f)) length = 10.0f;
  const Vec3f position = ground + up * std::min(1.6f, 0.2f * length) - along * std::min(2.0f, 0.25f * length);
  const float tilt = 15.0f * std::numbers::pi_v<float> / 180.0f;
  const Result<Quatf> rotation = look_rotation(along * std::cos(tilt) - up * std::sin(tilt), up);
  if (!rotation) return rotation.status();
  PinholeIntrinsics intrinsics;
  intrinsics.width = width;
  intrinsics.height = height;
  intrinsics.fx = intrinsics.fy = 0.5f * static_cast<float>(width) / std::tan(std::numbers::pi_v<float> / 6.0f);
  intrinsics.cx = 0.5f * static_cast<float>(width);
  intrinsics.cy = 0.5f * static_cast<float>(height);
  return hitscan::PinholeCamera::make(intrinsics, rotation.value(), position);
}

Result<ArRun> run_ar_scenario(const ArInput& input, int frames) {
  if (frames < 1 || input.chunks.empty()) {
    return Status{StatusCode::invalid_argument, "run_ar_scenario: needs a frame and a chunk at least"};
  }
  Scene scene;
  ReconstructionChunks chunks(scene);
  std::size_t triangles = 0;
  for (std::size_t k = 0; k < input.chunks.size(); ++k) {
    const Result<ChunkUpdate> update = chunks.update_chunk(k, input.chunks[k].positions, input.chunks[k].triangles);
    if (!update) return stage_failure("chunk update", update.status());
    triangles += input.chunks[k].triangles.size();
  }
  scene.commit();

  const Vec3f up = normalize(input.up);
  Result<hitscan::PinholeCamera> camera =
      input.camera ? Result<hitscan::PinholeCamera>(*input.camera)
                   : camera_behind_route_start(scene, input.route, up, input.width, input.height);
  if (!camera) return stage_failure("camera", camera.status());
  const hitscan::PinholeCamera& eye = camera.value();
  const int width = eye.intrinsics().width, height = eye.intrinsics().height;
  const LineWidth line_width{0.5f * kRouteWidth, std::max(1.0f, static_cast<float>(width) / 640.0f),
                             std::max(1.0f, static_cast<float>(width) / 80.0f)};

  ArRun run{eye, 0, {}, {}, 0, {}, {}, {}, {}};
  run.triangles = triangles;
  DrapeSettings drape_settings;
  drape_settings.max_cast_depth = kDrapeCastDepth;
  DepthMap depth_map;
  for (int frame = 0; frame < frames; ++frame) {
    Result<std::pair<std::size_t, StreetChunk>> rescanned =
        input.rescan ? input.rescan(frame)
                     : Result<std::pair<std::size_t, StreetChunk>>(std::pair{
                           static_cast<std::size_t>(frame) % input.chunks.size(), StreetChunk{}});
    if (!rescanned) return stage_failure("chunk update", rescanned.status());
    const std::size_t index = rescanned.value().first;
    if (index >= input.chunks.size()) {
      return Status{StatusCode::out_of_range, "chunk update: frame " + std::to_string(frame) + " rescans chunk " +
                                                  std::to_string(index) + " of " + std::to_string(input.chunks.size())};
    }
    const StreetChunk& chunk = input.rescan ? rescanned.value().second : input.chunks[index];
    Clock::time_point start = Clock::now();
    if (const Result<ChunkUpdate> update = chunks.update_chunk(index, chunk.positions, chunk.triangles); !update) {
      return stage_failure("chunk update", update.status());
    }
    scene.commit();
    run.times.chunk_update.push_back(milliseconds_since(start));

    start = Clock::now();
    if (const Status status = render_depth(scene, eye, depth_map); !status.ok()) {
      return stage_failure("depth map", status);
    }
    run.times.depth_map.push_back(milliseconds_since(start));

    start = Clock::now();
    Result<DrapedRoute> draped = drape_route(scene, input.route, -up, eye.position(), drape_settings);
    if (!draped) return stage_failure("drape", draped.status());
    run.route = std::move(draped).value();
    run.arrows = arrow_poses(run.route, kArrowSpacing);
    std::vector<SignAnchor> signs;
    for (std::size_t k = 0; k < input.sign_points.size() && k < input.sign_normals.size(); ++k) {
      signs.push_back(place_sign(scene, eye, input.sign_points[k], input.sign_normals[k]));
    }
    run.times.drape.push_back(milliseconds_since(start));

    start = Clock::now();
    Overlay overlay(eye);
    draw_route(overlay, run.route, line_width);
    for (const ArrowPose& arrow : run.arrows) draw_arrow(overlay, arrow);
    run.signs = 0;
    for (const SignAnchor& sign : signs) {
      const bool seen = draw_board(overlay, eye, sign, up, 1.0f, 0.6f, kSignOffset, kSignBorderColour);
      draw_board(overlay, eye, sign, up, 0.9f, 0.5f, kSignOffset + 0.01f, kSignColour);
      if (seen) ++run.signs;
    }
    const std::vector<std::size_t> covered = overlay.covered();
    const std::vector<PixelDepth> probes = overlay.occlusion_probes(covered);
    std::vector<std::uint8_t> hidden(covered.size());
    const Result<DepthMapView> real = DepthMapView::of(depth_map);
    if (!real) return stage_failure("occlusion", real.status());
    if (const Status status = occlusion_mask(real.value(), probes, hidden, kOcclusionBias); !status.ok()) {
      return stage_failure("occlusion", status);
    }
    run.times.occlusion.push_back(milliseconds_since(start));

    start = Clock::now();
    if (const Status status = shade_scene(scene, eye, up, run.image); !status.ok()) {
      return stage_failure("render", status);
    }
    composite(run.image, overlay, covered, hidden, kVisibleAlpha, kHiddenAlpha);
    run.times.render.push_back(milliseconds_since(start));

    if (frame + 1 == frames) {
      const std::size_t pixel_count = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
      run.content.assign(pixel_count, OverlayKind::none);
      run.hidden.assign(pixel_count, 0);
      for (std::size_t k = 0; k < covered.size(); ++k) {
        run.content[covered[k]] = overlay.pixels()[covered[k]].kind;
        run.hidden[covered[k]] = hidden[k];
      }
    }
  }
  return run;
}

}  // namespace hitscan::tools
