#pragma once
// Shots: a weapon's range and penetration, who a round may hit, and what it did. A normal round is
// one raycast; a penetrating round is one raycast_all whose crossings are paired into entries and
// exits and walked until the round's penetration runs out.

#include <string>
#include <vector>

#include "characters.hpp"
#include "hitscan/query/scene.hpp"
#include "user_ids.hpp"

namespace fps {

struct Weapon {
  const char* name = "";
  // Metres; nothing farther is hit.
  float range = 0;
  // Metres of material (walls, cover, bodies) a round passes through; 0 for a round that stops at
  // the first thing it hits. The floor stops any round.
  float penetration = 0;
  // The round may hit the shooter's teammates. Off, the shooter's whole team is left out by the
  // layer mask; on, every layer is seen and a filter leaves out the shooter alone.
  bool friendly_fire = false;
};

inline constexpr Weapon kRifle{"rifle", 50};
inline constexpr Weapon kPistol{"pistol", 25};
inline constexpr Weapon kRifleFriendlyFire{"rifle, friendly fire", 50, 0, true};
inline constexpr Weapon kRailgun{"railgun", 60, 1.5f};

// Something a penetrating round went into: entered at `in`, left at `out`, or, when `stopped`,
// came to rest at `out` inside it.
struct Passage {
  ObjectTag tag;
  hitscan::ColliderId collider = hitscan::kNoCollider;
  float in = 0;
  float out = 0;
  bool stopped = false;

  friend bool operator==(const Passage&, const Passage&) = default;
};

struct ShotResult {
  bool penetrating = false;
  // A normal round: what it hit first (a miss: nothing within range).
  hitscan::QueryHit hit;
  // A penetrating round: everything it went into, nearest first.
  std::vector<Passage> passages;
};

// The query options of a shot: the weapon's range and who the round may hit. The filter, when
// there is one, points at `shooter`, which must outlive the query.
hitscan::QueryOptions shot_options(const Character& shooter, const Weapon& weapon);

// Fires from the shooter's eye towards `aim`.
ShotResult fire(const hitscan::Scene& scene, const Character& shooter, const Weapon& weapon, hitscan::Vec3f aim);

// "hit character 2 head at 14.30 m", "blocked by wall 5 at 7.10 m", "out of range (25 m)",
// "penetrating: wall 3 in 5.00 out 5.40, character 1 torso in 9.80 stopped at 10.10".
std::string describe(const ShotResult& result, const Weapon& weapon);

}  // namespace fps
