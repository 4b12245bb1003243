#include "cross_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace hitscan::bench {
namespace {

constexpr double kNoHit = std::numeric_limits<double>::infinity();
// A float cast against a float mesh, compared with a double one: distances agree to about 1e-6
// relative; allow a hundred times that.
constexpr double kDistanceTolerance = 1e-4;
constexpr double kFloorTolerance = 1e-3;

// Distance along the unit ray to the triangle, both faces, in double (Moller and Trumbore 1997).
double ray_triangle(const double o[3], const double d[3], Vec3f a, Vec3f b, Vec3f c) {
  const double e1[3] = {double(b.x) - a.x, double(b.y) - a.y, double(b.z) - a.z};
  const double e2[3] = {double(c.x) - a.x, double(c.y) - a.y, double(c.z) - a.z};
  const double p[3] = {d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]};
  const double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
  if (det == 0) return kNoHit;
  const double s[3] = {o[0] - a.x, o[1] - a.y, o[2] - a.z};
  const double u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) / det;
  if (u < 0 || u > 1) return kNoHit;
  const double q[3] = {s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]};
  const double v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
  if (v < 0 || u + v > 1) return kNoHit;
  const double t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
  return t >= 0 ? t : kNoHit;
}

// The nearest hit of a ray against every triangle of the world as the scene holds it now.
double brute_force_distance(const ArWorld& world, const QueryRay& ray) {
  const Vec3f n = normalize(ray.direction);
  const double o[3] = {ray.origin.x, ray.origin.y, ray.origin.z}, d[3] = {n.x, n.y, n.z};
  double nearest = kNoHit;
  for (std::size_t k = 0; k < world.street.chunks.size(); ++k) {
    const std::vector<Vec3f>& p = world.chunk_positions(k);
    for (const TriangleMesh::Indices& t : world.street.chunks[k].triangles) {
      nearest = std::min(nearest, ray_triangle(o, d, p[t[0]], p[t[1]], p[t[2]]));
    }
  }
  return nearest;
}

bool same_distance(double a, double b) {
  if (a == kNoHit || b == kNoHit) return a == b;
  return std::abs(a - b) <= kDistanceTolerance * std::max(1.0, std::abs(b));
}

}  // namespace

std::size_t check_drape(const ArWorld& world, const DrapedRoute& draped, const DrapeSettings& settings) {
  const tools::StreetOptions& options = world.street.options;
  const double half_cell = 0.5 * double(options.cell);
  std::size_t off_floor = 0, missed = 0;
  double worst = 0;
  for (const DrapedPoint& p : draped.points) {
    // The noise-free floor's range over the 3 x 3 samples within half a cell of the point.
    double lo = kNoHit, hi = -kNoHit;
    bool any_hole = false;
    for (int a = -1; a <= 1; ++a) {
      for (int b = -1; b <= 1; ++b) {
        const double h = tools::street_floor_height(options, p.route_point.x + a * half_cell,
                                                    p.route_point.y + b * half_cell);
        if (std::isnan(h)) {
          any_hole = true;
          continue;
        }
        lo = std::min(lo, h), hi = std::max(hi, h);
      }
    }
    if (p.status == DrapeStatus::on_surface) {
      const double z = p.position.z;
      const double excess = std::max(lo - z, z - hi) - double(options.noise);
      worst = std::max(worst, excess);
      if (lo == kNoHit || excess > kFloorTolerance) {
        if (++off_floor > 5) continue;  // the first few are enough to find the place
        std::printf("    off the floor: route point (%.4f, %.4f, %.4f), draped z %.4f, floor %.4f .. %.4f\n",
                    double(p.route_point.x), double(p.route_point.y), double(p.route_point.z), z, lo, hi);
      }
    } else if (!any_hole && lo - p.route_point.z >= -settings.max_cast_depth &&
               hi - p.route_point.z <= settings.cast_height) {
      ++missed;
    }
  }
  std::printf("  drape: %zu points (%zu on surface, %zu bridged, %zu no surface, %zu gaps), %zu casts in %d "
              "refinement rounds; %zu on-surface points off the floor by more than noise + %.0g m (worst excess "
              "%.2g m), %zu missed a floor within reach\n",
              draped.points.size(), draped.on_surface, draped.gap_bridged, draped.no_surface, draped.gaps.size(),
              draped.casts, draped.refine_rounds, off_floor, kFloorTolerance, worst, missed);
  return off_floor + missed + (draped.on_surface == 0 ? 1 : 0);
}

