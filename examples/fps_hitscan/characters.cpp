#include "characters.hpp"

#include <cmath>
#include <iterator>

namespace fps {
namespace {

// Every hitbox of a character shares the character's transform: the part's capsule is in the
// character's frame, so turning and walking move them all together.
hitscan::Transformf transform_of(const Pose& pose) {
  hitscan::Transformf t;
  t.rotation = hitscan::Quatf::from_axis_angle({0, 1, 0}, pose.yaw);
  t.translation = pose.position;
  return t;
}

}  // namespace

Pose pose_at(const Patrol& patrol, int frame) {
  const hitscan::Vec3f leg = patrol.to - patrol.from;
  const float leg_length = hitscan::length(leg);
  if (!(patrol.speed > 0) || leg_length == 0) return {patrol.from, patrol.idle_yaw};
  const hitscan::Vec3f forward = leg / leg_length;
  // Distance walked along the round trip; at exactly leg_length it turns and walks back.
  const float walked = std::fmod(static_cast<float>(frame) * patrol.speed, 2 * leg_length);
  if (walked < leg_length) return {patrol.from + forward * walked, std::atan2(forward.x, forward.z)};
  return {patrol.to - forward * (walked - leg_length), std::atan2(-forward.x, -forward.z)};
}

std::vector<Character> spawn_cast(hitscan::Scene& scene) {
  std::vector<Character> cast;
  for (std::uint32_t i = 0; i < std::size(kCast); ++i) {
    Character c;
    c.index = i;
    c.team = kCast[i].team;
    c.patrol = kCast[i].patrol;
    c.pose = pose_at(c.patrol, 0);
    for (const PartShape& part : kBody) {
      const ObjectTag tag{ObjectKind::character, i, part.part};
      c.hitboxes[static_cast<int>(part.part)] =
          scene.add({part.capsule, transform_of(c.pose), team_layer(c.team), encode(tag)}).value();
    }
    cast.push_back(c);
  }
  return cast;
}

hitscan::Status move_cast(hitscan::Scene& scene, std::vector<Character>& cast, int frame) {
  for (Character& c : cast) {
    const Pose pose = pose_at(c.patrol, frame);
    if (pose == c.pose) continue;
    c.pose = pose;
    const hitscan::Transformf t = transform_of(pose);
    for (const hitscan::ColliderId id : c.hitboxes) {
      hitscan::Status status = scene.set_transform(id, t);
      if (!status.ok()) return status;
    }
  }
  return {};
}

}  // namespace fps
