#pragma once
// What a collider's user_id says about it: the kind of object, its index among its kind and, for a
// character, the body part. Every hit hands the user_id back, so a shot's outcome reads straight off
// it without a lookup table from collider ids.

#include <cstdint>
#include <string>

namespace fps {

enum class ObjectKind : std::uint8_t { none, floor, wall, crate, ramp, character };

enum class BodyPart : std::uint8_t {
  head,
  torso,
  left_upper_arm,
  left_forearm,
  right_upper_arm,
  right_forearm,
  left_leg,
  right_leg,
  none,
};
inline constexpr int kBodyPartCount = 8;

struct ObjectTag {
  ObjectKind kind = ObjectKind::none;
  std::uint32_t index = 0;
  BodyPart part = BodyPart::none;

  friend bool operator==(const ObjectTag&, const ObjectTag&) = default;
};

// Kind in bits 40..47, index in bits 8..39, part in bits 0..7.
inline std::uint64_t encode(ObjectTag tag) {
  return std::uint64_t(tag.kind) << 40 | std::uint64_t(tag.index) << 8 | std::uint64_t(tag.part);
}

inline ObjectTag decode(std::uint64_t user_id) {
  return {ObjectKind(user_id >> 40 & 0xFF), std::uint32_t(user_id >> 8), BodyPart(user_id & 0xFF)};
}

inline const char* kind_name(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::floor: return "floor";
    case ObjectKind::wall: return "wall";
    case ObjectKind::crate: return "crate";
    case ObjectKind::ramp: return "ramp";
    case ObjectKind::character: return "character";
    case ObjectKind::none: break;
  }
  return "nothing";
}

inline const char* part_name(BodyPart part) {
  switch (part) {
    case BodyPart::head: return "head";
    case BodyPart::torso: return "torso";
    case BodyPart::left_upper_arm: return "left upper arm";
    case BodyPart::left_forearm: return "left forearm";
    case BodyPart::right_upper_arm: return "right upper arm";
    case BodyPart::right_forearm: return "right forearm";
    case BodyPart::left_leg: return "left leg";
    case BodyPart::right_leg: return "right leg";
    case BodyPart::none: break;
  }
  return "no part";
}

// "floor", "wall 5", "character 1 right upper arm".
inline std::string describe(ObjectTag tag) {
  std::string text = kind_name(tag.kind);
  if (tag.kind == ObjectKind::floor || tag.kind == ObjectKind::none) return text;
  text += ' ' + std::to_string(tag.index);
  if (tag.kind == ObjectKind::character) text += std::string(" ") + part_name(tag.part);
  return text;
}

}  // namespace fps
