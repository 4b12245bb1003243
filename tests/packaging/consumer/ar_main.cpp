// hitscan::ar from the installed package: a route draped over a floor plane at height 0.3, every
// point of it on the floor. Exits 0 when each answer is the one worked out by hand.

#include <cmath>
#include <cstdio>
#include <vector>

#include "hitscan/ar/drape.hpp"
#include "hitscan/query/scene.hpp"

int main() {
  using namespace hitscan;
  Scene scene;
  if (!scene.add({Planef{{0, 0, 1}, 0.3f}, Transformf{}, 0, 7}).ok()) return std::puts("add failed"), 1;
  scene.commit();
  const std::vector<Vec3f> route = {{0, 0, 0}, {4, 0, 0.2f}, {4, 3, -0.1f}};
  const Result<DrapedRoute> draped = drape_route(scene, route, {0, 0, -1}, {0, 0, 1.5f});
  if (!draped) return std::printf("%s\n", draped.status().message().c_str()), 1;
  const DrapedRoute& r = draped.value();
  bool right = r.points.size() >= route.size() && r.on_surface == r.points.size() && r.route_length > 0;
  for (const DrapedPoint& p : r.points) {
    right = right && std::fabs(p.position.z - 0.3f) < 1e-5f && std::fabs(p.normal.z - 1.0f) < 1e-5f;
  }
  // The route's length: 4 along x plus 3 along y, each with its height change.
  const float expected_length = std::sqrt(16.0f + 0.04f) + std::sqrt(9.0f + 0.09f);
  std::printf("draped %zu points, %zu on the floor, route length %.6f\n", r.points.size(), r.on_surface,
              r.route_length);
  return right && std::fabs(r.route_length - expected_length) < 1e-5f ? 0 : 1;
}
