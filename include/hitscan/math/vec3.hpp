#pragma once
/// Vec3: a 3-component vector of float or double, a plain aggregate with value semantics.

#include "hitscan/math/scalar.hpp"

namespace hitscan {

template <Real T>
struct Vec3 {
  T x = 0, y = 0, z = 0;

  constexpr T operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
  constexpr T& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }

  constexpr Vec3 operator-() const { return {-x, -y, -z}; }
  constexpr Vec3& operator+=(const Vec3& b) { x += b.x; y += b.y; z += b.z; return *this; }
  constexpr Vec3& operator-=(const Vec3& b) { x -= b.x; y -= b.y; z -= b.z; return *this; }
  constexpr Vec3& operator*=(T s) { x *= s; y *= s; z *= s; return *this; }

  friend constexpr bool operator==(const Vec3&, const Vec3&) = default;
};

using Vec3f = Vec3<float>;
using Vec3d = Vec3<double>;

template <Real T> constexpr Vec3<T> operator+(Vec3<T> a, Vec3<T> b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <Real T> constexpr Vec3<T> operator-(Vec3<T> a, Vec3<T> b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <Real T> constexpr Vec3<T> operator*(Vec3<T> a, T s) { return {a.x * s, a.y * s, a.z * s}; }
template <Real T> constexpr Vec3<T> operator*(T s, Vec3<T> a) { return {a.x * s, a.y * s, a.z * s}; }
template <Real T> constexpr Vec3<T> operator/(Vec3<T> a, T s) { return {a.x / s, a.y / s, a.z / s}; }
/// Component-wise product and quotient.
template <Real T> constexpr Vec3<T> mul(Vec3<T> a, Vec3<T> b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }
template <Real T> constexpr Vec3<T> div(Vec3<T> a, Vec3<T> b) { return {a.x / b.x, a.y / b.y, a.z / b.z}; }

template <Real T> constexpr T dot(Vec3<T> a, Vec3<T> b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
template <Real T> constexpr Vec3<T> cross(Vec3<T> a, Vec3<T> b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <Real T> constexpr T length_squared(Vec3<T> a) { return dot(a, a); }
template <Real T> inline T length(Vec3<T> a) { return std::sqrt(dot(a, a)); }
template <Real T> inline T distance(Vec3<T> a, Vec3<T> b) { return length(a - b); }
template <Real T> constexpr T distance_squared(Vec3<T> a, Vec3<T> b) { return length_squared(a - b); }

/// Unit vector along a; the zero vector (or a non-finite one) gives the zero vector.
template <Real T> inline Vec3<T> normalize(Vec3<T> a) {
  const T len2 = dot(a, a);
  if (len2 >= std::numeric_limits<T>::min() && is_finite(len2)) return a * (T(1) / std::sqrt(len2));
  // |a|² overflowed or fell below the normal range although a may be finite and non-zero:
  // scale by the largest component first.
  if (!is_finite(a)) return {};
  const T largest = max_component(abs(a));
  if (!(largest > T(0))) return {};
  const Vec3<T> s = a / largest;
  return s * (T(1) / std::sqrt(dot(s, s)));
}

template <Real T> constexpr Vec3<T> min(Vec3<T> a, Vec3<T> b) { return {min(a.x, b.x), min(a.y, b.y), min(a.z, b.z)}; }
template <Real T> constexpr Vec3<T> max(Vec3<T> a, Vec3<T> b) { return {max(a.x, b.x), max(a.y, b.y), max(a.z, b.z)}; }
template <Real T> constexpr Vec3<T> clamp(Vec3<T> p, Vec3<T> lo, Vec3<T> hi) { return min(max(p, lo), hi); }
template <Real T> inline Vec3<T> abs(Vec3<T> a) { return {std::abs(a.x), std::abs(a.y), std::abs(a.z)}; }
template <Real T> constexpr T min_component(Vec3<T> a) { return min(a.x, min(a.y, a.z)); }
template <Real T> constexpr T max_component(Vec3<T> a) { return max(a.x, max(a.y, a.z)); }
/// Index (0, 1, 2) of the component with the largest magnitude.
template <Real T> inline int max_dimension(Vec3<T> a) {
  const Vec3<T> m = abs(a);
  // Selects rather than nested branches (the axes of random rays are unpredictable); the same
  // answer as m.x >= m.y ? (m.x >= m.z ? 0 : 2) : (m.y >= m.z ? 1 : 2), NaN included.
  const bool x_over_y = m.x >= m.y;
  const int first = x_over_y ? 0 : 1;
  const T larger = x_over_y ? m.x : m.y;
  return larger >= m.z ? first : 2;
}
template <Real T> inline bool is_finite(Vec3<T> a) { return is_finite(a.x) && is_finite(a.y) && is_finite(a.z); }
/// Within hitscan's working range, ±kMaxCoordinate on each axis (so finite; NaN is not).
template <Real T> inline bool in_working_range(T a) { return std::abs(a) <= T(kMaxCoordinate); }
template <Real T> inline bool in_working_range(Vec3<T> a) {
  return std::abs(a.x) <= T(kMaxCoordinate) && std::abs(a.y) <= T(kMaxCoordinate) && std::abs(a.z) <= T(kMaxCoordinate);
}

/// Linear interpolation a + s (b - a).
template <Real T> constexpr Vec3<T> lerp(Vec3<T> a, Vec3<T> b, T s) { return a + (b - a) * s; }

/// Converts between precisions.
template <Real To, Real From> constexpr Vec3<To> vec3_cast(Vec3<From> a) {
  return {static_cast<To>(a.x), static_cast<To>(a.y), static_cast<To>(a.z)};
}

/// Two unit vectors that complete the unit vector n to a right-handed orthonormal basis
/// (Duff et al., "Building an Orthonormal Basis, Revisited", JCGT 2017).
template <Real T> inline void orthonormal_basis(Vec3<T> n, Vec3<T>& b1, Vec3<T>& b2) {
  const T sign = std::copysign(T(1), n.z);
  const T a = T(-1) / (sign + n.z);
  const T b = n.x * n.y * a;
  b1 = {T(1) + sign * n.x * n.x * a, sign * b, -sign * n.x};
  b2 = {b, sign + n.y * n.y * a, -n.y};
}

}  // namespace hitscan
