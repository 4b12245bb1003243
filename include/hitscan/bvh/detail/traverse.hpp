#pragma once
/// Ray traversal of the 8-wide BVH, templated on what a leaf does with the ray.

#include <array>
#include <bit>
#include <cstdint>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <type_traits>

#include "hitscan/bvh/detail/prefetch.hpp"
#include "hitscan/bvh/detail/stack_rank.hpp"
#include "hitscan/bvh/wide_bvh.hpp"

namespace hitscan::bvh {

/// The walk is built into each query: a call would cost a ray that leaves after the root node
/// a frame set up and torn down around a single node test.
#if defined(__GNUC__) || defined(__clang__)
#define HITSCAN_WALK_INLINE [[gnu::always_inline]] inline
#else
#define HITSCAN_WALK_INLINE inline
#endif

/// The byte offsets, inside an AabbPack<Float8> (min_x, min_y, min_z, max_x, ...), of each axis's
/// near and far planes for a ray whose direction is negative along the axes of `octant` (bit i
/// for axis i): a negative axis enters through its max planes.
struct PlaneOffsets {
  std::uint32_t near[3], far[3];
};
inline constexpr auto kPlaneOffsets = [] {
  constexpr std::uint32_t kAxis = sizeof(simd::Float8);
  std::array<PlaneOffsets, 8> table{};
  for (std::uint32_t octant = 0; octant < 8; ++octant) {
    for (std::uint32_t i = 0; i < 3; ++i) {
      const bool negative = ((octant >> i) & 1u) != 0;
      table[octant].near[i] = (negative ? 3 + i : i) * kAxis;
      table[octant].far[i] = (negative ? i : 3 + i) * kAxis;
    }
  }
  return table;
}();

/// A ray prepared for the node test: the plane offsets of its octant (so no per-node branch on
/// the direction's sign), 1/dir for the near planes, and 1/dir enlarged by kFarScale for the far
/// planes: the conservative slab test of clip_to_slab, 8 boxes at a time.
struct NodeRay {
  simd::Float8 origin[3];
  simd::Float8 inv_near[3];
  simd::Float8 inv_far[3];
  /// The octant's entry of kPlaneOffsets, pointed to rather than copied into every ray.
  const PlaneOffsets* planes;
  /// Bit i set: the direction is negative along axis i (-0 included).
  unsigned octant;
  float tmin;

  /// Expects a valid ray (is_valid); a zero direction component gives an infinite inverse of the
  /// zero's sign, by design. The three inverses come from one vector division (the same bits as
  /// three scalar ones).
  static NodeRay from_ray(const Rayf& ray) {
    // dir and tmin in one load, tmin's lane replaced by 1 before the division.
    static_assert(offsetof(Rayf, tmin) == offsetof(Rayf, dir) + 3 * sizeof(float), "dir, then tmin");
    const simd::Float4 dir = select(simd::Float4(0.0f, 0.0f, 0.0f, 1.0f) != simd::Float4(0.0f),
                                    simd::Float4(1.0f), simd::Float4::load(&ray.dir.x));
    const simd::Float4 inv = simd::Float4(1.0f) / dir;
    alignas(16) float near[4], far[4];
    inv.store(near);
    (inv * simd::Float4(kFarScale<float>)).store(far);
    NodeRay r;
    r.origin[0] = simd::Float8(ray.origin.x), r.origin[1] = simd::Float8(ray.origin.y);
    r.origin[2] = simd::Float8(ray.origin.z);
    for (int i = 0; i < 3; ++i) r.inv_near[i] = simd::Float8(near[i]), r.inv_far[i] = simd::Float8(far[i]);
    // 1/(-0) is -inf: the negative inverses are the direction's set sign bits, -0 included.
    r.octant = static_cast<unsigned>(bits(inv < simd::Float4(0.0f))) & 7u;
    r.planes = &kPlaneOffsets[r.octant];
    r.tmin = ray.tmin;
    return r;
  }
};

/// How far past tmax a box's entry may lie and still be visited: 8 epsilon. The entry is computed
/// in float and may exceed the true one by a few ulps; a triangle lying on a box's near face a few
/// ulps nearer than the current hit would otherwise be culled with its box, and the closest hit
/// reported a few ulps too far, on another triangle.
inline constexpr float kCullScale = 1.0f + 8.0f * kEpsilon<float>;
/// tmax grown by kCullScale (unchanged when negative or infinite).
inline float cull_limit(float tmax) { return max(tmax, tmax * kCullScale); }

/// The slab test of one ray against the 8 boxes of a node, over [ray.tmin, tmax]. Returns the
/// lanes hit, with t the entry distance.
inline PackHit<simd::Float8> ray_vs_node(const WideNode& node, const NodeRay& ray, float tmax) {
  using F = simd::Float8;
  const auto* planes = reinterpret_cast<const char*>(&node.bounds);
  F t0(ray.tmin), t1(tmax);
  for (int i = 0; i < 3; ++i) {
    const F near = *reinterpret_cast<const F*>(planes + ray.planes->near[i]);
    const F far = *reinterpret_cast<const F*>(planes + ray.planes->far[i]);
    clip_to_slab(near, far, ray.origin[i], ray.inv_near[i], ray.inv_far[i], t0, t1);
  }
  PackHit<F> out;
  out.hit = t0 <= t1;
  out.t = t0;
  return out;
}

/// The box around every box of a tree's root node, as the gate of a walk: min in lanes 0-2 of
/// `lo`, max in lanes 0-2 of `hi`, lane 3 -inf and +inf (so that lane never decides).
struct RootBox {
  simd::Float4 lo{-kInfinity<float>}, hi{kInfinity<float>};

