#include "hitscan/geometry/ray_aabb.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

#include "hitscan/math/simd.hpp"

#include "geometry/reference_shapes.hpp"

namespace hitscan {
namespace {

using namespace reference;

const Vec3d kWorldAxes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

struct AabbTraits {
  static constexpr const char* name = "ray_vs_aabb";
  template <Real T>
  static Aabb<T> random_shape(Rng& rng) {
    const Vec3d c = rng.in_cube(5);
    const Vec3d h{rng.uniform(0.1, 3), rng.uniform(0.1, 3), rng.uniform(0.1, 3)};
    return {from_double<T>(c - h), from_double<T>(c + h)};
  }
  template <Real T>
  static RayHit<T> kernel(const Aabb<T>& b, const Ray<T>& r) { return ray_vs_aabb(b, r); }
  template <Real T>
  static LineSpan span(const Aabb<T>& b, const Rayd& r) { return line_vs_box_faces({to_double(b.min), to_double(b.max)}, r); }
  template <Real T>
  static double sdf(const Aabb<T>& b, Vec3d p) { return box_sdf(p - center(b), half(b)); }
  template <Real T>
  static NormalSet normals(const Aabb<T>& b, Vec3d p, double delta) {
    return box_face_normals(p - center(b), half(b), delta, kWorldAxes);
  }
  template <Real T>
  static Vec3d center(const Aabb<T>& b) { return (to_double(b.min) + to_double(b.max)) * 0.5; }
  template <Real T>
  static Vec3d half(const Aabb<T>& b) { return (to_double(b.max) - to_double(b.min)) * 0.5; }
  template <Real T>
  static double size(const Aabb<T>& b) { return length(half(b)); }
  /// Flat faces: the normal takes no share of the t error.
  template <Real T>
  static double curvature(const Aabb<T>&) { return kInf; }
  /// Some rays parallel to one or two slabs (with +0 or -0), some of those inside a face plane.
  template <Real T>
  static void adjust_ray(const Aabb<T>& b, Ray<T>& ray, Rng& rng) {
    const double pick = rng.uniform();
    if (pick > 0.12) return;
    const int k = int(rng.uniform(0, 3)) % 3;
    ray.dir = with_component(ray.dir, k, rng.chance(0.5) ? T(0) : -T(0));
    if (pick < 0.03) ray.dir = with_component(ray.dir, (k + 1) % 3, rng.chance(0.5) ? T(0) : -T(0));
    if (rng.chance(0.4)) ray.origin = with_component(ray.origin, k, rng.chance(0.5) ? b.min[k] : b.max[k]);
  }
};

template <Real T>
::testing::AssertionResult Hits(const Aabb<T>& b, const Ray<T>& r, const Expected& e) {
  if (auto k = IsHit(ray_vs_aabb(b, r), r, e, Tolerance<T>::hand); !k) return k << " [kernel]";
  const RayHitd ref = solid_hit(AabbTraits::span(b, to_double(r)), to_double(r));
  if (auto k = IsHit(ref, to_double(r), e, Tolerance<T>::hand); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <Real T>
::testing::AssertionResult Misses(const Aabb<T>& b, const Ray<T>& r) {
  if (auto k = IsMiss(ray_vs_aabb(b, r)); !k) return k << " [kernel]";
  if (auto k = IsMiss(solid_hit(AabbTraits::span(b, to_double(r)), to_double(r))); !k) return k << " [reference]";
  return ::testing::AssertionSuccess();
}

template <class T>
class RayAabb : public ::testing::Test {};
TYPED_TEST_SUITE(RayAabb, Reals, RealNames);

// [-1, 1] x [-2, 2] x [-3, 3].
template <Real T>
Aabb<T> box() {
  return {{-1, -2, -3}, {1, 2, 3}};
}

TYPED_TEST(RayAabb, EveryFaceIsHitFromOutsideWithItsNormal) {
  using T = TypeParam;
  const Vec3d half{1, 2, 3};
  for (int axis = 0; axis < 3; ++axis) {
    for (double side : {-1.0, 1.0}) {
      const Vec3d normal = with_component(Vec3d{}, axis, side);
      const Ray<T> r{from_double<T>(normal * 10.0), from_double<T>(-normal)};
      EXPECT_TRUE(Hits(box<T>(), r, {.t = 10 - half[axis], .normal = normal, .t_exit = 10 + half[axis]}))
          << "axis " << axis << " side " << side;
    }
  }
}

TYPED_TEST(RayAabb, PassingBesideOrBehindMisses) {
  using T = TypeParam;
  EXPECT_TRUE(Misses(box<T>(), Ray<T>{{5, 3, 0}, {-1, 0, 0}}));
  EXPECT_TRUE(Misses(box<T>(), Ray<T>{{5, 0, T(3.01)}, {-1, 0, 0}}));
  EXPECT_TRUE(Misses(box<T>(), Ray<T>{{5, 0, 0}, {1, 0, 0}}));
  // The line x - y = -3.01 passes just outside the edge (-1, 2, z).
  EXPECT_TRUE(Misses(box<T>(), Ray<T>{{3, T(6.01), 0}, {-1, -1, 0}}));
}

TYPED_TEST(RayAabb, RayParallelToASlabHitsOnlyWithinItFacesIncluded) {
  using T = TypeParam;
  EXPECT_TRUE(Misses(box<T>(), Ray<T>{{5, T(2.5), 0}, {-1, 0, 0}}));
  // Running along the face y = 2, with +0 and -0 for the zero components.
  const Expected along_face{.t = 4, .normal = {1, 0, 0}, .t_exit = 6};
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{5, 2, 0}, {-1, 0, 0}}, along_face));
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{5, 2, 0}, {-1, -T(0), -T(0)}}, along_face));
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{5, -2, -3}, {-1, -T(0), T(0)}}, along_face));
  // Origin in the plane x = max, moving along z.
  const Expected up{.t = 7, .normal = {0, 0, -1}, .t_exit = 13};
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{1, 0, -10}, {0, 0, 1}}, up));
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{1, 0, -10}, {-T(0), 0, 1}}, up));
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{-1, 0, -10}, {-T(0), 0, 1}}, up));
  EXPECT_TRUE(Misses(box<T>(), Ray<T>{{T(1.5), 0, -10}, {0, 0, 1}}));
  EXPECT_TRUE(Misses(box<T>(), Ray<T>{{T(-1.5), 0, -10}, {-T(0), 0, 1}}));
}

