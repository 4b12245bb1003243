// The README's scene example: a wall, a floor mesh and two characters on their own layers; a shot
// with a range that ignores the shooter's team, and a penetrating shot that lists everything it
// passes through. Built and run by the tests: it fails when an outcome is not the expected one.

#include <cstdio>
#include <memory>
#include <vector>

#include "hitscan/query/scene.hpp"

namespace {

constexpr std::uint32_t kLayerWorld = 0, kLayerRed = 1, kLayerBlue = 2;

// A flat square floor of 2 triangles, counter-clockwise seen from above.
hitscan::MeshShape floor_mesh(float half) {
  using namespace hitscan;
  std::vector<Vec3f> corners = {{-half, 0, -half}, {half, 0, -half}, {half, 0, half}, {-half, 0, half}};
  std::vector<TriangleMesh::Indices> triangles = {{0, 2, 1}, {0, 3, 2}};
  auto mesh = std::make_shared<const TriangleMesh>(TriangleMesh::make(std::move(corners), std::move(triangles)).value());
  return std::make_shared<const MeshBvh>(MeshBvh::build(mesh).value());
}

}  // namespace

int main() {
  using namespace hitscan;
  Scene scene;
  Transformf wall_at;
  wall_at.translation = {0, 1.5f, 20};
  scene.add({Obbf{{}, {5, 1.5f, 0.2f}, Mat3f::identity()}, wall_at, kLayerWorld, 100}).value();
  scene.add({floor_mesh(50), Transformf{}, kLayerWorld, 101}).value();
  // A red character (the shooter's team) close in front, a blue one behind the wall.
  scene.add({Capsulef{{0, 0.3f, 5}, {0, 1.5f, 5}, 0.3f}, Transformf{}, kLayerRed, 200}).value();
  const ColliderId blue = scene.add({Capsulef{{0, 0.3f, 30}, {0, 1.5f, 30}, 0.3f}, Transformf{}, kLayerBlue, 300}).value();
  scene.commit();

  const QueryRay aim{{0, 1.2f, 0}, {0, 0, 1}};
  QueryOptions shot;
  shot.max_distance = 100.0f;               // the weapon's range
  shot.layer_mask = ~(1u << kLayerRed);     // ignore my own team
  const QueryHit hit = scene.raycast(aim, shot);
  if (!hit || hit.user_id != 100) return std::printf("expected the wall, got user %llu\n", (unsigned long long)hit.user_id), 1;
  std::printf("shot stops at the wall, %.2f m, normal (%.1f, %.1f, %.1f)\n", hit.distance, hit.normal.x, hit.normal.y,
              hit.normal.z);

  // A penetrating round: every wall and body on the way, entry and exit, sorted by distance.
  std::vector<QueryHit> through;
  scene.raycast_all(aim, through, shot);
  for (const QueryHit& h : through) {
    std::printf("  %6.2f m  user %llu  %s\n", h.distance, (unsigned long long)h.user_id,
                (h.flags & kHitExit) ? "exit" : "entry");
  }
  // Wall entry and exit, then the blue character's entry and exit.
  if (through.size() != 4 || through[2].collider != blue) return std::printf("unexpected penetration list\n"), 1;

  // Out of range: a 10 m weapon reaches nothing but the floor, which a level shot never meets.
  shot.max_distance = 10.0f;
  if (scene.raycast(aim, shot)) return std::printf("a 10 m shot should reach nothing\n"), 1;
  return 0;
}
