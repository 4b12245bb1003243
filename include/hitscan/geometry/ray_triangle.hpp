#pragma once
/// Ray vs triangle: the watertight test (default) and Moller–Trumbore.

#include "hitscan/geometry/ray.hpp"
#include "hitscan/geometry/ray_pack.hpp"
#include "hitscan/geometry/shapes.hpp"

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

  static WatertightRay from_ray(const Ray<T>& ray);
};

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

}  // namespace hitscan