TYPED_TEST(RayAabb, EdgeAndCornerEntriesTakeTheLargestEntryLowestAxisOnATie) {
  using T = TypeParam;
  // Through the edge (1, 2, z): x and y are entered at t = 2, x wins the tie.
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{3, 4, 0}, {-1, -1, 0}}, {.t = 2, .normal = {1, 0, 0}, .t_exit = 4}));
  // x is entered first (t = 1, outside in y), y last (t = 2): the y face.
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{2, 4, 0}, {-1, -1, 0}}, {.t = 2, .normal = {0, 1, 0}, .t_exit = 3}));
  // Through the corner (1, 2, 3): all three at t = 1.
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{2, 3, 4}, {-1, -1, -1}}, {.t = 1, .normal = {1, 0, 0}, .t_exit = 3}));
  // Through the edge (x, 2, 3): y and z tie, y wins.
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{0, 3, 4}, {0, -1, -1}}, {.t = 1, .normal = {0, 1, 0}, .t_exit = 5}));
}

TYPED_TEST(RayAabb, StartingInsideHitsAtTminWithTheExit) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{0, 0, 0}, {0, 0, 2}}, {.t = 0, .normal = {0, 0, -1}, .t_exit = 1.5, .flags = kHitStartedInside}));
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{T(0.5), 1, -1}, {-3, 0, 4}},
                   {.t = 0, .normal = {0.6, 0, -0.8}, .t_exit = 0.5, .flags = kHitStartedInside}));
  // Origin outside, origin + tmin dir inside; t_exit beyond tmax.
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, T(4.5), 5}, {.t = 4.5, .normal = {1, 0, 0}, .t_exit = 6, .flags = kHitStartedInside}));
}

TYPED_TEST(RayAabb, TminTmaxLimitTheHit) {
  using T = TypeParam;
  EXPECT_TRUE(Misses(box<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, 0, T(3.5)}));
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, 0, 4}, {.t = 4, .normal = {1, 0, 0}, .t_exit = 6}));
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, 2, 100}, {.t = 4, .normal = {1, 0, 0}, .t_exit = 6}));
  EXPECT_TRUE(Misses(box<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, T(6.5)}));
  // Negative tmin reaches the box behind the origin.
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{5, 0, 0}, {1, 0, 0}, -10}, {.t = -6, .normal = {-1, 0, 0}, .t_exit = -4}));
}

