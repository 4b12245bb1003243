#include "shots.hpp"

#include <algorithm>
#include <cstdio>

namespace fps {
namespace {

// The friendly-fire filter: every collider but the shooter's own hitboxes.
bool not_the_shooter(hitscan::ColliderId, std::uint64_t user_id, std::uint32_t, void* context) {
  const ObjectTag tag = decode(user_id);
  return !(tag.kind == ObjectKind::character && tag.index == static_cast<const Character*>(context)->index);
}

// Walks the crossings of a ray, nearest first, spending `budget` on every metre spent inside
// something (overlapping objects count once), and stops where it runs out, at the floor, or at the
// end of the range. A crossing is an exit when it leaves a solid (kHitExit) or meets a cover
// mesh from behind: cover meshes are closed and wound outwards, so a round goes in through a front
// face and out through a back face. An exit with no entry before it (a muzzle inside cover, where
// no one here stands) is skipped.
std::vector<Passage> penetrate(const std::vector<hitscan::QueryHit>& crossings, float budget, float range) {
  std::vector<Passage> passages;
  std::vector<std::size_t> inside;  // passages entered and not yet left
  float previous = 0;
  const auto stop_at = [&](float distance) {
    for (const std::size_t i : inside) {
      passages[i].out = distance;
      passages[i].stopped = true;
    }
  };
  for (const hitscan::QueryHit& crossing : crossings) {
    if (!inside.empty()) {
      const float material = crossing.distance - previous;
      if (material > budget) {
        stop_at(previous + budget);
        return passages;
      }
      budget -= material;
    }
    previous = crossing.distance;
    if ((crossing.flags & hitscan::kHitExit) != 0 || crossing.back_face()) {
      const auto left = std::find_if(inside.begin(), inside.end(),
                                     [&](std::size_t i) { return passages[i].collider == crossing.collider; });
      if (left != inside.end()) {
        passages[*left].out = crossing.distance;
        inside.erase(left);
      }
      continue;
    }
    const ObjectTag tag = decode(crossing.user_id);
    passages.push_back({tag, crossing.collider, crossing.distance, crossing.distance, false});
    inside.push_back(passages.size() - 1);
    if (tag.kind == ObjectKind::floor) {
      stop_at(crossing.distance);
      return passages;
    }
  }
  if (!inside.empty()) stop_at(std::min(previous + budget, range));
  return passages;
}

}  // namespace

hitscan::QueryOptions shot_options(const Character& shooter, const Weapon& weapon) {
  hitscan::QueryOptions options;
  options.max_distance = weapon.range;
  if (weapon.friendly_fire) {
    // The filter only reads the shooter; QueryFilter's context is a plain void* for the C API.
    options.filter = {not_the_shooter, const_cast<Character*>(&shooter)};
  } else {
    options.layer_mask = hitscan::kAllLayers & ~(1u << team_layer(shooter.team));
  }
  return options;
}

ShotResult fire(const hitscan::Scene& scene, const Character& shooter, const Weapon& weapon, hitscan::Vec3f aim) {
  const hitscan::QueryRay ray{shooter.eye(), aim - shooter.eye()};
  const hitscan::QueryOptions options = shot_options(shooter, weapon);
  ShotResult result;
  if (weapon.penetration > 0) {
    result.penetrating = true;
    std::vector<hitscan::QueryHit> crossings;
    scene.raycast_all(ray, crossings, options);
    result.passages = penetrate(crossings, weapon.penetration, weapon.range);
  } else {
    result.hit = scene.raycast(ray, options);
  }
  return result;
}

std::string describe(const ShotResult& result, const Weapon& weapon) {
  char line[160];
  if (result.penetrating) {
    if (result.passages.empty()) {
      std::snprintf(line, sizeof line, "penetrating: nothing within %.0f m", weapon.range);
      return line;
    }
    std::string text = "penetrating:";
    for (const Passage& p : result.passages) {
      std::snprintf(line, sizeof line, " %s in %.2f %s %.2f,", describe(p.tag).c_str(), p.in,
                    p.stopped ? "stopped at" : "out", p.out);
      text += line;
    }
    text.pop_back();
    return text;
  }
  if (!result.hit) {
    std::snprintf(line, sizeof line, "out of range (%.0f m)", weapon.range);
    return line;
  }
  const ObjectTag tag = decode(result.hit.user_id);
  std::snprintf(line, sizeof line, "%s %s at %.2f m", tag.kind == ObjectKind::character ? "hit" : "blocked by",
                describe(tag).c_str(), result.hit.distance);
  return line;
}

}  // namespace fps
