// Arrow frames along a draped route: up from the surface normal, forward along the draped route
// within the surface's plane.

#include <cmath>

#include "hitscan/ar/drape.hpp"

namespace hitscan {
namespace {

// d without its component along the unit vector up, normalised; zero when d is (nearly) along up.
Vec3f along_plane(Vec3f d, Vec3f up) {
  const Vec3f in_plane = d - up * dot(d, up);
  if (!(length_squared(in_plane) > 1e-6f * length_squared(d))) return {};
  return normalize(in_plane);
}

}  // namespace

std::vector<ArrowPose> arrow_poses(const DrapedRoute& draped, float spacing) {
  std::vector<ArrowPose> arrows;
  const std::vector<DrapedPoint>& points = draped.points;
  if (points.size() < 2 || !(spacing > 0.0f) || !is_finite(spacing)) return arrows;
  const double count = std::floor(static_cast<double>(draped.route_length) / spacing) + 1.0;
  if (!(count <= static_cast<double>(kMaxArrows))) return arrows;

  std::size_t i = 0;  // the segment points[i], points[i + 1] that holds the arrow
  const auto n = static_cast<std::size_t>(count);
  for (std::size_t k = 0; k < n; ++k) {
    const float s = static_cast<float>(static_cast<double>(k) * spacing);
    while (i + 2 < points.size() && points[i + 1].distance_along_route <= s) ++i;
    const DrapedPoint& a = points[i];
    const DrapedPoint& b = points[i + 1];
    if (a.status == DrapeStatus::no_surface || b.status == DrapeStatus::no_surface) continue;
    const float w = clamp((s - a.distance_along_route) / (b.distance_along_route - a.distance_along_route), 0.0f, 1.0f);
    ArrowPose pose;
    pose.distance_along_route = s;
    pose.position = lerp(a.position, b.position, w);
    pose.up = normalize(lerp(a.normal, b.normal, w));
    if (pose.up == Vec3f{}) pose.up = a.normal;
    pose.forward = along_plane(b.position - a.position, pose.up);
    if (pose.forward == Vec3f{}) pose.forward = along_plane(b.route_point - a.route_point, pose.up);
    if (pose.forward == Vec3f{}) {
      Vec3f unused;
      orthonormal_basis(pose.up, pose.forward, unused);
    }
    pose.right = cross(pose.forward, pose.up);
    arrows.push_back(pose);
  }
  return arrows;
}

}  // namespace hitscan
