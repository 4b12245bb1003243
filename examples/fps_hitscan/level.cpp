#include "level.hpp"

#include <iterator>
#include <memory>
#include <utility>

namespace fps {
namespace {

using hitscan::TriangleMesh;
using hitscan::Vec3f;

hitscan::MeshShape make_shape(std::vector<Vec3f> positions, std::vector<TriangleMesh::Indices> triangles) {
  auto mesh =
      std::make_shared<const TriangleMesh>(TriangleMesh::make(std::move(positions), std::move(triangles)).value());
  return std::make_shared<const hitscan::MeshBvh>(hitscan::MeshBvh::build(std::move(mesh)).value());
}

// A grid of square cells at y = 0, each cell two triangles wound counter-clockwise seen from above,
// so that the floor's front faces up.
hitscan::MeshShape floor_shape() {
  const int cells = static_cast<int>(2.0f * kFloorHalf / kFloorCell);
  const auto corner = [cells](int i, int k) { return std::uint32_t(k * (cells + 1) + i); };
  std::vector<Vec3f> positions;
  for (int k = 0; k <= cells; ++k) {
    for (int i = 0; i <= cells; ++i) {
      positions.push_back({-kFloorHalf + i * kFloorCell, 0, -kFloorHalf + k * kFloorCell});
    }
  }
  std::vector<TriangleMesh::Indices> triangles;
  for (int k = 0; k < cells; ++k) {
    for (int i = 0; i < cells; ++i) {
      triangles.push_back({corner(i, k), corner(i + 1, k + 1), corner(i + 1, k)});
      triangles.push_back({corner(i, k), corner(i, k + 1), corner(i + 1, k + 1)});
    }
  }
  return make_shape(std::move(positions), std::move(triangles));
}

// The cube [-0.5, 0.5]^3: eight shared corners (corner index = x, y, z sign bits) and two
// triangles a face, wound so that every face's front points out. A ray through a crate then meets
// a front face going in and a back face coming out, which is how a penetrating shot pairs them.
hitscan::MeshShape cube_shape() {
  std::vector<Vec3f> positions;
  for (int c = 0; c < 8; ++c) {
    positions.push_back({(c & 1) ? 0.5f : -0.5f, (c & 2) ? 0.5f : -0.5f, (c & 4) ? 0.5f : -0.5f});
  }
  const auto index_of = [](Vec3f p) { return std::uint32_t((p.x > 0) | ((p.y > 0) << 1) | ((p.z > 0) << 2)); };
  std::vector<TriangleMesh::Indices> triangles;
  for (int axis = 0; axis < 3; ++axis) {
    for (const float side : {-1.0f, 1.0f}) {
      // u x v = the outward normal: the next two axes in cyclic order, swapped on the negative side.
      Vec3f normal{}, u{}, v{};
      normal[axis] = side;
      u[(axis + 1) % 3] = 1;
      v[(axis + 2) % 3] = 1;
      if (side < 0) std::swap(u, v);
      const Vec3f center = normal * 0.5f;
      const std::uint32_t p00 = index_of(center - u * 0.5f - v * 0.5f), p10 = index_of(center + u * 0.5f - v * 0.5f);
      const std::uint32_t p11 = index_of(center + u * 0.5f + v * 0.5f), p01 = index_of(center - u * 0.5f + v * 0.5f);
      triangles.push_back({p00, p10, p11});
      triangles.push_back({p00, p11, p01});
    }
  }
  return make_shape(std::move(positions), std::move(triangles));
}

// The wedge in its own frame: from the origin, rising along +x, `width` deep in +z, closed by a
// bottom, a vertical back at x = length and two triangular sides; every face wound outwards.
hitscan::MeshShape ramp_shape(const RampLayout& ramp) {
  const float l = ramp.length, w = ramp.width, h = ramp.height;
  std::vector<Vec3f> positions = {{0, 0, 0}, {l, 0, 0}, {l, 0, w}, {0, 0, w}, {l, h, 0}, {l, h, w}};
  std::vector<TriangleMesh::Indices> triangles = {
      {0, 1, 2}, {0, 2, 3},  // bottom, facing -y
      {0, 3, 5}, {0, 5, 4},  // slope, facing up and back towards -x
      {1, 4, 5}, {1, 5, 2},  // back, facing +x
      {0, 4, 1},             // side at z = 0, facing -z
      {3, 2, 5},             // side at z = width, facing +z
  };
  return make_shape(std::move(positions), std::move(triangles));
}

}  // namespace

Level build_level(hitscan::Scene& scene) {
  Level level;
  level.floor_mesh = floor_shape();
  level.crate_mesh = cube_shape();
  level.ramp_mesh = ramp_shape(kRamp);

  const auto add = [&](hitscan::ColliderShape shape, const hitscan::Transformf& transform, ObjectTag tag) {
    level.colliders.push_back(scene.add({std::move(shape), transform, kLayerWorld, encode(tag)}).value());
  };
  add(level.floor_mesh, {}, {ObjectKind::floor});
  for (std::uint32_t i = 0; i < std::size(kWalls); ++i) {
    hitscan::Transformf at;
    at.translation = kWalls[i].center;
    add(hitscan::Obbf{{}, kWalls[i].half_extents, hitscan::Mat3f::identity()}, at, {ObjectKind::wall, i});
  }
  for (std::uint32_t i = 0; i < std::size(kCrates); ++i) {
    hitscan::Transformf at;
    at.translation = kCrates[i].center;
    at.scale = kCrates[i].size;  // a mesh takes any scale, non-uniform included
    add(level.crate_mesh, at, {ObjectKind::crate, i});
  }
  hitscan::Transformf ramp_at;
  ramp_at.translation = kRamp.low_corner;
  add(level.ramp_mesh, ramp_at, {ObjectKind::ramp, 0});
  return level;
}

}  // namespace fps
