#pragma once
/// Route draping: a navigation route, given as a 3D polyline, laid onto the scanned surface below
/// it, so that AR arrows and lines sit on the floor, follow ramps and keep steps sharp.
///
/// Method. The route is sampled by arc length, more finely near the camera than far from it.
/// Each sample casts a ray along gravity from cast_height above the route point, through
/// cast_height + max_cast_depth, against the scene (the reconstruction, and whatever other
/// colliders options admits). Between two neighbouring samples whose surfaces disagree (one lies
/// off the other's tangent plane by more than refine_height, their normals differ by more than
/// refine_angle, or one hit and the other missed) the route is bisected, all such segments of a
/// round cast as one Scene::raycast_batch, until the segments are min_refine_spacing long: a step
/// edge, a curb or the rim of a hole is then bracketed by two samples at most min_refine_spacing
/// apart along the route. Runs of samples that hit nothing (glass, holes, unscanned floor) are
/// gaps: bridged when at most max_gap long, reported and left alone when longer.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hitscan/executor.hpp"
#include "hitscan/math/vec3.hpp"
#include "hitscan/query/query_hit.hpp"
#include "hitscan/query/scene.hpp"
#include "hitscan/status.hpp"

namespace hitscan {

/// How a gap that is short enough is bridged.
enum class DrapeGapMode : std::uint8_t {
  /// Height (along gravity) and normal interpolated linearly in route distance between the
  /// surface points on either side of the gap.
  interpolate,
  /// The height and normal of the surface point before the gap held across it.
  hold_last,
};

struct DrapeSettings {
  /// Sample spacing along the route (metres of route arc length) where the route is within
  /// near_distance of the camera, and where it is beyond far_distance; linear in between.
  float near_spacing = 0.5f;
  float far_spacing = 2.0f;
  float near_distance = 3.0f;
  float far_distance = 20.0f;
  /// Each cast starts this far above the route point (against gravity) and reaches
  /// max_cast_depth below it: the surface is searched within [-max_cast_depth, cast_height] of
  /// the route's height. A cast that starts inside a solid collider (the surface is higher than
  /// cast_height above the route) finds no surface there.
  float cast_height = 1.0f;
  float max_cast_depth = 2.0f;
  /// A segment between two samples is bisected when either sample lies more than refine_height
  /// off the other's tangent plane (a step, a curb), when their normals differ by more than
  /// refine_angle radians (a ramp's start), or when one hit a surface and the other did not
  /// (a gap's rim); down to segments of min_refine_spacing.
  float refine_height = 0.02f;
  float refine_angle = 0.0873f;  // 5 degrees
  float min_refine_spacing = 0.02f;
  /// Gaps whose length (route distance between the surface points on either side) is at most
  /// this are bridged; longer ones are left as no_surface. A gap at either end of the route,
  /// with surface on one side only, is bridged by holding that side's height in both modes.
  float max_gap = 1.0f;
  DrapeGapMode gap_mode = DrapeGapMode::interpolate;
  /// Options of every cast: a layer mask that sees only the reconstruction, say. max_distance is
  /// ignored (the cast's reach is cast_height + max_cast_depth) and solid taken as true (a cast
  /// must not report the underside of a solid it started in as the surface).
  QueryOptions options{};
  /// The most points the result may hold. Sampling that would need more is out_of_range;
  /// refinement stops adding points at this count.
  std::size_t max_points = std::size_t{1} << 20;
};

enum class DrapeStatus : std::uint8_t {
  /// A cast hit a surface: position and normal are the hit's.
  on_surface,
  /// Inside a gap short enough to bridge: position and normal are bridged (see DrapeGapMode).
  gap_bridged,
  /// Inside a gap too long to bridge: position is the route point itself, normal is up
  /// (against gravity). Nothing is invented.
  no_surface,
};

struct DrapedPoint {
  /// On the surface (on_surface), bridged (gap_bridged) or the route point (no_surface).
  Vec3f position{};
  /// Unit surface normal, on the side facing up (against gravity).
  Vec3f normal{};
  /// The route point this sample was taken at.
  Vec3f route_point{};
  /// Arc length of the input route from its first point to route_point.
  float distance_along_route = 0;
  DrapeStatus status = DrapeStatus::no_surface;
  /// The collider hit (on_surface), kNoCollider otherwise.
  ColliderId collider = kNoCollider;
};

/// A run of samples that found no surface, between the route distances of the surface points
/// on either side (0 or the route's length for a gap open at an end).
struct DrapeGap {
  float start_distance = 0;
  float end_distance = 0;
  bool bridged = false;

  float length() const { return end_distance - start_distance; }
};

struct DrapedRoute {
  /// In route order, distance_along_route increasing strictly, the first at 0 and the last at
  /// the route's length.
  std::vector<DrapedPoint> points;
  std::vector<DrapeGap> gaps;
  std::size_t on_surface = 0;
  std::size_t gap_bridged = 0;
  std::size_t no_surface = 0;
  /// Arc length of the input route.
  float route_length = 0;
  /// Rounds of refinement run, and the casts made in all (initial samples included).
  int refine_rounds = 0;
  std::size_t casts = 0;
};

/// Drapes `route` over `scene`. gravity (any length) points down; camera_position sets where
/// sampling is fine. The casts of each round run as one Scene::raycast_batch over `executor` (the
/// default pool when null); the result does not depend on the executor.
/// Fails with invalid_argument for fewer than 2 route points, a NaN or infinite coordinate in
/// the route, gravity or camera position, a zero gravity, or settings out of their domain
/// (spacings, distances, heights or max_gap negative, zero where a length must be positive, or
/// NaN; near_distance > far_distance); with out_of_range when sampling would exceed max_points.
/// Repeated route points are allowed (their zero-length segments are skipped); a route whose
/// points all coincide gives a single point.
Result<DrapedRoute> drape_route(const Scene& scene, std::span<const Vec3f> route, Vec3f gravity,
                                Vec3f camera_position, const DrapeSettings& settings = {},
                                Executor* executor = nullptr);

/// The frame of an arrow drawn on the route: right-handed, right = forward x up.
struct ArrowPose {
  Vec3f position{};
  /// The surface normal (interpolated between the neighbouring draped points).
  Vec3f up{};
  /// The direction of travel along the draped route, in the plane perpendicular to up.
  Vec3f forward{};
  Vec3f right{};
  float distance_along_route = 0;
};

inline constexpr std::size_t kMaxArrows = std::size_t{1} << 24;

/// Arrows every `spacing` metres of route distance, the first at distance 0, each between the two
/// draped points around it: position and normal interpolated, forward the draped segment's
/// direction projected onto the plane perpendicular to up (the input route's direction when the
/// draped segment is parallel to up, as on a riser; any perpendicular when that is too).
/// Arrows are left out where either neighbouring point is no_surface. A spacing that is not
/// positive and finite or would give more than kMaxArrows arrows, or a route of fewer than 2
/// points, gives no arrows.
std::vector<ArrowPose> arrow_poses(const DrapedRoute& draped, float spacing);

}  // namespace hitscan
