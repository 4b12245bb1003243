#pragma once
// Characters: a hitbox per body part (capsules), all on their team's layer, each with a user_id
// that names the character and the part; a patrol that moves them every frame.

#include <array>
#include <cstdint>
#include <vector>

#include "hitscan/query/scene.hpp"
#include "user_ids.hpp"

namespace fps {

enum class Team : std::uint8_t { red, blue };

inline constexpr std::uint32_t kLayerRed = 1;
inline constexpr std::uint32_t kLayerBlue = 2;

inline std::uint32_t team_layer(Team team) { return team == Team::red ? kLayerRed : kLayerBlue; }
inline const char* team_name(Team team) { return team == Team::red ? "red" : "blue"; }

// The body in the character's own frame: feet at the origin, y up, facing +z, so that its left is
// +x (up x forward = left in a right-handed frame). Limbs hang straight down. The eye is on the
// head's axis, inside the head: a shot from the eye would hit its own head first if nothing
// stopped it, which is what the team layer mask is for.
struct PartShape {
  BodyPart part;
  hitscan::Capsulef capsule;
};

inline constexpr PartShape kBody[kBodyPartCount] = {
    {BodyPart::head, {{0, 1.58f, 0}, {0, 1.68f, 0}, 0.12f}},
    {BodyPart::torso, {{0, 1.05f, 0}, {0, 1.35f, 0}, 0.2f}},
    {BodyPart::left_upper_arm, {{0.3f, 1.2f, 0}, {0.3f, 1.42f, 0}, 0.07f}},
    {BodyPart::left_forearm, {{0.3f, 0.92f, 0}, {0.3f, 1.12f, 0}, 0.06f}},
    {BodyPart::right_upper_arm, {{-0.3f, 1.2f, 0}, {-0.3f, 1.42f, 0}, 0.07f}},
    {BodyPart::right_forearm, {{-0.3f, 0.92f, 0}, {-0.3f, 1.12f, 0}, 0.06f}},
    {BodyPart::left_leg, {{0.1f, 0.1f, 0}, {0.1f, 0.75f, 0}, 0.09f}},
    {BodyPart::right_leg, {{-0.1f, 0.1f, 0}, {-0.1f, 0.75f, 0}, 0.09f}},
};

inline constexpr float kEyeHeight = 1.63f;

// Walks from `from` to `to` and back at `speed` metres a frame, facing where it walks. Standing
// still (speed 0 or from == to) it faces `idle_yaw`.
struct Patrol {
  hitscan::Vec3f from;
  hitscan::Vec3f to;
  float speed = 0;
  // Radians about +y; 0 faces +z, pi/2 faces +x.
  float idle_yaw = 0;
};

struct Pose {
  hitscan::Vec3f position{};
  float yaw = 0;

  friend bool operator==(const Pose&, const Pose&) = default;
};

// Where the patrol has brought its walker at `frame` (frame 0 at `from`).
Pose pose_at(const Patrol& patrol, int frame);

// Character i of the cast: its team and its patrol.
struct CastMember {
  Team team;
  Patrol patrol;
};

inline constexpr float kQuarterTurn = 1.57079632679f;

inline constexpr CastMember kCast[] = {
    {Team::red, {{-15, 0, 0}, {-15, 0, 0}, 0, kQuarterTurn}},  // 0: holds the lane's far end, facing +x
    {Team::blue, {{5, 0, -2}, {5, 0, 2}, 0.5f}},               // 1: strafes across the lane
    {Team::blue, {{12, 0, 6}, {12, 0, 6}, 0, -kQuarterTurn}},  // 2: behind crate 0, facing -x
    {Team::red, {{-5, 0, -1}, {-5, 0, 1}, 0.25f}},             // 3: paces across the lane
};

struct Character {
  std::uint32_t index = 0;
  Team team = Team::red;
  Patrol patrol;
  Pose pose;
  std::array<hitscan::ColliderId, kBodyPartCount> hitboxes{};

  hitscan::Vec3f eye() const { return pose.position + hitscan::Vec3f{0, kEyeHeight, 0}; }
};

// Adds every cast member's hitboxes, posed for frame 0 (visible after the caller's next commit).
std::vector<Character> spawn_cast(hitscan::Scene& scene);

// Poses everyone for `frame`, moving the hitboxes of those who moved (set_transform); the caller
// commits. Fails as set_transform does.
hitscan::Status move_cast(hitscan::Scene& scene, std::vector<Character>& cast, int frame);

}  // namespace fps
