#pragma once
/// Ray vs axis-aligned box: the slab test (Kay and Kajiya 1986; Williams et al., "An Efficient
/// and Robust Ray-Box Intersection Algorithm", JGT 2005).

#include <type_traits>

#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/ray_pack.hpp"
#include "hitscan/geometry/shapes.hpp"

namespace hitscan {

/// First point of the solid box within [tmin, tmax], with the outward normal of the face entered.
/// Direction components that are zero (+0 or -0) are handled exactly: the ray is parallel to
/// that slab and is inside it when the origin is within [min, max] on that axis, faces included.
/// Starting inside: hit at tmin with kHitStartedInside, normal -unit(dir), t_exit set.
/// An invalid box (min > max on some axis, or NaN) or an invalid ray is a miss.
/// Where the ray enters through an edge or a corner, the normal is that of the face with the
/// largest entry parameter, the lowest axis index on a tie.
template <Real T>
RayHit<T> ray_vs_aabb(const Aabb<T>& box, const Ray<T>& ray);

/// gamma(3) (Higham, "Accuracy and Stability of Numerical Algorithms", 3.1): the relative error
/// of a value rounded three times is at most gamma(3) = 3u / (1 - 3u), u the unit roundoff.
template <Real T>
inline constexpr T kGamma3 = T(3) * (kEpsilon<T> / T(2)) / (T(1) - T(3) * (kEpsilon<T> / T(2)));

/// How much the conservative slab test enlarges 1/dir for the far planes: 1 + 2 gamma(3). A far
/// distance (side - origin) * inv_far is then at least the exact one (Ize, "Robust BVH Ray
/// Traversal", JCGT 2013, as pbrt does), so a ray that grazes a box, and which a watertight test
/// would find hitting what the box holds, is never culled by the box.
template <Real T>
inline constexpr T kFarScale = T(1) + T(2) * kGamma3<T>;

/// A ray prepared for testing against many boxes: 1/dir computed once (a zero component gives an
/// infinity of the zero's sign), plus which box corner is near on each axis.
template <Real T>
struct RayInverse {
  Vec3<T> origin{};
  Vec3<T> inv_dir{};
  /// inv_dir * kFarScale, for the far planes of the conservative test (ray_enters_box).
  Vec3<T> inv_far{};
  T tmin = 0;
  T tmax = kInfinity<T>;
  /// 1 when dir's component is negative (including -0): max is the near side on that axis.
  int sign[3] = {0, 0, 0};
  /// False for an invalid ray; the interval test then always misses.
  bool valid = false;

  static RayInverse from_ray(const Ray<T>& ray);
  /// from_ray for a ray its caller has already checked (is_valid, asserted in debug builds): a
  /// query prepares its ray once, at its entry, and the layers below trust it.
  static RayInverse from_valid_ray(const Ray<T>& ray);
};

/// One axis of the conservative slab test, the kernel of every walk of a box tree: for one box
/// (F = float) or for 4 or 8 boxes or rays at once (F = simd::Float4, simd::Float8), t0 rises to
/// the entry (near_side - origin) * inv_dir and t1 falls to the exit (far_side - origin) *
/// inv_far, inv_far being inv_dir * kFarScale rounded once. Every form rounds the same operands in
/// the same order, so a SIMD lane answers bit for bit what the scalar test answers for its box.
/// The NaN of 0 * inf (an origin exactly on a face of a slab the ray is parallel to) is dropped by
/// the operand order of max and min, so such a ray counts as inside that slab.
template <class F>
inline void clip_to_slab(F near_side, F far_side, F origin, F inv_dir, F inv_far, F& t0, F& t1) {
  if constexpr (std::is_floating_point_v<F>) {
    t0 = max(t0, (near_side - origin) * inv_dir);  // hitscan::max(a, b) keeps a when b is NaN
    t1 = min(t1, (far_side - origin) * inv_far);
  } else {
    t0 = max((near_side - origin) * inv_dir, t0);  // the SIMD max(a, b) keeps b when a is NaN
    t1 = min((far_side - origin) * inv_far, t1);
  }
}

/// box.min[axis] for side 0, box.max[axis] for side 1 (RayInverse::sign picks the near side),
/// by an index rather than a select: the compiler may turn a select into a jump, and the signs
/// of random rays' directions are unpredictable.
template <Real T>
inline T box_side(const Aabb<T>& box, int side, int axis) {
  const Vec3<T>* sides[2] = {&box.min, &box.max};
  return (*sides[side])[axis];
}

/// The parameter interval [t_enter, t_exit] of the ray inside the box, clipped to [tmin, tmax].
/// Returns false when it is empty. Branch-free apart from the result; the 0 * inf = NaN that arises
/// when the origin lies exactly in the plane of a slab the ray is parallel to is discarded by the
/// operand order of min/max, so such a ray counts as inside that slab (faces are part of the box).
template <Real T>
bool ray_vs_aabb_interval(const Aabb<T>& box, const RayInverse<T>& ray, T& t_enter, T& t_exit);

/// Whether the ray may meet `box` within [ray.tmin, tmax], by the conservative slab test
/// (clip_to_slab): never false for a box the ray touches, possibly true for one it misses by an
/// ulp or so. t_enter receives the entry parameter. For culling before an exact test.
inline bool ray_enters_box(const Aabbf& box, const RayInverse<float>& ray, float tmax, float& t_enter) {
  float t0 = ray.tmin, t1 = tmax;
  for (int i = 0; i < 3; ++i) {
    clip_to_slab(box_side(box, ray.sign[i], i), box_side(box, 1 - ray.sign[i], i), ray.origin[i], ray.inv_dir[i],
                 ray.inv_far[i], t0, t1);
  }
  t_enter = t0;
  return t0 <= t1;
}

/// W boxes, structure-of-arrays. Unused lanes should hold the empty box (min +inf, max -inf).
template <class F>
struct AabbPack {
  F min_x{}, min_y{}, min_z{}, max_x{}, max_y{}, max_z{};
};

/// One ray against the W boxes of a pack: ray_vs_aabb_interval lane by lane (same NaN handling,
/// by operand order). Returns the lanes whose interval is not empty, with t = t_enter.
template <class F>
PackHit<F> ray_vs_aabbs(const AabbPack<F>& pack, const RayInverse<float>& ray);

}  // namespace hitscan
