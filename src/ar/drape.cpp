// Route draping: sampling by arc length with a camera-distance spacing ramp, casts along gravity
// in one batch per round, bisection where the surface bends or ends, then gap bridging.

#include "hitscan/ar/drape.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace hitscan {
namespace {

// The input route by arc length: cumulative lengths at each vertex.
class RoutePath {
 public:
  explicit RoutePath(std::span<const Vec3f> route) : route_(route), cumulative_(route.size(), 0.0f) {
    double total = 0;
    for (std::size_t i = 1; i < route.size(); ++i) {
      total += static_cast<double>(distance(route[i - 1], route[i]));
      cumulative_[i] = static_cast<float>(total);
    }
  }

  float length() const { return cumulative_.back(); }
  std::size_t vertex_count() const { return route_.size(); }
  float distance_at_vertex(std::size_t i) const { return cumulative_[i]; }
  Vec3f vertex(std::size_t i) const { return route_[i]; }

  // The route point at arc length s (clamped to the route), on the segment that contains it.
  Vec3f point_at(float s) const {
    if (!(s > 0.0f)) return route_.front();
    if (s >= length()) return route_.back();
    // The first vertex beyond s; the segment before it has positive length.
    const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), s);
    const std::size_t j = static_cast<std::size_t>(it - cumulative_.begin());
    const float s0 = cumulative_[j - 1], s1 = cumulative_[j];
    return lerp(route_[j - 1], route_[j], (s - s0) / (s1 - s0));
  }

 private:
  std::span<const Vec3f> route_;
  std::vector<float> cumulative_;
};

// A sample during refinement: the route parameter, the route point and what its cast found.
struct Sample {
  float s = 0;
  Vec3f route_point{};
  bool hit = false;
  Vec3f position{};
  Vec3f normal{};
  ColliderId collider = kNoCollider;
};

bool is_nonnegative(float x) { return x >= 0.0f && is_finite(x); }
bool is_positive(float x) { return x > 0.0f && is_finite(x); }

Status invalid(const std::string& what) { return Status{StatusCode::invalid_argument, "drape_route: " + what}; }

Status validate(std::span<const Vec3f> route, Vec3f gravity, Vec3f camera_position, const DrapeSettings& s) {
  if (route.size() < 2) return invalid("a route needs at least 2 points, got " + std::to_string(route.size()));
  for (std::size_t i = 0; i < route.size(); ++i) {
    if (!is_finite(route[i])) return invalid("route point " + std::to_string(i) + " is not finite");
  }
  if (!is_finite(gravity) || normalize(gravity) == Vec3f{}) return invalid("gravity must be finite and non-zero");
  if (!is_finite(camera_position)) return invalid("the camera position is not finite");
  if (!is_positive(s.near_spacing) || !is_positive(s.far_spacing)) return invalid("spacings must be positive");
  if (!is_nonnegative(s.near_distance) || !is_nonnegative(s.far_distance) || s.near_distance > s.far_distance) {
    return invalid("near_distance and far_distance must satisfy 0 <= near <= far");
  }
  if (!is_nonnegative(s.cast_height) || !is_nonnegative(s.max_cast_depth) ||
      !is_positive(s.cast_height + s.max_cast_depth)) {
    return invalid("cast_height and max_cast_depth must be non-negative, with a positive sum");
  }
  if (!is_nonnegative(s.refine_height) || !is_nonnegative(s.refine_angle) || !is_positive(s.min_refine_spacing)) {
    return invalid("refine_height and refine_angle must be non-negative, min_refine_spacing positive");
  }
  if (!is_nonnegative(s.max_gap)) return invalid("max_gap must be non-negative");
  return Status::success();
}

// The spacing ramp: near_spacing within near_distance of the camera, far_spacing beyond
// far_distance, linear in between.
float spacing_at(Vec3f p, Vec3f camera, const DrapeSettings& s) {
  const float d = distance(p, camera);
  if (d <= s.near_distance) return s.near_spacing;
  if (d >= s.far_distance) return s.far_spacing;
  const float w = (d - s.near_distance) / (s.far_distance - s.near_distance);
  return s.near_spacing + (s.far_spacing - s.near_spacing) * w;
}

