#include "hitscan/geometry/ray_triangle.hpp"

#include <utility>

namespace hitscan {
namespace {

// Edge functions of the sheared triangle, one per edge, in double when the float result is
// exactly zero (Woop et al. 2013, sec. 3): products of floats are exact in double, so the sign
// is then exact. For double input there is no wider type on every platform; the rounding of
// a*b - c*d still never flips a sign, it can only give zero, which the tie rule resolves.
template <Real T>
inline T edge_function(T ax, T ay, T bx, T by) {
  T e = bx * ay - by * ax;
  if constexpr (std::is_same_v<T, float>) {
    if (e == 0.0f) {
      e = static_cast<float>(static_cast<double>(bx) * static_cast<double>(ay) -
                             static_cast<double>(by) * static_cast<double>(ax));
    }
  }
  return e;
}

// Ownership of a boundary point whose edge function is exactly zero: the directed edge
// (ex, ey), in the sheared 2D frame, owns it when it points up, or right when level. The
// neighbour across the edge sees the same edge reversed, so exactly one of the two owns it;
// around a shared vertex, exactly one wedge owns it (the top-left rule of rasterisation).
template <Real T>
inline bool owns_edge(T ex, T ey) {
  return ey > T(0) || (ey == T(0) && ex > T(0));
}

}  // namespace

template <Real T>
RayHit<T> ray_vs_triangle(const Triangle<T>& tri, const WatertightRay<T>& ray, const Vec3<T>& dir) {
  RayHit<T> hit;
  if (!ray.valid) return hit;
  const Vec3<T> a = tri.v0 - ray.origin;
  const Vec3<T> b = tri.v1 - ray.origin;
  const Vec3<T> c = tri.v2 - ray.origin;
  // Shear and scale so that the ray runs along +z from the origin.
  const T ax = a[ray.kx] - ray.shear_x * a[ray.kz];
  const T ay = a[ray.ky] - ray.shear_y * a[ray.kz];
  const T bx = b[ray.kx] - ray.shear_x * b[ray.kz];
  const T by = b[ray.ky] - ray.shear_y * b[ray.kz];
  const T cx = c[ray.kx] - ray.shear_x * c[ray.kz];
  const T cy = c[ray.ky] - ray.shear_y * c[ray.kz];

  const T u = edge_function(bx, by, cx, cy);  // edge b -> c, weight of a
  const T v = edge_function(cx, cy, ax, ay);  // edge c -> a, weight of b
  const T w = edge_function(ax, ay, bx, by);  // edge a -> b, weight of c
  if ((u < T(0) || v < T(0) || w < T(0)) && (u > T(0) || v > T(0) || w > T(0))) return hit;
  const T det = u + v + w;
  if (det == T(0) || !is_finite(det)) return hit;  // degenerate, or the ray lies in the plane
  // On an edge of the 2D triangle, only the owner of that edge takes the ray. Directed edges are
  // read in counter-clockwise order (reversed for a clockwise triangle, det > 0 here), and a
  // counter-clockwise triangle owns its up and level-right edges exactly when it contains the ray
  // shifted by an infinitesimal (-e, e²) in the sheared frame. Every triangle thus answers for the
  // same shifted ray: a shared edge or vertex is claimed once, and a ray grazing a silhouette
  // (neighbours of opposite orientation) is claimed by both or neither, keeping crossing parity.
  if (u == T(0) || v == T(0) || w == T(0)) {
    const T s = det > T(0) ? T(-1) : T(1);
    if (u == T(0) && !owns_edge(s * (cx - bx), s * (cy - by))) return hit;
    if (v == T(0) && !owns_edge(s * (ax - cx), s * (ay - cy))) return hit;
    if (w == T(0) && !owns_edge(s * (bx - ax), s * (by - ay))) return hit;
  }

  const T az = ray.shear_z * a[ray.kz];
  const T bz = ray.shear_z * b[ray.kz];
  const T cz = ray.shear_z * c[ray.kz];
  const T inv_det = T(1) / det;
  // t from the barycentrics (each at most 1 on a hit) rather than as (u az + v bz + w cz) / det:
  // that numerator is a cube of the distances and overflows a float beyond about 5e12.
  const T b0 = u * inv_det, b1 = v * inv_det, b2 = w * inv_det;
  const T t = b0 * az + b1 * bz + b2 * cz;
  if (!(t >= ray.tmin && t <= ray.tmax && t < kInfinity<T>)) return hit;

  const Vec3<T> n = normalize(cross(tri.v1 - tri.v0, tri.v2 - tri.v0));
  if (n == Vec3<T>{}) return hit;
  hit.hit = true;
  hit.t = t;
  hit.u = b1;
  hit.v = b2;
  hit.point = ray.origin + dir * t;
  hit.normal = n;
  // The sheared frame keeps handedness, so det < 0 exactly when dot(normal, dir) > 0; the sign
  // of det is what the pack kernel has too, which keeps the two in agreement at grazing angles.
  if (det < T(0)) hit.flags = kHitBackFace;
  return hit;
}

template <Real T>
RayHit<T> ray_vs_triangle(const Triangle<T>& tri, const Ray<T>& ray) {
  return ray_vs_triangle(tri, WatertightRay<T>::from_ray(ray), ray.dir);
}

template <Real T>
RayHit<T> ray_vs_triangle_moller_trumbore(const Triangle<T>& tri, const Ray<T>& ray) {
  RayHit<T> hit;
  if (!is_valid(ray)) return hit;
  const Vec3<T> e1 = tri.v1 - tri.v0;
  const Vec3<T> e2 = tri.v2 - tri.v0;
  const Vec3<T> p = cross(ray.dir, e2);
  const T det = dot(e1, p);
  if (det == T(0) || !is_finite(det)) return hit;
  const T inv_det = T(1) / det;
  const Vec3<T> s = ray.origin - tri.v0;
  const T u = dot(s, p) * inv_det;
  if (!(u >= T(0) && u <= T(1))) return hit;
  const Vec3<T> q = cross(s, e1);
  const T v = dot(ray.dir, q) * inv_det;
  if (!(v >= T(0) && u + v <= T(1))) return hit;
  const T t = dot(e2, q) * inv_det;
  if (!in_range(t, ray)) return hit;
  const Vec3<T> n = normalize(cross(e1, e2));
  if (n == Vec3<T>{}) return hit;
  hit.hit = true;
  hit.t = t;
  hit.u = u;
  hit.v = v;
  hit.point = ray.at(t);
  hit.normal = n;
  if (dot(n, ray.dir) > T(0)) hit.flags = kHitBackFace;
  return hit;
}

namespace detail {

template <class F>
PackHit<F> finish_edge_lanes(const TrianglePack<F>& pack, const WatertightRay<float>& ray, const Vec3<float>& dir,
                             int rare, PackHit<F> out) {
  constexpr int W = F::width;
  float lanes[9][W], t_lanes[W], u_lanes[W], v_lanes[W];
  const F* fields[9] = {&pack.v0_x, &pack.v0_y, &pack.v0_z, &pack.v1_x, &pack.v1_y,
                        &pack.v1_z, &pack.v2_x, &pack.v2_y, &pack.v2_z};
  for (int f = 0; f < 9; ++f) fields[f]->store(lanes[f]);
  out.t.store(t_lanes);
  out.u.store(u_lanes);
  out.v.store(v_lanes);
  int hit_bits = bits(out.hit);
  int back_bits = bits(out.back_face);
  for (; rare != 0; rare &= rare - 1) {
    const int i = __builtin_ctz(static_cast<unsigned>(rare));
    const Triangle<float> tri{{lanes[0][i], lanes[1][i], lanes[2][i]},
                              {lanes[3][i], lanes[4][i], lanes[5][i]},
                              {lanes[6][i], lanes[7][i], lanes[8][i]}};
    const RayHit<float> h = ray_vs_triangle(tri, ray, dir);
    hit_bits = h.hit ? (hit_bits | (1 << i)) : (hit_bits & ~(1 << i));
    back_bits = h.back_face() ? (back_bits | (1 << i)) : (back_bits & ~(1 << i));
    t_lanes[i] = h.t;
    u_lanes[i] = h.u;
    v_lanes[i] = h.v;
  }
  out.hit = MaskOf<F>::from_bits(hit_bits);
  out.back_face = MaskOf<F>::from_bits(back_bits);
  out.t = F::load(t_lanes);
  out.u = F::load(u_lanes);
  out.v = F::load(v_lanes);
  return out;
}


}  // namespace detail

template PackHit<simd::Float4> detail::finish_edge_lanes(const TrianglePack<simd::Float4>&,
                                                         const WatertightRay<float>&, const Vec3<float>&, int,
                                                         PackHit<simd::Float4>);
template PackHit<simd::Float8> detail::finish_edge_lanes(const TrianglePack<simd::Float8>&,
                                                         const WatertightRay<float>&, const Vec3<float>&, int,
                                                         PackHit<simd::Float8>);
template struct WatertightRay<float>;
template struct WatertightRay<double>;
template RayHit<float> ray_vs_triangle(const Triangle<float>&, const Ray<float>&);
template RayHit<double> ray_vs_triangle(const Triangle<double>&, const Ray<double>&);
template RayHit<float> ray_vs_triangle(const Triangle<float>&, const WatertightRay<float>&, const Vec3<float>&);
template RayHit<double> ray_vs_triangle(const Triangle<double>&, const WatertightRay<double>&, const Vec3<double>&);
template RayHit<float> ray_vs_triangle_moller_trumbore(const Triangle<float>&, const Ray<float>&);
template RayHit<double> ray_vs_triangle_moller_trumbore(const Triangle<double>&, const Ray<double>&);

}  // namespace hitscan
