#include "script.hpp"

#include <utility>

#include "characters.hpp"
#include "level.hpp"

// Where everyone stands at the frames that have shots, walked by hand from kCast's patrols:
//   character 0 (red) stands at (-15, 0, 0) facing +x; its eye is at (-15, 1.63, 0).
//   character 1 (blue) walks 0.5 m a frame from z = -2 to z = 2 and back:
//     frame 4:  2 m walked, at (5, 0, 0) facing +z, so its left side is towards +x;
//     frame 6:  3 m walked, at (5, 0, 1); no hitbox reaches farther than 0.2 m from its axis in z
//               (the torso's radius), so the lane z = 0 is clear of it;
//     frame 12: 6 m walked, 4 there and 2 back: at (5, 0, 0) again, facing -z, left towards -x.
//   character 2 (blue) stands at (12, 0, 6) facing -x, behind crate 0.
//   character 3 (red) paces z = -1 to 1 at 0.25 m a frame: at (-5, 0, 0) at frames 4 and 12 and
//     at (-5, 0, 0.5) at frame 6. It is on the lane, but red rounds never see red hitboxes.
// Every ray below stays in a vertical plane through the capsule axes it crosses, so a vertical
// capsule's straight part is met where the ray is `radius` from the axis in x: a plane x = const,
// like the crates' and walls' faces. The heights noted for each shot show that the ray meets the
// straight parts and misses the others.

