#pragma once
/// Transform: scale, then rotate, then translate (x' = R (S x) + t). Scale may be non-uniform;
/// shapes that cannot stay the same kind under non-uniform scale (a sphere becomes an ellipsoid)
/// document what they do with it.

#include "hitscan/math/mat3.hpp"

namespace hitscan {

template <Real T>
struct Transform {
  Quat<T> rotation{};
  Vec3<T> translation{};
  Vec3<T> scale{1, 1, 1};

  static constexpr Transform identity() { return {}; }

  Vec3<T> apply_point(Vec3<T> p) const { return rotation.rotate(mul(scale, p)) + translation; }
  Vec3<T> apply_vector(Vec3<T> v) const { return rotation.rotate(mul(scale, v)); }
  /// A surface normal transforms by the inverse transpose, R S⁻¹; the result is unit length.
  Vec3<T> apply_normal(Vec3<T> n) const { return normalize(rotation.rotate(div(n, scale))); }

  Vec3<T> inverse_point(Vec3<T> p) const { return div(rotation.inverse_rotate(p - translation), scale); }
  Vec3<T> inverse_vector(Vec3<T> v) const { return div(rotation.inverse_rotate(v), scale); }

  /// The 3x3 linear part R S.
  Mat3<T> linear() const {
    const Mat3<T> r = Mat3<T>::from_quat(rotation);
    return Mat3<T>::from_columns(r.col[0] * scale.x, r.col[1] * scale.y, r.col[2] * scale.z);
  }

  /// True when no scale component is zero or non-finite, so the inverse exists.
  /// Exactly the identity: no rotation, translation or scale.
  bool is_identity() const {
    return translation == Vec3<T>{} && scale == Vec3<T>{T(1), T(1), T(1)} && rotation.w == T(1) &&
           rotation.vector_part() == Vec3<T>{};
  }

  bool is_invertible() const {
    return is_finite(scale) && scale.x != T(0) && scale.y != T(0) && scale.z != T(0) &&
           is_finite(translation) && is_finite(rotation.w) && is_finite(rotation.vector_part());
  }
};

using Transformf = Transform<float>;
using Transformd = Transform<double>;

}  // namespace hitscan
