#include "hitscan/math/aabb.hpp"
#include "math/random_math.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace hitscan {
namespace {

using namespace test;

template <class T>
class AabbTest : public ::testing::Test {};
TYPED_TEST_SUITE(AabbTest, RealTypes);

template <class T>
Aabb<T> random_box(std::mt19937& rng) {
  Aabb<T> box = Aabb<T>::from_point(random_vec<T>(rng, 2));
  box.grow(random_vec<T>(rng, 2));
  return box;
}

TYPED_TEST(AabbTest, EmptyBoxIsInvalidAndHasNoArea) {
  using T = TypeParam;
  const Aabb<T> e = Aabb<T>::empty();
  EXPECT_FALSE(e.is_valid());
  EXPECT_EQ(e.surface_area(), 0);
  EXPECT_FALSE(e.contains(Vec3<T>{}));
  EXPECT_FALSE(e.overlaps(e));
  EXPECT_FALSE(e.overlaps(Aabb<T>{{-1, -1, -1}, {1, 1, 1}}));
  EXPECT_FALSE((Aabb<T>{{-1, -1, -1}, {1, 1, 1}}).overlaps(e));
  EXPECT_EQ(Aabb<T>{}.min, e.min);  // the default box is the empty box
  EXPECT_EQ(Aabb<T>{}.max, e.max);
}

TYPED_TEST(AabbTest, GrowingTheEmptyBoxGivesThePoint) {
  using T = TypeParam;
  Aabb<T> box;
  box.grow(Vec3<T>{1, 2, 3});
  EXPECT_TRUE(box.is_valid());
  EXPECT_EQ(box.min, (Vec3<T>{1, 2, 3}));
  EXPECT_EQ(box.max, (Vec3<T>{1, 2, 3}));
  EXPECT_EQ(box.surface_area(), 0);
  EXPECT_TRUE(box.contains(Vec3<T>{1, 2, 3}));
  box.grow(Vec3<T>{-1, 5, 3});
  EXPECT_EQ(box.min, (Vec3<T>{-1, 2, 3}));
  EXPECT_EQ(box.max, (Vec3<T>{1, 5, 3}));
}

TYPED_TEST(AabbTest, GrowByBoxAndMergeByHand) {
  using T = TypeParam;
  const Aabb<T> a{{0, 0, 0}, {1, 1, 1}}, b{{2, -1, 0.5}, {3, 0.5, 4}};
  Aabb<T> grown = a;
  grown.grow(b);
  const Aabb<T> merged = merge(a, b);
  EXPECT_EQ(grown.min, (Vec3<T>{0, -1, 0}));
  EXPECT_EQ(grown.max, (Vec3<T>{3, 1, 4}));
  EXPECT_EQ(merged.min, grown.min);
  EXPECT_EQ(merged.max, grown.max);
  EXPECT_EQ(merge(a, Aabb<T>::empty()).min, a.min);  // the empty box is merge's identity
  EXPECT_EQ(merge(Aabb<T>::empty(), a).max, a.max);
}

TYPED_TEST(AabbTest, MeasuresByHand) {
  using T = TypeParam;
  const Aabb<T> box{{1, 2, 3}, {2, 4, 6}};  // 1 x 2 x 3
  EXPECT_EQ(box.surface_area(), 22);
  EXPECT_EQ(box.center(), (Vec3<T>{1.5, 3, 4.5}));
  EXPECT_EQ(box.extent(), (Vec3<T>{1, 2, 3}));
  EXPECT_EQ(box.half_extents(), (Vec3<T>{0.5, 1, 1.5}));
  const Aabb<T> same = Aabb<T>::from_center_half_extents({1.5, 3, 4.5}, {0.5, 1, 1.5});
  EXPECT_EQ(same.min, box.min);
  EXPECT_EQ(same.max, box.max);
  EXPECT_EQ((Aabb<T>{{0, 0, 0}, {2, 3, 0}}).surface_area(), 12);  // a flat box counts both faces
}

TYPED_TEST(AabbTest, ContainsIncludesTheBoundary) {
  using T = TypeParam;
  const Aabb<T> box{{-1, -1, -1}, {1, 1, 1}};
  EXPECT_TRUE(box.contains(Vec3<T>{0, 0, 0}));
  EXPECT_TRUE(box.contains(Vec3<T>{1, -1, 1}));
  EXPECT_TRUE(box.contains(Vec3<T>{1, 0.5, 0}));
  EXPECT_FALSE(box.contains(Vec3<T>{1.001, 0, 0}));
  EXPECT_FALSE(box.contains(Vec3<T>{0, 0, -2}));
}

TYPED_TEST(AabbTest, OverlapsCountsTouchingAndRejectsDisjoint) {
  using T = TypeParam;
  const Aabb<T> a{{0, 0, 0}, {1, 1, 1}};
  EXPECT_TRUE(a.overlaps(a));
  EXPECT_TRUE(a.overlaps(Aabb<T>{{0.5, 0.5, 0.5}, {2, 2, 2}}));
  EXPECT_TRUE(a.overlaps(Aabb<T>{{1, 0, 0}, {2, 1, 1}}));         // shared face
  EXPECT_TRUE(a.overlaps(Aabb<T>{{1, 1, 1}, {2, 2, 2}}));         // shared corner
  EXPECT_TRUE(a.overlaps(Aabb<T>{{0.2, 0.2, 0.2}, {0.3, 0.3, 0.3}}));  // nested
  EXPECT_FALSE(a.overlaps(Aabb<T>{{1.5, 0, 0}, {2, 1, 1}}));
  EXPECT_FALSE(a.overlaps(Aabb<T>{{0, 0, -3}, {1, 1, -0.5}}));
  EXPECT_FALSE(a.overlaps(Aabb<T>{{2, 2, 0}, {3, 3, 1}}));        // apart along x and y only
}

TYPED_TEST(AabbTest, GrowingByPointsGivesTheirTightBounds) {
  using T = TypeParam;
  std::mt19937 rng(51);
  for (int i = 0; i < 1000; ++i) {
    std::vector<Vec3<T>> points(1 + rng() % 20);
    for (Vec3<T>& p : points) p = random_vec<T>(rng, 5);
    Aabb<T> box;
    for (const Vec3<T>& p : points) box.grow(p);
    for (int axis = 0; axis < 3; ++axis) {
      T lo = points[0][axis], hi = points[0][axis];
      for (const Vec3<T>& p : points) {
        lo = std::min(lo, p[axis]);
        hi = std::max(hi, p[axis]);
      }
      ASSERT_EQ(box.min[axis], lo) << i;
      ASSERT_EQ(box.max[axis], hi) << i;
    }
    for (const Vec3<T>& p : points) ASSERT_TRUE(box.contains(p)) << i;
  }
}

// Two boxes overlap exactly when their intersection, computed axis by axis, is a valid box.
TYPED_TEST(AabbTest, RandomOverlapsMatchTheIntersection) {
  using T = TypeParam;
  std::mt19937 rng(52);
  int overlapping = 0;
  for (int i = 0; i < 100000; ++i) {
    const Aabb<T> a = random_box<T>(rng), b = random_box<T>(rng);
    const Aabb<T> both{max(a.min, b.min), min(a.max, b.max)};
    ASSERT_EQ(a.overlaps(b), both.is_valid()) << i;
    ASSERT_EQ(a.overlaps(b), b.overlaps(a)) << i;
    const Aabb<T> m = merge(a, b);
    ASSERT_TRUE(m.contains(a.min) && m.contains(a.max) && m.contains(b.min) && m.contains(b.max)) << i;
    ASSERT_GE(m.surface_area(), std::max(a.surface_area(), b.surface_area())) << i;
    if (both.is_valid()) {
      ASSERT_TRUE(a.contains(both.center()) && b.contains(both.center())) << i;
      ++overlapping;
    }
  }
  EXPECT_GT(overlapping, 10000);
  EXPECT_LT(overlapping, 90000);
}

}  // namespace
}  // namespace hitscan
