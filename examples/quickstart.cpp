// The README's C++ example: a weapon's hit-scan against a few shapes, closest hit within range.
// Built and run by the tests, so it cannot drift from the library.

#include <cstdio>

#include "hitscan/geometry/ray_capsule.hpp"
#include "hitscan/geometry/ray_obb.hpp"
#include "hitscan/geometry/ray_sphere.hpp"

int main() {
  using namespace hitscan;
  const Spheref head{{0, 1.7f, 10}, 0.12f};
  const Capsulef body{{0, 0.9f, 10}, {0, 1.4f, 10}, 0.3f};
  const Obbf crate = Obbf::from_quat({0.1f, 1.3f, 6}, {0.5f, 0.5f, 0.5f}, Quatf::from_axis_angle({0, 1, 0}, 0.4f));

  // From the muzzle, any direction length (t is in units of dir), range 100 m with a unit dir.
  Rayf shot{{0, 1.6f, 0}, normalize(Vec3f{0, 0.005f, 1}), 0.0f, 100.0f};
  int best_index = -1;
  RayHitf best;
  const RayHitf hits[] = {ray_vs_sphere(head, shot), ray_vs_capsule(body, shot), ray_vs_obb(crate, shot)};
  const char* names[] = {"head", "body", "crate"};
  for (int i = 0; i < 3; ++i) {
    if (hits[i] && hits[i].t < best.t) best = hits[i], best_index = i;
  }
  if (best_index < 0) return 1;
  std::printf("hit %s at %.3f m, normal (%.2f, %.2f, %.2f)\n", names[best_index], best.t, best.normal.x, best.normal.y,
              best.normal.z);
  // The crate stands between the muzzle and the body: the shot must stop there.
  return best_index == 2 ? 0 : 1;
}
