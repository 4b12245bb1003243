#include "ray_sets.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace hitscan::bench {

RaySet coherent_rays(const TriangleMesh& mesh, int width, int height) {
  const Aabbf bounds = mesh.bounds();
  const Vec3f center = bounds.center();
  const float radius = 0.5f * length(bounds.extent());
  // An oblique view, so that no mesh is seen exactly along an axis of its file's frame, from
  // outside the bounding sphere (hence outside the box).
  const Vec3f back = normalize(Vec3f{0.45f, 0.35f, 1.0f});
  const float distance = 2.0f * radius;
  const Vec3f eye = center + back * distance;
  const Vec3f forward = -back;
  const Vec3f right = normalize(cross(forward, Vec3f{0, 1, 0}));
  const Vec3f up = cross(right, forward);
  // The narrowest frustum of the image's aspect that holds every triangle: the mesh fills the frame.
  float half_width = 0, half_height = 0;
  for (const TriangleMesh::Indices& triangle : mesh.triangles()) {
    for (const std::uint32_t corner : triangle) {
      const Vec3f v = mesh.positions()[corner] - eye;
      const float depth = dot(v, forward);
      half_width = std::max(half_width, std::abs(dot(v, right)) / depth);
      half_height = std::max(half_height, std::abs(dot(v, up)) / depth);
    }
  }
  const float aspect = float(width) / float(height);
  half_width = std::max(half_width, half_height * aspect);
  half_height = half_width / aspect;
  const float tmax = (distance + radius) * 1.001f;

  RaySet set{"coherent", {}, true};
  append_camera_rays({eye, forward, right, up, half_width, half_height, tmax}, width, height, set.rays);
  return set;
}

void append_camera_rays(const Camera& camera, int width, int height, std::vector<Rayf>& rays) {
  rays.reserve(rays.size() + std::size_t(width) * std::size_t(height));
  const auto add = [&](int x, int y) {
    const float sx = (2.0f * (float(x) + 0.5f) / float(width) - 1.0f) * camera.half_width;
    const float sy = (1.0f - 2.0f * (float(y) + 0.5f) / float(height)) * camera.half_height;
    rays.push_back({camera.eye, normalize(camera.forward + camera.right * sx + camera.up * sy), 0.0f, camera.tmax});
  };
  // 8x8 tiles, each made of eight 4x2 sub-tiles (two across, four down).
  for (int tile_y = 0; tile_y < height; tile_y += 8) {
    for (int tile_x = 0; tile_x < width; tile_x += 8) {
      for (int sub_y = tile_y; sub_y < tile_y + 8; sub_y += 2) {
        for (int sub_x = tile_x; sub_x < tile_x + 8; sub_x += 4) {
          for (int y = sub_y; y < sub_y + 2; ++y) {
            for (int x = sub_x; x < sub_x + 4; ++x) add(x, y);
          }
        }
      }
    }
  }
}

RaySet incoherent_rays(const Aabbf& bounds, std::size_t count) {
  std::mt19937 generator(20240611);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const Vec3f size = bounds.extent();
  const float tmax = length(size) * 1.001f;  // no point of the box is farther from another
  RaySet set{"incoherent", {}, false, true, true};
  set.rays.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const Vec3f origin = bounds.min + mul(size, Vec3f{unit(generator), unit(generator), unit(generator)});
    // Uniform on the sphere: z uniform in [-1, 1], azimuth uniform (Archimedes' hat-box theorem).
    const float z = 2.0f * unit(generator) - 1.0f;
    const float azimuth = 2.0f * kPi<float> * unit(generator);
    const float ring = std::sqrt(std::max(0.0f, 1.0f - z * z));
    set.rays.push_back({origin, {ring * std::cos(azimuth), ring * std::sin(azimuth), z}, 0.0f, tmax});
  }
  return set;
}

}  // namespace hitscan::bench
