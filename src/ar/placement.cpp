// Surface placement: a neighbourhood of rays, robust outlier rejection (median and MAD of the
// distances, then the normals' angle from their median), and the object's pose.

#include "hitscan/ar/placement.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace hitscan {
namespace {

struct PixelOffset {
  float du = 0, dv = 0;
};

bool valid_settings(const PlacementSettings& s) {
  const auto nonnegative = [](float x) { return x >= 0.0f && is_finite(x); };
  return nonnegative(s.pixel_radius) && s.grid_size >= 1 && s.grid_size <= kMaxPlacementGridSize &&
         s.ring_rays >= 0 && s.ring_rays <= kMaxPlacementRingRays && nonnegative(s.outlier_mads) &&
         nonnegative(s.distance_tolerance) && nonnegative(s.max_normal_deviation);
}

std::vector<PixelOffset> pattern_offsets(const PlacementSettings& s) {
  std::vector<PixelOffset> offsets;
  if (s.pixel_radius == 0.0f) {
    offsets.push_back({});
  } else if (s.pattern == PlacementPattern::grid) {
    const int g = s.grid_size;
    for (int j = 0; j < g; ++j) {
      for (int i = 0; i < g; ++i) {
        const auto at = [&](int k) {
          return g == 1 ? 0.0f : s.pixel_radius * (2.0f * static_cast<float>(k) / static_cast<float>(g - 1) - 1.0f);
        };
        offsets.push_back({at(i), at(j)});
      }
    }
  } else {
    offsets.push_back({});
    for (int k = 0; k < s.ring_rays; ++k) {
      const float angle = 2.0f * kPi<float> * static_cast<float>(k) / static_cast<float>(s.ring_rays);
      offsets.push_back({s.pixel_radius * std::cos(angle), s.pixel_radius * std::sin(angle)});
    }
  }
  return offsets;
}

// The median of values (reordered); values must not be empty. The lower middle for an even count,
// so that the result is always one of the values.
float median(std::vector<float>& values) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>((values.size() - 1) / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

}  // namespace

Placement place(const Scene& scene, const PinholeCamera& camera, float pixel_u, float pixel_v,
                const PlacementSettings& settings) {
  Placement result;
  if (!is_finite(pixel_u) || !is_finite(pixel_v) || !valid_settings(settings)) return result;

  const std::vector<PixelOffset> offsets = pattern_offsets(settings);
  std::vector<QueryHit> hits;
  hits.reserve(offsets.size());
  for (const PixelOffset& o : offsets) {
    const QueryHit hit = scene.raycast(camera.ray_through_pixel(pixel_u + o.du, pixel_v + o.dv), settings.options);
    // A camera inside a solid sees no surface there.
    if (hit.hit && !hit.started_inside()) hits.push_back(hit);
  }
  result.rays = static_cast<int>(offsets.size());
  const std::size_t needed = static_cast<std::size_t>(std::max(settings.min_inliers, 1));
  if (hits.size() < needed) return result;

  // Distance outliers: a thin pole in front of the floor, a hole behind it.
  std::vector<float> scratch;
  for (const QueryHit& h : hits) scratch.push_back(h.distance);
  const float median_distance = median(scratch);
  for (float& d : scratch) d = std::abs(d - median_distance);
  const float mad = median(scratch);
  const float tolerance = max(settings.outlier_mads * 1.4826f * mad, settings.distance_tolerance * median_distance);
  std::vector<const QueryHit*> kept;
  for (const QueryHit& h : hits) {
    if (std::abs(h.distance - median_distance) <= tolerance) kept.push_back(&h);
  }

  // Normal outliers among the rest: the side of an object that sits at the floor's distance.
  Vec3f median_normal;
  for (int axis = 0; axis < 3; ++axis) {
    scratch.clear();
    for (const QueryHit* h : kept) scratch.push_back(h->normal[axis]);
    median_normal[axis] = median(scratch);
  }
  median_normal = normalize(median_normal);
  const float cos_limit = std::cos(min(settings.max_normal_deviation, kPi<float>));
  Vec3f normal_sum, centroid;
  int inliers = 0;
  for (const QueryHit* h : kept) {
    if (median_normal != Vec3f{} && dot(h->normal, median_normal) < cos_limit) continue;
    normal_sum += h->normal;
    centroid += h->point;
    ++inliers;
  }
  result.inliers = inliers;
  if (static_cast<std::size_t>(inliers) < needed) return result;

  const float count = static_cast<float>(inliers);
  const Vec3f mean_normal = normal_sum / count;
  const Vec3f normal = normalize(mean_normal);
  if (normal == Vec3f{}) return result;  // normals that cancel out describe no surface
  centroid = centroid / count;

  // The centre ray on the plane of the inliers; the centroid itself when the ray grazes it.
  const QueryRay centre = camera.ray_through_pixel(pixel_u, pixel_v);
  const float facing = dot(centre.direction, normal);
  Vec3f position = centroid;
  if (std::abs(facing) > 1e-3f) {
    const float t = dot(centroid - centre.origin, normal) / facing;
    if (t > 0.0f && is_finite(t)) position = centre.origin + centre.direction * t;
  }

  result.found = true;
  result.position = position;
  result.normal = normal;
  result.confidence = clamp(count / static_cast<float>(result.rays) * length(mean_normal), 0.0f, 1.0f);
  return result;
}

Transformf object_pose(const Placement& placement, const PinholeCamera& camera) {
  if (!placement.found) return Transformf::identity();
  const Vec3f up = placement.normal;
  const auto in_plane = [&up](Vec3f d) {
    const Vec3f p = d - up * dot(d, up);
    return length_squared(p) > 1e-6f * length_squared(d) ? normalize(p) : Vec3f{};
  };
  Vec3f front = in_plane(camera.position() - placement.position);
  if (front == Vec3f{}) front = in_plane(-camera.up());
  if (front == Vec3f{}) front = in_plane(-camera.forward());
  if (front == Vec3f{}) {
    Vec3f unused;
    orthonormal_basis(up, front, unused);
  }
  Transformf pose;
  pose.translation = placement.position;
  // A camera looking along -front with up along the normal has exactly the axes wanted: its +z
  // is front and its +y the normal.
  const Result<Quatf> rotation = look_rotation(-front, up);
  if (rotation.ok()) pose.rotation = rotation.value();
  return pose;
}

}  // namespace hitscan
