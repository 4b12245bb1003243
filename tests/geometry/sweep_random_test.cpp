// The sweeps against the independent reference of reference_sweeps.hpp on seeded random cases:
// every sphere and capsule cast pair, in float and double, with shapes aimed at their target
// (hits, grazes, short max_distance), started close to it (starts in contact) or sent anywhere
// (misses, moving away).
//
// What is asserted (capsule vs cylinder: eps at least 1e-6 * scale and angles 3e-3, GJK's own
// precision on a curved rim), with eps = Tol<T>::gap * scale (scale: the largest of the shapes' sizes and
// the start's distance from the target) and tol the kernel's contact tolerance at the pair's size:
// - both hit: the reference gap f at the kernel's distance is in [-eps, tol + eps] (touching,
//   not overlapping), and the distance is on the approaching side (<= the reference argmin of f
//   + eps); the normal is within Tol<T>::angle of the reference closest-point direction at that
//   distance; the point is within eps of the target and within [-eps, tol + eps] of M there;
// - started in contact: the reference f(0) <= tol + eps; depth = -f(0) within eps and the normal
//   as above whenever the two cores are apart;
// - hit/miss disagreements only where the reference's least gap is within tol + eps of 0 (a
//   graze) or its contact within eps of max_distance; they are counted and printed.

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "geometry/reference_sweeps.hpp"
#include "hitscan/geometry/sweep.hpp"

