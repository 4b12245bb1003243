#pragma once
/// PinholeCamera: one primary ray per pixel, through the pixel's centre.

#include "hitscan/geometry/ray.hpp"
#include "hitscan/math/aabb.hpp"
#include "hitscan/status.hpp"

namespace hitscan::tools {

/// Where the camera is and what it sees. The image's vertical extent spans vertical_fov_radians;
/// the horizontal extent follows from the aspect ratio width / height (square pixels).
struct CameraDef {
  Vec3f position{0, 0, 1};
  Vec3f look_at{0, 0, 0};
  /// Which way is up in the picture; need not be unit or perpendicular to the view direction.
  Vec3f up{0, 1, 0};
  float vertical_fov_radians = kPi<float> / 3;
  int width = 960;
  int height = 540;
};

inline CameraDef default_camera_def() { return {}; }

/// `def` moved to frame `bounds`: it looks at the box's centre from the side `from` points to (any
/// length), as far away as makes the box's bounding sphere just fit the narrower of the vertical
/// and horizontal fields of view. The field of view, size and up of `def` are kept. A box of a
/// single point is framed as a sphere of radius 1 around it. `bounds` must be valid and finite,
/// and `from` non-zero (contract violations).
CameraDef frame_bounds(CameraDef def, const Aabbf& bounds, Vec3f from);

class PinholeCamera {
 public:
  /// Fails with invalid_argument for a non-finite vector, look_at == position, up parallel to the
  /// view direction, a field of view outside (0, pi), or a width or height below 1.
  static Result<PinholeCamera> make(const CameraDef& def);

  int width() const { return width_; }
  int height() const { return height_; }
  Vec3f position() const { return position_; }

  /// The ray from the camera through the centre of pixel (x, y): column x from the left, row y
  /// from the top. dir is unit length, so t is a distance; tmin 0, tmax +inf.
  /// x, y outside the image are a contract violation.
  Rayf ray_through_pixel(int x, int y) const;

 private:
  Vec3f position_{};
  /// The view direction (unit).
  Vec3f forward_{};
  /// Image-plane vectors at distance 1 along forward_: right_ spans half the image width,
  /// up_ half its height.
  Vec3f right_{};
  Vec3f up_{};
  int width_ = 0;
  int height_ = 0;
};

}  // namespace hitscan::tools