  /// The union of the root node's children (every lane empty: a box no ray enters).
  static RootBox of(const WideNode& root) {
    float box[6][kWideWidth];
    root.bounds.min_x.store(box[0]), root.bounds.min_y.store(box[1]), root.bounds.min_z.store(box[2]);
    root.bounds.max_x.store(box[3]), root.bounds.max_y.store(box[4]), root.bounds.max_z.store(box[5]);
    float lo[4] = {kInfinity<float>, kInfinity<float>, kInfinity<float>, -kInfinity<float>};
    float hi[4] = {-kInfinity<float>, -kInfinity<float>, -kInfinity<float>, kInfinity<float>};
    for (int i = 0; i < kWideWidth; ++i) {
      for (int a = 0; a < 3; ++a) lo[a] = min(lo[a], box[a][i]), hi[a] = max(hi[a], box[3 + a][i]);
    }
    return {simd::Float4::load(lo), simd::Float4::load(hi)};
  }
};

/// Whether a valid ray may enter any box inside `box` within [ray.tmin, tmax] by ray_vs_node's
/// test (with its cull_limit). The test's roundings are monotone in the planes, so a box inside
/// `box` gives an entry no nearer and an exit no farther than `box` does: false here means false
/// for every child of the root, and a walk that would test only the root leaves after this one
/// box test, before any of its own preparation. The same inverses as NodeRay::from_ray (one
/// vector division; the octant from their signs, -0 included), 0 * inf dropped as there.
inline bool ray_may_enter(const RootBox& box, const Rayf& ray, float tmax) {
  using F = simd::Float4;
  const F origin = F::load(&ray.origin.x);  // lane 3 holds dir.x: finite, against infinite planes
  // A ray from inside the box (a player in a level, most incoherent rays) is let through without
  // the slab test: "may enter" is all the walk needs to know.
  if (all((origin >= box.lo) & (origin <= box.hi))) return true;
  static_assert(offsetof(Rayf, tmin) == offsetof(Rayf, dir) + 3 * sizeof(float), "dir, then tmin");
  const F dir = select(F(0.0f, 0.0f, 0.0f, 1.0f) != F(0.0f), F(1.0f), F::load(&ray.dir.x));
  const F inv = F(1.0f) / dir;
  const auto negative = inv < F(0.0f);
  const F near = select(negative, box.hi, box.lo), far = select(negative, box.lo, box.hi);
  // max(t, -inf) and min(t, +inf) keep t and turn a NaN lane into the neutral one.
  const F entry = max((near - origin) * inv, F(-kInfinity<float>));
  const F exit = min((far - origin) * (inv * F(kFarScale<float>)), F(kInfinity<float>));
  alignas(16) float n[4], f[4];
  entry.store(n), exit.store(f);
  const float t0 = max(max(max(ray.tmin, n[0]), n[1]), n[2]);
  const float t1 = min(min(min(cull_limit(tmax), f[0]), f[1]), f[2]);
  return t0 <= t1;
}

/// How far below the ray's entry into its leaf's box a hit may lie: 6 epsilon. The float
/// triangle test can put a hit of a sliver many ulps before its exact distance, and so before its
/// box. A nearer hit found first elsewhere would then cull that box (entry beyond
/// cull_limit(tmax)) although the sliver's t is smaller, and the closest hit would depend on the
/// order of the walk and disagree with all hits. So a leaf raises its hits' t to leaf_floor of its
/// entry: fl(entry * kLeafScale) <= tmax implies entry <= tmax (1 + 6.5 epsilon) < cull_limit(tmax),
/// so a culled leaf holds no hit at or before tmax. Hits of ordinary triangles, within a few ulps
/// of their box, are left as the triangle test gives them.
inline constexpr float kLeafScale = 1.0f - 6.0f * kEpsilon<float>;
static_assert(kLeafScale < 1.0f && kCullScale > 1.0f + 7.0f * kEpsilon<float>, "see kLeafScale");

/// The least t a leaf reports for a ray entering its box at `entry`: entry lowered by kLeafScale
/// (unchanged when negative), and finite.
inline float leaf_floor(float entry) { return min(min(entry * kLeafScale, entry), std::numeric_limits<float>::max()); }

/// A hit's t as a leaf reports it: at least the leaf's floor. Written max(floor, t), so that it
/// gives the bits of the SIMD max(t, floor), which takes its second operand when the two are
/// equal (+0 and -0).
inline float leaf_t(float t, float floor) { return max(floor, t); }

/// Asks for a node's cache lines ahead of its visit: a sibling waiting on the stack is often
/// visited next, and its lines then arrive while the current subtree is walked.
inline void prefetch_node(const WideNode& node) { prefetch_bytes(&node, sizeof(WideNode)); }

/// A child's cache lines, asked for when it goes on a walk's stack: an inner node's, or through
/// `prefetch_leaf` its leaf's first item.
template <class PrefetchLeaf>
inline void prefetch_child(std::span<const WideNode> nodes, const PrefetchLeaf& prefetch_leaf, std::uint32_t child,
                           std::uint32_t count) {
  if (count == 0) {
    prefetch_node(nodes[child]);
  } else {
    prefetch_leaf(child);
  }
}

/// Counts nothing: the default of traverse's node observer.
struct IgnoreNodes {
  void operator()() const {}
};

/// Prefetches nothing: the default of traverse's leaf prefetcher.
struct NoLeafPrefetch {
  void operator()(std::uint32_t /*first*/) const {}
};

/// Given as traverse's leaf prefetcher, asks for no cache line at all, neither a leaf's nor a
/// node's: for a tree that stays in the cache, where a prefetch is only instructions.
struct NoPrefetch {
  void operator()(std::uint32_t /*first*/) const {}
};

/// Walks the tree. `leaf(first, count, tmax, floor)` tests the leaf items and lowers tmax to the
/// nearest hit it finds; it returns true to stop the walk (an any-hit query). `floor` is
/// leaf_floor of the ray's entry into the leaf's box: the leaf raises each hit's t to it
/// (leaf_t). With kNearFirst (closest-hit queries) the nearer of two children hit is visited
/// first, and three or more in the node's order for the ray's octant; without (any-hit queries,
/// which measure faster so), in lane order. Three or more children go on the stack with one
/// vector store per field. A subtree whose entry lies beyond the current tmax is skipped, and
/// the next child is taken from the node, not through the stack. Expects a valid ray
/// (is_valid), which the caller has checked once for all its preparations.
/// on_node() is called once for every inner node whose boxes are tested (for cost pictures).
/// prefetch_leaf(first) is called for each leaf child that waits on the stack, so that the caller
/// can ask for the first leaf item's cache lines while the walk goes on elsewhere.
template <bool kNearFirst, class Leaf, class OnNode = IgnoreNodes, class PrefetchLeaf = NoLeafPrefetch>
void traverse(std::span<const WideNode> nodes, const Rayf& ray, float& tmax, Leaf&& leaf, OnNode on_node = {},
              PrefetchLeaf prefetch_leaf = {}) {
  if (nodes.empty()) return;
  constexpr bool kPrefetch = !std::is_same_v<PrefetchLeaf, NoPrefetch>;
  const NodeRay node_ray = NodeRay::from_ray(ray);
  // The stack, one array per field so that a node's children go on it with a store each; a push
  // writes 8 slots whatever the number of children.
  alignas(32) std::uint32_t stack_child[kTraversalStackSize + kWideWidth];
  alignas(32) std::uint32_t stack_count[kTraversalStackSize + kWideWidth];
  alignas(32) float stack_t[kTraversalStackSize + kWideWidth];
  int top = 0;
  std::uint32_t child = 0, count = 0;
  float entry = ray.tmin;
  float cull = cull_limit(tmax);  // follows tmax, which only the leaves lower
  for (;;) {
    if (count != 0) {
      if (leaf(child, count, tmax, leaf_floor(entry))) return;
      cull = cull_limit(tmax);
    } else {
      const WideNode& node = nodes[child];
      // The line of the children's indices, asked for with the bounds' lines: the test reads it
      // only once its mask is known, and a node out of cache would then wait on a second miss.
      if constexpr (kPrefetch) prefetch_line(node.child);
      on_node();
      const PackHit<simd::Float8> boxes = ray_vs_node(node, node_ray, cull);
      const auto mask = static_cast<unsigned>(bits(boxes.hit));
      if ((mask & (mask - 1)) == 0) {
        if (mask != 0) {
          // One child: the entry is read out of the lanes only for a leaf, whose floor needs it.
          const int lane = std::countr_zero(mask);
          count = node.count[lane];
          child = node.child[lane];
          entry = count != 0 ? boxes.t[lane] : 0.0f;
          continue;
        }
      } else if (const unsigned rest = mask & (mask - 1); (rest & (rest - 1)) == 0) {
        // Two children, the most common case after one: the next comes straight from the node,
        // not through the stack, which would put a store and a load on the walk's critical path.
        // Near first, the nearer by entry is next; else the higher lane, as the lane order pops.
        const int first = std::countr_zero(mask), second = std::countr_zero(rest);
        alignas(32) float t[kWideWidth];
        boxes.t.store(t);
        const auto [next, waits] = kNearFirst ? order_two(first, t[first], second, t[second]) : NearFar{second, first};
        stack_child[top] = node.child[waits], stack_count[top] = node.count[waits], stack_t[top] = t[waits];
        ++top;
        if constexpr (kPrefetch) prefetch_child(nodes, prefetch_leaf, node.child[waits], node.count[waits]);
        child = node.child[next], count = node.count[next], entry = t[next];
        continue;
      } else {
        const simd::LaneSelection8 order =
            simd::select_lanes(kNearFirst ? node.lane_order(node_ray.octant) : simd::kIdentityOrder8, mask);
        simd::store_selected(order, node.child, stack_child + top);
        simd::store_selected(order, node.count, stack_count + top);
        simd::store_selected(order, boxes.t, stack_t + top);
        // The last is next: taken from the node rather than back from the stack, which would put
        // a store and a load on the walk's critical path.
        const int waiting = std::popcount(mask) - 1;
        if constexpr (kPrefetch) {
          for (int k = top; k < top + waiting; ++k) prefetch_child(nodes, prefetch_leaf, stack_child[k], stack_count[k]);
        }
        top += waiting;
        const int lane = simd::selected_lane(order, waiting);
        child = node.child[lane], count = node.count[lane], entry = stack_t[top];
        continue;
      }
    }
    do {
      if (top == 0) return;
      --top;
      child = stack_child[top], count = stack_count[top], entry = stack_t[top];
    } while (entry > cull);
  }
}

}  // namespace hitscan::bvh