namespace hitscan {
namespace {

using namespace sweep_reference;
using reference::describe;
using reference::from_double;

template <Real T>
struct Tol;
template <>
struct Tol<float> {
  static constexpr double gap = 2e-5;   // relative to scale
  static constexpr double angle = 1e-3; // radians
};
template <>
struct Tol<double> {
  static constexpr double gap = 1e-9;
  static constexpr double angle = 1e-6;
};

template <class T>
class SweepRandom : public ::testing::Test {};
TYPED_TEST_SUITE(SweepRandom, reference::Reals, reference::RealNames);

struct Rng {
  std::mt19937 engine;
  explicit Rng(std::uint32_t seed) : engine(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(engine); }
  bool chance(double p) { return uniform(0, 1) < p; }
  Vec3d unit() {
    std::normal_distribution<double> n;
    for (;;) {
      const Vec3d v{n(engine), n(engine), n(engine)};
      if (length(v) > 1e-3) return v / length(v);
    }
  }
  Vec3d in_ball(double r) { return unit() * (r * std::cbrt(uniform(0, 1))); }
};

template <Real T>
Vec3<T> to_t(Vec3d v) {
  return from_double<T>(v);
}

// ---- random shapes ----------------------------------------------------------------------------

template <Real T>
Sphere<T> random_sphere(Rng& rng, Vec3d center) {
  return {to_t<T>(center), T(rng.uniform(0.1, 1.5))};
}
template <Real T>
Capsule<T> random_capsule(Rng& rng, Vec3d center, double min_radius) {
  const Vec3d half = rng.unit() * (rng.chance(0.1) ? 0.0 : rng.uniform(0.0, 1.5));
  return {to_t<T>(center - half), to_t<T>(center + half), T(rng.uniform(min_radius, 1.0))};
}
template <Real T>
Mat3<T> random_rotation(Rng& rng) {
  const Vec3d v = rng.in_ball(1);
  const Mat3d m = Mat3d::from_quat(Quat<double>::from_components(rng.uniform(-1, 1), v.x, v.y, v.z));
  return Mat3<T>::from_columns(to_t<T>(m.col[0]), to_t<T>(m.col[1]), to_t<T>(m.col[2]));
}
template <Real T>
Obb<T> random_box(Rng& rng, Vec3d center) {
  return {to_t<T>(center), to_t<T>({rng.uniform(0.05, 1.5), rng.uniform(0.05, 1.5), rng.uniform(0.05, 1.5)}),
          random_rotation<T>(rng)};
}
template <Real T>
Cylinder<T> random_cylinder(Rng& rng, Vec3d center) {
  const Vec3d half = rng.unit() * rng.uniform(0.05, 1.5);
  return {to_t<T>(center - half), to_t<T>(center + half), T(rng.uniform(0.1, 1.5))};
}
template <Real T>
Plane<T> random_plane(Rng& rng, Vec3d center) {
  const Vec3<T> n = normalize(to_t<T>(rng.unit()));
  return {n, dot(n, to_t<T>(center))};
}
template <Real T>
Triangle<T> random_triangle(Rng& rng, Vec3d center) {
  return {to_t<T>(center + rng.in_ball(1.5)), to_t<T>(center + rng.in_ball(1.5)), to_t<T>(center + rng.in_ball(1.5))};
}
/// An ellipse's points at sorted random angles: convex and planar.
template <Real T>
ConvexPolygon<T> random_polygon(Rng& rng, Vec3d center) {
  for (;;) {
    Vec3d e1, e2;
    orthonormal_basis(rng.unit(), e1, e2);
    const double r1 = rng.uniform(0.3, 1.5), r2 = rng.uniform(0.3, 1.5);
    const int n = 3 + static_cast<int>(rng.uniform(0, 6));
    std::vector<double> angles;
    for (int i = 0; i < n; ++i) angles.push_back(rng.uniform(0, 2 * kPi<double>));
    std::sort(angles.begin(), angles.end());
    std::vector<Vec3<T>> vertices;
    for (const double a : angles) vertices.push_back(to_t<T>(center + e1 * (r1 * std::cos(a)) + e2 * (r2 * std::sin(a))));
    Result<ConvexPolygon<T>> p = ConvexPolygon<T>::make(vertices);
    if (p.ok()) return std::move(p).value();
  }
}

template <Real T>
double size_of(const Sphere<T>& s) { return s.radius; }
template <Real T>
double size_of(const Capsule<T>& c) { return c.radius + 0.5 * length(c.b - c.a); }
template <Real T>
double size_of(const Obb<T>& b) { return max_component(b.half_extents); }
template <Real T>
double size_of(const Cylinder<T>& c) { return max(double(c.radius), 0.5 * length(to_double(c.b - c.a))); }
template <Real T>
double size_of(const Plane<T>&) { return 0; }
template <Real T>
double size_of(const Triangle<T>& t) {
  return 0.5 * std::max({length(to_double(t.v1 - t.v0)), length(to_double(t.v2 - t.v1)), length(to_double(t.v0 - t.v2))});
}
template <Real T>
double size_of(const ConvexPolygon<T>& p) {
  double d = 0;
  for (const Vec3<T>& v : p.vertices()) d = std::max(d, length(to_double(v - p.vertices()[0])));
  return d;
}

template <Real T, class Target>
SweepHit<T> cast(const Sphere<T>& m, Vec3<T> dir, T max_distance, const Target& target) {
  return sphere_cast(m, dir, max_distance, target);
}
template <Real T, class Target>
SweepHit<T> cast(const Capsule<T>& m, Vec3<T> dir, T max_distance, const Target& target) {
  return capsule_cast(m, dir, max_distance, target);
}
template <Real T>
std::string describe_moving(const Sphere<T>& s) {
  return describe(s);
}
template <Real T>
std::string describe_moving(const Capsule<T>& c) {
  return describe(c);
}

struct Observed {
  int cases = 0, hits = 0, misses = 0, started = 0, grazing = 0, failures = 0;
  double worst_gap = 0, worst_angle = 0, worst_depth = 0;
};

// ---- one case ---------------------------------------------------------------------------------

template <Real T, class Moving, class Target>
void check_case(const Moving& moving, Vec3<T> dir, T max_distance, const Target& target, double scale, Observed& o) {
  // A capsule's segment against a cylinder's rim is where GJK converges slowest (linearly, on a
  // curved support): its distance is good to about 1e-6 of the size and its direction to a few
  // 1e-3 radians (gjk_distance.hpp), which bounds what advancement can reach in either precision.
  constexpr bool segment_on_rim = std::is_same_v<Moving, Capsule<T>> && std::is_same_v<Target, Cylinder<T>>;
  const double angle_tolerance = segment_on_rim ? std::max(Tol<T>::angle, 3e-3) : Tol<T>::angle;
  ++o.cases;
  const SweepHit<T> k = cast(moving, dir, max_distance, target);
  const SweepProblem<decltype(target_of(target).core)> p{moving_of(moving), target_of(target), to_double(dir),
                                                          double(max_distance)};
  const ReferenceSweep r = solve(p);
  const double eps = (segment_on_rim ? std::max(Tol<T>::gap, 1e-6) : Tol<T>::gap) * scale;
  const double tol = ContactTolerance<T>{}.at_size(T(std::max(size_of(moving), size_of(target))));
  const auto context = [&] {
    return describe_moving(moving) + " dir " + reference::hex(dir) + " max " + std::to_string(double(max_distance)) +
           " target " + describe(target) + "\n  kernel hit " + std::to_string(k.hit) + " started " +
           std::to_string(k.started_in_contact) + " distance " + std::to_string(double(k.distance)) +
           "\n  reference hit " + std::to_string(r.hit) + " started " + std::to_string(r.started) + " s " +
           std::to_string(r.s) + " min gap " + std::to_string(r.min_gap) + " at " + std::to_string(r.min_s);
  };
  const auto fail = [&](const std::string& what) {
    if (++o.failures <= 5) ADD_FAILURE() << what << "\n  " << context();
  };
  if (k.hit) {
    if (!(std::abs(length(to_double(k.normal)) - 1) <= 1e-5)) fail("normal not unit");
  }
  const auto check_normal = [&](double s) {
    const Closest c = p.closest_at(s);
    if (c.distance <= 1e-3 * scale) return;  // the cores meet: the normal follows the kernels' rules
    const double angle = length(to_double(k.normal) - (c.on_moving - c.on_target) / c.distance);
    o.worst_angle = std::max(o.worst_angle, angle);
    if (!(angle <= angle_tolerance)) fail("normal off by " + std::to_string(angle));
  };

  if (r.started || k.started_in_contact) {
    ++o.started;
    if (r.started != k.started_in_contact) {
      // Allowed only within the tolerance band of touching.
      const double g0 = p.gap(0);
      if (!(g0 >= -eps && g0 <= tol + eps)) fail("start in contact disagrees");
      ++o.grazing;
      return;
    }
    if (!(k.distance == T(0) && k.depth >= T(0))) fail("start: distance 0 and depth >= 0");
    if (p.closest_at(0).distance > 1e-3 * scale) {
      const double depth_error = std::abs(double(k.depth) - std::max(0.0, -p.gap(0)));
      o.worst_depth = std::max(o.worst_depth, depth_error);
      if (!(depth_error <= eps + tol)) fail("start depth off by " + std::to_string(depth_error));
      check_normal(0);
    }
    return;
  }
  if (r.hit != k.hit) {
    ++o.grazing;
    const bool graze = std::abs(r.min_gap) <= tol + eps;
    const bool at_limit = r.hit && std::abs(r.s - double(max_distance)) <= eps;
    if (!graze && !at_limit) fail(k.hit ? "kernel hits, reference misses" : "kernel misses, reference hits");
    return;
  }
  if (!k.hit) {
    ++o.misses;
    return;
  }
  ++o.hits;
  // Limited to its own distance, the sweep still meets the target there: a BVH walk that passes
  // the best distance so far as the limit relies on it to find ties.
  const SweepHit<T> again = cast(moving, dir, k.distance, target);
  if (!(again.hit && again.distance == k.distance)) fail("limited to its own distance, the sweep misses");
  const double s = double(k.distance);
  const double gap = p.gap(s);
  o.worst_gap = std::max(o.worst_gap, std::max(-gap, gap - tol));
  if (!(gap >= -eps && gap <= tol + eps)) fail("gap at the kernel's distance " + std::to_string(gap));
  if (!(s <= r.min_s + eps)) fail("distance past the closest approach");
  check_normal(s);
  // The point: on the target, and touching M where M stopped.
  const double to_target = closest(SegmentD{to_double(k.point), to_double(k.point)}, p.target.core).distance - p.target.radius;
  const Vec3d o_s = p.direction * s;
  const double to_moving =
      closest(SegmentD{p.moving.core.a + o_s, p.moving.core.b + o_s}, to_double(k.point)).distance - p.moving.radius;
  if (!(std::abs(to_target) <= eps + tol && to_moving >= -eps - tol && to_moving <= tol + eps)) {
    fail("point off the contact: from target " + std::to_string(to_target) + ", from M " + std::to_string(to_moving));
  }
}

// ---- the driver -------------------------------------------------------------------------------

template <Real T, class MakeMoving, class MakeTarget>
void run(const char* name, std::uint32_t seed, int cases, MakeMoving make_moving, MakeTarget make_target) {
  Rng rng(seed);
  Observed o;
  for (int i = 0; i < cases; ++i) {
    const Vec3d center{rng.uniform(-2, 2), rng.uniform(-2, 2), rng.uniform(-2, 2)};
    const auto target = make_target(rng, center);
    const double target_size = std::max(size_of(target), 0.5);
    // Near the target (starts in contact, short sweeps) or some way off.
    const double away = rng.chance(0.15) ? rng.uniform(0, 1.5) * target_size : rng.uniform(2, 5) * target_size + 1;
    const Vec3d start = center + rng.unit() * away;
    const auto moving = make_moving(rng, start);
    // Mostly aimed at a point near the target's centre; sometimes anywhere.
    const Vec3d aim = center + rng.in_ball(1.2 * target_size);
    Vec3d dir = rng.chance(0.8) && length(aim - start) > 1e-3 ? (aim - start) / length(aim - start) : rng.unit();
    const Vec3<T> dir_t = normalize(to_t<T>(dir));
    const double reach = length(center - start) + target_size + size_of(moving);
    const T max_distance = T(rng.chance(0.3) ? rng.uniform(0.1, 1.0) * reach : 2 * reach);
    const double scale = std::max({size_of(moving), size_of(target), length(center - start), 1.0});
    check_case<T>(moving, dir_t, max_distance, target, scale, o);
  }
  std::printf("[%s %s] cases %d: hits %d, misses %d, started %d, boundary disagreements %d; worst gap beyond "
              "[0, tol] %.2e, normal %.2e, depth %.2e\n",
              name, std::is_same_v<T, float> ? "float" : "double", o.cases, o.hits, o.misses, o.started, o.grazing,
              o.worst_gap, o.worst_angle, o.worst_depth);
  EXPECT_EQ(o.failures, 0) << name;
  EXPECT_GT(o.hits, cases / 5) << name << ": the generator should aim most sweeps at the target";
  EXPECT_LE(o.grazing, cases / 50) << name;
}

constexpr int kCases = 2000;

template <Real T>
auto sphere_maker() {
  return [](Rng& rng, Vec3d c) { return Sphere<T>{to_t<T>(c), T(rng.uniform(0.05, 1.0))}; };
}
template <Real T>
auto capsule_maker() {
  return [](Rng& rng, Vec3d c) { return random_capsule<T>(rng, c, 0.05); };
}

#define HITSCAN_SWEEP_RANDOM_PAIR(Test, Moving, Target, Seed)                                                 \
  TYPED_TEST(SweepRandom, Test) {                                                                             \
    using T = TypeParam;                                                                                      \
    run<T>(#Test, Seed, kCases, Moving<T>(), [](Rng& rng, Vec3d c) { return Target<T>(rng, c); });            \
  }

template <Real T>
Capsule<T> random_capsule_target(Rng& rng, Vec3d c) {
  return random_capsule<T>(rng, c, 0.05);
}

HITSCAN_SWEEP_RANDOM_PAIR(SphereCastSphereMatchesReference, sphere_maker, random_sphere, 101)
HITSCAN_SWEEP_RANDOM_PAIR(SphereCastCapsuleMatchesReference, sphere_maker, random_capsule_target, 102)
HITSCAN_SWEEP_RANDOM_PAIR(SphereCastBoxMatchesReference, sphere_maker, random_box, 103)
HITSCAN_SWEEP_RANDOM_PAIR(SphereCastCylinderMatchesReference, sphere_maker, random_cylinder, 104)
HITSCAN_SWEEP_RANDOM_PAIR(SphereCastPlaneMatchesReference, sphere_maker, random_plane, 105)
HITSCAN_SWEEP_RANDOM_PAIR(SphereCastTriangleMatchesReference, sphere_maker, random_triangle, 106)
HITSCAN_SWEEP_RANDOM_PAIR(SphereCastPolygonMatchesReference, sphere_maker, random_polygon, 107)
HITSCAN_SWEEP_RANDOM_PAIR(CapsuleCastSphereMatchesReference, capsule_maker, random_sphere, 201)
HITSCAN_SWEEP_RANDOM_PAIR(CapsuleCastCapsuleMatchesReference, capsule_maker, random_capsule_target, 202)
HITSCAN_SWEEP_RANDOM_PAIR(CapsuleCastBoxMatchesReference, capsule_maker, random_box, 203)
HITSCAN_SWEEP_RANDOM_PAIR(CapsuleCastCylinderMatchesReference, capsule_maker, random_cylinder, 204)
HITSCAN_SWEEP_RANDOM_PAIR(CapsuleCastPlaneMatchesReference, capsule_maker, random_plane, 205)
HITSCAN_SWEEP_RANDOM_PAIR(CapsuleCastTriangleMatchesReference, capsule_maker, random_triangle, 206)
HITSCAN_SWEEP_RANDOM_PAIR(CapsuleCastPolygonMatchesReference, capsule_maker, random_polygon, 207)

#undef HITSCAN_SWEEP_RANDOM_PAIR

}  // namespace
}  // namespace hitscan
