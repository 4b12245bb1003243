// GJK distance and EPA penetration against independent answers on seeded random poses: the
// analytic contact kernels (sphere-box, capsule-capsule, box-box), and for hull pairs a brute force
// over features (vertex-triangle and edge-edge closest points for the distance; the separating
// axis test over face normals and edge-edge cross products for overlap and depth). Every depth is
// also checked against the depth along the reported normal, computed from the shapes' extents
// along it, so that a tie between two directions of least penetration is recognised as one.

#include "hitscan/geometry/gjk_epa.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "geometry/reference_shapes.hpp"
#include "hitscan/geometry/closest_point.hpp"
#include "hitscan/geometry/contact_box_box.hpp"
#include "hitscan/geometry/contact_round.hpp"
#include "hitscan/geometry/contact_sphere_box.hpp"
#include "hitscan/geometry/shape_size.hpp"

namespace hitscan {
namespace {

using namespace reference;

template <class T>
class GjkEpa : public ::testing::Test {};
TYPED_TEST_SUITE(GjkEpa, Reals, RealNames);

/// The tolerances the issue states: distance 1e-4 relative, depth 1e-3 relative, normal 1 degree;
/// pairs within `band` of touching (relative to their size) are skipped for the overlap answer.
constexpr double kDistance = 1e-4, kDepth = 1e-3, kAngle = kPi<double> / 180, kBand = 1e-3;

/// The largest errors seen, printed once per test (the report's measured tolerances).
struct Worst {
  double distance = 0, depth = 0, angle = 0;
  int apart = 0, overlapping = 0, ties = 0;
  void print(const char* name) const {
    std::printf("[ measured ] %s: %d apart, %d overlapping (%d ties); max relative error distance %.2e, depth %.2e, "
                "normal %.2e rad\n",
                name, apart, overlapping, ties, distance, depth, angle);
  }
};

template <Real T>
Obb<T> random_obb(Rng& rng, double spread) {
  const Vec3d h{rng.uniform(0.1, 2), rng.uniform(0.1, 2), rng.uniform(0.1, 2)};
  const Vec3d q = rng.in_cube(1);
  return Obb<T>::from_quat(from_double<T>(rng.in_cube(spread)), from_double<T>(h),
                           Quat<T>::from_components(T(rng.uniform(-1, 1)), T(q.x), T(q.y), T(q.z)));
}

/// The extent of a shape along a unit direction, by its GJK support (exact for the kernels here).
template <Real T>
double reach(const ConvexShape<T>& s, Vec3d n);

/// Compares one pair with its reference contact (depth > 0 overlapping, < 0 minus the distance).
/// `reach_a`, `reach_b` give each shape's extent along a direction, for the depth along a normal.
template <Real T, class A, class B, class ReachA, class ReachB>
void compare(const A& a, const B& b, double ref_depth, Vec3d ref_normal, double size, ReachA reach_a, ReachB reach_b,
             Worst& worst) {
  if (std::abs(ref_depth) <= kBand * size) return;
  const ConvexDistance<T> d = gjk_distance(a, b);
  const Contact<T> c = penetration(a, b, ContactTolerance<T>{});
  ASSERT_EQ(d.overlapping, ref_depth > 0) << "reference depth " << ref_depth;
  if (ref_depth < 0) {
    ++worst.apart;
    const double error = std::abs(double(d.distance) + ref_depth) / std::max(-ref_depth, size * 1e-2);
    worst.distance = std::max(worst.distance, error);
    EXPECT_LE(error, kDistance) << d.distance << " vs " << -ref_depth;
    EXPECT_NEAR(distance(to_double(d.point_a), to_double(d.point_b)), -ref_depth, kDistance * size);
    return;
  }
  ++worst.overlapping;
  ASSERT_TRUE(c.touching);
  const Vec3d n = to_double(c.normal);
  const double error = std::abs(double(c.depth) - ref_depth) / ref_depth;
  worst.depth = std::max(worst.depth, error);
  EXPECT_LE(error, kDepth) << c.depth << " vs " << ref_depth;
  // The depth along the reported normal: how far A must move along it to clear B.
  const double along = reach_b(n) + reach_a(-n);
  EXPECT_NEAR(along, double(c.depth), kDepth * ref_depth) << "the normal does not realise the depth";
  EXPECT_NEAR(dot(to_double(c.point_on_b) - to_double(c.point_on_a), n), double(c.depth), kDepth * ref_depth);
  const double angle = angle_between(n, ref_normal);
  if (angle > kAngle) {
    ++worst.ties;  // another direction of least penetration: it must realise the same depth
    EXPECT_NEAR(along, ref_depth, kDepth * ref_depth);
  } else {
    worst.angle = std::max(worst.angle, angle);
  }
}

double obb_reach(const Obb<double>& b, Vec3d n) {
  double r = dot(b.center, n);
  for (int k = 0; k < 3; ++k) r += b.half_extents[k] * std::abs(dot(b.rotation.col[k], n));
  return r;
}

template <Real T>
Obb<double> to_double(const Obb<T>& b) {
  return {reference::to_double(b.center), reference::to_double(b.half_extents),
          Mat3d::from_columns(reference::to_double(b.rotation.col[0]), reference::to_double(b.rotation.col[1]),
                              reference::to_double(b.rotation.col[2]))};
}
using reference::to_double;

TYPED_TEST(GjkEpa, SphereBoxMatchesContactSphereBox) {
  using T = TypeParam;
  Rng rng(21);
  Worst worst;
  for (int i = 0; i < 3000; ++i) {
    const Obb<T> box = random_obb<T>(rng, 0.5);
    const Sphere<T> sphere{from_double<T>(rng.in_cube(3)), T(rng.uniform(0.05, 1.5))};
    const Contact<T> ref = contact(sphere, box, T(100));
    const double size = std::max(double(sphere.radius), double(max_component(box.half_extents)));
    const Obb<double> bd = to_double(box);
    compare<T>(sphere, box, double(ref.depth), to_double(ref.normal), size,
               [&](Vec3d n) { return dot(to_double(sphere.center), n) + double(sphere.radius); },
               [&](Vec3d n) { return obb_reach(bd, n); }, worst);
    if (::testing::Test::HasFatalFailure()) return;
  }
  worst.print("sphere-box");
  EXPECT_GT(worst.apart, 500);
  EXPECT_GT(worst.overlapping, 500);
}

TYPED_TEST(GjkEpa, CapsuleCapsuleMatchesContactRound) {
  using T = TypeParam;
  Rng rng(22);
  Worst worst;
  const auto random_capsule = [&](double spread) {
    const Vec3d c = rng.in_cube(spread), half = rng.unit_vector() * rng.uniform(0, 1.5);
    return Capsule<T>{from_double<T>(c - half), from_double<T>(c + half), T(rng.uniform(0.05, 1))};
  };
  const auto capsule_reach = [](const Capsule<T>& c) {
    return [c](Vec3d n) { return std::max(dot(to_double(c.a), n), dot(to_double(c.b), n)) + double(c.radius); };
  };
  for (int i = 0; i < 3000; ++i) {
    const Capsule<T> a = random_capsule(2), b = random_capsule(0.5);
    const Contact<T> ref = contact(a, b, T(100));
    compare<T>(a, b, double(ref.depth), to_double(ref.normal), double(std::max(size_of(a), size_of(b))),
               capsule_reach(a), capsule_reach(b), worst);
    if (::testing::Test::HasFatalFailure()) return;
  }
  worst.print("capsule-capsule");
  EXPECT_GT(worst.apart, 500);
  EXPECT_GT(worst.overlapping, 500);
}

TYPED_TEST(GjkEpa, BoxBoxMatchesContactBoxBox) {
  using T = TypeParam;
  Rng rng(23);
  Worst worst;
  for (int i = 0; i < 3000; ++i) {
    const Obb<T> a = random_obb<T>(rng, 3), b = random_obb<T>(rng, 0.5);
    const Contact<T> ref = contact(a, b, T(100));
    const Obb<double> ad = to_double(a), bd = to_double(b);
    compare<T>(a, b, double(ref.depth), to_double(ref.normal), double(std::max(size_of(a), size_of(b))),
               [&](Vec3d n) { return obb_reach(ad, n); }, [&](Vec3d n) { return obb_reach(bd, n); }, worst);
    if (::testing::Test::HasFatalFailure()) return;
  }
  worst.print("box-box");
  EXPECT_GT(worst.apart, 500);
  EXPECT_GT(worst.overlapping, 500);
}

// ---- hull against hull, by brute force over features and axes ------------------------------------

template <Real T>
ConvexHull<T> random_hull(Rng& rng, Vec3d centre, double radius) {
  std::vector<Vec3<T>> points;
  const int n = 5 + static_cast<int>(rng.uniform(0, 8));
  for (int i = 0; i < n; ++i) points.push_back(from_double<T>(centre + rng.in_ball(radius)));
  for (;;) {
    Result<ConvexHull<T>> hull = ConvexHull<T>::make(points);
    if (hull.ok()) return std::move(hull).value();
    points.push_back(from_double<T>(centre + rng.in_ball(radius)));
  }
}

struct HullFeatures {
  std::vector<Vec3d> vertices;
  std::vector<std::array<Vec3d, 3>> triangles;
  std::vector<Vec3d> normals;
  std::vector<std::pair<Vec3d, Vec3d>> edges;
  double reach(Vec3d n) const {
    double r = -kInf;
    for (const Vec3d& v : vertices) r = std::max(r, dot(v, n));
    return r;
  }
};

template <Real T>
HullFeatures features(const ConvexHull<T>& hull) {
  HullFeatures f;
  for (const Vec3<T>& v : hull.vertices()) f.vertices.push_back(to_double(v));
  for (const auto& t : hull.faces()) {
    const Vec3d a = f.vertices[t[0]], b = f.vertices[t[1]], c = f.vertices[t[2]];
    f.triangles.push_back({a, b, c});
    f.normals.push_back(normalize(cross(b - a, c - a)));
    for (int k = 0; k < 3; ++k) {
      if (t[k] < t[(k + 1) % 3]) f.edges.emplace_back(f.vertices[t[k]], f.vertices[t[(k + 1) % 3]]);
    }
  }
  return f;
}

/// The distance of two disjoint polytopes: the least over vertex-triangle and edge-edge pairs.
double feature_distance(const HullFeatures& a, const HullFeatures& b) {
  double best = kInf;
  for (const auto& [x, y] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    for (const Vec3d& v : x->vertices) {
      for (const auto& t : y->triangles) {
        best = std::min(best, distance(v, closest_point_on_triangle(Triangle<double>{t[0], t[1], t[2]}, v).point));
      }
    }
  }
  for (const auto& [p, q] : a.edges) {
    for (const auto& [r, s] : b.edges) {
      best = std::min(best, std::sqrt(closest_points_between_segments(Segment<double>{p, q}, Segment<double>{r, s})
                                          .distance_squared));
    }
  }
  return best;
}

/// The separating axis test over the candidate axes: the most positive gap (> 0: separated) and
/// the least overlap with its axis (the penetration depth of polytopes, and A's way out).
struct AxisTest {
  double best_gap = -kInf, least_overlap = kInf;
  Vec3d least_axis{};
};

AxisTest axis_test(const HullFeatures& a, const HullFeatures& b) {
  std::vector<Vec3d> axes = a.normals;
  axes.insert(axes.end(), b.normals.begin(), b.normals.end());
  for (const auto& [p, q] : a.edges) {
    for (const auto& [r, s] : b.edges) {
      const Vec3d c = cross(q - p, s - r);
      if (length(c) > 1e-9 * length(q - p) * length(s - r)) axes.push_back(normalize(c));
    }
  }
  AxisTest out;
  for (Vec3d n : axes) {
    for (int sign = 0; sign < 2; ++sign, n = -n) {
      // A moved along n clears B once A's lowest point passes B's highest: overlap = that distance.
      const double overlap = b.reach(n) + a.reach(-n);
      out.best_gap = std::max(out.best_gap, -overlap);
      if (overlap < out.least_overlap) out.least_overlap = overlap, out.least_axis = n;
    }
  }
  return out;
}

TYPED_TEST(GjkEpa, HullHullMatchesBruteForceOverFeaturesAndAxes) {
  using T = TypeParam;
  Rng rng(24);
  Worst worst;
  for (int i = 0; i < 500; ++i) {
    const ConvexHull<T> a = random_hull<T>(rng, rng.in_cube(0.8), rng.uniform(0.3, 1.2));
    const ConvexHull<T> b = random_hull<T>(rng, {}, rng.uniform(0.3, 1.2));
    const HullFeatures fa = features(a), fb = features(b);
    const AxisTest axes = axis_test(fa, fb);
    const double size = std::max(double(size_of(a)), double(size_of(b)));
    const double ref_depth = axes.best_gap > 0 ? -feature_distance(fa, fb) : axes.least_overlap;
    compare<T>(a, b, ref_depth, axes.least_axis, size, [&](Vec3d n) { return fa.reach(n); },
               [&](Vec3d n) { return fb.reach(n); }, worst);
    if (::testing::Test::HasFatalFailure()) return;
  }
  worst.print("hull-hull");
  EXPECT_GT(worst.apart, 100);
  EXPECT_GT(worst.overlapping, 100);
}

// ---- curved pairs: the least overlap over many directions ---------------------------------------

/// The sine across the axis as |u x n|, not sqrt(1 - cos²), which a normal rounded to float (off
/// unit length by an ulp) would turn into an error of sqrt(ulp) along the axis.
double cylinder_reach(const Cylinder<double>& c, Vec3d n) {
  const Vec3d axis = c.b - c.a, u = normalize(axis);
  return dot((c.a + c.b) * 0.5, n) + 0.5 * length(axis) * std::abs(dot(u, n)) + c.radius * length(cross(u, n));
}

// A cylinder has no analytic contact kernel against a box or another cylinder. The penetration
// depth is the least, over directions n, of how far A must move along n to clear B; the reported
// depth must be realised by the reported normal (so it is >= that least value) and be no more
// than the least over 2000 sampled directions by EPA's precision on the curved rim (relative).
TYPED_TEST(GjkEpa, CylinderPairsRealiseTheLeastOverlapOverSampledDirections) {
  using T = TypeParam;
  Rng rng(25);
  std::vector<Vec3d> directions;
  for (int i = 0; i < 2000; ++i) directions.push_back(rng.unit_vector());
  double worst_excess = 0;
  int overlapping = 0;
  for (int i = 0; i < 150; ++i) {
    const Vec3d c = rng.in_cube(0.6), half = rng.unit_vector() * rng.uniform(0.2, 1);
    const Cylinder<T> a{from_double<T>(c - half), from_double<T>(c + half), T(rng.uniform(0.2, 1))};
    const Cylinder<double> ad{to_double(a.a), to_double(a.b), double(a.radius)};
    const bool against_box = i % 2 == 0;
    const Obb<T> box = random_obb<T>(rng, 0.3);
    const Obb<double> bd = to_double(box);
    const Vec3d c2 = rng.in_cube(0.3), half2 = rng.unit_vector() * rng.uniform(0.2, 1);
    const Cylinder<T> other{from_double<T>(c2 - half2), from_double<T>(c2 + half2), T(rng.uniform(0.2, 1))};
    const Cylinder<double> od{to_double(other.a), to_double(other.b), double(other.radius)};
    const auto reach_b = [&](Vec3d n) { return against_box ? obb_reach(bd, n) : cylinder_reach(od, n); };
    const auto overlap = [&](Vec3d n) { return reach_b(n) + cylinder_reach(ad, -n); };
    double least = kInf;
    for (const Vec3d& n : directions) least = std::min(least, overlap(n));
    const Contact<T> contact_ab = against_box ? penetration(a, box) : penetration(a, other);
    if (least <= 1e-3) {
      EXPECT_TRUE(!contact_ab.touching || contact_ab.depth < T(1e-3)) << "a sampled direction separates them";
      continue;
    }
    ++overlapping;
    ASSERT_TRUE(contact_ab.touching);
    const double depth = double(contact_ab.depth);
    EXPECT_NEAR(overlap(to_double(contact_ab.normal)), depth, 1e-5) << "the normal does not realise the depth: " << describe(a) << " " << (against_box ? describe(box) : describe(other));
    EXPECT_LE(depth, least * (1 + kDepth));
    worst_excess = std::max(worst_excess, (depth - least) / least);
  }
  std::printf("[ measured ] cylinder pairs: %d overlapping; depth above the sampled least overlap by at most %.2e relative\n",
              overlapping, worst_excess);
  EXPECT_GT(overlapping, 60);
}

// ---- cores without volume, mixed pairs, invalid input -------------------------------------------

TYPED_TEST(GjkEpa, CrossingCapsuleAxesGiveThePlaneNormalAndTheRadii) {
  using T = TypeParam;
  const Capsule<T> a{{-1, 0, 0.5}, {1, 0, 0.5}, T(0.25)};
  const Capsule<T> b{{0, -1, 0.5}, {0, 1, 0.5}, T(0.5)};
  const Contact<T> c = penetration(a, b);
  ASSERT_TRUE(c.touching);
  EXPECT_NEAR(double(c.depth), 0.75, 1e-6);
  EXPECT_NEAR(std::abs(double(c.normal.z)), 1.0, 1e-6);
  const Sphere<T> s{{0, 0, 0}, T(1)};
  const Contact<T> same = penetration(s, Sphere<T>{{0, 0, 0}, T(2)});
  EXPECT_NEAR(double(same.depth), 3.0, 1e-6);
  EXPECT_NEAR(double(length(same.normal)), 1.0, 1e-6);
  const ConvexDistance<T> d = gjk_distance(s, Sphere<T>{{3, 0, 4}, T(2)});
  EXPECT_NEAR(double(d.distance), 2.0, 1e-6);
  EXPECT_NEAR(double(d.point_a.x), 0.6, 1e-6);
  EXPECT_NEAR(double(d.point_b.z), 4 - 1.6, 1e-6);
}

TYPED_TEST(GjkEpa, EveryShapeKindPairsWithEveryOther) {
  using T = TypeParam;
  const std::vector<Vec3<T>> corners{{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                     {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};
  const ConvexHull<T> hull = ConvexHull<T>::make(corners).value();
  const std::vector<Vec3<T>> square{{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  const ConvexPolygon<T> polygon = ConvexPolygon<T>::make(square).value();
  // Every shape holds a neighbourhood of the origin in its own plane at least, so every pair
  // overlaps: a touching contact with a unit normal and a depth that the normal realises.
  const std::vector<ConvexShape<T>> shapes{Sphere<T>{{0, 0, 0}, T(1)},
                                           Aabb<T>{{-1, -1, -1}, {1, 1, 1}},
                                           Obb<T>{},
                                           Capsule<T>{{0, 0, -1}, {0, 0, 0}, T(1)},
                                           Cylinder<T>{{0, 0, -1}, {0, 0, 1}, T(1)},
                                           Triangle<T>{{-1, -1, -0.5}, {1, -1, 0.5}, {0, 2, 0}},
                                           polygon,
                                           hull};
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    for (std::size_t j = 0; j < shapes.size(); ++j) {
      EXPECT_TRUE(gjk_distance(shapes[i], shapes[j]).overlapping) << i << " " << j;
      const Contact<T> c = penetration(shapes[i], shapes[j]);
      EXPECT_TRUE(c.touching) << i << " " << j;
      EXPECT_GE(double(c.depth), 0.0) << i << " " << j;
      EXPECT_NEAR(double(length(c.normal)), 1.0, 1e-5) << i << " " << j;
      EXPECT_NEAR(dot(to_double(c.point_on_b) - to_double(c.point_on_a), to_double(c.normal)), double(c.depth), 1e-4)
          << i << " " << j;
    }
  }
}

TYPED_TEST(GjkEpa, InvalidInputIsNeverTouching) {
  using T = TypeParam;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const Sphere<T> good{{0, 0, 0}, T(1)};
  EXPECT_FALSE(penetration(good, Sphere<T>{{nan, 0, 0}, T(1)}).touching);
  EXPECT_FALSE(penetration(good, Sphere<T>{{0, 0, 0}, T(-1)}).touching);
  EXPECT_FALSE(penetration(good, Cylinder<T>{{0, 0, 0}, {0, 0, 0}, T(1)}).touching);
  EXPECT_FALSE(penetration(good, Obb<T>{{0, 0, 0}, {1, -1, 1}, {}}).touching);
  EXPECT_TRUE(std::isnan(gjk_distance(good, Capsule<T>{{0, 0, 0}, {kInfinity<T>, 0, 0}, T(1)}).distance));
}

}  // namespace
}  // namespace hitscan