namespace fps {
namespace {

using hitscan::Vec3d;
using hitscan::Vec3f;

Vec3d in_double(Vec3f v) { return hitscan::vec3_cast<double>(v); }

// How far along the ray from `from` towards `aim` it crosses the plane x = plane_x.
double distance_to_x(Vec3d from, Vec3d aim, double plane_x) {
  const Vec3d d = aim - from;
  return (plane_x - from.x) / d.x * hitscan::length(d);
}

const hitscan::Capsulef& hitbox(BodyPart part) { return kBody[static_cast<int>(part)].capsule; }

ObjectTag body(std::uint32_t character, BodyPart part) { return {ObjectKind::character, character, part}; }
ObjectTag wall(std::uint32_t i) { return {ObjectKind::wall, i}; }
ObjectTag crate(std::uint32_t i) { return {ObjectKind::crate, i}; }

Expectation hit(ObjectTag tag, double distance) { return {Outcome::hit, tag, distance, {}}; }
Expectation blocked(ObjectTag tag, double distance) { return {Outcome::blocked, tag, distance, {}}; }
Expectation out_of_range() { return {Outcome::out_of_range, {}, 0, {}}; }

// The railgun's rule on disjoint passages: each costs its length; the round comes to rest inside
// the first one it cannot pay for in full.
Expectation penetrating(double budget, std::vector<ExpectedPassage> passages) {
  for (std::size_t i = 0; i < passages.size(); ++i) {
    const double length = passages[i].out - passages[i].in;
    if (length > budget) {
      passages[i].out = passages[i].in + budget;
      passages[i].stopped = true;
      passages.resize(i + 1);
      break;
    }
    budget -= length;
  }
  return {Outcome::penetrating, {}, 0, std::move(passages)};
}

}  // namespace

std::vector<ScriptedShot> scripted_shots() {
  const Vec3d eye0{-15, kEyeHeight, 0};
  const Vec3d eye1{5, kEyeHeight, 0};  // at frame 4
  const Vec3d eye2{12, kEyeHeight, 6};
  const double head_radius = hitbox(BodyPart::head).radius;
  const double torso_radius = hitbox(BodyPart::torso).radius;
  const double arm_offset = hitbox(BodyPart::left_upper_arm).a.x;  // the right one at -arm_offset
  const double arm_radius = hitbox(BodyPart::left_upper_arm).radius;
  const double leg_offset = hitbox(BodyPart::left_leg).a.x;
  const double leg_radius = hitbox(BodyPart::left_leg).radius;
  const double c1_x = 5;
  const double wall5_near = kWalls[5].center.x - kWalls[5].half_extents.x;
  const double wall5_far = kWalls[5].center.x + kWalls[5].half_extents.x;
  const double wall2_near = kWalls[2].center.x - kWalls[2].half_extents.x;
  const double wall2_far = kWalls[2].center.x + kWalls[2].half_extents.x;
  const double crate1_near = kCrates[1].center.x - 0.5 * kCrates[1].size.x;
  const double crate1_far = kCrates[1].center.x + 0.5 * kCrates[1].size.x;

  // Aim points on character 1's axis (x = 5) along the lane at eye, shoulder and shin height.
  const Vec3f at_head{5, kEyeHeight, 0}, at_shoulder{5, 1.28f, 0}, at_shin{5, 0.2f, 0};
  const Vec3f at_c2_head{12, kEyeHeight, 6}, at_c2_waist{12, 0.9f, 6}, at_c0_head{-15, kEyeHeight, 0};
  // On the ramp's slope, y = height * (x - low x) / length = (-7.5 + 10) / 4 = 0.625, and off
  // the diagonal that splits the slope into two triangles (z = -8.75 at x = -7.5).
  const Vec3f at_ramp{-7.5f, 0.625f, -8.6f};

  const auto lane = [&](Vec3f aim, double x) { return distance_to_x(eye0, in_double(aim), x); };
  // The railgun along the shoulder line: y = 1.63 - 0.35 (x + 15) / 20, 1.287 to 1.274 across
  // character 1 (upper arms straight from 1.2 to 1.42, torso from 1.05 to 1.35, forearms below
  // 1.18, head above 1.46), 1.21 at wall 5, 1.11 at crate 1, 1.02 at wall 2, in reach of all
  // (crate 1 from 0 to 3 high, walls from 0 to 3 and 4). It reaches no floor before x = 78.
  const auto through = [&](ObjectTag tag, double near_x, double far_x) {
    return ExpectedPassage{tag, lane(at_shoulder, near_x), lane(at_shoulder, far_x), false};
  };
  const double budget = kRailgun.penetration;

  std::vector<ScriptedShot> shots;
  // Frame 4. Character 0 fires down the lane through its teammate (character 3, red, skipped)
  // at character 1: horizontally at the head, whose straight part spans 1.58..1.68 (the torso
  // ends at 1.55 and the upper arms at 1.49, below the ray).
  shots.push_back({4, 0, kRifle, at_head, hit(body(1, BodyPart::head), lane(at_head, c1_x - head_radius))});
  // At the shoulder: facing +z, character 1's right upper arm is at x = 5 - 0.3, nearer the
  // shooter than its torso; the ray is at 1.287 there.
  shots.push_back({4, 0, kRifle, at_shoulder,
                   hit(body(1, BodyPart::right_upper_arm), lane(at_shoulder, c1_x - arm_offset - arm_radius))});
  // At the shin: the right leg at x = 5 - 0.1, straight from 0.1 to 0.75; the ray is at 0.214.
  shots.push_back({4, 0, kRifle, at_shin,
                   hit(body(1, BodyPart::right_leg), lane(at_shin, c1_x - leg_offset - leg_radius))});
  // With friendly fire the teammate at (-5, 0, 0) takes the head shot; the shooter's own head,
  // around its eye, is left out by the filter.
  shots.push_back({4, 0, kRifleFriendlyFire, at_head, hit(body(3, BodyPart::head), lane(at_head, -5 - head_radius))});
  // Character 1 fires back from inside its own head (blue, masked): character 3's head, on the
  // way to character 0, is the first thing along -x.
  shots.push_back({4, 1, kPistol, at_c0_head,
                   hit(body(3, BodyPart::head), distance_to_x(eye1, in_double(at_c0_head), -5 + head_radius))});
  // At character 2's waist behind crate 0: the ray passes x = 9.9 (the crate's near face) at
  // z = 5.53 and y = 0.957, inside the face (z 5.4..6.6, y 0..1.2); it was still above 1.2 at
  // z = 5.4, so it does not come in through the top or side.
  const double crate0_near = kCrates[0].center.x - 0.5 * kCrates[0].size.x;
  shots.push_back({4, 0, kRifle, at_c2_waist,
                   blocked(crate(0), distance_to_x(eye0, in_double(at_c2_waist), crate0_near))});
  // At character 2's head, horizontally over the crate (1.63 > 1.2) and past wall 5 (z = 5.3 at
  // its face, beyond its z = 2 end): the head's straight part, one radius before its axis.
  const double to_c2 = hitscan::length(in_double(at_c2_head) - eye0);
  shots.push_back({4, 0, kRifle, at_c2_head, hit(body(2, BodyPart::head), to_c2 - head_radius)});
  // The same with a pistol: the head is 27.54 m away, beyond its 25 m; nothing else lies within.
  shots.push_back({4, 0, kPistol, at_c2_head, out_of_range()});
  // At the ramp's slope: the ray enters the ramp's z range (z = -8) at x = -8.02, y = 0.695,
  // above the slope there (0.494), so the first thing it meets is the slope at the aim point.
  shots.push_back({4, 0, kRifle, at_ramp, blocked({ObjectKind::ramp, 0}, hitscan::length(in_double(at_ramp) - eye0))});
  // The railgun along the shoulder line: right arm, torso, left arm, wall 5, into the crate pillar.
  shots.push_back({4, 0, kRailgun, at_shoulder,
                   penetrating(budget, {
                                           through(body(1, BodyPart::right_upper_arm), c1_x - arm_offset - arm_radius,
                                                   c1_x - arm_offset + arm_radius),
                                           through(body(1, BodyPart::torso), c1_x - torso_radius, c1_x + torso_radius),
                                           through(body(1, BodyPart::left_upper_arm), c1_x + arm_offset - arm_radius,
                                                   c1_x + arm_offset + arm_radius),
                                           through(wall(5), wall5_near, wall5_far),
                                           through(crate(1), crate1_near, crate1_far),
                                           through(wall(2), wall2_near, wall2_far),
                                       })});

  // Frame 6: character 1 has stepped out of the lane.
  // The head shot now flies on to wall 5.
  shots.push_back({6, 0, kRifle, at_head, blocked(wall(5), lane(at_head, wall5_near))});
  // The shin shot reaches the floor: the ray falls 1.43 m over 20 m and reaches y = 0 at
  // x = 7.80, before wall 5 (8.85), inside floor cell x 6..10, z -2..2 and off its diagonal.
  const double shin_drop = kEyeHeight - double(at_shin.y);
  shots.push_back({6, 0, kRifle, at_shin,
                   blocked({ObjectKind::floor}, kEyeHeight / shin_drop * hitscan::length(in_double(at_shin) - eye0))});
  // The railgun: wall 5, all the way through the pillar, into wall 2.
  shots.push_back({6, 0, kRailgun, at_shoulder,
                   penetrating(budget, {
                                           through(wall(5), wall5_near, wall5_far),
                                           through(crate(1), crate1_near, crate1_far),
                                           through(wall(2), wall2_near, wall2_far),
                                       })});
  // Character 2 fires at character 0's head from inside its own head (blue, masked), over crate 0
  // (1.63 > 1.2), clear of character 1 (z = 4.44 at x = 5) and character 3 (z = 2.22 at x = -5).
  shots.push_back({6, 2, kRifle, at_c0_head,
                   hit(body(0, BodyPart::head), hitscan::length(in_double(at_c0_head) - eye2) - head_radius)});

  // Frame 12: character 1 is back on the lane, facing -z: its left upper arm is now nearer.
  shots.push_back({12, 0, kRifle, at_shoulder,
                   hit(body(1, BodyPart::left_upper_arm), lane(at_shoulder, c1_x - arm_offset - arm_radius))});
  shots.push_back({12, 0, kRailgun, at_shoulder,
                   penetrating(budget, {
                                           through(body(1, BodyPart::left_upper_arm), c1_x - arm_offset - arm_radius,
                                                   c1_x - arm_offset + arm_radius),
                                           through(body(1, BodyPart::torso), c1_x - torso_radius, c1_x + torso_radius),
                                           through(body(1, BodyPart::right_upper_arm), c1_x + arm_offset - arm_radius,
                                                   c1_x + arm_offset + arm_radius),
                                           through(wall(5), wall5_near, wall5_far),
                                           through(crate(1), crate1_near, crate1_far),
                                           through(wall(2), wall2_near, wall2_far),
                                       })});
  return shots;
}

}  // namespace fps
