#pragma once
// Compares a backend's answers with hitscan's, query by query, before anything is timed.
//
// Rays and sweeps: the first contact's distance must agree within a tolerance (kRayTolerance,
// kSweepTolerance), relative beyond a distance of 1. Bullet and Jolt find convex hits iteratively
// (GJK ray casting, conservative advancement) and stop within their own epsilons, so a first
// contact on the same collider at a distance off by more than the tolerance is counted apart, as
// imprecise. A query that one answers and the other does not is borderline when the distance
// found lies within the tolerance of the query's limit; that and a first contact on another
// collider at another distance are disagreements. Each disagreement is classified by the kinds of
// the colliders the two hit, and the first few are printed.
//
// All-hit rays: the sets of colliders each ray meets must be equal, a grazing ray or a hit at the
// limit borderline (compare_all_hits).
//
// Overlaps: the sets of colliders touched must be equal. A collider in one set only is borderline
// when brute force's pair kernel calls it touching for the query sphere grown by kOverlapMargin
// and not for the sphere shrunk by it (Bullet and Jolt decide touching with their own arithmetic
// and, for most pairs, iteratively).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "backend.hpp"

namespace hitscan::bench {

inline constexpr float kRayTolerance = 1e-3f;
inline constexpr float kSweepTolerance = 1e-2f;
inline constexpr float kOverlapMargin = 1e-3f;

struct CheckSummary {
  std::size_t compared = 0;
  std::size_t disagreements = 0;
  std::size_t borderline = 0;
  /// Rays and sweeps: queries whose first contact is on the same collider in both answers but
  /// whose distances differ by more than the tolerance (an iterative method's error, not a
  /// different answer); not counted as disagreements.
  std::size_t imprecise = 0;
  /// Over the queries both answer with a hit on the same collider: the largest
  /// |distance - reference|.
  double max_error = 0;
  /// Disagreements in which brute force's kernel confirms the other's answer: its first contact
  /// with the collider the other reports lies within the tolerance of the other's distance and
  /// nearer than hitscan's. Each is a query hitscan answers wrongly.
  std::size_t confirmed_against_hitscan = 0;
  /// Disagreements by the kind of the collider the reference hit ("miss" when it hit nothing),
  /// then the kind the backend hit, e.g. "cylinder/miss: 3".
  std::string by_kind;
};

/// Brute force's first contact of query i with one collider (+inf when it misses it).
using ExactDistance = std::function<float(std::size_t query, std::uint32_t collider)>;

/// Rays or sweeps (`what`): the backend's answers against the reference's (hitscan), the first
/// answers.size() queries. `limits[i]` is query i's distance limit.
CheckSummary compare_casts(const BruteForce& shapes, std::span<const CastAnswer> reference,
                           std::span<const CastAnswer> answers, std::span<const float> limits, float tolerance,
                           const ExactDistance& exact, const std::string& name, const char* what);

/// Overlap sets of the first `count` spheres, `backend` against `reference`.
CheckSummary compare_overlaps(const BruteForce& shapes, Backend& reference, Backend& backend,
                              std::span<const Spheref> spheres, std::size_t count);

/// All-hit rays: the sets of colliders the first `count` rays meet, `backend` against
/// `reference`. A collider in one set only is borderline when brute force meets it within the
/// tolerance of the ray's limit, or misses it by less than kOverlapMargin (a sphere of that radius
/// swept along the ray touches it): a grazing ray.
CheckSummary compare_all_hits(const BruteForce& shapes, Backend& reference, Backend& backend,
                              std::span<const QueryRay> rays, std::size_t count);

/// Any-hit answers (1 hit, 0 miss) against whether hitscan's closest hit (`reference`) exists. A
/// difference is borderline, not a disagreement, when the backend's own closest-hit answer
/// (`own_closest`) says the same as its any-hit answer (that difference is the closest-hit
/// check's), or when hitscan's hit lies within the tolerance of the ray's limit.
CheckSummary compare_any(std::span<const CastAnswer> reference, std::span<const std::uint8_t> answers,
                         std::span<const CastAnswer> own_closest, std::span<const float> limits);

/// How many of `answers` differ at all from `reference` (the same backend on one thread and on
/// several must answer identically).
std::size_t count_changed(std::span<const CastAnswer> reference, std::span<const CastAnswer> answers);

}  // namespace hitscan::bench