// Route parameters of the initial samples: every vertex of the route, and between vertices steps
// of the local spacing. False when more than max_points would be needed.
bool initial_parameters(const RoutePath& path, Vec3f camera, const DrapeSettings& s, std::vector<float>& out) {
  out.assign(1, 0.0f);
  for (std::size_t k = 1; k < path.vertex_count(); ++k) {
    const float end = path.distance_at_vertex(k);
    if (!(end > out.back())) continue;  // a repeated point
    for (;;) {
      if (out.size() >= s.max_points) return false;
      const float current = out.back();
      const float step = spacing_at(path.point_at(current), camera, s);
      // A step that would land within a thousandth of a step of the vertex lands on it instead.
      const float next = current + step;
      if (next >= end - 1e-3f * step || !(next > current)) {
        out.push_back(end);
        break;
      }
      out.push_back(next);
    }
  }
  return true;
}

struct Caster {
  const Scene& scene;
  Vec3f down;
  const DrapeSettings& settings;
  QueryOptions options;
  Executor* executor;
  std::vector<QueryRay> rays;
  std::vector<QueryHit> hits;

  // Casts for every sample in `samples` (whose route_point is set) and fills in what it found.
  Status cast(std::span<Sample> samples) {
    rays.resize(samples.size());
    hits.resize(samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i) {
      rays[i] = QueryRay{samples[i].route_point - down * settings.cast_height, down,
                         settings.cast_height + settings.max_cast_depth};
    }
    const Status status = scene.raycast_batch(rays, hits, options, executor);
    if (!status.ok()) return status;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const QueryHit& h = hits[i];
      Sample& sample = samples[i];
      // A cast that starts inside a solid has no surface point: the surface is above its reach.
      sample.hit = h.hit && !h.started_inside();
      if (!sample.hit) continue;
      sample.position = h.point;
      // The contact normal faces the ray, so it is the surface's upper side.
      sample.normal = h.normal;
      sample.collider = h.collider;
    }
    return Status::success();
  }
};

// Whether the surface between two samples may hide a feature the samples do not show.
bool needs_refinement(const Sample& a, const Sample& b, const DrapeSettings& s, float cos_refine_angle) {
  if (!(b.s - a.s > s.min_refine_spacing)) return false;
  if (a.hit != b.hit) return true;
  if (!a.hit) return false;
  const Vec3f d = b.position - a.position;
  const float off_plane = max(std::abs(dot(d, a.normal)), std::abs(dot(d, b.normal)));
  return off_plane > s.refine_height || dot(a.normal, b.normal) < cos_refine_angle;
}

// Bisects, round after round, every segment that needs it; the casts of a round are one batch.
Status refine(std::vector<Sample>& samples, const RoutePath& path, Caster& caster, const DrapeSettings& s,
              DrapedRoute& result) {
  const float cos_refine_angle = std::cos(min(s.refine_angle, kPi<float>));
  std::vector<std::size_t> split;  // segments (by their first sample) bisected this round
  std::vector<Sample> midpoints, merged;
  for (;;) {
    split.clear();
    for (std::size_t i = 0; i + 1 < samples.size(); ++i) {
      if (samples.size() + split.size() >= s.max_points) break;
      if (needs_refinement(samples[i], samples[i + 1], s, cos_refine_angle)) split.push_back(i);
    }
    if (split.empty()) return Status::success();
    midpoints.resize(split.size());
    for (std::size_t k = 0; k < split.size(); ++k) {
      const float mid = 0.5f * (samples[split[k]].s + samples[split[k] + 1].s);
      midpoints[k] = Sample{mid, path.point_at(mid)};
    }
    const Status status = caster.cast(midpoints);
    if (!status.ok()) return status;
    result.casts += midpoints.size();
    ++result.refine_rounds;
    merged.clear();
    merged.reserve(samples.size() + midpoints.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      merged.push_back(samples[i]);
      if (k < split.size() && split[k] == i) merged.push_back(midpoints[k++]);
    }
    samples.swap(merged);
  }
}

