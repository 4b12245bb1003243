#pragma once
// ProgramReader: turns fuzz input bytes into the arguments of C API calls. Each value takes a
// selector byte that favours the values that matter to geometry (0, +-1, tiny, huge, the
// infinities, NaN, small multiples of 1/4) and falls back to raw bits, so that mutations reach
// both ordinary scenes and hostile ones. Reading past the end gives zeros, so every input is a
// complete program.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "hitscan/hitscan.h"

namespace hitscan::fuzz {

class ProgramReader {
 public:
  ProgramReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  bool done() const { return position_ >= size_; }

  std::uint8_t byte() { return position_ < size_ ? data_[position_++] : 0; }

  std::uint32_t u32() {
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i) value |= std::uint32_t{byte()} << (8 * i);
    return value;
  }

  std::uint64_t u64() { return std::uint64_t{u32()} | (std::uint64_t{u32()} << 32); }

  /// A count in [0, limit].
  std::size_t count(std::size_t limit) { return byte() % (limit + 1); }

  float real() {
    static constexpr float kSpecial[] = {0.0f,
                                         -0.0f,
                                         1.0f,
                                         -1.0f,
                                         0.5f,
                                         2.0f,
                                         1e-30f,
                                         -1e-30f,
                                         1e30f,
                                         -1e30f,
                                         std::numeric_limits<float>::max(),
                                         std::numeric_limits<float>::denorm_min(),
                                         std::numeric_limits<float>::infinity(),
                                         -std::numeric_limits<float>::infinity(),
                                         std::numeric_limits<float>::quiet_NaN(),
                                         1e7f};
    const std::uint8_t selector = byte();
    if (selector < 16) return kSpecial[selector];
    if (selector < 192) return (static_cast<float>(selector) - 104.0f) * 0.25f;  // -22 ... 21.75
    const std::uint32_t bits = u32();
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }

  hs_vec3 vec3() { return {real(), real(), real()}; }

  hs_quat quat() {
    if (byte() % 4 != 0) return hs_quat_default();
    return {real(), real(), real(), real()};
  }

  /// A transform: mostly uniform scales, which every shape takes.
  hs_transform transform() {
    hs_transform t = hs_transform_default();
    t.rotation = quat();
    t.translation = vec3();
    const std::uint8_t scale = byte() % 4;
    if (scale == 1) {
      const float s = real();
      t.scale = {s, s, s};
    } else if (scale >= 2) {
      t.scale = vec3();
    }
    return t;
  }

  /// Reads a shape; a polygon's vertices or a hull's points go to `polygon_storage`, which must
  /// outlive the shape.
  hs_shape shape(std::vector<hs_vec3>& polygon_storage) {
    // 0 ... 7: the seven shape types and one that is none (C lets any int through).
    const int type = byte() % 8;
    hs_shape shape = hs_shape_default(static_cast<hs_shape_type>(type));
    shape.type = static_cast<hs_shape_type>(type);
    const bool defaults = byte() % 4 == 0;
    if (defaults && type != HS_SHAPE_CONVEX_POLYGON && type != HS_SHAPE_CONVEX_HULL) return shape;
    switch (type) {
      case HS_SHAPE_SPHERE: shape.data.sphere = {vec3(), real()}; break;
      case HS_SHAPE_BOX: shape.data.box = {vec3(), vec3(), quat()}; break;
      case HS_SHAPE_CAPSULE: shape.data.capsule = {vec3(), vec3(), real()}; break;
      case HS_SHAPE_CYLINDER: shape.data.cylinder = {vec3(), vec3(), real()}; break;
      case HS_SHAPE_PLANE: shape.data.plane = {vec3(), real()}; break;
      case HS_SHAPE_CONVEX_POLYGON: {
        polygon_storage.resize(count(7));
        // A regular polygon in the plane z = 0 most of the time, so that adds can succeed.
        const bool regular = byte() % 2 == 0;
        for (std::size_t i = 0; i < polygon_storage.size(); ++i) {
          const float angle = 6.2831853f * static_cast<float>(i) / static_cast<float>(polygon_storage.size());
          polygon_storage[i] = regular ? hs_vec3{std::cos(angle), std::sin(angle), 0} : vec3();
        }
        shape.data.convex_polygon = {polygon_storage.empty() && byte() % 2 ? nullptr : polygon_storage.data(),
                                     polygon_storage.size()};
        break;
      }
      case HS_SHAPE_CONVEX_HULL: {
        polygon_storage.resize(count(12));
        // A box's corners, scaled, most of the time (so that adds succeed), else any points.
        const bool box = byte() % 2 == 0;
        const float size = box ? real() : 0.0f;
        for (std::size_t i = 0; i < polygon_storage.size(); ++i) {
          polygon_storage[i] = box ? hs_vec3{(i & 1) ? size : -size, (i & 2) ? size : -size, (i & 4) ? size : -size}
                                   : vec3();
        }
        shape.data.convex_hull = {polygon_storage.empty() && byte() % 2 ? nullptr : polygon_storage.data(),
                                  polygon_storage.size()};
        break;
      }
      default: break;
    }
    return shape;
  }

  hs_ray ray() {
    hs_ray ray = hs_ray_default();
    ray.origin = vec3();
    ray.direction = vec3();
    if (byte() % 2) ray.max_distance = real();
    return ray;
  }

  /// A triangle mesh's arrays, with indices mostly in range (and sometimes just past it).
  void mesh(std::vector<float>& positions, std::vector<std::uint32_t>& indices) {
    positions.resize(3 * count(12));
    for (float& p : positions) p = real();
    indices.resize(3 * count(12));
    const std::uint32_t vertex_count = static_cast<std::uint32_t>(positions.size() / 3);
    for (std::uint32_t& index : indices) {
      const std::uint8_t selector = byte();
      index = selector < 240 ? selector % (vertex_count + 1) : u32();
    }
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t position_ = 0;
};

}  // namespace hitscan::fuzz
