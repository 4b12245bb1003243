#pragma once
/// Quat: a unit quaternion representing a rotation. Every constructor normalises.

#include <type_traits>

#include "hitscan/math/simd.hpp"
#include "hitscan/math/vec3.hpp"

namespace hitscan {

namespace detail {
/// Quat::rotate's formula on Float4 lanes 0 to 2 (lane 3 is carried along and ignored): the
/// same operations on the same operands in the same order, so the same bits as the scalar form,
/// in a third of its instructions. `u` holds the quaternion's vector part, `w` its scalar.
inline simd::Float4 rotate_lanes(simd::Float4 w, simd::Float4 u, simd::Float4 v) {
  const auto cross = [](simd::Float4 a, simd::Float4 b) { return yzx(a) * zxy(b) - zxy(a) * yzx(b); };
  const simd::Float4 t = cross(u, v) * simd::Float4(2.0f);
  return v + t * w + cross(u, t);
}
}  // namespace detail

template <Real T>
struct Quat {
  T w = 1, x = 0, y = 0, z = 0;

  /// The identity rotation.
  static constexpr Quat identity() { return {}; }

  /// From raw components, normalised. A zero or non-finite quaternion gives the identity.
  static Quat from_components(T w, T x, T y, T z) {
    const T n2 = w * w + x * x + y * y + z * z;
    if (!(n2 > T(0)) || !is_finite(n2)) return identity();
    const T inv = T(1) / std::sqrt(n2);
    return {w * inv, x * inv, y * inv, z * inv};
  }

  /// Rotation by `angle` radians (right-handed) about `axis`, which need not be unit length.
  /// A zero or non-finite axis gives the identity.
  static Quat from_axis_angle(Vec3<T> axis, T angle) {
    const Vec3<T> n = normalize(axis);
    if (n == Vec3<T>{}) return identity();
    const T s = std::sin(angle * T(0.5));
    return from_components(std::cos(angle * T(0.5)), n.x * s, n.y * s, n.z * s);
  }

  /// Rotation by angles.x about X, then angles.y about Y, then angles.z about Z, all about the
  /// fixed world axes (radians): q = qz * qy * qx.
  static Quat from_euler(Vec3<T> angles) {
    const Quat qx = from_axis_angle({1, 0, 0}, angles.x);
    const Quat qy = from_axis_angle({0, 1, 0}, angles.y);
    const Quat qz = from_axis_angle({0, 0, 1}, angles.z);
    return qz * qy * qx;
  }

  /// Hamilton product: (a * b) rotates by b first, then a. Re-normalised against drift.
  friend Quat operator*(const Quat& a, const Quat& b) {
    return from_components(a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                           a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                           a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                           a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w);
  }

  constexpr Quat conjugate() const { return {w, -x, -y, -z}; }
  constexpr Vec3<T> vector_part() const { return {x, y, z}; }

  /// Rotates v (v' = q v q*), in the form 2 u x (u x v + w v) that needs no matrix.
  constexpr Vec3<T> rotate(Vec3<T> v) const {
    if constexpr (std::is_same_v<T, float>) {
      if (!std::is_constant_evaluated()) {
        alignas(16) float r[4];
        detail::rotate_lanes(simd::Float4(w), simd::Float4(x, y, z, 0.0f), simd::Float4(v.x, v.y, v.z, 0.0f)).store(r);
        return {r[0], r[1], r[2]};
      }
    }
    const Vec3<T> u{x, y, z};
    const Vec3<T> t = cross(u, v) * T(2);
    return v + t * w + cross(u, t);
  }
  /// Rotates v by the inverse rotation.
  constexpr Vec3<T> inverse_rotate(Vec3<T> v) const { return conjugate().rotate(v); }
};

using Quatf = Quat<float>;
using Quatd = Quat<double>;

}  // namespace hitscan
