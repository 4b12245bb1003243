#include "cross_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "hitscan/mesh/mesh_bvh.hpp"

namespace hitscan::bench {
namespace {

constexpr std::size_t kShown = 4;  // disagreements printed in full per comparison

std::size_t ray_index(RayIndices indices, std::size_t k) { return indices.empty() ? k : indices[k]; }

void print_ray(std::size_t index, const Rayf& r) {
  std::printf("      ray %zu origin (%.9g, %.9g, %.9g) dir (%.9g, %.9g, %.9g)\n", index, r.origin.x, r.origin.y,
              r.origin.z, r.dir.x, r.dir.y, r.dir.z);
}

// Where the ray meets the plane of the triangle, and the smallest of the barycentrics of that
// point, in double precision: t is the exact hit distance up to double rounding, and a negative
// barycentric says the ray passes outside the triangle (by that fraction of its size).
struct ExactHit {
  double t = std::nan("");
  double min_barycentric = std::nan("");
};

ExactHit exact_hit(const TriangleMesh& mesh, std::uint32_t triangle, const Rayf& ray) {
  if (triangle >= mesh.triangle_count()) return {};
  const Trianglef f = mesh.triangle(triangle);
  const Vec3d v0 = vec3_cast<double>(f.v0), v1 = vec3_cast<double>(f.v1), v2 = vec3_cast<double>(f.v2);
  const Vec3d o = vec3_cast<double>(ray.origin), d = vec3_cast<double>(ray.dir);
  const Vec3d n = cross(v1 - v0, v2 - v0);
  const double t = dot(n, v0 - o) / dot(n, d);
  const Vec3d p = o + d * t;
  const double area = dot(n, n);
  const double b0 = dot(n, cross(v2 - v1, p - v1)) / area;
  const double b1 = dot(n, cross(v0 - v2, p - v2)) / area;
  return {t, std::min({b0, b1, 1.0 - b0 - b1})};
}

void print_answer(const char* label, float t, std::uint32_t triangle, const TriangleMesh& mesh, const Rayf& ray) {
  if (triangle == kNoPrimitive) {
    std::printf("%s miss", label);
    return;
  }
  const ExactHit exact = exact_hit(mesh, triangle, ray);
  std::printf("%s t %.9g triangle %u (double: t %.9g, min barycentric %.3g)", label, t, triangle, exact.t,
              exact.min_barycentric);
}

}  // namespace

std::size_t compare_closest(const TriangleMesh& mesh, std::span<const Rayf> rays, const Answers& reference,
                            const Answers& other, RayIndices indices, const std::string& label) {
  std::size_t hit_miss = 0, distance = 0, same_triangle = 0;
  std::vector<std::size_t> shown;
  for (std::size_t k = 0; k < other.t.size(); ++k) {
    const std::size_t i = ray_index(indices, k);
    const float a = reference.t[i], b = other.t[k];
    const bool hit_a = a < kInfinity<float>, hit_b = b < kInfinity<float>;
    const bool differs = hit_a != hit_b || (hit_a && std::abs(a - b) > kRelativeTolerance * std::max(a, b));
    if (!differs) continue;
    if (hit_a != hit_b) {
      ++hit_miss;
    } else {
      ++distance;
      same_triangle += reference.triangle[i] == other.triangle[k];
    }
    if (shown.size() < kShown) shown.push_back(k);
  }
  std::printf("    %-22s %zu of %zu rays disagree: hit/miss %zu, t beyond 1e-4 relative %zu", label.c_str(),
              hit_miss + distance, other.t.size(), hit_miss, distance);
  if (distance != 0) std::printf(" (%zu on the same triangle)", same_triangle);
  std::printf("\n");
  for (const std::size_t k : shown) {
    const std::size_t i = ray_index(indices, k);
    print_ray(i, rays[i]);
    std::printf("        ");
    print_answer("hitscan", reference.t[i], reference.triangle[i], mesh, rays[i]);
    std::printf(" | ");
    print_answer(label.c_str(), other.t[k], other.triangle[k], mesh, rays[i]);
    std::printf("\n");
  }
  return hit_miss + distance;
}

std::size_t compare_any(std::span<const Rayf> rays, const Answers& reference_closest, const Answers& other,
                        RayIndices indices, const std::string& label) {
  std::size_t disagree = 0;
  std::vector<std::size_t> shown;
  for (std::size_t k = 0; k < other.hit.size(); ++k) {
    const std::size_t i = ray_index(indices, k);
    const bool expected = reference_closest.t[i] < kInfinity<float>;
    if (expected != (other.hit[k] != 0)) {
      ++disagree;
      if (shown.size() < kShown) shown.push_back(k);
    }
  }
  std::printf("    %-22s %zu of %zu rays disagree with hitscan's closest hit or miss\n", label.c_str(), disagree,
              other.hit.size());
  for (const std::size_t k : shown) {
    const std::size_t i = ray_index(indices, k);
    print_ray(i, rays[i]);
    std::printf("        hitscan closest t %.9g triangle %d | %s %s\n", reference_closest.t[i],
                int(reference_closest.triangle[i]), label.c_str(), other.hit[k] ? "occluded" : "clear");
  }
  return disagree;
}

std::size_t count_changed(const Answers& a, const Answers& b) {
  std::size_t changed = 0;
  for (std::size_t i = 0; i < std::min(a.t.size(), b.t.size()); ++i) {
    changed += std::memcmp(&a.t[i], &b.t[i], sizeof(float)) != 0 || a.triangle[i] != b.triangle[i];
  }
  for (std::size_t i = 0; i < std::min(a.hit.size(), b.hit.size()); ++i) changed += a.hit[i] != b.hit[i];
  return changed;
}

}  // namespace hitscan::bench