std::size_t check_depth_map(const ArWorld& world, const DepthMap& map) {
  const PinholeCamera& camera = world.street.camera;
  const Vec3f forward = camera.forward();
  std::size_t compared = 0, map_differs = 0, brute_differs = 0, hits = 0;
  for (int gj = 0; gj < 6; ++gj) {
    for (int gi = 0; gi < 8; ++gi) {
      const int i = (2 * gi + 1) * map.width / 16 + gj, j = (2 * gj + 1) * map.height / 12 + gi;
      const QueryRay ray = camera.ray_through_pixel(float(i) + 0.5f, float(j) + 0.5f);
      const QueryHit hit = world.scene.raycast(ray);
      const float single =
          hit.hit ? hit.distance * dot(ray.direction, forward) : std::numeric_limits<float>::infinity();
      const float stored = map.depth[std::size_t(j) * std::size_t(map.width) + std::size_t(i)];
      map_differs += !(stored == single);
      const double brute = brute_force_distance(world, ray);
      brute_differs += !same_distance(hit.hit ? double(hit.distance) : kNoHit, brute);
      hits += hit.hit;
      ++compared;
    }
  }
  // What a pixel's ray costs the scene, over the whole image: for the profile, not a check.
  QueryStats stats;
  std::size_t image_hits = 0;
  for (int j = 0; j < map.height; ++j) {
    for (int i = 0; i < map.width; ++i) {
      image_hits += world.scene.raycast(camera.ray_through_pixel(float(i) + 0.5f, float(j) + 0.5f), {}, &stats).hit;
    }
  }
  const double pixels = double(map.width) * double(map.height);
  std::printf("  depth map: %zu pixels (%zu hit): %zu differ from a single raycast, %zu from brute force over all "
              "triangles (tolerance %.0e relative); over the image, %.1f%% of the rays hit, a ray visits %.1f "
              "top-level nodes and tests %.2f chunk colliders on average\n",
              compared, hits, map_differs, brute_differs, kDistanceTolerance, 100.0 * double(image_hits) / pixels,
              double(stats.tree_nodes) / pixels, double(stats.shapes_tested) / pixels);
  return map_differs + brute_differs + (hits == 0 ? 1 : 0);
}

std::size_t check_occlusion(const DepthMap& map, std::span<const PixelDepth> covered,
                            std::span<const std::uint8_t> hidden_one_thread,
                            std::span<const std::uint8_t> hidden_threads, float bias) {
  std::size_t differ = 0, hidden = 0;
  for (std::size_t k = 0; k < covered.size(); ++k) {
    const PixelDepth& p = covered[k];
    const float real = map.depth[std::size_t(p.j) * std::size_t(map.width) + std::size_t(p.i)];
    const std::uint8_t expected = real > 0.0f && real < p.depth - bias ? 1 : 0;
    hidden += expected;
    differ += hidden_one_thread[k] != expected || hidden_threads[k] != expected;
  }
  std::printf("  occlusion: %zu covered pixels, %zu hidden by the reconstruction (bias %.3f m); %zu answers differ "
              "from the comparison written out\n",
              covered.size(), hidden, double(bias), differ);
  return differ + (covered.empty() ? 1 : 0);
}

std::size_t check_chunk_update(ArWorld& world) {
  bool refit[3];
  for (bool& r : refit) r = update_chunk_frame(world);
  std::size_t failures = (refit[1] && refit[2]) ? 0 : 1;
  // Vertical rays over the chunk's floor, away from its ends (shared with the neighbours) and the
  // walls.
  const std::vector<Vec3f>& p = world.chunk_positions(world.updated_chunk);
  const auto [lo, hi] = std::minmax_element(p.begin(), p.end(), [](Vec3f a, Vec3f b) { return a.x < b.x; });
  const float half_width = 0.5f * world.street.options.width;
  std::size_t compared = 0, differ = 0, hits = 0;
  for (int a = 0; a < 8; ++a) {
    for (int b = 0; b < 5; ++b) {
      QueryRay ray;
      ray.origin = {lo->x + (hi->x - lo->x) * (float(a) + 0.37f) / 8.0f,
                    -half_width + 0.5f + (2 * half_width - 1.0f) * (float(b) + 0.29f) / 5.0f, 20.0f};
      ray.direction = {0, 0, -1};
      const QueryHit hit = world.scene.raycast(ray);
      differ += !same_distance(hit.hit ? double(hit.distance) : kNoHit, brute_force_distance(world, ray));
      hits += hit.hit;
      ++compared;
    }
  }
  std::printf("  chunk update: updates %s, %s, %s; %zu vertical rays over the updated chunk (%zu hit), %zu differ "
              "from brute force on the fresh positions\n",
              refit[0] ? "refit" : "built", refit[1] ? "refit" : "built", refit[2] ? "refit" : "built", compared,
              hits, differ);
  return failures + differ + (hits == 0 ? 1 : 0);
}

}  // namespace hitscan::bench
