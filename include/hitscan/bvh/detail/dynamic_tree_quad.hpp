#pragma once
/// The query layout of DynamicTree: for every inner node, a QuadNode holding the boxes of its
/// grandchildren (a child that is a leaf stands in for its missing grandchildren) side by side,
/// structure-of-arrays, so that one 4-wide SIMD test covers two levels of the binary tree. A walk
/// from the root's quad through the quads of inner grandchildren visits half the levels and
/// fetches one 128-byte node per step instead of two 48-byte binary nodes per level. The binary
/// tree stays the one that insert, remove and move edit; each edit rewrites only the quads whose
/// grandchildren changed (DynamicTree::sync_quads), so the mirror costs O(height) per edit, like
/// the edit itself. Collapsing a binary tree into a 4-wide one by levels is the layout of
/// Dammertz et al., "Shallow Bounding Volume Hierarchies for Fast SIMD Ray Tracing" (2008).
///
/// The lane tests below repeat the scalar tests (ray_enters_box through clip_to_slab,
/// Aabb::overlaps) operation for operation (same operands, same order of rounding, NaN dropped by
/// the same operand order), so a lane answers bit for bit what the scalar test answers for its box.

#include <cstdint>

#include "hitscan/geometry/ray_aabb.hpp"
#include "hitscan/math/aabb.hpp"
#include "hitscan/math/simd.hpp"

namespace hitscan::bvh::detail {

/// Set in QuadNode::child for a leaf entry, whose other bits are its proxy id.
inline constexpr std::uint32_t kQuadLeaf = 0x80000000u;

/// Up to four boxes of one quad; unused lanes hold the empty box (min +inf, max -inf), which no
/// ray, box or point test reports... except the distance test, which the lane mask excludes.
struct alignas(64) QuadNode {
  /// Rows min x, min y, min z, max x, max y, max z; one lane per entry.
  float bounds[6][4];
  /// A leaf entry: its proxy id | kQuadLeaf. An inner entry: the index of its own QuadNode.
  std::uint32_t child[4];
  /// Lanes at or beyond `count` are unused.
  std::uint32_t count = 0;

  /// The lanes in use, as bits.
  unsigned lanes() const { return (1u << count) - 1u; }

  /// Puts `box` in lane `lane`.
  void set_lane(int lane, const Aabbf& box, std::uint32_t reference) {
    for (int axis = 0; axis < 3; ++axis) {
      bounds[axis][lane] = box.min[axis];
      bounds[3 + axis][lane] = box.max[axis];
    }
    child[lane] = reference;
  }
};

/// A ray (or a box swept along it, when grown) prepared for the quad test: per axis the rows of
/// the near and far planes, and what is added to them (the sweep's half extents, signed).
struct QuadRay {
  simd::Float4 origin[3], inv_dir[3], inv_far[3], near_pad[3], far_pad[3];
  int near_row[3], far_row[3];
  float tmin;

  static QuadRay from(const RayInverse<float>& ray, Vec3f half_extents) {
    QuadRay r;
    for (int i = 0; i < 3; ++i) {
      r.origin[i] = simd::Float4(ray.origin[i]);
      r.inv_dir[i] = simd::Float4(ray.inv_dir[i]);
      r.inv_far[i] = simd::Float4(ray.inv_far[i]);
      r.near_row[i] = ray.sign[i] ? 3 + i : i;
      r.far_row[i] = ray.sign[i] ? i : 3 + i;
      r.near_pad[i] = simd::Float4(ray.sign[i] ? half_extents[i] : -half_extents[i]);
      r.far_pad[i] = simd::Float4(ray.sign[i] ? -half_extents[i] : half_extents[i]);
    }
    r.tmin = ray.tmin;
    return r;
  }
};

/// ray_enters_box on the four lanes (grown by the pads when kGrown): bit i of the result is set
/// when the ray enters lane i's box within [tmin, tmax], with its entry parameter in t_enter[i].
template <bool kGrown>
inline unsigned ray_enters_quad(const QuadNode& q, const QuadRay& ray, float tmax, float* t_enter) {
  using F = simd::Float4;
  F t0(ray.tmin), t1(tmax);
  for (int i = 0; i < 3; ++i) {
    F near_side = F::load(q.bounds[ray.near_row[i]]);
    F far_side = F::load(q.bounds[ray.far_row[i]]);
    if constexpr (kGrown) {
      near_side = near_side + ray.near_pad[i];
      far_side = far_side + ray.far_pad[i];
    }
    clip_to_slab(near_side, far_side, ray.origin[i], ray.inv_dir[i], ray.inv_far[i], t0, t1);
  }
  t0.store(t_enter);
  return static_cast<unsigned>(bits(t0 <= t1));
}

/// Aabb::overlaps on the four lanes (touching counts).
inline unsigned quad_overlaps(const QuadNode& q, const Aabbf& box) {
  using F = simd::Float4;
  simd::Mask4 m = ~simd::Mask4();
  for (int i = 0; i < 3; ++i) {
    m = m & (F::load(q.bounds[i]) <= F(box.max[i])) & (F(box.min[i]) <= F::load(q.bounds[3 + i]));
  }
  return static_cast<unsigned>(bits(m));
}

/// distance_squared on the four lanes: the squared distance from p to each box (0 inside).
inline simd::Float4 quad_distance_squared(const QuadNode& q, Vec3f p) {
  using F = simd::Float4;
  F d[3];
  for (int i = 0; i < 3; ++i) {
    const F below = F::load(q.bounds[i]) - F(p[i]), above = F(p[i]) - F::load(q.bounds[3 + i]);
    // The scalar max(a, b) is simd max(b, a), ties and NaN included.
    d[i] = max(F(), max(above, below));
  }
  return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

}  // namespace hitscan::bvh::detail
