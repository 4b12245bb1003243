// ray_vs_transformed against independent references: a scaled sphere is an ellipsoid, solved
// here in double as a quadratic in world space; a rotated, translated, uniformly scaled box is
// an Obb, hit by ray_vs_obb.

#include <gtest/gtest.h>

#include <random>

#include "hitscan/geometry/ray_aabb.hpp"
#include "hitscan/geometry/ray_obb.hpp"
#include "hitscan/geometry/ray_sphere.hpp"
#include "hitscan/geometry/ray_transformed.hpp"

namespace hitscan {
namespace {

// Entry t of the ray into the ellipsoid sum((q_i / s_i)^2) <= 1, q = Rᵀ (x - c), in double.
// Returns -1 when the line misses or the entry is behind tmin (started-inside rays excluded).
double ellipsoid_entry(const Transformd& tr, const Rayd& ray) {
  const Vec3d o = tr.rotation.inverse_rotate(ray.origin - tr.translation);
  const Vec3d d = tr.rotation.inverse_rotate(ray.dir);
  const Vec3d os = div(o, tr.scale), ds = div(d, tr.scale);
  const double a = dot(ds, ds), b = 2 * dot(os, ds), c = dot(os, os) - 1;
  const double disc = b * b - 4 * a * c;
  if (disc < 0) return -1;
  const double t0 = (-b - std::sqrt(disc)) / (2 * a);
  return (t0 >= ray.tmin && t0 <= ray.tmax) ? t0 : -1;
}

TEST(RayTransformed, NonUniformlyScaledSphereIsTheEllipsoid) {
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> u(-1, 1);
  int hits = 0, compared = 0;
  for (int i = 0; i < 100000; ++i) {
    Transformd tr;
    tr.rotation = Quatd::from_components(u(gen), u(gen), u(gen), u(gen));
    tr.translation = {u(gen) * 5, u(gen) * 5, u(gen) * 5};
    tr.scale = {0.2 + std::abs(u(gen)) * 3, 0.2 + std::abs(u(gen)) * 3, 0.2 + std::abs(u(gen)) * 3};
    const Vec3d origin = tr.translation + Vec3d{u(gen), u(gen), u(gen)} * 8.0;
    const Vec3d target = tr.translation + Vec3d{u(gen), u(gen), u(gen)} * 2.0;
    const Rayd ray{origin, (target - origin) * (0.1 + std::abs(u(gen)) * 3), 0, kInfinity<double>};
    const Vec3d local_origin = tr.inverse_point(origin);
    if (length(local_origin) < 1.0 + 1e-9) continue;  // starts inside: covered below
    const double expected = ellipsoid_entry(tr, ray);
    const RayHitd hit = ray_vs_transformed(Sphere<double>{{0, 0, 0}, 1}, tr, ray,
                                           [](const Sphere<double>& s, const Rayd& r) { return ray_vs_sphere(s, r); });
    ++compared;
    ASSERT_EQ(hit.hit, expected >= 0) << "ray " << i;
    if (!hit.hit) continue;
    ++hits;
    EXPECT_NEAR(hit.t, expected, 1e-9 * (1 + expected));
    // The normal is the gradient of the implicit function, R S⁻² q, normalised.
    const Vec3d q = tr.inverse_point(hit.point);
    const Vec3d gradient = normalize(tr.rotation.rotate(div(q, tr.scale)));
    EXPECT_GT(dot(hit.normal, gradient), 1 - 1e-9) << "ray " << i;
    EXPECT_NEAR(length(hit.normal), 1.0, 1e-12);
  }
  EXPECT_GT(hits, compared / 5);
}

TEST(RayTransformed, RotatedTranslatedScaledBoxMatchesObb) {
  std::mt19937 gen(12);
  std::uniform_real_distribution<float> u(-1, 1);
  for (int i = 0; i < 100000; ++i) {
    Transformf tr;
    tr.rotation = Quatf::from_euler({u(gen) * 3, u(gen) * 3, u(gen) * 3});
    tr.translation = {u(gen) * 5, u(gen) * 5, u(gen) * 5};
    const float s = 0.5f + std::abs(u(gen)) * 2;
    tr.scale = {s, s, s};
    const Aabbf unit{{-1, -0.5f, -2}, {1, 0.5f, 2}};
    const Obbf obb = Obbf::from_quat(tr.translation, unit.max * s, tr.rotation);
    const Rayf ray{tr.translation + Vec3f{u(gen), u(gen), u(gen)} * 9.0f, {u(gen), u(gen), u(gen)}, 0, 40};
    const RayHitf a = ray_vs_transformed(unit, tr, ray, [](const Aabbf& b, const Rayf& r) { return ray_vs_aabb(b, r); });
    const RayHitf b = ray_vs_obb(obb, ray);
    ASSERT_EQ(a.hit, b.hit) << "ray " << i;
    if (!a.hit) continue;
    EXPECT_NEAR(a.t, b.t, 1e-4f * (1 + b.t));
    EXPECT_EQ(a.started_inside(), b.started_inside());
    EXPECT_GT(dot(a.normal, b.normal), 0.9999f);
  }
}

TEST(RayTransformed, StartedInsideKeepsWorldConvention) {
  Transformf tr;
  tr.scale = {3, 1, 1};
  const Rayf ray{{2, 0, 0}, {0, 0, 5}};
  const RayHitf hit = ray_vs_transformed(Spheref{{0, 0, 0}, 1}, tr, ray,
                                         [](const Spheref& s, const Rayf& r) { return ray_vs_sphere(s, r); });
  ASSERT_TRUE(hit.hit);
  EXPECT_TRUE(hit.started_inside());
  EXPECT_EQ(hit.t, 0.0f);
  EXPECT_EQ(hit.normal, (Vec3f{0, 0, -1}));
  // Exit where (2/3)^2 + (5t)^2 = 1.
  EXPECT_NEAR(hit.t_exit, std::sqrt(1.0 - 4.0 / 9.0) / 5.0, 1e-6);
}

TEST(RayTransformed, SingularTransformMisses) {
  Transformf tr;
  tr.scale = {1, 0, 1};
  const RayHitf hit = ray_vs_transformed(Spheref{{0, 0, 0}, 1}, tr, Rayf{{0, 0, -5}, {0, 0, 1}},
                                         [](const Spheref& s, const Rayf& r) { return ray_vs_sphere(s, r); });
  EXPECT_FALSE(hit.hit);
  tr.scale = {1, NAN, 1};
  EXPECT_FALSE(ray_vs_transformed(Spheref{{0, 0, 0}, 1}, tr, Rayf{{0, 0, -5}, {0, 0, 1}},
                                  [](const Spheref& s, const Rayf& r) { return ray_vs_sphere(s, r); })
                   .hit);
}

}  // namespace
}  // namespace hitscan