float height(Vec3f p, Vec3f up) { return dot(p, up); }

// Turns the samples into draped points, bridging or reporting each run of misses.
void resolve_gaps(const std::vector<Sample>& samples, Vec3f up, const DrapeSettings& s, DrapedRoute& result) {
  const std::size_t n = samples.size();
  result.points.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Sample& sample = samples[i];
    DrapedPoint& p = result.points[i];
    p.route_point = sample.route_point;
    p.distance_along_route = sample.s;
    if (sample.hit) {
      p.position = sample.position;
      p.normal = sample.normal;
      p.status = DrapeStatus::on_surface;
      p.collider = sample.collider;
    }
  }
  for (std::size_t i = 0; i < n;) {
    if (samples[i].hit) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j + 1 < n && !samples[j + 1].hit) ++j;
    // Misses i..j, between the surface points before (i - 1) and after (j + 1), where they exist.
    const bool has_before = i > 0, has_after = j + 1 < n;
    DrapeGap gap;
    gap.start_distance = has_before ? samples[i - 1].s : 0.0f;
    gap.end_distance = has_after ? samples[j + 1].s : result.route_length;
    gap.bridged = (has_before || has_after) && gap.length() <= s.max_gap;
    const bool interpolate = s.gap_mode == DrapeGapMode::interpolate && has_before && has_after;
    const Sample& before = has_before ? samples[i - 1] : samples[j + 1];
    const Sample& after = has_after ? samples[j + 1] : samples[i - 1];
    for (std::size_t k = i; k <= j; ++k) {
      DrapedPoint& p = result.points[k];
      if (!gap.bridged) {
        p.position = p.route_point;
        p.normal = up;
        p.status = DrapeStatus::no_surface;
        continue;
      }
      float h = height(before.position, up);
      Vec3f normal = before.normal;
      if (interpolate) {
        const float w = (p.distance_along_route - before.s) / (after.s - before.s);
        h += (height(after.position, up) - h) * w;
        const Vec3f blended = normalize(lerp(before.normal, after.normal, w));
        if (blended != Vec3f{}) normal = blended;
      }
      p.position = p.route_point + up * (h - height(p.route_point, up));
      p.normal = normal;
      p.status = DrapeStatus::gap_bridged;
    }
    result.gaps.push_back(gap);
    i = j + 1;
  }
  for (const DrapedPoint& p : result.points) {
    if (p.status == DrapeStatus::on_surface) ++result.on_surface;
    else if (p.status == DrapeStatus::gap_bridged) ++result.gap_bridged;
    else ++result.no_surface;
  }
}

}  // namespace

Result<DrapedRoute> drape_route(const Scene& scene, std::span<const Vec3f> route, Vec3f gravity,
                                Vec3f camera_position, const DrapeSettings& settings, Executor* executor) {
  if (Status status = validate(route, gravity, camera_position, settings); !status.ok()) return status;
  const Vec3f down = normalize(gravity);
  const RoutePath path(route);

  std::vector<float> parameters;
  if (!initial_parameters(path, camera_position, settings, parameters)) {
    return Status{StatusCode::out_of_range,
                  "drape_route: sampling needs more than max_points = " + std::to_string(settings.max_points)};
  }
  std::vector<Sample> samples(parameters.size());
  for (std::size_t i = 0; i < parameters.size(); ++i) samples[i] = Sample{parameters[i], path.point_at(parameters[i])};

  DrapedRoute result;
  result.route_length = path.length();
  QueryOptions options = settings.options;
  options.max_distance = kInfinity<float>;
  options.solid = true;
  Caster caster{scene, down, settings, options, executor, {}, {}};
  if (Status status = caster.cast(samples); !status.ok()) return status;
  result.casts = samples.size();
  if (Status status = refine(samples, path, caster, settings, result); !status.ok()) return status;
  resolve_gaps(samples, -down, settings, result);
  return result;
}

}  // namespace hitscan
