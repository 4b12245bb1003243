#pragma once
/// Mat3: a 3x3 matrix stored as three columns. For a rotation the columns are the rotated axes.

#include "hitscan/math/quat.hpp"

namespace hitscan {

template <Real T>
struct Mat3 {
  Vec3<T> col[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

  static constexpr Mat3 identity() { return {}; }
  static constexpr Mat3 from_columns(Vec3<T> c0, Vec3<T> c1, Vec3<T> c2) { return {{c0, c1, c2}}; }
  static constexpr Mat3 diagonal(Vec3<T> d) { return {{{d.x, 0, 0}, {0, d.y, 0}, {0, 0, d.z}}}; }

  /// The rotation matrix of a unit quaternion.
  static constexpr Mat3 from_quat(const Quat<T>& q) {
    const T xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    const T xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    const T wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    return from_columns({T(1) - T(2) * (yy + zz), T(2) * (xy + wz), T(2) * (xz - wy)},
                        {T(2) * (xy - wz), T(1) - T(2) * (xx + zz), T(2) * (yz + wx)},
                        {T(2) * (xz + wy), T(2) * (yz - wx), T(1) - T(2) * (xx + yy)});
  }

  constexpr Vec3<T> row(int i) const { return {col[0][i], col[1][i], col[2][i]}; }

  constexpr Mat3 transposed() const { return from_columns(row(0), row(1), row(2)); }

  /// M v.
  constexpr Vec3<T> operator*(Vec3<T> v) const { return col[0] * v.x + col[1] * v.y + col[2] * v.z; }
  /// Mᵀ v: for a rotation, the inverse rotation without forming an inverse.
  constexpr Vec3<T> transpose_mul(Vec3<T> v) const { return {dot(col[0], v), dot(col[1], v), dot(col[2], v)}; }

  constexpr Mat3 operator*(const Mat3& b) const { return from_columns(*this * b.col[0], *this * b.col[1], *this * b.col[2]); }

  constexpr T determinant() const { return dot(col[0], cross(col[1], col[2])); }

  /// Gram–Schmidt: the nearest right-handed orthonormal frame that keeps column 0's direction and
  /// column 1's plane. Repairs a rotation that drifted after many incremental updates. A matrix
  /// whose first two columns are zero or parallel (the sine of their angle below sqrt(epsilon),
  /// where column 1's plane is lost to rounding) gives the identity.
  Mat3 orthonormalized() const {
    const Vec3<T> c0 = normalize(col[0]);
    const Vec3<T> r = col[1] - c0 * dot(c0, col[1]);
    if (c0 == Vec3<T>{} || !(dot(r, r) > kEpsilon<T> * dot(col[1], col[1]))) return identity();
    // A second pass removes what cancellation left along c0 ("twice is enough").
    const Vec3<T> c1 = normalize(r - c0 * dot(c0, r));
    return from_columns(c0, c1, cross(c0, c1));
  }
};

using Mat3f = Mat3<float>;
using Mat3d = Mat3<double>;

}  // namespace hitscan
