// The loader's node transform: points mapped by the affine map, normals by its inverse transpose
// up to a positive factor (so a mirror flips them as it flips the surface), and composition in
// the order a scene graph nests its nodes.

#include "io/affine.hpp"

#include <gtest/gtest.h>

namespace hitscan::io::detail {
namespace {

Affine affine(Vec3d c0, Vec3d c1, Vec3d c2, Vec3d offset) { return {Mat3d::from_columns(c0, c1, c2), offset}; }

TEST(Affine, TheDefaultIsTheIdentity) {
  const Affine identity;
  EXPECT_TRUE(identity.is_identity());
  EXPECT_EQ(identity.apply({1.5, -2, 3}), (Vec3d{1.5, -2, 3}));
  EXPECT_EQ(identity.apply_to_normal({0, 0.6, 0.8}), (Vec3d{0, 0.6, 0.8}));
}

TEST(Affine, AnOffsetOrAnyOtherLinearPartIsNotTheIdentity) {
  EXPECT_FALSE((Affine{Mat3d::identity(), {0, 0, 1e-300}}.is_identity()));
  EXPECT_FALSE((Affine{Mat3d::diagonal({1, 1, -1}), {}}.is_identity()));
  EXPECT_FALSE(affine({1, 0, 0}, {0, 1, 0}, {0, 1e-9, 1}, {}).is_identity());
}

TEST(Affine, PointsGoThroughTheLinearPartThenTheOffset) {
  const Affine a = affine({1, 2, 0}, {0, 1, 0}, {3, 0, 2}, {10, 20, 30});
  // x (1, 2, 0) + y (0, 1, 0) + z (3, 0, 2) + (10, 20, 30)
  EXPECT_EQ(a.apply({1, 1, 1}), (Vec3d{14, 23, 32}));
  EXPECT_EQ(a.apply({}), (Vec3d{10, 20, 30}));
}

TEST(Affine, ThenInnerAppliesTheInnerTransformFirst) {
  const Affine outer = affine({0, 1, 0}, {-1, 0, 0}, {0, 0, 1}, {5, 0, 0});  // a quarter turn about z, then +x
  const Affine inner = Affine{Mat3d::diagonal({2, 4, 1}), {0, 0, 7}};
  const Affine both = outer.then_inner(inner);
  for (const Vec3d p : {Vec3d{0, 0, 0}, Vec3d{1, 0, 0}, Vec3d{0, 1, 0}, Vec3d{-3, 2, 5}}) {
    EXPECT_EQ(both.apply(p), outer.apply(inner.apply(p)));
  }
  EXPECT_NE(inner.then_inner(outer).apply({1, 0, 0}), both.apply({1, 0, 0}));  // the order matters
}

TEST(Affine, NormalsStayPerpendicularToTheTransformedSurface) {
  const Affine a = affine({2, 0, 1}, {0, 4, 0}, {1, 1, 3}, {100, -50, 7});
  const Vec3d n{1, 2, -1};
  const Vec3d n_out = a.apply_to_normal(n);
  // Two tangents of the plane with normal n, carried by the linear part alone.
  for (const Vec3d t : {cross(n, Vec3d{1, 0, 0}), cross(n, Vec3d{0, 1, 0})}) {
    EXPECT_NEAR(dot(n_out, a.linear * t), 0.0, 1e-12);
  }
  EXPECT_GT(dot(n_out, a.linear * n), 0.0);  // the same side of the surface
}

TEST(Affine, NormalsAreTheInverseTransposeUpToAPositiveFactor) {
  // diag(2, 4, 1): the inverse transpose is diag(1/2, 1/4, 1), the cofactor matrix diag(4, 2, 8).
  EXPECT_EQ((Affine{Mat3d::diagonal({2, 4, 1}), {}}.apply_to_normal({1, 1, 1})), (Vec3d{4, 2, 8}));
  // A mirror in x turns the normal as it turns the surface: the factor stays positive.
  EXPECT_EQ((Affine{Mat3d::diagonal({-1, 1, 1}), {}}.apply_to_normal({1, 0, 0})), (Vec3d{-1, 0, 0}));
  EXPECT_EQ((Affine{Mat3d::diagonal({-2, 1, 1}), {}}.apply_to_normal({1, 1, 0})), (Vec3d{-1, 2, 0}));
}

TEST(Affine, TheOffsetDoesNotMoveNormals) {
  EXPECT_EQ((Affine{Mat3d::identity(), {3, 4, 5}}.apply_to_normal({0, 0, 1})), (Vec3d{0, 0, 1}));
}

}  // namespace
}  // namespace hitscan::io::detail
