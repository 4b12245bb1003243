#pragma once
/// Ray vs axis-aligned box: the slab test (Kay and Kajiya 1986; Williams et al., "An Efficient
/// and Robust Ray-Box Intersection Algorithm", JGT 2005).

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

/// A ray prepared for testing against many boxes: 1/dir computed once (a zero component gives an
/// infinity of the zero's sign), plus which box corner is near on each axis.
template <Real T>
struct RayInverse {
  Vec3<T> origin{};
  Vec3<T> inv_dir{};
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
