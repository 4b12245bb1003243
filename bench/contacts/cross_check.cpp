#include "cross_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "hitscan/geometry/contact_sphere_box.hpp"

namespace hitscan::bench {
namespace {

constexpr int kPrintedDisagreements = 5;

bool pair_less(const PairContact& a, const PairContact& b) {
  return a.sphere != b.sphere ? a.sphere < b.sphere : a.box < b.box;
}

Vec3d to_double(Vec3f v) { return {v.x, v.y, v.z}; }

// The signed depth of a pair in double precision, however far apart (a margin larger than the scene).
double true_depth(const ContactScene& scene, const Frame& frame, std::uint32_t sphere, std::uint32_t box) {
  const Obbf& b = scene.boxes[box].box;
  Mat3d rotation;
  for (int c = 0; c < 3; ++c) rotation.col[c] = to_double(b.rotation.col[c]);
  const Obb<double> obb{to_double(frame.box_centers[box]), to_double(b.half_extents), rotation};
  const Sphere<double> s{to_double(frame.sphere_centers[sphere]), double(scene.radii[sphere])};
  return contact(s, obb, 1e30).depth;
}

}  // namespace

CheckSummary cross_check(const ContactScene& scene, const Frame& frame, std::vector<PairContact> reference,
                         std::vector<PairContact> answers, bool exact, const std::string& name) {
  std::sort(reference.begin(), reference.end(), pair_less);
  std::sort(answers.begin(), answers.end(), pair_less);
  CheckSummary summary;
  int printed = 0;
  // One pair in one set only: a disagreement unless Bullet's and borderline.
  auto lone = [&](const PairContact& p, bool in_reference) {
    const double depth = true_depth(scene, frame, p.sphere, p.box);
    const bool borderline = !exact && std::abs(depth) <= kBorderlineDepth;
    if (borderline) {
      ++summary.borderline;
    } else {
      ++(in_reference ? summary.missing : summary.extra);
    }
    if (printed++ < kPrintedDisagreements) {
      std::printf("      %s: sphere %u, box %u %s (true depth %.6g)%s\n", name.c_str(), p.sphere, p.box,
                  in_reference ? "missing" : "reported but not touching", depth, borderline ? ", borderline" : "");
    }
  };
  std::size_t r = 0, a = 0;
  while (r < reference.size() || a < answers.size()) {
    if (a == answers.size() || (r < reference.size() && pair_less(reference[r], answers[a]))) {
      lone(reference[r++], true);
    } else if (r == reference.size() || pair_less(answers[a], reference[r])) {
      lone(answers[a++], false);
    } else {
      const Contactf& x = reference[r++].contact;
      const Contactf& y = answers[a++].contact;
      const double depth_error = std::abs(double(x.depth) - double(y.depth));
      const double normal_dot = dot(x.normal, y.normal);
      summary.max_depth_error = std::max(summary.max_depth_error, depth_error);
      summary.min_normal_dot = std::min(summary.min_normal_dot, normal_dot);
      if (depth_error > kBorderlineDepth || normal_dot < 1 - 1e-3) ++summary.different_contacts;
    }
  }
  return summary;
}

}  // namespace hitscan::bench
