#include "hitscan/geometry/contact_box_pack.hpp"

#include <bit>

#include "hitscan/assert.hpp"

namespace hitscan {

template <class F>
std::size_t pack_obbs(std::span<const CachedObb<float>> boxes, std::span<ObbPack<F>> packs) {
  constexpr int W = F::width;
  const std::size_t needed = obb_pack_count<F>(boxes.size());
  HITSCAN_ASSERT(packs.size() >= needed);
  const std::size_t written = needed < packs.size() ? needed : packs.size();
  const CachedObb<float> unused{{{0, 0, 0}, {-1, -1, -1}, Mat3<float>::identity()}, 0};
  for (std::size_t p = 0; p < written; ++p) {
    float field[16][W];
    for (int lane = 0; lane < W; ++lane) {
      const std::size_t index = p * W + static_cast<std::size_t>(lane);
      const CachedObb<float>& cached = index < boxes.size() ? boxes[index] : unused;
      const Obb<float>& box = cached.box;
      for (int k = 0; k < 3; ++k) {
        field[k][lane] = box.center[k];
        field[3 + k][lane] = box.half_extents[k];
        for (int r = 0; r < 3; ++r) field[6 + 3 * k + r][lane] = box.rotation.col[k][r];
      }
      field[15][lane] = cached.circumradius;
    }
    ObbPack<F>& pack = packs[p];
    pack.center_x = F::load(field[0]), pack.center_y = F::load(field[1]), pack.center_z = F::load(field[2]);
    pack.half_x = F::load(field[3]), pack.half_y = F::load(field[4]), pack.half_z = F::load(field[5]);
    for (int i = 0; i < 9; ++i) pack.axes[i] = F::load(field[6 + i]);
    pack.circumradius = F::load(field[15]);
  }
  return written;
}

template <class F>
MaskOf<F> overlap_sphere_obbs(const ObbPack<F>& pack, const Sphere<float>& sphere, ContactTolerance<float> tol) {
  // overlap(Sphere, CachedObb) and overlap(Sphere, Obb) of contact_sphere_box.cpp, operation for
  // operation, so that every lane agrees with them bit for bit. Where the scalar code writes
  // hitscan::max(x, 0), which keeps a NaN x, this writes simd max(0, x), which keeps it too.
  if (!(sphere.radius >= 0.0f)) return {};
  const F radius(sphere.radius);
  const F dx = F(sphere.center.x) - pack.center_x;
  const F dy = F(sphere.center.y) - pack.center_y;
  const F dz = F(sphere.center.z) - pack.center_z;
  const F size = max(radius, max(pack.half_x, max(pack.half_y, pack.half_z)));
  const F tolerance = F(tol.absolute) + F(tol.relative) * size;

  // Stage one: the bounding spheres, on the whole pack.
  const F bound = radius + pack.circumradius + tolerance;
  const auto near = ~(dx * dx + dy * dy + dz * dz > bound * bound * F(1.0f + 64.0f * kEpsilon<float>));
  if (none(near)) return {};

  // Stage two: the centre in each box's frame, and its squared distance beyond the faces.
  const F* a = pack.axes;
  const F lx = a[0] * dx + a[1] * dy + a[2] * dz;
  const F ly = a[3] * dx + a[4] * dy + a[5] * dz;
  const F lz = a[6] * dx + a[7] * dy + a[8] * dz;
  const F ex = max(F(0.0f), abs(lx) - pack.half_x);
  const F ey = max(F(0.0f), abs(ly) - pack.half_y);
  const F ez = max(F(0.0f), abs(lz) - pack.half_z);
  const F reach = radius + tolerance;
  const auto valid = (pack.half_x >= F(0.0f)) & (pack.half_y >= F(0.0f)) & (pack.half_z >= F(0.0f));
  return near & valid & (ex * ex + ey * ey + ez * ez <= reach * reach);
}

template <class F>
std::size_t overlap_sphere_obbs(std::span<const ObbPack<F>> packs, const Sphere<float>& sphere,
                                std::span<std::uint32_t> touching, ContactTolerance<float> tol) {
  std::size_t count = 0;
  for (std::size_t p = 0; p < packs.size(); ++p) {
    for (auto lanes = static_cast<unsigned>(bits(overlap_sphere_obbs(packs[p], sphere, tol))); lanes != 0; lanes &= lanes - 1) {
      if (count < touching.size()) touching[count] = static_cast<std::uint32_t>(p * F::width + std::countr_zero(lanes));
      ++count;
    }
  }
  return count;
}

#define HITSCAN_INSTANTIATE_CONTACT_BOX_PACK(F)                                                               \
  template std::size_t pack_obbs(std::span<const CachedObb<float>>, std::span<ObbPack<F>>);                   \
  template MaskOf<F> overlap_sphere_obbs(const ObbPack<F>&, const Sphere<float>&, ContactTolerance<float>);   \
  template std::size_t overlap_sphere_obbs(std::span<const ObbPack<F>>, const Sphere<float>&,                 \
                                           std::span<std::uint32_t>, ContactTolerance<float>);

HITSCAN_INSTANTIATE_CONTACT_BOX_PACK(simd::Float4)
HITSCAN_INSTANTIATE_CONTACT_BOX_PACK(simd::Float8)
#undef HITSCAN_INSTANTIATE_CONTACT_BOX_PACK

}  // namespace hitscan
