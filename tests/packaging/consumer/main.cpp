// A program outside hitscan's tree that uses the C++ library the way an application does: a scene
// with one sphere, one ray, and the answer checked against the one worked out by hand. Built by
// the packaging tests against the installed package (find_package) and against the source tree
// (add_subdirectory), through the one header that holds the whole C++ API; exits 0 when every
// answer is right.

#include <cmath>
#include <cstdio>
#include <string>

#include <hitscan/hitscan.hpp>

int main() {
  using namespace hitscan;
  // A sphere of radius 1.5 at (1, 2, 3) in its own frame, moved 7 along z: its centre is (1, 2, 10).
  Transformf placed;
  placed.translation = {0, 0, 7};
  Scene scene;
  if (!scene.add({Spheref{{1, 2, 3}, 1.5f}, placed, 0, 42}).ok()) return std::puts("add failed"), 1;
  scene.commit();

  // Along +z (the direction need not be unit length), 0.9 off the centre line: it meets the sphere
  // where (z - 10)^2 = 1.5^2 - 0.9^2 = 1.44, at z = 10 - 1.2 = 8.8, with the outward normal
  // (0, 0.9, -1.2) / 1.5 = (0, 0.6, -0.8).
  const QueryHit hit = scene.raycast({{1, 2.9f, 0}, {0, 0, 2}});
  std::printf("hit %d, user %llu, distance %.6f, normal (%.6f, %.6f, %.6f)\n", hit ? 1 : 0,
              static_cast<unsigned long long>(hit.user_id), hit.distance, hit.normal.x, hit.normal.y, hit.normal.z);
  const bool right = hit && hit.user_id == 42 && std::fabs(hit.distance - 8.8f) < 1e-5f &&
                     std::fabs(hit.normal.x) < 1e-5f && std::fabs(hit.normal.y - 0.6f) < 1e-5f &&
                     std::fabs(hit.normal.z + 0.8f) < 1e-5f;
  // Just outside the radius, the ray passes by.
  const bool miss_right = !scene.raycast({{1, 3.51f, 0}, {0, 0, 1}});
  // The library's version is the headers' version.
  const std::string expected =
      std::to_string(version_major) + "." + std::to_string(version_minor) + "." + std::to_string(version_patch);
  std::printf("hitscan %s (headers %s)\n", version(), expected.c_str());
  return right && miss_right && expected == version() ? 0 : 1;
}