TYPED_TEST(RayAabb, NonUnitDirectionMeasuresTInUnitsOfDir) {
  using T = TypeParam;
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{5, 0, 0}, {-4, 0, 0}}, {.t = 1, .normal = {1, 0, 0}, .t_exit = 1.5}));
  EXPECT_TRUE(Hits(box<T>(), Ray<T>{{0, 0, 7}, {0, 0, T(-0.5)}}, {.t = 8, .normal = {0, 0, 1}, .t_exit = 20}));
}

TYPED_TEST(RayAabb, FlatAndPointBoxesAreHitInvalidBoxesMissed) {
  using T = TypeParam;
  // Zero thickness in z: a rectangle that is still a (valid) box.
  EXPECT_TRUE(Hits(Aabb<T>{{-1, -1, 0}, {1, 1, 0}}, Ray<T>{{0, 0, 5}, {0, 0, -1}}, {.t = 5, .normal = {0, 0, 1}, .t_exit = 5}));
  EXPECT_TRUE(Hits(Aabb<T>::from_point({0, 0, 0}), Ray<T>{{5, 0, 0}, {-1, 0, 0}}, {.t = 5, .normal = {1, 0, 0}, .t_exit = 5}));
  const Ray<T> through{{0, 0, 10}, {0, 0, -1}};
  const T nan = std::numeric_limits<T>::quiet_NaN();
  EXPECT_TRUE(IsMiss(ray_vs_aabb(Aabb<T>{{-1, -1, 1}, {1, 1, -1}}, through)));
  EXPECT_TRUE(IsMiss(ray_vs_aabb(Aabb<T>{{nan, -1, -1}, {1, 1, 1}}, through)));
  EXPECT_TRUE(IsMiss(ray_vs_aabb(Aabb<T>{{-1, -1, -1}, {1, nan, 1}}, through)));
  EXPECT_TRUE(IsMiss(ray_vs_aabb(Aabb<T>::empty(), through)));
}

TYPED_TEST(RayAabb, InvalidRaysMiss) {
  using T = TypeParam;
  expect_invalid_rays_miss<T>([](const Ray<T>& r) { return ray_vs_aabb(box<T>(), r); }, Ray<T>{{5, 0, 0}, {-1, 0, 0}});
  expect_invalid_rays_miss<T>([](const Ray<T>& r) { return ray_vs_aabb(box<T>(), r); }, Ray<T>{{0, 0, 0}, {1, 2, 3}});
}

TYPED_TEST(RayAabb, ExtremeFiniteRaysNeverYieldNaN) {
  using T = TypeParam;
  expect_extreme_rays_nan_free<T>([](const Ray<T>& r) { return ray_vs_aabb(box<T>(), r); }, Ray<T>{{5, 0, 0}, {-1, 0, 0}});
  expect_extreme_rays_nan_free<T>([](const Ray<T>& r) { return ray_vs_aabb(box<T>(), r); }, Ray<T>{{0, 0, 0}, {1, 2, 3}});
}

TYPED_TEST(RayAabb, RandomRaysMatchTheSixFacePlanes) {
  run_solid_differential<TypeParam, AabbTraits>(0xaabbu, 100000).finish();
}

// ---- ray_vs_aabb_interval and RayInverse ----------------------------------------------------------

template <Real T>
::testing::AssertionResult IntervalIs(const Aabb<T>& b, const Ray<T>& r, double enter, double exit) {
  T t_enter = T(-123), t_exit = T(-123);
  if (!ray_vs_aabb_interval(b, RayInverse<T>::from_ray(r), t_enter, t_exit))
    return ::testing::AssertionFailure() << "empty, expected [" << enter << ", " << exit << "]";
  const double tol = Tolerance<T>::hand * std::max(1.0, std::abs(exit));
  if (std::abs(t_enter - enter) > tol || std::abs(t_exit - exit) > tol)
    return ::testing::AssertionFailure() << "[" << t_enter << ", " << t_exit << "], expected [" << enter << ", " << exit << "]";
  return ::testing::AssertionSuccess();
}

template <Real T>
bool interval_empty(const Aabb<T>& b, const Ray<T>& r) {
  T t_enter = 0, t_exit = 0;
  return !ray_vs_aabb_interval(b, RayInverse<T>::from_ray(r), t_enter, t_exit);
}

