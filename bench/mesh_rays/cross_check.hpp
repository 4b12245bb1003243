#pragma once
// Ray-by-ray comparison of every backend's answers with hitscan's: hit or miss must agree, and
// hit distances within a relative 1e-4. Disagreements are counted and the first few printed with
// the distance to the plane of each reported triangle in double precision, to show who is closer.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hitscan/geometry/ray.hpp"
#include "hitscan/mesh/triangle_mesh.hpp"

namespace hitscan::bench {

/// Answers to one ray set: t (+inf on a miss) and triangle for closest queries, hit for any-hit.
struct Answers {
  std::vector<float> t;
  std::vector<std::uint32_t> triangle;
  std::vector<std::uint8_t> hit;
};

inline constexpr float kRelativeTolerance = 1e-4f;

/// Which rays of the set another backend answered: answer k is for ray indices[k], or for ray k
/// when indices is empty.
using RayIndices = std::span<const std::size_t>;

/// Compares closest-hit answers with the reference's for the same rays. Prints a summary line and
/// the first disagreements under `label`; returns how many rays disagree.
std::size_t compare_closest(const TriangleMesh& mesh, std::span<const Rayf> rays, const Answers& reference,
                            const Answers& other, RayIndices indices, const std::string& label);

/// Compares any-hit answers with the hit or miss of the reference's closest-hit answers, like
/// compare_closest.
std::size_t compare_any(std::span<const Rayf> rays, const Answers& reference_closest, const Answers& other,
                        RayIndices indices, const std::string& label);

/// Rays whose answers differ at all (bit for bit) between two runs of the same backend, e.g. on
/// one thread and on many.
std::size_t count_changed(const Answers& a, const Answers& b);

}  // namespace hitscan::bench
