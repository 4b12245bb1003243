#include "hitscan/geometry/ray_polygon.hpp"

#include "hitscan/geometry/ray_plane.hpp"

namespace hitscan {

template <Real T>
RayHit<T> ray_vs_polygon(const ConvexPolygon<T>& polygon, const Ray<T>& ray) {
  RayHit<T> hit = ray_vs_plane(Plane<T>{polygon.normal(), polygon.offset()}, ray);
  if (!hit) return hit;
  // Inside when the point is on the inner (left) side of every directed edge.
  const std::span<const Vec3<T>> v = polygon.vertices();
  for (std::size_t i = 0, n = v.size(); i < n; ++i) {
    const Vec3<T>& p = v[i];
    const Vec3<T>& q = v[i + 1 == n ? 0 : i + 1];
    if (dot(cross(q - p, hit.point - p), polygon.normal()) < T(0)) return {};
  }
  return hit;
}

template RayHit<float> ray_vs_polygon(const ConvexPolygon<float>&, const Ray<float>&);
template RayHit<double> ray_vs_polygon(const ConvexPolygon<double>&, const Ray<double>&);

}  // namespace hitscan