template <class T>
class RayAabbInterval : public ::testing::Test {};
TYPED_TEST_SUITE(RayAabbInterval, Reals, RealNames);

TYPED_TEST(RayAabbInterval, RayInverseKeepsTheSignOfZeroComponents) {
  using T = TypeParam;
  const RayInverse<T> inv = RayInverse<T>::from_ray({{1, 2, 3}, {2, 0, -T(0)}, T(0.5), 9});
  EXPECT_TRUE(inv.valid);
  EXPECT_EQ(inv.origin, (Vec3<T>{1, 2, 3}));
  EXPECT_EQ(inv.inv_dir.x, T(0.5));
  EXPECT_EQ(inv.inv_dir.y, kInfinity<T>);
  EXPECT_EQ(inv.inv_dir.z, -kInfinity<T>);
  EXPECT_EQ(inv.sign[0], 0);
  EXPECT_EQ(inv.sign[1], 0);
  EXPECT_EQ(inv.sign[2], 1);
  EXPECT_EQ(inv.tmin, T(0.5));
  EXPECT_EQ(inv.tmax, T(9));
  const RayInverse<T> neg = RayInverse<T>::from_ray({{0, 0, 0}, {-4, -1, T(0.25)}});
  EXPECT_EQ(neg.inv_dir, (Vec3<T>{T(-0.25), -1, 4}));
  EXPECT_EQ(neg.sign[0], 1);
  EXPECT_EQ(neg.sign[1], 1);
  EXPECT_EQ(neg.sign[2], 0);
}

TYPED_TEST(RayAabbInterval, InvalidRaysGiveAnInvalidInverseThatAlwaysMisses) {
  using T = TypeParam;
  for (const auto& [name, r] : invalid_variants(Ray<T>{{0, 0, 0}, {1, 2, 3}})) {
    EXPECT_FALSE(RayInverse<T>::from_ray(r).valid) << name;
    EXPECT_TRUE(interval_empty(box<T>(), r)) << name;
  }
}

TYPED_TEST(RayAabbInterval, IntervalIsClippedToTminTmax) {
  using T = TypeParam;
  EXPECT_TRUE(IntervalIs(box<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}}, 4, 6));
  EXPECT_TRUE(IntervalIs(box<T>(), Ray<T>{{5, 0, 0}, {-2, 0, 0}}, 2, 3));
  EXPECT_TRUE(IntervalIs(box<T>(), Ray<T>{{0, 0, 0}, {0, 0, 2}}, 0, 1.5));
  EXPECT_TRUE(IntervalIs(box<T>(), Ray<T>{{0, 0, 0}, {0, 0, 2}, 0, 1}, 0, 1));
  EXPECT_TRUE(IntervalIs(box<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, T(4.5), 5}, 4.5, 5));
  EXPECT_TRUE(IntervalIs(box<T>(), Ray<T>{{5, 0, 0}, {1, 0, 0}, -10}, -6, -4));
  EXPECT_TRUE(interval_empty(box<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, 0, T(3.5)}));
  EXPECT_TRUE(interval_empty(box<T>(), Ray<T>{{5, 0, 0}, {-1, 0, 0}, T(6.5)}));
  EXPECT_TRUE(interval_empty(box<T>(), Ray<T>{{5, 0, 0}, {1, 0, 0}}));
  EXPECT_TRUE(interval_empty(box<T>(), Ray<T>{{5, 3, 0}, {-1, 0, 0}}));
}

TYPED_TEST(RayAabbInterval, OriginInTheFacePlaneOfAParallelSlabCountsAsInside) {
  using T = TypeParam;
  // 0 * inf = NaN on the x slab; the faces belong to the box.
  EXPECT_TRUE(IntervalIs(box<T>(), Ray<T>{{1, 0, -10}, {0, 0, 1}}, 7, 13));
  EXPECT_TRUE(IntervalIs(box<T>(), Ray<T>{{1, 0, -10}, {-T(0), 0, 1}}, 7, 13));
  EXPECT_TRUE(IntervalIs(box<T>(), Ray<T>{{-1, 0, -10}, {0, 0, 1}}, 7, 13));
  EXPECT_TRUE(IntervalIs(box<T>(), Ray<T>{{-1, 0, -10}, {-T(0), 0, 1}}, 7, 13));
  EXPECT_TRUE(IntervalIs(box<T>(), Ray<T>{{1, 2, -10}, {-T(0), T(0), 1}}, 7, 13));
  EXPECT_TRUE(interval_empty(box<T>(), Ray<T>{{T(1.5), 0, -10}, {0, 0, 1}}));
  EXPECT_TRUE(interval_empty(box<T>(), Ray<T>{{T(-1.5), 0, -10}, {-T(0), 0, 1}}));
}

