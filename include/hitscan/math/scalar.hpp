#pragma once
/// Scalar helpers shared by the math and geometry layers, for float and double alike.

#include <cmath>
#include <limits>
#include <type_traits>

namespace hitscan {

template <class T>
concept Real = std::is_floating_point_v<T>;

template <Real T>
inline constexpr T kInfinity = std::numeric_limits<T>::infinity();

template <Real T>
inline constexpr T kPi = T(3.14159265358979323846);

/// Machine epsilon of T, the spacing of T just above 1.
template <Real T>
inline constexpr T kEpsilon = std::numeric_limits<T>::epsilon();

/// hitscan's working range: the coordinates of colliders' world bounds, of mesh and hull
/// vertices, and of the points, origins and radii that queries bring, lie within
/// ±kMaxCoordinate; the library refuses what reaches beyond (invalid_argument where a status is
/// returned, no hit where the answer is a hit). Within it the float kernels neither overflow nor
/// lose their answers: the squares they form stay below 1e31, and tests scale whole scenes
/// from 1e-6 to the edge of the range and find every answer scaled likewise. (The float spacing
/// at 1e15 is 1.3e8, far past any use.)
inline constexpr float kMaxCoordinate = 1e15f;
/// How the messages that refuse a coordinate beyond the working range name it.
inline constexpr const char kBeyondWorkingRange[] = "lies beyond ±1e15, hitscan's working range";

template <Real T>
constexpr T min(T a, T b) { return b < a ? b : a; }
template <Real T>
constexpr T max(T a, T b) { return a < b ? b : a; }
template <Real T>
constexpr T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }
template <Real T>
constexpr T square(T x) { return x * x; }

/// Finite and not NaN, without relying on std::isfinite under -ffast-math-like flags.
template <Real T>
inline bool is_finite(T x) { return std::isfinite(x); }

}  // namespace hitscan
