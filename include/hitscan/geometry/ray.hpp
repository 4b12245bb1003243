#pragma once
/// The ray and the hit record every ray-vs-shape kernel shares.
///
/// Convention: points on the ray are origin + t * dir for t in [tmin, tmax], t measured in units
/// of dir (a unit dir makes t a distance). dir need not be unit length; a hit whose t would
/// overflow (a subnormal dir, say) is a miss. A ray whose origin or
/// dir is not finite, whose dir is zero, or whose [tmin, tmax] is empty or NaN is invalid, and every
/// kernel reports it as a miss: no NaN ever leaves a kernel.
///
/// Because t is a ratio along dir, it does not change under an affine map of the ray: a kernel may
/// transform the ray into a shape's local frame (rotation, translation, non-uniform scale) and the
/// t it finds there is the world t.

#include <cmath>
#include <cstdint>
#include <limits>

#include "hitscan/math/simd.hpp"
#include "hitscan/math/vec3.hpp"

namespace hitscan {

template <Real T>
struct Ray {
  Vec3<T> origin{};
  Vec3<T> dir{0, 0, 1};
  T tmin = 0;
  T tmax = kInfinity<T>;

  constexpr Vec3<T> at(T t) const { return origin + dir * t; }
};

using Rayf = Ray<float>;
using Rayd = Ray<double>;

/// An origin within the working range (kMaxCoordinate), a finite non-zero dir, tmin <= tmax
/// with tmin finite (tmax may be +inf). Branch-free: x - x is 0 for every finite x and NaN for an
/// infinity or a NaN.
template <Real T>
inline bool is_valid(const Ray<T>& ray) {
  const Vec3<T>& d = ray.dir;
  const T finite = ((d.x - d.x) + (d.y - d.y)) + ((d.z - d.z) + (ray.tmin - ray.tmin));
  const bool in_range = (std::abs(ray.origin.x) <= T(kMaxCoordinate)) & (std::abs(ray.origin.y) <= T(kMaxCoordinate)) &
                        (std::abs(ray.origin.z) <= T(kMaxCoordinate));
  return in_range & (finite == T(0)) & ((d.x != T(0)) | (d.y != T(0)) | (d.z != T(0))) & (ray.tmin <= ray.tmax);
}

#if !defined(HITSCAN_SIMD_SCALAR)
/// The same test on the ray's eight floats as two Float4 (not in the scalar build, which tests
/// the portable forms): every ray query starts with it, and the scalar form costs some 60
/// instructions of a ray that misses a mesh's root.
template <>
inline bool is_valid(const Ray<float>& ray) {
  static_assert(sizeof(Ray<float>) == 8 * sizeof(float), "origin, dir, tmin, tmax packed");
  using simd::Float4;
  const float* f = &ray.origin.x;
  const Float4 a = abs(Float4::load(f));      // |ox| |oy| |oz| |dx|
  const Float4 b = abs(Float4::load(f + 4));  // |dy| |dz| |tmin| |tmax|
  constexpr float kMax = std::numeric_limits<float>::max();
  // NaN compares false: the origin in range, dir and tmin finite (tmax is left to tmin <= tmax).
  const int ok = bits((a <= Float4(kMaxCoordinate, kMaxCoordinate, kMaxCoordinate, kMax)) &
                      (b <= Float4(kMax, kMax, kMax, kInfinity<float>)));
  const int nonzero = bits(a != Float4(0.0f)) & 0b1000;      // dx
  const int nonzero_yz = bits(b != Float4(0.0f)) & 0b0011;   // dy, dz
  return (ok == 0b1111) & ((nonzero | nonzero_yz) != 0) & (ray.tmin <= ray.tmax);
}
#endif

/// t is a hit parameter the ray accepts: within [tmin, tmax] and finite. A tiny direction can
/// put the true hit beyond the largest finite t; that is a miss, never a hit at infinity.
template <Real T>
constexpr bool in_range(T t, const Ray<T>& ray) {
  return t >= ray.tmin && t <= ray.tmax && t < kInfinity<T>;
}

/// Bits of the flags of every hit record (RayHit, QueryHit).
enum HitFlags : std::uint8_t {
  /// The point at tmin is inside a solid shape: the hit is reported at tmin, its normal is the
  /// unit -dir, and t_exit says where the ray leaves the solid. Scene sweeps and overlaps: the
  /// shapes are already in contact at the start.
  kHitStartedInside = 1u << 0,
  /// The ray met an open surface (plane, disc, triangle, polygon) from the side its normal points away from.
  kHitBackFace = 1u << 1,
  /// The crossing is where the ray leaves a solid (scene queries: raycast_all, and raycast with
  /// QueryOptions::solid false).
  kHitExit = 1u << 2,
};

/// Where on a primitive a hit or a closest point lies: inside a face, on an edge or at a vertex.
enum class Feature : std::uint8_t { face, edge, vertex };

/// Result of a ray-vs-shape kernel. On a miss `hit` is false and the other fields keep their
/// defaults (t = t_exit = +inf).
template <Real T>
struct RayHit {
  bool hit = false;
  std::uint32_t flags = 0;
  /// Ray parameter of the hit, in [tmin, tmax].
  T t = kInfinity<T>;
  /// Solid shapes: ray parameter where the ray leaves the solid (the exit point for penetration).
  /// Measured on the unbounded ray, so it can exceed tmax. +inf for open surfaces.
  T t_exit = kInfinity<T>;
  /// origin + t * dir.
  Vec3<T> point{};
  /// Unit normal. Solids: outward at the hit. Open surfaces: the surface's own normal (for a
  /// triangle, (v1 - v0) x (v2 - v0) normalised), not flipped toward the ray; see kHitBackFace.
  Vec3<T> normal{};
  /// Triangles: barycentrics with point = (1 - u - v) v0 + u v1 + v v2. Zero for other shapes.
  T u = 0, v = 0;

  explicit constexpr operator bool() const { return hit; }
  constexpr bool started_inside() const { return (flags & kHitStartedInside) != 0; }
  constexpr bool back_face() const { return (flags & kHitBackFace) != 0; }
};

using RayHitf = RayHit<float>;
using RayHitd = RayHit<double>;

}  // namespace hitscan
