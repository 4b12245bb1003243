// convex_cast against the sphere and capsule sweeps of sweep.hpp (their exact kernels and their
// own advancement) on seeded random cases, and box and hull casts against a brute-force march
// along the path: the distance between the shapes is convex in the distance travelled, so the
// reported contact is the first when the shapes touch there and no sample before it overlaps.

#include "hitscan/geometry/gjk_epa.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <vector>

#include "geometry/reference_shapes.hpp"
#include "hitscan/geometry/shape_size.hpp"
#include "hitscan/geometry/sweep.hpp"

namespace hitscan {
namespace {

using namespace reference;

template <class T>
class ConvexCast : public ::testing::Test {};
TYPED_TEST_SUITE(ConvexCast, Reals, RealNames);

template <Real T>
Obb<T> random_obb(Rng& rng, Vec3d centre) {
  const Vec3d h{rng.uniform(0.1, 1.5), rng.uniform(0.1, 1.5), rng.uniform(0.1, 1.5)};
  const Vec3d q = rng.in_cube(1);
  return Obb<T>::from_quat(from_double<T>(centre), from_double<T>(h),
                           Quat<T>::from_components(T(rng.uniform(-1, 1)), T(q.x), T(q.y), T(q.z)));
}

template <Real T>
Capsule<T> random_capsule(Rng& rng, Vec3d centre) {
  const Vec3d half = rng.unit_vector() * rng.uniform(0, 1.2);
  return {from_double<T>(centre - half), from_double<T>(centre + half), T(rng.uniform(0.1, 1))};
}

/// A start 2..6 away from the origin and a unit direction aimed within ~2 of the origin (most
/// hit, some graze or miss), with max_distance mostly beyond the target.
template <Real T>
void random_path(Rng& rng, Vec3d& start, Vec3<T>& direction, T& max_distance) {
  start = rng.unit_vector() * rng.uniform(2, 6);
  direction = from_double<T>(normalize(rng.in_ball(2) - start));
  max_distance = T(rng.chance(0.8) ? 12.0 : rng.uniform(0, 6));
}

struct Agreement {
  int both = 0, starts = 0, misses = 0, grazes = 0;
  double distance = 0;
};

/// Compares convex_cast with a sweep kernel's answer for the same motion. A hit/miss disagreement
/// is allowed only for a graze: the hit's position leaves the shapes within `graze` of touching.
template <Real T>
void agree(const SweepHit<T>& want, const SweepHit<T>& got, std::function<double(T)> gap_at, double graze,
           Agreement& record) {
  if (want.hit != got.hit) {
    const SweepHit<T>& h = want.hit ? want : got;
    EXPECT_LE(std::abs(gap_at(h.distance)), graze) << "disagreement away from a graze at " << h.distance;
    ++record.grazes;
    return;
  }
  if (!want.hit) {
    ++record.misses;
    return;
  }
  ASSERT_EQ(want.started_in_contact, got.started_in_contact);
  if (want.started_in_contact) {
    ++record.starts;
    EXPECT_NEAR(double(got.depth), double(want.depth), 1e-3 * std::max(1.0, double(want.depth)));
    return;
  }
  ++record.both;
  // Both stop within the contact tolerance of the first contact; a path that meets the target at
  // a grazing angle turns that gap into a longer stretch of path, hence the check on the gap.
  const double error = std::abs(double(got.distance) - double(want.distance));
  record.distance = std::max(record.distance, error);
  EXPECT_LE(std::abs(gap_at(got.distance)), graze) << "distance " << got.distance << " vs " << want.distance;
  if (error > 1e-3) {
    EXPECT_LE(std::abs(gap_at(want.distance)), graze);
  }
}

TYPED_TEST(ConvexCast, SphereAndCapsuleCastsAgreeWithTheSweepKernels) {
  using T = TypeParam;
  Rng rng(31);
  Agreement record;
  const double graze = 1e-3;
  for (int i = 0; i < 600; ++i) {
    Vec3d start;
    Vec3<T> dir;
    T max_distance;
    random_path(rng, start, dir, max_distance);
    const Sphere<T> sphere{from_double<T>(start), T(rng.uniform(0.1, 1))};
    const Capsule<T> capsule = random_capsule<T>(rng, start);
    const Obb<T> box = random_obb<T>(rng, rng.in_cube(0.5));
    const Capsule<T> target_capsule = random_capsule<T>(rng, rng.in_cube(0.5));
    const Cylinder<T> cylinder{target_capsule.a, target_capsule.b + from_double<T>(rng.unit_vector() * 0.3),
                               target_capsule.radius};
    const auto sphere_gap = [&](const ConvexShape<T>& target) {
      return [&, target](T s) {
        return double(gjk_distance(Sphere<T>{sphere.center + dir * s, sphere.radius}, target).distance);
      };
    };
    const auto capsule_gap = [&](const ConvexShape<T>& target) {
      return [&, target](T s) {
        return double(gjk_distance(Capsule<T>{capsule.a + dir * s, capsule.b + dir * s, capsule.radius}, target).distance);
      };
    };
    agree<T>(sphere_cast(sphere, dir, max_distance, box), convex_cast(sphere, dir, max_distance, box), sphere_gap(box),
             graze, record);
    agree<T>(sphere_cast(sphere, dir, max_distance, target_capsule),
             convex_cast(sphere, dir, max_distance, target_capsule), sphere_gap(target_capsule), graze, record);
    agree<T>(sphere_cast(sphere, dir, max_distance, cylinder), convex_cast(sphere, dir, max_distance, cylinder),
             sphere_gap(cylinder), graze, record);
    agree<T>(capsule_cast(capsule, dir, max_distance, box), convex_cast(capsule, dir, max_distance, box),
             capsule_gap(box), graze, record);
    agree<T>(capsule_cast(capsule, dir, max_distance, target_capsule),
             convex_cast(capsule, dir, max_distance, target_capsule), capsule_gap(target_capsule), graze, record);
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::printf("[ measured ] %d hits, %d starts in contact, %d misses, %d grazes; max |distance difference| %.2e\n",
              record.both, record.starts, record.misses, record.grazes, record.distance);
  EXPECT_GT(record.both, 800);
  EXPECT_GT(record.misses, 100);
}

/// The shape moved by s along dir, for the march.
template <Real T>
struct Mover {
  std::function<ConvexShape<T>(T)> at;
};

TYPED_TEST(ConvexCast, BoxAndHullCastsMatchAMarchAlongThePath) {
  using T = TypeParam;
  Rng rng(32);
  int hits = 0, misses = 0;
  double worst_gap = 0;
  constexpr int kSteps = 80;
  for (int i = 0; i < 100; ++i) {
    Vec3d start;
    Vec3<T> dir;
    T max_distance;
    random_path(rng, start, dir, max_distance);
    max_distance = std::min(max_distance, T(9));
    std::vector<Vec3<T>> moving_points, target_points;
    const Obb<T> moving_box = random_obb<T>(rng, start);
    const ConvexHull<T> moving_hull = random_hull<T>(rng, start, 1.0, moving_points);
    const ConvexHull<T> target_hull = random_hull<T>(rng, rng.in_cube(0.5), 1.0, target_points);
    const Obb<T> target_box = random_obb<T>(rng, rng.in_cube(0.5));
    const Cylinder<T> target_cylinder{from_double<T>(rng.in_cube(0.5)), from_double<T>(rng.in_cube(1)), T(0.7)};
    const Triangle<T> target_triangle{from_double<T>(rng.in_cube(1.5)), from_double<T>(rng.in_cube(1.5)),
                                      from_double<T>(rng.in_cube(1.5))};
    const bool hull_moves = i % 2 == 1;
    const std::vector<ConvexShape<T>> targets{target_hull, target_box, target_cylinder, target_triangle,
                                              Sphere<T>{{0, 0, 0}, T(0.8)}};
    for (const ConvexShape<T>& target : targets) {
      // The moving shape at s: the box's centre moved, or the hull rebuilt from its moved points.
      const auto gap_at = [&](double s) {
        const Vec3<T> offset = dir * T(s);
        if (!hull_moves) {
          return gjk_distance(Obb<T>{moving_box.center + offset, moving_box.half_extents, moving_box.rotation}, target);
        }
        std::vector<Vec3<T>> moved = moving_points;
        for (Vec3<T>& p : moved) p += offset;
        return gjk_distance(ConvexHull<T>::make(moved).value(), target);
      };
      const SweepHit<T> hit = hull_moves ? convex_cast(moving_hull, dir, max_distance, target)
                                         : box_cast(moving_box, dir, max_distance, target);
      // Grazing paths may stop short after the advancement's 64 steps (sweep.hpp): a few 1e-7.
      const double eps = std::is_same_v<T, float> ? 1e-3 : 1e-6;
      if (hit.started_in_contact) {
        EXPECT_LE(double(gap_at(0).distance), eps);
        continue;
      }
      const double end = hit.hit ? double(hit.distance) : double(max_distance);
      for (int k = 0; k < kSteps; ++k) {
        const double s = end * k / kSteps;
        if (s > end - eps) break;
        ASSERT_FALSE(gap_at(s).overlapping) << "the shapes overlap at " << s << " before the cast's " << end;
      }
      if (hit.hit) {
        ++hits;
        const ConvexDistance<T> there = gap_at(double(hit.distance));
        EXPECT_LE(double(there.distance), eps) << "not touching at the reported contact";
        worst_gap = std::max(worst_gap, double(there.distance));
        EXPECT_NEAR(double(length(hit.normal)), 1.0, 1e-5);
        EXPECT_LE(dot(to_double(hit.normal), to_double(dir)), 1e-6) << "the normal faces the motion";
      } else {
        ++misses;
        EXPECT_GT(double(gap_at(end).distance), 0.0);
      }
    }
  }
  std::printf("[ measured ] box/hull casts: %d hits, %d misses, largest gap at a reported contact %.2e\n", hits,
              misses, worst_gap);
  EXPECT_GT(hits, 150);
  EXPECT_GT(misses, 40);
}

TYPED_TEST(ConvexCast, InvalidMotionIsAMiss) {
  using T = TypeParam;
  const Sphere<T> s{{0, 0, 5}, T(1)};
  const Obb<T> box{};
  EXPECT_FALSE(convex_cast(s, Vec3<T>{}, T(10), box).hit);
  EXPECT_FALSE(convex_cast(s, Vec3<T>{0, 0, -1}, T(-1), box).hit);
  EXPECT_FALSE(convex_cast(s, Vec3<T>{0, 0, std::numeric_limits<T>::quiet_NaN()}, T(10), box).hit);
  const SweepHit<T> h = box_cast(Obb<T>{{0, 0, 5}, {1, 1, 1}, {}}, Vec3<T>{0, 0, -1}, T(10), box);
  ASSERT_TRUE(h.hit);
  EXPECT_NEAR(double(h.distance), 3.0, 1e-5);
  EXPECT_NEAR(double(h.normal.z), 1.0, 1e-5);
}

}  // namespace
}  // namespace hitscan
