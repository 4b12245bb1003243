#pragma once
/// Ray traversal of the 8-wide BVH, templated on what a leaf does with the ray.

#include <bit>

#include "hitscan/bvh/wide_bvh.hpp"

namespace hitscan::bvh {

/// The slab test of one ray against the 8 boxes of a node, made conservative in the manner of
/// Ize ("Robust BVH Ray Traversal", JCGT 2013) and pbrt: every far distance is enlarged by
/// 2 gamma(3), the bound on the rounding of (side - origin) * inv_dir, so that a ray grazing a box
/// face, which the watertight triangle test would hit, is never culled by the box.
inline PackHit<simd::Float8> ray_vs_node(const WideNode& node, const RayInverse<float>& ray) {
  using F = simd::Float8;
  constexpr float kGamma3 = 3.0f * (kEpsilon<float> * 0.5f) / (1.0f - 3.0f * (kEpsilon<float> * 0.5f));
  const F far_scale(1.0f + 2.0f * kGamma3);
  const F* mins[3] = {&node.bounds.min_x, &node.bounds.min_y, &node.bounds.min_z};
  const F* maxs[3] = {&node.bounds.max_x, &node.bounds.max_y, &node.bounds.max_z};
  F t0(ray.tmin), t1(ray.tmax);
  for (int i = 0; i < 3; ++i) {
    const F o(ray.origin[i]), inv(ray.inv_dir[i]);
    const F tn = ((ray.sign[i] ? *maxs[i] : *mins[i]) - o) * inv;
    const F tf = ((ray.sign[i] ? *mins[i] : *maxs[i]) - o) * inv * far_scale;
    t0 = max(tn, t0);  // NaN (origin on a face of a parallel slab) keeps t0: see ray_vs_aabbs
    t1 = min(tf, t1);
  }
  PackHit<F> out;
  out.hit = t0 <= t1;
  out.t = t0;
  return out;
}

/// Walks the tree front to back. `leaf(first, count, tmax)` tests the leaf items and lowers tmax
/// to the nearest hit it finds; it returns true to stop the walk (an any-hit query). Children are
/// visited nearest entry first, and a subtree whose entry lies beyond the current tmax is skipped.
template <bool kSortChildren, class Leaf>
void traverse(const std::vector<WideNode>& nodes, const Rayf& ray, float& tmax, Leaf&& leaf) {
  if (nodes.empty() || !is_valid(ray)) return;
  RayInverse<float> inverse = RayInverse<float>::from_ray(ray);
  struct Entry {
    std::uint32_t child, count;
    float t;
  };
  Entry stack[kTraversalStackSize];
  int top = 0;
  stack[top++] = {0, 0, ray.tmin};
  while (top > 0) {
    const Entry entry = stack[--top];
    if (entry.t > tmax) continue;
    if (entry.count != 0) {
      if (leaf(entry.child, entry.count, tmax)) return;
      continue;
    }
    const WideNode& node = nodes[entry.child];
    inverse.tmax = tmax;
    const PackHit<simd::Float8> boxes = ray_vs_node(node, inverse);
    unsigned mask = static_cast<unsigned>(bits(boxes.hit));
    if (mask == 0) continue;
    float t[kWideWidth];
    boxes.t.store(t);
    const int base = top;
    for (; mask != 0; mask &= mask - 1) {
      const int i = std::countr_zero(mask);
      Entry e{node.child[i], node.count[i], t[i]};
      int k = top++;
      if constexpr (kSortChildren) {
        // Insertion by descending t, so that the nearest child is popped first.
        while (k > base && stack[k - 1].t < e.t) {
          stack[k] = stack[k - 1];
          --k;
        }
      }
      stack[k] = e;
    }
  }
}

}  // namespace hitscan::bvh
