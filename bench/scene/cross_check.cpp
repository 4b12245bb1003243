#include "cross_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <utility>

namespace hitscan::bench {
namespace {

constexpr int kPrinted = 4;

const char* kind_of(const BruteForce& shapes, std::uint32_t collider) {
  return collider == kNoIndex ? "miss" : shape_kind_name(shapes.kind(collider));
}

std::string format_kinds(const std::map<std::string, std::size_t>& kinds) {
  std::string text;
  for (const auto& [key, count] : kinds) {
    if (!text.empty()) text += ", ";
    text += key + ": " + std::to_string(count);
  }
  return text;
}

}  // namespace

CheckSummary compare_casts(const BruteForce& shapes, std::span<const CastAnswer> reference,
                           std::span<const CastAnswer> answers, std::span<const float> limits, float tolerance,
                           const ExactDistance& exact, const std::string& name, const char* what) {
  CheckSummary s;
  std::map<std::string, std::size_t> kinds;
  int printed = 0;
  for (std::size_t i = 0; i < answers.size(); ++i) {
    ++s.compared;
    const CastAnswer& r = reference[i];
    const CastAnswer& a = answers[i];
    const bool r_hit = r.collider != kNoIndex, a_hit = a.collider != kNoIndex;
    if (r_hit && a_hit) {
      const double error = std::abs(double(a.distance) - double(r.distance));
      const bool close = error <= tolerance * std::max(1.0f, r.distance);
      if (r.collider == a.collider) {
        s.max_error = std::max(s.max_error, error);
        s.imprecise += close ? 0 : 1;
        continue;
      }
      // Another collider at the same distance: two surfaces meet there.
      if (close) continue;
    } else if (r_hit != a_hit) {
      const float found = r_hit ? r.distance : a.distance;
      if (found >= limits[i] - tolerance * std::max(1.0f, limits[i])) {
        ++s.borderline;
        continue;
      }
    } else {
      continue;
    }
    ++s.disagreements;
    ++kinds[std::string(kind_of(shapes, r.collider)) + "/" + kind_of(shapes, a.collider)];
    const float exact_r = r_hit ? exact(i, r.collider) : kInfinity<float>;
    const float exact_a = a_hit ? exact(i, a.collider) : kInfinity<float>;
    const bool confirmed = a_hit && std::abs(exact_a - a.distance) <= tolerance * std::max(1.0f, a.distance) &&
                           exact_a < r.distance;
    s.confirmed_against_hitscan += confirmed ? 1 : 0;
    if (printed++ < kPrinted) {
      std::printf("      %s %s %zu: hitscan %.6g on %u (%s), %s %.6g on %u (%s); brute force's kernel: %.6g, %.6g\n",
                  name.c_str(), what, i, double(r.distance), r.collider, kind_of(shapes, r.collider), name.c_str(),
                  double(a.distance), a.collider, kind_of(shapes, a.collider), double(exact_r), double(exact_a));
    }
  }
  s.by_kind = format_kinds(kinds);
  return s;
}

namespace {

// Sets of colliders, query by query: ids(i) gives the reference's and the backend's, each sorted.
// A collider in one set only is borderline when borderline(i, k) says so; a query with any other
// difference is a disagreement, the first few printed (`what` names the query).
template <class Ids, class Borderline>
CheckSummary compare_sets(const BruteForce& shapes, const std::string& name, std::size_t count, const char* what,
                          Ids ids, Borderline borderline) {
  CheckSummary s;
  std::map<std::string, std::size_t> kinds;
  int printed = 0;
  for (std::size_t i = 0; i < count; ++i) {
    ++s.compared;
    const auto [r, a] = ids(i);
    if (r == a) continue;
    std::vector<std::uint32_t> differing;
    std::set_symmetric_difference(r.begin(), r.end(), a.begin(), a.end(), std::back_inserter(differing));
    bool real = false;
    for (const std::uint32_t k : differing) {
      if (borderline(i, k)) continue;
      real = true;
      const bool in_reference = std::binary_search(r.begin(), r.end(), k);
      ++kinds[std::string(kind_of(shapes, k)) + (in_reference ? " missed" : " extra")];
      if (printed++ < kPrinted) {
        std::printf("      %s %s %zu: collider %u (%s) in %s\n", name.c_str(), what, i, k, kind_of(shapes, k),
                    in_reference ? "hitscan's answer only" : "its answer only");
      }
    }
    if (real) {
      ++s.disagreements;
    } else {
      ++s.borderline;
    }
  }
  s.by_kind = format_kinds(kinds);
  return s;
}

}  // namespace

CheckSummary compare_overlaps(const BruteForce& shapes, Backend& reference, Backend& backend,
                              std::span<const Spheref> spheres, std::size_t count) {
  return compare_sets(
      shapes, backend.name(), count, "sphere",
      [&](std::size_t i) { return std::pair{reference.overlap_ids(spheres[i]), backend.overlap_ids(spheres[i])}; },
      [&](std::size_t i, std::uint32_t k) {
        const Spheref grown{spheres[i].center, spheres[i].radius + kOverlapMargin};
        const Spheref shrunk{spheres[i].center, std::max(0.0f, spheres[i].radius - kOverlapMargin)};
        return shapes.touches(k, grown) && !shapes.touches(k, shrunk);
      });
}

CheckSummary compare_all_hits(const BruteForce& shapes, Backend& reference, Backend& backend,
                              std::span<const QueryRay> rays, std::size_t count) {
  return compare_sets(
      shapes, backend.name(), count, "ray",
      [&](std::size_t i) { return std::pair{reference.raycast_all_ids(rays[i]), backend.raycast_all_ids(rays[i])}; },
      [&](std::size_t i, std::uint32_t k) {
        const QueryRay& ray = rays[i];
        const float d = shapes.ray_distance(k, ray);
        if (d < kInfinity<float>) return d >= ray.max_distance - kRayTolerance * std::max(1.0f, ray.max_distance);
        const SphereSweep grazing{{ray.origin, kOverlapMargin}, ray.direction, ray.max_distance};
        return shapes.sweep_distance(k, grazing) < kInfinity<float>;
      });
}

CheckSummary compare_any(std::span<const CastAnswer> reference, std::span<const std::uint8_t> answers,
                         std::span<const CastAnswer> own_closest, std::span<const float> limits) {
  CheckSummary s;
  for (std::size_t i = 0; i < answers.size(); ++i) {
    ++s.compared;
    const bool expected = reference[i].collider != kNoIndex;
    const bool hit = answers[i] != 0;
    if (hit == expected) continue;
    const bool own = own_closest[i].collider != kNoIndex;
    const bool at_limit =
        expected && reference[i].distance >= limits[i] - kRayTolerance * std::max(1.0f, limits[i]);
    if (own == hit || at_limit) {
      ++s.borderline;
    } else {
      ++s.disagreements;
    }
  }
  return s;
}

std::size_t count_changed(std::span<const CastAnswer> reference, std::span<const CastAnswer> answers) {
  std::size_t changed = 0;
  for (std::size_t i = 0; i < answers.size(); ++i) {
    if (answers[i].collider != reference[i].collider || answers[i].distance != reference[i].distance) ++changed;
  }
  return changed;
}

}  // namespace hitscan::bench
