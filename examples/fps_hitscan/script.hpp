#pragma once
// The script: which character fires which weapon where, frame by frame, and what each shot must do,
// worked out by hand in double from the layout (level.hpp, characters.hpp), never from a run.

#include <cstdint>
#include <vector>

#include "shots.hpp"
#include "user_ids.hpp"

namespace fps {

enum class Outcome { hit, blocked, out_of_range, penetrating };

struct ExpectedPassage {
  ObjectTag tag;
  double in = 0;
  double out = 0;
  bool stopped = false;
};

struct Expectation {
  Outcome outcome = Outcome::out_of_range;
  // hit and blocked: what the round meets first, and how far along the ray.
  ObjectTag tag;
  double distance = 0;
  // penetrating: everything the round goes into, in order.
  std::vector<ExpectedPassage> passages;
};

struct ScriptedShot {
  int frame = 0;
  std::uint32_t shooter = 0;
  Weapon weapon;
  hitscan::Vec3f aim;
  Expectation expected;
};

// The script runs frames 0 to kLastFrame; everyone moves every frame as their patrol says.
inline constexpr int kLastFrame = 12;

// Every shot of the script, in firing order (by frame).
std::vector<ScriptedShot> scripted_shots();

}  // namespace fps
