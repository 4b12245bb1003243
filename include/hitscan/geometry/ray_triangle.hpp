#pragma once
/// Ray vs triangle: the watertight test (default) and Moller–Trumbore.

#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/ray_pack.hpp"
#include "hitscan/geometry/shapes.hpp"
#include "hitscan/math/simd.hpp"

namespace hitscan {

/// A ray prepared for the watertight test: the axis along which dir is largest becomes z, and the
/// shear that maps dir onto that axis (Woop, Benthin, Wald, "Watertight Ray/Triangle
/// Intersection", JCGI 2013). Compute once per ray, test many triangles.
template <Real T>
struct WatertightRay {
  Vec3<T> origin{};
  T tmin = 0;
  T tmax = kInfinity<T>;
  int kx = 0, ky = 1, kz = 2;
  T shear_x = 0, shear_y = 0, shear_z = 1;
  bool valid = false;

  /// The prepared ray, or one with valid false (every test misses) when is_valid(ray) is false.
  static WatertightRay from_ray(const Ray<T>& ray);
  /// The same for a ray the caller has already checked with is_valid.
  static WatertightRay from_valid_ray(const Ray<T>& ray);
};

// Inline: a traversal keeps the prepared ray in registers.
template <Real T>
inline WatertightRay<T> WatertightRay<T>::from_ray(const Ray<T>& ray) {
  if (!is_valid(ray)) return {};
  return from_valid_ray(ray);
}

template <Real T>
inline WatertightRay<T> WatertightRay<T>::from_valid_ray(const Ray<T>& ray) {
  WatertightRay<T> r;
  r.valid = true;
  r.origin = ray.origin;
  r.tmin = ray.tmin;
  r.tmax = ray.tmax;
  // Integer arithmetic rather than branches: the axes of random rays are unpredictable, and the
  // compiler turns plain selects among these small integers into jumps that a stream of random
  // rays mispredicts about half the time. The direction's components are read where the ray
  // keeps them, by index.
  const T* d = &ray.dir.x;
  static_assert(sizeof(Vec3<T>) == 3 * sizeof(T), "x, y, z side by side");
  const Vec3<T> m = abs(ray.dir);
  // max_dimension's answer, NaN included: x over y when m.x >= m.y, then the larger over z.
  const int x_over_y = int(m.x >= m.y);
  const T larger = x_over_y != 0 ? m.x : m.y;
  const int z_wins = int(!(larger >= m.z));
  const int xy = 1 - x_over_y;
  r.kz = xy + z_wins * (2 - xy);
  // The next axis after kz and the one after that (x -> y -> z -> x), two bits per axis.
  const int next = (0b001001 >> (2 * r.kz)) & 3, after = (0b010010 >> (2 * r.kz)) & 3;
  // Keep the triangle's winding in the sheared frame when the main axis points backwards.
  const int backwards = -int(d[r.kz] < T(0));  // all bits set or none
  const int swap = (next ^ after) & backwards;
  r.kx = next ^ swap;
  r.ky = after ^ swap;
  const T dz = d[r.kz];
  r.shear_x = d[r.kx] / dz;
  r.shear_y = d[r.ky] / dz;
  r.shear_z = T(1) / dz;
  return r;
}

/// Watertight test. Edge functions are computed in the sheared frame, with a double-precision
/// retry when one is exactly zero in float, so a ray through an edge or vertex shared by
/// triangles of a closed mesh never slips between them. On top of the paper, a tie-breaking rule
/// for edge functions that are exactly zero makes every triangle answer as if the ray were shifted
/// sideways by one fixed infinitesimal (a top-left rule applied to counter-clockwise edges): a ray
/// through a shared edge or vertex of consistently wound triangles hits exactly one of them, and
/// a ray grazing a silhouette hits both or neither, so counting crossings keeps its parity.
/// Both faces are hit; kHitBackFace when dot(dir, normal) > 0. A degenerate (zero-area) triangle,
/// a ray in the triangle's plane, or an invalid ray is a miss.
template <Real T>
RayHit<T> ray_vs_triangle(const Triangle<T>& triangle, const Ray<T>& ray);

/// The same test with the ray's precomputation done once by the caller.
template <Real T>
RayHit<T> ray_vs_triangle(const Triangle<T>& triangle, const WatertightRay<T>& ray, const Vec3<T>& dir);

/// Moller–Trumbore ("Fast, Minimum Storage Ray/Triangle Intersection", JGT 1997): fewer
/// operations, not watertight (a ray through a shared edge may miss both triangles). Same
/// output conventions; rays with |det| below a tiny threshold relative to the triangle count as
/// parallel and miss.
template <Real T>
RayHit<T> ray_vs_triangle_moller_trumbore(const Triangle<T>& triangle, const Ray<T>& ray);

/// W triangles, structure-of-arrays. Unused lanes should be all zero (degenerate: never hit).
template <class F>
struct TrianglePack {
  F v0_x{}, v0_y{}, v0_z{}, v1_x{}, v1_y{}, v1_z{}, v2_x{}, v2_y{}, v2_z{};
};

/// One ray against the W triangles of a pack with the watertight test: the same result as
/// ray_vs_triangle lane by lane (hit, t, u, v), including the edge ownership rule. Lanes whose
/// edge function is exactly zero are rare and are finished by the scalar kernel.
template <class F>
PackHit<F> ray_vs_triangles(const TrianglePack<F>& pack, const WatertightRay<float>& ray, const Vec3<float>& dir);

namespace detail {
/// `out` with the lanes of `rare` (edge function exactly zero) redone by the scalar kernel. By
/// value: a pack hit passed by reference would live in memory on the common path too.
template <class F>
PackHit<F> finish_edge_lanes(const TrianglePack<F>& pack, const WatertightRay<float>& ray, const Vec3<float>& dir,
                             int rare, PackHit<F> out);
}  // namespace detail

// Defined here so that a traversal inlines it and keeps the lanes in registers.
template <class F>
inline PackHit<F> ray_vs_triangles(const TrianglePack<F>& pack, const WatertightRay<float>& ray, const Vec3<float>& dir) {
  // The result is built only where it is returned, from values in registers: a pack hit made
  // first and filled in would be zeroed and kept in memory for every pack a walk tests.
  const auto none = [] {
    PackHit<F> miss;
    miss.t = F(kInfinity<float>);
    return miss;
  };
  if (!ray.valid) return none();
  // The coordinates along kx, ky, kz are loaded straight from the pack at per-ray offsets:
  // indexing arrays of registers by a run-time axis would send them through the stack.
  const auto* base = reinterpret_cast<const char*>(&pack);
  const auto coordinate = [&](int vertex, int axis) {
    return *reinterpret_cast<const F*>(base + (3 * vertex + axis) * sizeof(F));
  };
  const float origin[3] = {ray.origin.x, ray.origin.y, ray.origin.z};  // indexed without branches
  const F ox(origin[ray.kx]), oy(origin[ray.ky]), oz(origin[ray.kz]);
  const F sx(ray.shear_x), sy(ray.shear_y), sz(ray.shear_z);
  const F az = coordinate(0, ray.kz) - oz, bz = coordinate(1, ray.kz) - oz, cz = coordinate(2, ray.kz) - oz;
  const F ax = (coordinate(0, ray.kx) - ox) - sx * az, ay = (coordinate(0, ray.ky) - oy) - sy * az;
  const F bx = (coordinate(1, ray.kx) - ox) - sx * bz, by = (coordinate(1, ray.ky) - oy) - sy * bz;
  const F cx = (coordinate(2, ray.kx) - ox) - sx * cz, cy = (coordinate(2, ray.ky) - oy) - sy * cz;
  const F u = cx * by - cy * bx;
  const F v = ax * cy - ay * cx;
  const F w = bx * ay - by * ax;
  const F zero(0.0f);
  // A lane is outside when its edge functions have both signs, and a candidate when they share
  // one (zeros included), read off their least and greatest. Edge functions are finite for a
  // triangle within the working range, and all three NaN in a padding lane, which is then
  // neither (min and max of NaNs are NaN), as with comparisons of each.
  const F least = min(min(u, v), w), greatest = max(max(u, v), w);
  const auto outside = (least < zero) & (greatest > zero);
  // Most packs a traversal reaches miss in every lane (the ray passes beside them): leave before
  // the division.
  const auto same_sign = (least >= zero) | (greatest <= zero);
  if (!any(same_sign)) return none();
  const F det = u + v + w;
  const F inv_det = F(1.0f) / det;
  const F b1 = v * inv_det, b2 = w * inv_det;  // ray_vs_triangle's t from the barycentrics
  const F t = (u * inv_det) * (sz * az) + b1 * (sz * bz) + b2 * (sz * cz);
  const auto on_edge = (u == zero) | (v == zero) | (w == zero);
  const auto accepted = andnot((det != zero) & (abs(det) < F(kInfinity<float>)) & (t >= F(ray.tmin)) &
                                   (t <= F(ray.tmax)) & (t < F(kInfinity<float>)),
                               outside);
  const auto hit = andnot(accepted, on_edge);
  const PackHit<F> out{hit, select(hit, t, F(kInfinity<float>)), b1, b2, det < zero};
  // A lane with an edge function of exactly zero needs the double retry and the ownership
  // rule: hand it to the scalar kernel (rare: the ray passes exactly through an edge's line).
  // Its result is a separate object, so that only this path goes through memory.
  const int rare = bits(on_edge & ~outside);
  if (rare != 0) [[unlikely]] {
    const PackHit<F> finished = detail::finish_edge_lanes(pack, ray, dir, rare, out);
    return finished;
  }
  return out;
}

}  // namespace hitscan
