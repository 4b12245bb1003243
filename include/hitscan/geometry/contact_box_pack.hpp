#pragma once
/// One sphere against many oriented boxes, W at a time: the boxes stored structure-of-arrays in
/// packs of W lanes (W = 4 with simd::Float4, W = 8 with simd::Float8), float only.
///
/// Each lane gives exactly overlap(sphere, CachedObb) of contact_sphere_box.hpp, which is
/// overlap(sphere, box) of the cached box: the same operations in the same order, lane by lane.
/// The bounding-sphere rejection of the two-stage test runs first on the whole pack and skips the
/// exact test when it rejects every lane.

#include <cstddef>
#include <cstdint>
#include <span>

#include "hitscan/geometry/contact_sphere_box.hpp"
#include "hitscan/geometry/ray_pack.hpp"

namespace hitscan {

/// W oriented boxes, structure-of-arrays, as CachedObb<float> lane by lane. Unused lanes hold
/// half extents of -1, which touch nothing (pack_obbs fills them so).
template <class F>
struct ObbPack {
  F center_x{}, center_y{}, center_z{};
  F half_x{}, half_y{}, half_z{};
  /// The box axes, the columns of its rotation: axes[3 * c + r] is component r of axis c.
  F axes[9]{};
  /// CachedObb::circumradius.
  F circumradius{};
};

/// How many packs of F::width lanes hold `boxes` boxes.
template <class F>
constexpr std::size_t obb_pack_count(std::size_t boxes) {
  return (boxes + F::width - 1) / F::width;
}

/// Lays out boxes in packs: box i goes to lane i % W of packs[i / W]; the unused lanes of the
/// last pack never touch. packs must hold at least obb_pack_count<F>(boxes.size()) packs
/// (asserted); returns that count. Nothing is allocated.
template <class F>
std::size_t pack_obbs(std::span<const CachedObb<float>> boxes, std::span<ObbPack<F>> packs);

/// The lanes of the pack whose box touches the sphere: lane i of the mask is
/// overlap(sphere, box i, tol) for the CachedObb the lane was packed from.
template <class F>
MaskOf<F> overlap_sphere_obbs(const ObbPack<F>& pack, const Sphere<float>& sphere, ContactTolerance<float> tol = {});

/// The indices (pack * W + lane, ascending) of the boxes that touch the sphere, written to
/// `touching`. Returns how many boxes touch; when that is more than touching.size(), only the
/// first touching.size() indices are written, so a caller can size a buffer and ask again.
template <class F>
std::size_t overlap_sphere_obbs(std::span<const ObbPack<F>> packs, const Sphere<float>& sphere,
                                std::span<std::uint32_t> touching, ContactTolerance<float> tol = {});

}  // namespace hitscan
