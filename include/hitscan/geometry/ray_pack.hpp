#pragma once
/// Shared pieces of the SIMD pack kernels: one ray tested against a pack of W shapes stored
/// structure-of-arrays (W = 4 with simd::Float4, W = 8 with simd::Float8).

#include <utility>

#include "hitscan/math/simd.hpp"

namespace hitscan {

/// The mask type that goes with a SIMD float type (simd::Mask4 for simd::Float4, ...).
template <class F>
using MaskOf = decltype(std::declval<F>() < std::declval<F>());

/// Per-lane result of a pack kernel: lanes that hit, their t, and for triangles the barycentrics
/// (u weights v1, v weights v2, as in RayHit) and the facing. Lanes that miss hold t = +inf.
template <class F>
struct PackHit {
  MaskOf<F> hit{};
  F t{};
  F u{};
  F v{};
  /// Triangles: lanes whose hit is on the back face (kHitBackFace of the scalar kernel).
  MaskOf<F> back_face{};
};

}  // namespace hitscan
