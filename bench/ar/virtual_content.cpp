#include "virtual_content.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hitscan::bench {
namespace {

constexpr float kRibbonHalfWidth = 0.1f, kRibbonLift = 0.01f;
constexpr float kArrowSpacing = 2.0f, kArrowHalfLength = 0.3f, kArrowHalfWidth = 0.2f, kArrowLift = 0.02f;
constexpr float kSignHalfWidth = 0.5f, kSignHalfHeight = 0.3f, kSignOffset = 0.05f;

// Distance along the ray to the triangle, or +inf (Moller and Trumbore 1997; the quads are the
// test's input, not the library's, so a plain test is enough).
float ray_triangle(Vec3f origin, Vec3f dir, Vec3f a, Vec3f b, Vec3f c) {
  const Vec3f e1 = b - a, e2 = c - a, p = cross(dir, e2);
  const float det = dot(e1, p);
  if (std::abs(det) < 1e-12f) return std::numeric_limits<float>::infinity();
  const float inv = 1.0f / det;
  const Vec3f s = origin - a;
  const float u = dot(s, p) * inv;
  if (u < 0.0f || u > 1.0f) return std::numeric_limits<float>::infinity();
  const Vec3f q = cross(s, e1);
  const float v = dot(dir, q) * inv;
  if (v < 0.0f || u + v > 1.0f) return std::numeric_limits<float>::infinity();
  const float t = dot(e2, q) * inv;
  return t > 0.0f ? t : std::numeric_limits<float>::infinity();
}

}  // namespace

VirtualContent make_virtual_content(const DrapedRoute& draped, const std::vector<Vec3f>& sign_points,
                                    const std::vector<Vec3f>& sign_normals, Vec3f up) {
  VirtualContent content;
  const std::vector<DrapedPoint>& points = draped.points;
  for (std::size_t k = 1; k < points.size(); ++k) {
    const DrapedPoint& a = points[k - 1];
    const DrapedPoint& b = points[k];
    if (a.status == DrapeStatus::no_surface || b.status == DrapeStatus::no_surface) continue;
    const Vec3f side = normalize(cross(b.route_point - a.route_point, up)) * kRibbonHalfWidth;
    const Vec3f pa = a.position + a.normal * kRibbonLift, pb = b.position + b.normal * kRibbonLift;
    content.quads.push_back({pa - side, pb - side, pb + side, pa + side});
    ++content.ribbon_quads;
  }
  for (const ArrowPose& arrow : arrow_poses(draped, kArrowSpacing)) {
    const Vec3f c = arrow.position + arrow.up * kArrowLift;
    const Vec3f f = arrow.forward * kArrowHalfLength, r = arrow.right * kArrowHalfWidth;
    content.quads.push_back({c - f - r, c + f - r, c + f + r, c - f + r});
    ++content.arrows;
  }
  for (std::size_t k = 0; k < sign_points.size() && k < sign_normals.size(); ++k) {
    const Vec3f n = normalize(sign_normals[k]);
    const Vec3f c = sign_points[k] + n * kSignOffset;
    const Vec3f r = normalize(cross(n, up)) * kSignHalfWidth, u = normalize(up) * kSignHalfHeight;
    content.quads.push_back({c - r - u, c + r - u, c + r + u, c - r + u});
    ++content.signs;
  }
  return content;
}

std::vector<PixelDepth> covered_pixels(const VirtualContent& content, const PinholeCamera& camera) {
  const PinholeIntrinsics& k = camera.intrinsics();
  const float none = std::numeric_limits<float>::infinity();
  std::vector<float> nearest(std::size_t(k.width) * std::size_t(k.height), none);
  const Vec3f forward = camera.forward();
  for (const Quad& quad : content.quads) {
    float u0 = float(k.width), v0 = float(k.height), u1 = 0, v1 = 0;
    bool in_front = true;
    for (const Vec3f& corner : quad) {
      const PixelProjection p = camera.project(corner);
      in_front = in_front && p.in_front;
      u0 = std::min(u0, p.u), u1 = std::max(u1, p.u), v0 = std::min(v0, p.v), v1 = std::max(v1, p.v);
    }
    if (!in_front) continue;
    const int i0 = std::max(0, int(std::floor(u0))), i1 = std::min(k.width - 1, int(std::ceil(u1)));
    const int j0 = std::max(0, int(std::floor(v0))), j1 = std::min(k.height - 1, int(std::ceil(v1)));
    for (int j = j0; j <= j1; ++j) {
      for (int i = i0; i <= i1; ++i) {
        const QueryRay ray = camera.ray_through_pixel(float(i) + 0.5f, float(j) + 0.5f);
        const float t = std::min(ray_triangle(ray.origin, ray.direction, quad[0], quad[1], quad[2]),
                                 ray_triangle(ray.origin, ray.direction, quad[0], quad[2], quad[3]));
        if (t == none) continue;
        float& depth = nearest[std::size_t(j) * std::size_t(k.width) + std::size_t(i)];
        depth = std::min(depth, t * dot(ray.direction, forward));
      }
    }
  }
  std::vector<PixelDepth> covered;
  for (int j = 0; j < k.height; ++j) {
    for (int i = 0; i < k.width; ++i) {
      const float depth = nearest[std::size_t(j) * std::size_t(k.width) + std::size_t(i)];
      if (depth != none) covered.push_back({i, j, depth});
    }
  }
  return covered;
}

}  // namespace hitscan::bench
