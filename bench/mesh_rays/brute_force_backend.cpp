// The reference answer: every ray against every usable triangle with the scalar watertight kernel,
// the ray prepared once. Run on a subset of the rays only.

#include <vector>

#include "backend.hpp"
#include "hitscan/geometry/ray_triangle.hpp"

namespace hitscan::bench {
namespace {

class BruteForceBackend final : public Backend {
 public:
  explicit BruteForceBackend(const TriangleMesh& mesh) {
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
      if (!mesh.is_usable(i)) continue;
      triangles_.push_back(mesh.triangle(i));
      ids_.push_back(static_cast<std::uint32_t>(i));
    }
  }

  const std::string& name() const override { return name_; }
  std::size_t memory_bytes() const override { return 0; }

  void closest(std::span<const Rayf> rays, ResultSpan out) const override {
    for (std::size_t i = 0; i < rays.size(); ++i) {
      WatertightRay<float> ray = WatertightRay<float>::from_ray(rays[i]);
      std::uint32_t best = kNoPrimitive;
      float best_t = kInfinity<float>;
      for (std::size_t k = 0; k < triangles_.size(); ++k) {
        const RayHitf hit = ray_vs_triangle(triangles_[k], ray, rays[i].dir);
        if (hit && hit.t < best_t) {
          best_t = hit.t;
          best = ids_[k];
          ray.tmax = hit.t;  // only closer hits count from here on
        }
      }
      out.t[i] = best_t;
      out.triangle[i] = best;
    }
  }

  void any(std::span<const Rayf> rays, ResultSpan out) const override {
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const WatertightRay<float> ray = WatertightRay<float>::from_ray(rays[i]);
      std::uint8_t found = 0;
      for (std::size_t k = 0; k < triangles_.size() && !found; ++k) {
        found = ray_vs_triangle(triangles_[k], ray, rays[i].dir) ? 1 : 0;
      }
      out.hit[i] = found;
    }
  }

 private:
  std::vector<Trianglef> triangles_;
  std::vector<std::uint32_t> ids_;
  std::string name_ = "brute_force";
};

}  // namespace

std::unique_ptr<Backend> make_brute_force(std::shared_ptr<const TriangleMesh> mesh) {
  return std::make_unique<BruteForceBackend>(*mesh);
}

}  // namespace hitscan::bench
