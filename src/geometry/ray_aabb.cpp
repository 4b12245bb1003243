#include "hitscan/geometry/ray_aabb.hpp"

#include "hitscan/assert.hpp"

#include "quadric.hpp"

namespace hitscan {

template <Real T>
RayHit<T> ray_vs_aabb(const Aabb<T>& box, const Ray<T>& ray) {
  RayHit<T> hit;
  if (!box.is_valid() || !is_valid(ray) || !is_finite(box.min) || !is_finite(box.max)) return hit;

  T t_enter = -kInfinity<T>;
  T t_exit = kInfinity<T>;
  int enter_axis = -1;
  for (int i = 0; i < 3; ++i) {
    const T d = ray.dir[i];
    const T o = ray.origin[i];
    if (d == T(0)) {
      // Parallel to this slab: inside it for every t, or never (Williams et al. rely on
      // IEEE infinities here; the explicit branch avoids the 0 * inf of an origin on a face).
      if (o < box.min[i] || o > box.max[i]) return hit;
      continue;
    }
    const T inv = T(1) / d;
    T near = (box.min[i] - o) * inv;
    T far = (box.max[i] - o) * inv;
    if (inv < T(0)) {
      const T s = near;
      near = far;
      far = s;
    }
    if (near > t_enter) {
      t_enter = near;
      enter_axis = i;
    }
    if (far < t_exit) t_exit = far;
  }

  if (!detail::fill_solid_hit(ray, t_enter, t_exit, hit)) return hit;
  if (!hit.started_inside()) {
    // A hit that is not started-inside has t_enter >= tmin > -inf, so some slab set it.
    hit.normal[enter_axis] = ray.dir[enter_axis] > T(0) ? T(-1) : T(1);
  }
  return hit;
}

namespace {

template <Real T>
RayInverse<T> inverse_of(const Ray<T>& ray, bool valid) {
  RayInverse<T> r;
  r.origin = ray.origin;
  r.tmin = ray.tmin;
  r.tmax = ray.tmax;
  r.valid = valid;
  for (int i = 0; i < 3; ++i) {
    r.inv_dir[i] = T(1) / ray.dir[i];  // ±0 gives ±inf, by design
    r.inv_far[i] = r.inv_dir[i] * kFarScale<T>;
    r.sign[i] = std::signbit(ray.dir[i]) ? 1 : 0;
  }
  return r;
}

}  // namespace

template <Real T>
RayInverse<T> RayInverse<T>::from_ray(const Ray<T>& ray) {
  return inverse_of(ray, is_valid(ray));
}

template <Real T>
RayInverse<T> RayInverse<T>::from_valid_ray(const Ray<T>& ray) {
  HITSCAN_ASSERT(is_valid(ray));
  return inverse_of(ray, true);
}

template <Real T>
bool ray_vs_aabb_interval(const Aabb<T>& box, const RayInverse<T>& ray, T& t_enter, T& t_exit) {
  T t0 = ray.tmin;
  T t1 = ray.tmax;
  for (int i = 0; i < 3; ++i) {
    const T near_side = box_side(box, ray.sign[i], i);
    const T far_side = box_side(box, 1 - ray.sign[i], i);
    const T tn = (near_side - ray.origin[i]) * ray.inv_dir[i];
    const T tf = (far_side - ray.origin[i]) * ray.inv_dir[i];
    // Operand order matters: hitscan::max(a, b) and min(a, b) return a when b is NaN, so the
    // NaN of an origin exactly on a face of a slab the ray is parallel to leaves t0, t1 alone.
    t0 = max(t0, tn);
    t1 = min(t1, tf);
  }
  t_enter = t0;
  t_exit = t1;
  return ray.valid && t0 <= t1;
}

template <class F>
PackHit<F> ray_vs_aabbs(const AabbPack<F>& pack, const RayInverse<float>& ray) {
  PackHit<F> out;
  out.t = F(kInfinity<float>);
  if (!ray.valid) return out;
  const F* mins[3] = {&pack.min_x, &pack.min_y, &pack.min_z};
  const F* maxs[3] = {&pack.max_x, &pack.max_y, &pack.max_z};
  F t0(ray.tmin), t1(ray.tmax);
  for (int i = 0; i < 3; ++i) {
    const F o(ray.origin[i]), inv(ray.inv_dir[i]);
    const F tn = ((ray.sign[i] ? *maxs[i] : *mins[i]) - o) * inv;
    const F tf = ((ray.sign[i] ? *mins[i] : *maxs[i]) - o) * inv;
    // simd::max / min return the second operand for a NaN: the NaN slab term is dropped.
    t0 = max(tn, t0);
    t1 = min(tf, t1);
  }
  out.hit = t0 <= t1;
  out.t = select(out.hit, t0, F(kInfinity<float>));
  return out;
}

template PackHit<simd::Float4> ray_vs_aabbs(const AabbPack<simd::Float4>&, const RayInverse<float>&);
template PackHit<simd::Float8> ray_vs_aabbs(const AabbPack<simd::Float8>&, const RayInverse<float>&);
template struct RayInverse<float>;
template struct RayInverse<double>;
template RayHit<float> ray_vs_aabb(const Aabb<float>&, const Ray<float>&);
template RayHit<double> ray_vs_aabb(const Aabb<double>&, const Ray<double>&);
template bool ray_vs_aabb_interval(const Aabb<float>&, const RayInverse<float>&, float&, float&);
template bool ray_vs_aabb_interval(const Aabb<double>&, const RayInverse<double>&, double&, double&);

}  // namespace hitscan
