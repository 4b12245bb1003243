#include "hitscan/geometry/ray_cylinder.hpp"

#include "quadric.hpp"

namespace hitscan {

// The capped cylinder is the infinite cylinder intersected with the slab between the cap
// planes; the ray's interval in it is the intersection of the two intervals, and the entry
// is on a cap exactly when the slab's entry is the later one.
template <Real T>
RayHit<T> ray_vs_cylinder(const Cylinder<T>& cylinder, const Ray<T>& ray) {
  RayHit<T> hit;
  if (!(cylinder.radius > T(0)) || !is_valid(ray) || !is_finite(cylinder.a) || !is_finite(cylinder.b)) return hit;
  const Vec3<T> axis = cylinder.b - cylinder.a;
  const T length = hitscan::length(axis);
  if (!(length > T(0))) return hit;

  const detail::AxisFrameRay<T> frame(ray, cylinder.a, axis * (T(1) / length));
  T t0, t1;
  if (!frame.side_interval(cylinder.radius, t0, t1)) return hit;

  T s0 = -kInfinity<T>, s1 = kInfinity<T>;
  T cap_sign = 0;  // -1: entered through the cap at a, +1: through the cap at b
  if (frame.dz != T(0)) {
    s0 = (T(0) - frame.oz) / frame.dz;
    s1 = (length - frame.oz) / frame.dz;
    cap_sign = T(-1);
    if (s1 < s0) std::swap(s0, s1), cap_sign = T(1);
  } else if (frame.oz < T(0) || frame.oz > length) {
    return hit;
  }

  const bool enter_cap = s0 >= t0;  // ties (a ray grazing the rim) go to the cap
  if (!detail::fill_solid_hit(ray, max(t0, s0), min(t1, s1), hit)) return hit;
  if (!hit.started_inside()) hit.normal = enter_cap ? frame.axis * cap_sign : frame.radial_normal(hit.t);
  return hit;
}

template RayHit<float> ray_vs_cylinder(const Cylinder<float>&, const Ray<float>&);
template RayHit<double> ray_vs_cylinder(const Cylinder<double>&, const Ray<double>&);

}  // namespace hitscan
