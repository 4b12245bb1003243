#include "hitscan/bvh/detail/traverse.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

namespace hitscan::bvh {
namespace {

float lane(const simd::Float8& v, int i) {
  alignas(32) float l[kWideWidth];
  v.store(l);
  return l[i];
}

// The plane a ray enters a node's boxes through along `axis`: the max planes when the direction's
// sign bit is set (-0 included), by the offsets of AabbPack's fields.
std::uint32_t near_plane_reference(float dir, int axis) {
  const std::uint32_t field = std::signbit(dir) ? 3 + axis : axis;
  return field * static_cast<std::uint32_t>(sizeof(simd::Float8));
}

TEST(NodeRay, InversesAreTheScalarDivisionsAndOffsetsFollowTheSignBitsZerosIncluded) {
  constexpr float kGamma3 = 3.0f * (kEpsilon<float> * 0.5f) / (1.0f - 3.0f * (kEpsilon<float> * 0.5f));
  const float specials[] = {0.0f, -0.0f, 1e-30f, -1e-30f, 1e30f, -1e30f, 1.0f, -1.0f};
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-2.0f, 2.0f);
  std::uniform_int_distribution<int> pick(0, 2 * int(std::size(specials)) - 1);
  int checked = 0;
  for (int n = 0; n < 4000; ++n) {
    float d[3];
    for (float& c : d) {
      const int k = pick(rng);
      c = k < int(std::size(specials)) ? specials[k] : uniform(rng);
    }
    if (d[0] == 0 && d[1] == 0 && d[2] == 0) continue;  // not a valid ray
    const Rayf ray{{0.5f, -1.0f, 2.0f}, {d[0], d[1], d[2]}, 0.0f, 10.0f};
    const NodeRay r = NodeRay::from_ray(ray);
    for (int axis = 0; axis < 3; ++axis) {
      const float inv = 1.0f / d[axis];
      const float inv_far = inv * (1.0f + 2.0f * kGamma3);
      for (int i = 0; i < kWideWidth; ++i) {
        ASSERT_EQ(std::bit_cast<std::uint32_t>(lane(r.inv_near[axis], i)), std::bit_cast<std::uint32_t>(inv));
        ASSERT_EQ(std::bit_cast<std::uint32_t>(lane(r.inv_far[axis], i)), std::bit_cast<std::uint32_t>(inv_far));
      }
      const std::uint32_t near = near_plane_reference(d[axis], axis);
      const std::uint32_t far = near_plane_reference(-d[axis], axis);  // the opposite field
      EXPECT_EQ(r.planes->near[axis], near) << "axis " << axis << " dir " << d[axis];
      EXPECT_EQ(r.planes->far[axis], far) << "axis " << axis << " dir " << d[axis];
    }
    ++checked;
  }
  EXPECT_GT(checked, 3900);
}

// A ray along +x whose y component is -0, starting in the plane of the boxes' max y face: 0 * inf
// is NaN there, which the node test must read as inside the slab, so the grazed box is entered,
// and a box the ray passes beside is not.
TEST(NodeRay, RayInTheFaceOfAParallelSlabWithANegativeZeroEntersTheBox) {
  WideNode node{};
  alignas(32) float planes[6][kWideWidth];
  for (int i = 0; i < kWideWidth; ++i) {
    // Lane 0: [1, 2] x [-1, 0] x [-1, 1], grazed along its max y face; lane 1: the same box
    // lifted to y in [0.5, 1], beside the ray; the rest empty (min above max).
    const bool grazed = i == 0, beside = i == 1;
    planes[0][i] = 1.0f, planes[3][i] = grazed || beside ? 2.0f : -1.0f;
    planes[1][i] = grazed ? -1.0f : 0.5f, planes[4][i] = grazed ? 0.0f : 1.0f;
    planes[2][i] = -1.0f, planes[5][i] = 1.0f;
  }
  using F = simd::Float8;
  node.bounds = {F::load(planes[0]), F::load(planes[1]), F::load(planes[2]),
                 F::load(planes[3]), F::load(planes[4]), F::load(planes[5])};
  const Rayf ray{{0.0f, 0.0f, 0.0f}, {1.0f, -0.0f, 0.0f}, 0.0f, 10.0f};
  const PackHit<F> hit = ray_vs_node(node, NodeRay::from_ray(ray), ray.tmax);
  const int mask = bits(hit.hit);
  EXPECT_EQ(mask, 0b01);
  EXPECT_FLOAT_EQ(lane(hit.t, 0), 1.0f);
}

}  // namespace
}  // namespace hitscan::bvh
