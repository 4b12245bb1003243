// The SIMD kernel for one sphere against packs of oriented boxes, compared lane by lane with the
// scalar two-stage test on seeded random input. Both compute the same operations in the same
// order, so every lane must agree exactly, also for radii one float apart at the decision boundary.

#include "hitscan/geometry/contact_box_pack.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "geometry/reference_contacts.hpp"

namespace hitscan {
namespace {

using namespace contact_reference;

template <class F>
class ContactBoxPack : public ::testing::Test {};
using PackTypes = ::testing::Types<simd::Float4, simd::Float8>;
struct PackNames {
  template <class F>
  static std::string GetName(int) {
    return F::width == 4 ? "Float4" : "Float8";
  }
};
TYPED_TEST_SUITE(ContactBoxPack, PackTypes, PackNames);

/// Random boxes around the origin, some flat, some with a drifted rotation (which CachedObb
/// repairs), a few invalid (negative or NaN half extents).
std::vector<CachedObb<float>> random_boxes(Rng& rng, int count) {
  std::vector<CachedObb<float>> boxes;
  for (int i = 0; i < count; ++i) {
    Obb<float> box = obb_of<float>(rng.box(rng.in_cube(10), 0.05, 3, 0.1));
    if (rng.chance(0.2)) {
      for (Vec3f& axis : box.rotation.col) axis = axis * float(rng.uniform(0.95, 1.05)) + from_double<float>(rng.in_cube(0.02));
    }
    if (rng.chance(0.02)) box.half_extents.y = rng.chance(0.5) ? -1.0f : std::numeric_limits<float>::quiet_NaN();
    boxes.push_back(CachedObb<float>::from_obb(box));
  }
  return boxes;
}

/// A sphere around the box: against its surface within a few tolerances, at its bounding sphere,
/// or anywhere near it.
Sphere<float> sphere_near(Rng& rng, const CachedObb<float>& target) {
  Box ref = box_of(target.box);
  ref.half = {std::max(ref.half.x, 0.0), std::isnan(ref.half.y) ? 1.0 : std::max(ref.half.y, 0.0), std::max(ref.half.z, 0.0)};
  const double r = rng.chance(0.05) ? 0.0 : rng.log_uniform(0.01, 3);
  const double tolerance = ContactTolerance<float>{}.at_size(float(std::max(r, ref.size())));
  const double pick = rng.uniform();
  Vec3d c;
  if (pick < 0.4) {
    const PointBox p = point_vs_box(ref, ref.center + rng.in_cube(2 * ref.size() + r));
    c = p.nearest + p.normal * (r + rng.uniform(-2, 2) * tolerance);
  } else if (pick < 0.6) {
    c = ref.center + rng.unit_vector() * ((length(ref.half) + r + tolerance) * (1 + rng.uniform(-1e-6, 1e-6)));
  } else {
    c = ref.center + rng.in_cube(2 * ref.size() + 2 * r);
  }
  return {from_double<float>(c), float(r)};
}

/// The radius, one float either side of which the scalar test flips from apart to touching.
float boundary_radius(Sphere<float> sphere, const CachedObb<float>& box, bool touching_side) {
  float apart = 0, touching = 1e4f;
  sphere.radius = apart;
  if (overlap(sphere, box)) return sphere.radius;
  while (std::nextafter(apart, touching) != touching) {
    sphere.radius = apart + (touching - apart) * 0.5f;
    (overlap(sphere, box) ? touching : apart) = sphere.radius;
  }
  return touching_side ? touching : apart;
}

TYPED_TEST(ContactBoxPack, LanesMatchTheScalarTwoStageTest) {
  using F = TypeParam;
  constexpr int W = F::width;
  Rng rng(0x9ac4u + W);
  int touching = 0, target_touching = 0, targets = 0;
  for (int iteration = 0; iteration < 4000; ++iteration) {
    const int count = rng.chance(0.2) ? 1 + static_cast<int>(rng.uniform(0, W - 0.001)) : W;
    const std::vector<CachedObb<float>> boxes = random_boxes(rng, count);
    ObbPack<F> pack;
    ASSERT_EQ(pack_obbs(std::span<const CachedObb<float>>(boxes), std::span<ObbPack<F>>(&pack, 1)), 1u);
    for (int k = 0; k < 8; ++k) {
      const CachedObb<float>& target = boxes[k % count];
      Sphere<float> sphere = sphere_near(rng, target);
      if (k >= 6) sphere.radius = boundary_radius(sphere, target, k == 7);
      const int lanes = bits(overlap_sphere_obbs(pack, sphere));
      for (int lane = 0; lane < W; ++lane) {
        const bool expected = lane < count && overlap(sphere, boxes[lane]);
        ASSERT_EQ(((lanes >> lane) & 1) != 0, expected) << "iteration " << iteration << " sphere " << k << " lane " << lane;
        if (lane < count) {
          ASSERT_EQ(expected, overlap(sphere, boxes[lane].box)) << "iteration " << iteration << " lane " << lane;
        }
        touching += expected;
        if (lane == k % count) target_touching += expected, ++targets;
      }
    }
  }
  // The spheres are placed against one box each: about half of those touch.
  EXPECT_GT(target_touching, targets / 4);
  EXPECT_LT(target_touching, targets * 3 / 4);
  EXPECT_GT(touching, target_touching);
}

TYPED_TEST(ContactBoxPack, SpanQueryReturnsTheTouchingIndicesInOrder) {
  using F = TypeParam;
  Rng rng(0x5ba4u);
  const std::vector<CachedObb<float>> boxes = random_boxes(rng, 1001);
  std::vector<ObbPack<F>> packs(obb_pack_count<F>(boxes.size()));
  ASSERT_EQ(pack_obbs(std::span<const CachedObb<float>>(boxes), std::span<ObbPack<F>>(packs)), packs.size());
  std::vector<std::uint32_t> found(boxes.size());
  std::size_t total = 0;
  for (int i = 0; i < 300; ++i) {
    const Sphere<float> sphere{from_double<float>(rng.in_cube(10)), float(rng.log_uniform(0.1, 6))};
    std::vector<std::uint32_t> expected;
    for (std::size_t b = 0; b < boxes.size(); ++b)
      if (overlap(sphere, boxes[b])) expected.push_back(static_cast<std::uint32_t>(b));
    const std::size_t count = overlap_sphere_obbs(std::span<const ObbPack<F>>(packs), sphere, std::span<std::uint32_t>(found));
    ASSERT_EQ(std::vector<std::uint32_t>(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(count)), expected) << i;
    total += count;
    // A buffer too small still gets the full count, and the first indices.
    std::uint32_t few[2] = {~0u, ~0u};
    ASSERT_EQ(overlap_sphere_obbs(std::span<const ObbPack<F>>(packs), sphere, std::span<std::uint32_t>(few)), count);
    for (std::size_t j = 0; j < 2 && j < count; ++j) ASSERT_EQ(few[j], expected[j]);
  }
  EXPECT_GT(total, 1000u);
}

TYPED_TEST(ContactBoxPack, PackLayoutAndUnusedLanes) {
  using F = TypeParam;
  constexpr int W = F::width;
  const std::vector<CachedObb<float>> boxes = {
      CachedObb<float>::from_obb({{1, 2, 3}, {1, 2, 3}, {}}),
      CachedObb<float>::from_obb(Obb<float>::from_quat({-5, 0, 0}, {1, 1, 0}, Quatf::from_axis_angle({0, 0, 1}, 0.5f))),
      CachedObb<float>::from_obb({{0, 9, 0}, {0, 0, 0}, {}}),
  };
  std::vector<ObbPack<F>> packs(obb_pack_count<F>(boxes.size()));
  ASSERT_EQ(packs.size(), 1u);
  ASSERT_EQ(pack_obbs(std::span<const CachedObb<float>>(boxes), std::span<ObbPack<F>>(packs)), 1u);
  const ObbPack<F>& pack = packs[0];
  for (int lane = 0; lane < 3; ++lane) {
    const Obb<float>& box = boxes[lane].box;
    EXPECT_EQ(pack.center_x[lane], box.center.x);
    EXPECT_EQ(pack.half_z[lane], box.half_extents.z);
    EXPECT_EQ(pack.axes[3][lane], box.rotation.col[1].x);
    EXPECT_EQ(pack.axes[8][lane], box.rotation.col[2].z);
    EXPECT_EQ(pack.circumradius[lane], boxes[lane].circumradius);
  }
  // A sphere that holds everything touches the three boxes and no unused lane.
  EXPECT_EQ(bits(overlap_sphere_obbs(pack, Sphere<float>{{0, 0, 0}, 1e6f})), 0b111);
  EXPECT_EQ(bits(overlap_sphere_obbs(pack, Sphere<float>{{0, 9, 0}, 0})), 0b100);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(bits(overlap_sphere_obbs(pack, Sphere<float>{{0, 0, 0}, nan})), 0);
  EXPECT_EQ(bits(overlap_sphere_obbs(pack, Sphere<float>{{0, 0, 0}, -1})), 0);
  EXPECT_EQ(bits(overlap_sphere_obbs(pack, Sphere<float>{{nan, 0, 0}, 1e6f})), 0);
  static_assert(W == 4 || W == 8);
}

}  // namespace
}  // namespace hitscan