TYPED_TEST(RayAabbInterval, RandomRaysMatchTheSixFacePlanes) {
  using T = TypeParam;
  using Tol = Tolerance<T>;
  Rng rng(0x1e7u);
  DifferentialReport rep;
  rep.name = kernel_name<T>("ray_vs_aabb_interval");
  for (int i = 0; i < 100000; ++i) {
    const Aabb<T> b = AabbTraits::random_shape<T>(rng);
    const Vec3d c = AabbTraits::center(b);
    Ray<T> ray = random_ray<T>(rng, c, AabbTraits::size(b));
    AabbTraits::adjust_ray(b, ray, rng);
    const Rayd rd = to_double(ray);
    const LineSpan span = AabbTraits::span(b, rd);
    const double lo = std::max(span.t0, rd.tmin), hi = std::min(span.t1, rd.tmax);
    const bool want = span.hit && lo <= hi;
    const RayHitd ref = solid_hit(span, rd);
    const double scale = case_scale(rd, c, AabbTraits::size(b), ref);
    const double dir_len = length(rd.dir);
    T t_enter = 0, t_exit = 0;
    const bool got = ray_vs_aabb_interval(b, RayInverse<T>::from_ray(ray), t_enter, t_exit);
    ++rep.rays;
    rep.hits += want;
    rep.started_inside += ref.started_inside();
    auto fail = [&](const std::string& what) {
      rep.fail(what, describe(b), describe(ray), "[" + hex(double(t_enter)) + ", " + hex(double(t_exit)) + "]",
               want ? "[" + hex(lo) + ", " + hex(hi) + "]" : "empty");
    };
    if (got != want) {
      const double reach = std::max(rd.tmin, dot(c - rd.origin, rd.dir) / (dir_len * dir_len) + 2 * AabbTraits::size(b) / dir_len);
      const double closest = convex_minimum([&](double t) { return AabbTraits::sdf(b, rd.at(t)); }, rd.tmin, std::min(rd.tmax, reach));
      if (std::abs(closest) <= Tol::grazing * scale) ++rep.grazing;
      else fail("empty/non-empty");
      continue;
    }
    if (!got) continue;
    if (std::isnan(t_enter) || std::isnan(t_exit) || !(t_enter <= t_exit) || t_enter < ray.tmin || t_exit > ray.tmax) {
      fail("interval not within [tmin, tmax]");
      continue;
    }
    // An end clipped to tmin or tmax is exact; a face crossing carries the usual error.
    const double cos_in = lo == rd.tmin ? 1.0 : std::max(std::abs(dot(rd.dir / dir_len, span.n0)), kMinCos);
    const double cos_out = hi == rd.tmax ? 1.0 : std::max(std::abs(dot(rd.dir / dir_len, span.n1)), kMinCos);
    const double enter_err = std::abs(double(t_enter) - lo) * dir_len * cos_in / scale;
    const double exit_err = std::abs(double(t_exit) - hi) * dir_len * cos_out / scale;
    rep.worst_t = std::max(rep.worst_t, enter_err);
    rep.worst_exit = std::max(rep.worst_exit, exit_err);
    if (!(enter_err <= Tol::distance)) fail("t_enter");
    if (!(exit_err <= Tol::distance)) fail("t_exit");
  }
  rep.finish();
}

}  // namespace
}  // namespace hitscan

