#include "tools/camera.hpp"

#include <cmath>

namespace hitscan::tools {

CameraDef frame_bounds(CameraDef def, const Aabbf& bounds, Vec3f from) {
  HITSCAN_ASSERT(bounds.is_valid() && is_finite(bounds.min) && is_finite(bounds.max));
  HITSCAN_ASSERT(from != Vec3f{});
  const float radius = length(bounds.half_extents());
  const float aspect = static_cast<float>(def.width) / static_cast<float>(def.height);
  const float half_vertical = def.vertical_fov_radians * 0.5f;
  const float half_horizontal = std::atan(std::tan(half_vertical) * aspect);
  // A sphere of radius r seen from distance d spans the half angle asin(r / d).
  const float distance = (radius > 0 ? radius : 1.0f) / std::sin(min(half_vertical, half_horizontal));
  def.look_at = bounds.center();
  def.position = def.look_at + normalize(from) * distance;
  return def;
}

Result<PinholeCamera> PinholeCamera::make(const CameraDef& def) {
  if (!is_finite(def.position) || !is_finite(def.look_at) || !is_finite(def.up)) {
    return Status{StatusCode::invalid_argument, "camera position, look-at and up must be finite"};
  }
  if (!(def.vertical_fov_radians > 0.0f && def.vertical_fov_radians < kPi<float>)) {
    return Status{StatusCode::invalid_argument, "camera vertical field of view must lie in (0, pi) radians"};
  }
  if (def.width < 1 || def.height < 1) {
    return Status{StatusCode::invalid_argument, "camera image must be at least 1x1 pixels"};
  }
  const Vec3f forward = normalize(def.look_at - def.position);
  if (forward == Vec3f{}) {
    return Status{StatusCode::invalid_argument, "camera look-at point equals its position"};
  }
  // A cross product tiny next to |up| means up is zero or (nearly) parallel to the view
  // direction, which leaves the camera's roll undefined.
  const Vec3f side = cross(forward, def.up);
  if (!(length(side) > 1e-6f * length(def.up))) {
    return Status{StatusCode::invalid_argument, "camera up vector is zero or parallel to the view direction"};
  }
  const Vec3f right = normalize(side);

  PinholeCamera camera;
  camera.position_ = def.position;
  camera.forward_ = forward;
  const float half_height = std::tan(def.vertical_fov_radians * 0.5f);
  const float half_width = half_height * static_cast<float>(def.width) / static_cast<float>(def.height);
  camera.right_ = right * half_width;
  camera.up_ = cross(right, forward) * half_height;
  camera.width_ = def.width;
  camera.height_ = def.height;
  return camera;
}

Rayf PinholeCamera::ray_through_pixel(int x, int y) const {
  HITSCAN_ASSERT(x >= 0 && x < width_ && y >= 0 && y < height_);
  // The pixel centre in [-1, 1] image coordinates, +1 at the right and top edges.
  const float sx = 2.0f * (static_cast<float>(x) + 0.5f) / static_cast<float>(width_) - 1.0f;
  const float sy = 1.0f - 2.0f * (static_cast<float>(y) + 0.5f) / static_cast<float>(height_);
  return {position_, normalize(forward_ + right_ * sx + up_ * sy)};
}

}  // namespace hitscan::tools
