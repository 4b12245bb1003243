// PinholeCamera: pixels to rays and world points to pixels, in ARKit's camera convention.

#include "hitscan/ar/camera.hpp"

#include <cmath>
#include <string>

namespace hitscan {
namespace {

Status invalid(const std::string& what) { return Status{StatusCode::invalid_argument, what}; }

// The unit quaternion of a rotation matrix with orthonormal, right-handed columns, by Shepperd's
// method: the largest of w², x², y², z² is recovered from the diagonal first, so that the square
// root is never taken of a small, cancellation-ridden number (Shepperd, "Quaternion from rotation
// matrix", J. Guidance and Control 1978).
Quatf quat_from_rotation(const Mat3f& m) {
  const float m00 = m.col[0].x, m11 = m.col[1].y, m22 = m.col[2].z;
  const float trace = m00 + m11 + m22;
  // m(row, column): column c's component r.
  const auto at = [&m](int r, int c) { return m.col[c][r]; };
  if (trace >= m00 && trace >= m11 && trace >= m22) {
    const float s = 2.0f * std::sqrt(1.0f + trace);
    return Quatf::from_components(0.25f * s, (at(2, 1) - at(1, 2)) / s, (at(0, 2) - at(2, 0)) / s,
                                  (at(1, 0) - at(0, 1)) / s);
  }
  if (m00 >= m11 && m00 >= m22) {
    const float s = 2.0f * std::sqrt(1.0f + m00 - m11 - m22);
    return Quatf::from_components((at(2, 1) - at(1, 2)) / s, 0.25f * s, (at(0, 1) + at(1, 0)) / s,
                                  (at(0, 2) + at(2, 0)) / s);
  }
  if (m11 >= m22) {
    const float s = 2.0f * std::sqrt(1.0f + m11 - m00 - m22);
    return Quatf::from_components((at(0, 2) - at(2, 0)) / s, (at(0, 1) + at(1, 0)) / s, 0.25f * s,
                                  (at(1, 2) + at(2, 1)) / s);
  }
  const float s = 2.0f * std::sqrt(1.0f + m22 - m00 - m11);
  return Quatf::from_components((at(1, 0) - at(0, 1)) / s, (at(0, 2) + at(2, 0)) / s, (at(1, 2) + at(2, 1)) / s,
                               0.25f * s);
}

}  // namespace

Result<Quatf> look_rotation(Vec3f view_direction, Vec3f up) {
  if (!is_finite(view_direction) || !is_finite(up)) return invalid("look_rotation: non-finite direction");
  const Vec3f back = -normalize(view_direction);  // the camera's +z
  const Vec3f up_unit = normalize(up);
  if (back == Vec3f{} || up_unit == Vec3f{}) return invalid("look_rotation: zero direction");
  const Vec3f side = cross(up_unit, back);
  // The sine of the angle between up and the view below ~1e-3 leaves the image's roll to rounding.
  if (!(length_squared(side) > 1e-6f)) return invalid("look_rotation: up is parallel to the view direction");
  const Vec3f x = normalize(side);
  const Vec3f y = cross(back, x);
  return quat_from_rotation(Mat3f::from_columns(x, y, back));
}

Result<PinholeCamera> PinholeCamera::make(const PinholeIntrinsics& intrinsics, const Quatf& rotation, Vec3f position) {
  const PinholeIntrinsics& k = intrinsics;
  if (!(k.fx > 0.0f) || !(k.fy > 0.0f) || !is_finite(k.fx) || !is_finite(k.fy)) {
    return invalid("PinholeCamera: focal lengths must be positive and finite");
  }
  if (!is_finite(k.cx) || !is_finite(k.cy)) return invalid("PinholeCamera: the principal point is not finite");
  if (k.width < 1 || k.height < 1) return invalid("PinholeCamera: width and height must be at least 1");
  if (!is_finite(position)) return invalid("PinholeCamera: the position is not finite");
  const float n2 = rotation.w * rotation.w + length_squared(rotation.vector_part());
  if (!is_finite(n2) || !(n2 > 0.0f)) return invalid("PinholeCamera: the rotation is zero or not finite");
  PinholeCamera camera;
  camera.intrinsics_ = intrinsics;
  camera.rotation_ = Quatf::from_components(rotation.w, rotation.x, rotation.y, rotation.z);
  camera.position_ = position;
  return camera;
}

QueryRay PinholeCamera::ray_through_pixel(float u, float v) const {
  QueryRay ray;
  ray.origin = position_;
  if (!is_finite(u) || !is_finite(v)) {
    ray.direction = {};
    return ray;
  }
  const Vec3f local{(u - intrinsics_.cx) / intrinsics_.fx, -(v - intrinsics_.cy) / intrinsics_.fy, -1.0f};
  ray.direction = normalize(rotation_.rotate(local));
  return ray;
}

PixelProjection PinholeCamera::project(Vec3f p) const {
  PixelProjection out;
  if (!is_finite(p)) return out;
  const Vec3f local = rotation_.inverse_rotate(p - position_);
  const float depth = -local.z;
  if (!(depth > 0.0f)) return out;
  out.in_front = true;
  out.depth = depth;
  out.u = intrinsics_.cx + intrinsics_.fx * local.x / depth;
  out.v = intrinsics_.cy - intrinsics_.fy * local.y / depth;
  out.in_image = out.u >= 0.0f && out.v >= 0.0f && out.u < static_cast<float>(intrinsics_.width) &&
                 out.v < static_cast<float>(intrinsics_.height);
  return out;
}

}  // namespace hitscan
