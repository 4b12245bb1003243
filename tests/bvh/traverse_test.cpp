#include "hitscan/bvh/detail/traverse.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>

namespace hitscan::bvh {
namespace {

Vec3f box_centre(const WideNode& node) {
  alignas(32) float l[6][kWideWidth];
  node.bounds.min_x.store(l[0]), node.bounds.min_y.store(l[1]), node.bounds.min_z.store(l[2]);
  node.bounds.max_x.store(l[3]), node.bounds.max_y.store(l[4]), node.bounds.max_z.store(l[5]);
  return {0.5f * (l[0][0] + l[3][0]), 0.5f * (l[1][0] + l[4][0]), 0.5f * (l[2][0] + l[5][0])};
}

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


// A node of random boxes inside [-1, 1]^3, some snapped to shared planes (so that rays graze them),
// the rest of its slots empty.
WideNode random_node(std::mt19937& rng, int used) {
  std::uniform_real_distribution<float> coordinate(-1.0f, 1.0f);
  std::uniform_int_distribution<int> snap(0, 3);
  alignas(32) float planes[6][kWideWidth];
  for (int i = 0; i < kWideWidth; ++i) {
    for (int a = 0; a < 3; ++a) {
      float lo = coordinate(rng), hi = coordinate(rng);
      if (lo > hi) std::swap(lo, hi);
      if (snap(rng) == 0) lo = -0.5f;  // a plane many boxes and rays share
      if (snap(rng) == 0) hi = 0.5f;
      planes[a][i] = i < used ? lo : kInfinity<float>;
      planes[3 + a][i] = i < used ? hi : -kInfinity<float>;
    }
  }
  using F = simd::Float8;
  WideNode node{};
  node.bounds = {F::load(planes[0]), F::load(planes[1]), F::load(planes[2]),
                 F::load(planes[3]), F::load(planes[4]), F::load(planes[5])};
  return node;
}

// The gate before a walk may let through a ray that enters no child, but must never stop one
// that enters some child by ray_vs_node: random rays from outside and inside, axis-parallel ones
// with signed zero components, rays in the shared planes, bounded and unbounded.
TEST(RootBox, NeverStopsARayThatEntersAChild) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> uniform(-3.0f, 3.0f);
  std::uniform_int_distribution<int> kind(0, 5), used(1, kWideWidth);
  const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f};
  int entered = 0, stopped = 0;
  for (int n = 0; n < 20000; ++n) {
    const WideNode node = random_node(rng, used(rng));
    const RootBox box = RootBox::of(node);
    Vec3f origin{uniform(rng), uniform(rng), uniform(rng)}, dir{uniform(rng), uniform(rng), uniform(rng)};
    const int k = kind(rng);
    if (k == 0) dir[n % 3] = specials[n % 4], dir[(n + 1) % 3] = specials[(n / 4) % 4];  // signed zeros
    if (k == 1) origin[n % 3] = (n & 1) ? 0.5f : -0.5f, dir[n % 3] = (n & 2) ? 0.0f : -0.0f;  // in a plane
    if (k == 2) dir = box_centre(node) - origin;  // towards the boxes
    if (dir == Vec3f{}) continue;
    const float tmax = (n & 4) ? kInfinity<float> : uniform(rng) + 3.0f;
    const Rayf ray{origin, dir, 0.0f, tmax};
    const bool some = bits(ray_vs_node(node, NodeRay::from_ray(ray), cull_limit(tmax)).hit) != 0;
    const bool may = ray_may_enter(box, ray, tmax);
    ASSERT_TRUE(may || !some) << "ray " << n << " enters a child but is stopped";
    entered += some ? 1 : 0;
    stopped += may ? 0 : 1;
  }
  // Both outcomes occur often enough for the assertion to mean something.
  EXPECT_GT(entered, 3000);
  EXPECT_GT(stopped, 2000);
}

// Hand-worked: the union of two unit boxes [0, 1]^3 and [2, 3] x [0, 1] x [0, 1] is [0, 3] x
// [0, 1] x [0, 1]. A ray along +x in its y = 1 face (a zero y component: 0 * inf) enters; one a
// hair above does not; one pointing away does not; one that stops before the box does not; one
// from inside is let through whatever its direction and limit.
TEST(RootBox, UnionOfTheChildrenAndItsGate) {
  alignas(32) float planes[6][kWideWidth];
  for (int i = 0; i < kWideWidth; ++i) {
    const bool used = i < 2;
    planes[0][i] = used ? 2.0f * float(i) : kInfinity<float>, planes[3][i] = used ? 2.0f * float(i) + 1.0f : -kInfinity<float>;
    planes[1][i] = used ? 0.0f : kInfinity<float>, planes[4][i] = used ? 1.0f : -kInfinity<float>;
    planes[2][i] = used ? 0.0f : kInfinity<float>, planes[5][i] = used ? 1.0f : -kInfinity<float>;
  }
  using F = simd::Float8;
  WideNode node{};
  node.bounds = {F::load(planes[0]), F::load(planes[1]), F::load(planes[2]),
                 F::load(planes[3]), F::load(planes[4]), F::load(planes[5])};
  const RootBox box = RootBox::of(node);
  alignas(16) float lo[4], hi[4];
  box.lo.store(lo), box.hi.store(hi);
  const float lo_expected[4] = {0.0f, 0.0f, 0.0f, -kInfinity<float>};
  const float hi_expected[4] = {3.0f, 1.0f, 1.0f, kInfinity<float>};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(lo[i], lo_expected[i]) << "lane " << i;
    EXPECT_EQ(hi[i], hi_expected[i]) << "lane " << i;
  }
  const float inf = kInfinity<float>;
  EXPECT_TRUE(ray_may_enter(box, Rayf{{-5.0f, 1.0f, 0.5f}, {1.0f, 0.0f, 0.0f}, 0.0f, inf}, inf));
  EXPECT_TRUE(ray_may_enter(box, Rayf{{-5.0f, 1.0f, 0.5f}, {1.0f, -0.0f, 0.0f}, 0.0f, inf}, inf));
  EXPECT_FALSE(ray_may_enter(box, Rayf{{-5.0f, 1.001f, 0.5f}, {1.0f, 0.0f, 0.0f}, 0.0f, inf}, inf));
  EXPECT_FALSE(ray_may_enter(box, Rayf{{-5.0f, 0.5f, 0.5f}, {-1.0f, 0.0f, 0.0f}, 0.0f, inf}, inf));
  EXPECT_FALSE(ray_may_enter(box, Rayf{{-5.0f, 0.5f, 0.5f}, {1.0f, 0.0f, 0.0f}, 0.0f, 4.0f}, 4.0f));
  EXPECT_TRUE(ray_may_enter(box, Rayf{{-5.0f, 0.5f, 0.5f}, {1.0f, 0.0f, 0.0f}, 0.0f, 5.0f}, 5.0f));
  EXPECT_TRUE(ray_may_enter(box, Rayf{{1.5f, 0.5f, 0.5f}, {0.0f, -1.0f, 0.0f}, 0.0f, 1e-6f}, 1e-6f));
  // The same verdicts as the children's own test.
  const Rayf grazing{{-5.0f, 1.0f, 0.5f}, {1.0f, -0.0f, 0.0f}, 0.0f, inf};
  EXPECT_EQ(bits(ray_vs_node(node, NodeRay::from_ray(grazing), inf).hit), 0b11);
}

}  // namespace
}  // namespace hitscan::bvh