namespace hitscan {
namespace {

// The exact slab interval of a float ray and box, in double (each quotient within an ulp of
// double, far finer than float's), over [tmin, tmax]; a zero direction component is inside its
// slab or outside it for every t.
bool exact_interval(const Aabbf& box, const Rayf& ray, double& t0, double& t1) {
  t0 = ray.tmin, t1 = ray.tmax;
  for (int i = 0; i < 3; ++i) {
    const double o = ray.origin[i], d = ray.dir[i], lo = box.min[i], hi = box.max[i];
    if (d == 0) {
      if (o < lo || o > hi) return false;
      continue;
    }
    const double a = (lo - o) / d, b = (hi - o) / d;
    t0 = std::max(t0, std::min(a, b));
    t1 = std::min(t1, std::max(a, b));
  }
  return true;
}

// One box through clip_to_slab on 4 or 8 lanes, every lane the same box: the scalar test's bits.
template <class F>
float lane_entry(const Aabbf& box, const RayInverse<float>& ray, float tmax, bool& hit) {
  F t0(ray.tmin), t1(tmax);
  for (int i = 0; i < 3; ++i) {
    clip_to_slab(F(box_side(box, ray.sign[i], i)), F(box_side(box, 1 - ray.sign[i], i)), F(ray.origin[i]),
                 F(ray.inv_dir[i]), F(ray.inv_far[i]), t0, t1);
  }
  hit = bits(t0 <= t1) == (1 << F::width) - 1;
  alignas(32) float t[8];
  t0.store(t);
  return t[F::width - 1];
}

// ray_enters_box never culls a box the ray meets, grazing rays included (through a face, an edge
// or a corner, and along a face with a zero direction component), and over-reports only by
// rounding; its 4- and 8-lane forms give its bits.
TEST(RayEntersBox, IsConservativeAgainstTheExactIntervalAndLanesAgreeBitForBit) {
  std::mt19937 gen(31);
  std::uniform_real_distribution<float> u(-1, 1);
  int grazing = 0, entered = 0;
  for (int i = 0; i < 20000; ++i) {
    const Vec3f c{u(gen) * 100, u(gen) * 100, u(gen) * 100};
    const Vec3f h{std::abs(u(gen)) * 10 + 0.01f, std::abs(u(gen)) * 10 + 0.01f, std::abs(u(gen)) * 10 + 0.01f};
    const Aabbf box{c - h, c + h};
    // A target on the box's boundary: a face, an edge or a corner, as many coordinates pinned.
    Vec3f target = c + Vec3f{u(gen) * h.x, u(gen) * h.y, u(gen) * h.z};
    const int pinned = i % 4;
    for (int k = 0; k < pinned; ++k) {
      const int axis = (i / 4 + k) % 3;
      target[axis] = gen() & 1 ? box.max[axis] : box.min[axis];
    }
    Vec3f origin = c + Vec3f{u(gen), u(gen), u(gen)} * 60.0f;
    Vec3f dir = (target - origin) * (0.25f + std::abs(u(gen)));
    if (i % 16 == 0) {
      // Along a face: the direction's component on one axis zero, the origin in that face's plane.
      const int axis = i / 16 % 3;
      dir[axis] = gen() & 1 ? 0.0f : -0.0f;
      origin[axis] = gen() & 1 ? box.max[axis] : box.min[axis];
    }
    if (dir == Vec3f{}) continue;
    const Rayf ray{origin, dir, 0, i % 3 == 0 ? kInfinity<float> : 1000.0f};
    const RayInverse<float> inverse = RayInverse<float>::from_valid_ray(ray);
    float t_enter = 0;
    const bool hit = ray_enters_box(box, inverse, ray.tmax, t_enter);
    double t0 = 0, t1 = 0;
    const bool slabs = exact_interval(box, ray, t0, t1);
    if (slabs && t0 <= t1) {
      ++grazing, entered += hit;
      ASSERT_TRUE(hit) << "ray " << i << " meets the box over [" << t0 << ", " << t1 << "]";
      EXPECT_LE(t_enter, t0 * (1 + 1e-6) + 1e-30) << "ray " << i;
    } else if (hit) {
      // Reported although the exact interval is empty: only by a few ulps of float.
      ASSERT_TRUE(slabs) << "ray " << i;
      EXPECT_LE(t0, t1 * (1 + 1e-5) + 1e-30) << "ray " << i;
    }
    bool hit4 = false, hit8 = false;
    const float t4 = lane_entry<simd::Float4>(box, inverse, ray.tmax, hit4);
    const float t8 = lane_entry<simd::Float8>(box, inverse, ray.tmax, hit8);
    EXPECT_EQ(hit4, hit) << "ray " << i;
    EXPECT_EQ(hit8, hit) << "ray " << i;
    EXPECT_EQ(std::bit_cast<std::uint32_t>(t4), std::bit_cast<std::uint32_t>(t_enter)) << "ray " << i;
    EXPECT_EQ(std::bit_cast<std::uint32_t>(t8), std::bit_cast<std::uint32_t>(t_enter)) << "ray " << i;
  }
  EXPECT_GT(grazing, 15000);
  EXPECT_EQ(entered, grazing);
}

}  // namespace
}  // namespace hitscan
