#pragma once
/// PinholeCamera: the AR device's camera as the tracking framework reports it — intrinsics in
/// pixels and a camera-to-world pose — turning screen points into scene rays and world points
/// into pixels and depth.
///
/// Conventions (ARKit's, which ARCore's Pose and OpenGL share):
/// - camera frame: right-handed, +x to the right of the image, +y up in the image, and the camera
///   looks along -z;
/// - image: u to the right and v down, in pixels, origin at the top-left corner of the image;
///   pixel (i, j) covers [i, i + 1) x [j, j + 1), so its centre is (i + 0.5, j + 0.5);
/// - intrinsics: u = cx + fx x / (-z), v = cy - fy y / (-z) for a camera-frame point (x, y, z)
///   in front of the camera (z < 0);
/// - depth: the distance along the viewing axis, -z, as depth maps store it (not the distance to
///   the camera centre).

#include "hitscan/math/quat.hpp"
#include "hitscan/query/query_hit.hpp"
#include "hitscan/status.hpp"

namespace hitscan {

struct PinholeIntrinsics {
  /// Focal lengths in pixels.
  float fx = 1000;
  float fy = 1000;
  /// Principal point in pixels.
  float cx = 640;
  float cy = 360;
  /// Image size in pixels.
  int width = 1280;
  int height = 720;
};

/// Where a world point falls in the image.
struct PixelProjection {
  /// The point is in front of the camera (depth > 0); otherwise u and v are 0 and meaningless.
  bool in_front = false;
  /// in_front, and (u, v) lies within [0, width) x [0, height).
  bool in_image = false;
  float u = 0;
  float v = 0;
  /// Distance along the viewing axis (see the file comment).
  float depth = 0;
};

/// The camera-to-world rotation of a camera at any position looking along view_direction, with
/// the image's up as close to `up` as possible (both of any length). Fails with invalid_argument
/// for a zero or non-finite vector, or up within about 0.06 degrees of parallel to
/// view_direction (where the image's roll would be left to rounding).
Result<Quatf> look_rotation(Vec3f view_direction, Vec3f up);

class PinholeCamera {
 public:
  /// rotation takes camera-frame vectors to the world (it is normalised here); position is the
  /// camera centre in the world. Fails with invalid_argument for focal lengths that are not
  /// positive and finite, a non-finite principal point, a width or height below 1, a non-finite
  /// position, or a rotation with a non-finite or all-zero component set.
  static Result<PinholeCamera> make(const PinholeIntrinsics& intrinsics, const Quatf& rotation, Vec3f position);

  const PinholeIntrinsics& intrinsics() const { return intrinsics_; }
  const Quatf& rotation() const { return rotation_; }
  Vec3f position() const { return position_; }
  /// The unit viewing direction in the world (the camera's -z).
  Vec3f forward() const { return rotation_.rotate({0, 0, -1}); }
  /// The unit world direction of the image's up (+y) and right (+x).
  Vec3f up() const { return rotation_.rotate({0, 1, 0}); }
  Vec3f right() const { return rotation_.rotate({1, 0, 0}); }

  /// The ray from the camera centre through image point (u, v), with a unit direction and no
  /// distance limit. Points outside the image give valid rays too. A NaN or infinite u or v
  /// gives a zero direction, which every scene query treats as a miss.
  QueryRay ray_through_pixel(float u, float v) const;

  /// The image point and depth of world point p. A point at or behind the camera plane
  /// (depth <= 0) or a non-finite p is not in_front.
  PixelProjection project(Vec3f p) const;

 private:
  PinholeCamera() = default;

  PinholeIntrinsics intrinsics_{};
  Quatf rotation_{};
  Vec3f position_{};
};

}  // namespace hitscan
