#pragma once
// An affine transform of points and normals, kept in double: the loader composes the transforms
// of a scene graph's nodes with it and applies the product to each part. Private to the io layer.

#include "hitscan/math/mat3.hpp"

namespace hitscan::io::detail {

/// x -> linear x + offset, in double so that a chain of node transforms adds no float rounding.
struct Affine {
  Mat3d linear = Mat3d::identity();
  Vec3d offset{};

  bool is_identity() const {
    return linear.col[0] == Vec3d{1, 0, 0} && linear.col[1] == Vec3d{0, 1, 0} && linear.col[2] == Vec3d{0, 0, 1} &&
           offset == Vec3d{};
  }
  Vec3d apply(Vec3d p) const { return linear * p + offset; }
  /// The inverse transpose up to a positive factor: the cofactor matrix, whose columns are the
  /// cross products of the linear part's columns, times the sign of the determinant.
  Vec3d apply_to_normal(Vec3d n) const {
    const Vec3d& c0 = linear.col[0];
    const Vec3d& c1 = linear.col[1];
    const Vec3d& c2 = linear.col[2];
    const Vec3d cofactor_n = cross(c1, c2) * n.x + cross(c2, c0) * n.y + cross(c0, c1) * n.z;
    return linear.determinant() < 0 ? -cofactor_n : cofactor_n;
  }
  /// this after inner: x -> this(inner(x)).
  Affine then_inner(const Affine& inner) const { return {linear * inner.linear, linear * inner.offset + offset}; }
};

}  // namespace hitscan::io::detail
