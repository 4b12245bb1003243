// FPS hitscan: a small level (walls from boxes, a floor mesh, crates and a ramp made of triangles)
// and four characters with a capsule hitbox per body part on their team's layer, patrolling frame
// by frame. A script of shots with ranged weapons (script.cpp) runs over 13 frames and prints what
// each shot did. Built and run as a test: it exits non-zero when
//   - a shot's outcome (hit, blocked, out of range, penetrating), what it met (the object, or the
//     character and body part) or how far along the ray differs from the outcome worked out by hand
//     in script.cpp, distances by more than kTolerance;
//   - a penetrating shot's ordered list of entries and exits differs in any item;
//   - a shot meets its shooter's own hitboxes (while an unmasked ray from the same eye does: the
//     eye is inside the head, so it is the layer mask or the filter that keeps them out);
//   - a shot fired again at a later frame, after its target moved, does the same as before;
//   - a second run of the script gives a result that differs in any bit.

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "characters.hpp"
#include "level.hpp"
#include "script.hpp"
#include "shots.hpp"

namespace {

using namespace fps;

// Metres. The expectations are exact in double; the library computes in float, whose rounding at
// 35 m is about 4 micrometres a step.
constexpr double kTolerance = 1e-4;

template <class... Args>
std::string text(const char* pattern, Args... args) {
  char line[256];
  std::snprintf(line, sizeof line, pattern, args...);
  return line;
}

struct World {
  hitscan::Scene scene;
  Level level;
  std::vector<Character> cast;
};

World make_world() {
  World world;
  world.level = build_level(world.scene);
  world.cast = spawn_cast(world.scene);
  world.scene.commit();
  return world;
}

// The axis a yaw faces along, for the log (every yaw in the script is a multiple of a quarter turn).
const char* facing(float yaw) {
  const float x = std::sin(yaw), z = std::cos(yaw);
  if (std::abs(x) > std::abs(z)) return x > 0 ? "+x" : "-x";
  return z > 0 ? "+z" : "-z";
}

struct ShotRecord {
  const ScriptedShot* shot = nullptr;
  ShotResult result;
  std::string outcome;
};

// Runs the whole script on a new world: each frame moves everyone (one commit), then fires that
// frame's shots. Prints the log when asked.
std::vector<ShotRecord> run_script(const std::vector<ScriptedShot>& script, bool print) {
  World world = make_world();
  std::vector<ShotRecord> records;
  std::size_t next = 0;
  for (int frame = 0; frame <= kLastFrame; ++frame) {
    const hitscan::Status moved = move_cast(world.scene, world.cast, frame);
    if (!moved.ok()) {
      std::printf("frame %d: moving the cast failed: %s\n", frame, moved.message().c_str());
      return records;
    }
    const std::size_t changes = world.scene.commit();
    if (print) std::printf("frame %2d: %zu hitboxes moved\n", frame, changes);
    if (next == script.size() || script[next].frame != frame) continue;
    for (const Character& c : world.cast) {
      const hitscan::Vec3f p = c.pose.position;
      if (print) {
        std::printf("  character %u (%s) at (%.2f, %.2f, %.2f), facing %s\n", c.index, team_name(c.team), p.x, p.y,
                    p.z, facing(c.pose.yaw));
      }
    }
    for (; next < script.size() && script[next].frame == frame; ++next) {
      const ScriptedShot& shot = script[next];
      ShotResult result = fire(world.scene, world.cast[shot.shooter], shot.weapon, shot.aim);
      std::string outcome = describe(result, shot.weapon);
      if (print) {
        std::printf("  shot %2zu: character %u, %s (%.0f m), at (%.2f, %.2f, %.2f): %s\n", next + 1, shot.shooter,
                    shot.weapon.name, shot.weapon.range, shot.aim.x, shot.aim.y, shot.aim.z, outcome.c_str());
      }
      records.push_back({&shot, std::move(result), std::move(outcome)});
    }
  }
  return records;
}

class Checks {
 public:
  void expect(bool ok, const std::string& what) {
    ++count_;
    if (!ok) {
      ++failed_;
      std::printf("FAILED: %s\n", what.c_str());
    }
  }
  void expect_near(double got, double expected, const std::string& what) {
    expect(std::abs(got - expected) <= kTolerance, text("%s: %.6f m, expected %.6f m", what.c_str(), got, expected));
  }
  int count() const { return count_; }
  int failed() const { return failed_; }

 private:
  int count_ = 0;
  int failed_ = 0;
};

Outcome outcome_of(const ShotResult& result) {
  if (result.penetrating) return Outcome::penetrating;
  if (!result.hit) return Outcome::out_of_range;
  return decode(result.hit.user_id).kind == ObjectKind::character ? Outcome::hit : Outcome::blocked;
}

const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::hit: return "hit";
    case Outcome::blocked: return "blocked";
    case Outcome::out_of_range: return "out of range";
    case Outcome::penetrating: return "penetrating";
  }
  return "?";
}

void check_against_expectation(Checks& checks, const std::string& name, const ShotRecord& record) {
  const Expectation& expected = record.shot->expected;
  const ShotResult& result = record.result;
  const Outcome got = outcome_of(result);
  checks.expect(got == expected.outcome,
                text("%s: %s, expected %s", name.c_str(), outcome_name(got), outcome_name(expected.outcome)));
  if (got != expected.outcome) return;
  if (got == Outcome::hit || got == Outcome::blocked) {
    const ObjectTag tag = decode(result.hit.user_id);
    checks.expect(tag == expected.tag, text("%s: met %s, expected %s", name.c_str(), describe(tag).c_str(),
                                            describe(expected.tag).c_str()));
    checks.expect_near(result.hit.distance, expected.distance, name + ": distance");
  }
  if (got != Outcome::penetrating) return;
  checks.expect(result.passages.size() == expected.passages.size(),
                text("%s: %zu passages, expected %zu", name.c_str(), result.passages.size(), expected.passages.size()));
  for (std::size_t i = 0; i < result.passages.size() && i < expected.passages.size(); ++i) {
    const Passage& p = result.passages[i];
    const ExpectedPassage& e = expected.passages[i];
    const std::string item = text("%s, passage %zu", name.c_str(), i + 1);
    checks.expect(p.tag == e.tag,
                  text("%s: %s, expected %s", item.c_str(), describe(p.tag).c_str(), describe(e.tag).c_str()));
    checks.expect_near(p.in, e.in, item + ": in");
    checks.expect_near(p.out, e.out, item + (e.stopped ? ": stopped at" : ": out"));
    checks.expect(p.stopped == e.stopped, item + (e.stopped ? ": should stop inside" : ": should come out"));
  }
}

bool meets_character(const ShotResult& result, std::uint32_t character) {
  const auto is_it = [character](ObjectTag tag) {
    return tag.kind == ObjectKind::character && tag.index == character;
  };
  if (result.hit && is_it(decode(result.hit.user_id))) return true;
  for (const Passage& p : result.passages) {
    if (is_it(p.tag)) return true;
  }
  return false;
}

// The control for "never its own hitboxes": at frame 4, a ray from character 0's eye with no mask
// and no filter starts inside character 0's head, and every weapon's options leave its hitboxes out.
void check_own_head_needs_the_mask(Checks& checks) {
  World world = make_world();
  checks.expect(move_cast(world.scene, world.cast, 4).ok(), "control: moving the cast to frame 4");
  world.scene.commit();
  const Character& shooter = world.cast[0];
  const hitscan::QueryRay ray{shooter.eye(), hitscan::Vec3f{1, 0, 0}};
  const hitscan::QueryHit unmasked = world.scene.raycast(ray);
  checks.expect(unmasked.started_inside() && unmasked.distance == 0 &&
                    decode(unmasked.user_id) == ObjectTag{ObjectKind::character, 0, BodyPart::head},
                "control: an unmasked ray from character 0's eye starts inside its own head");
  for (const Weapon& weapon : {kRifle, kRifleFriendlyFire, kRailgun}) {
    std::vector<hitscan::QueryHit> all;
    world.scene.raycast_all(ray, all, shot_options(shooter, weapon));
    bool own = false;
    for (const hitscan::QueryHit& h : all) {
      const ObjectTag tag = decode(h.user_id);
      if (tag.kind == ObjectKind::character && tag.index == shooter.index) own = true;
    }
    checks.expect(!own && !all.empty() && !all.front().started_inside(),
                  text("control: the %s's options leave character 0's own hitboxes out", weapon.name));
  }
}

bool same_hit(const hitscan::QueryHit& a, const hitscan::QueryHit& b) {
  return a.hit == b.hit && a.flags == b.flags && a.feature == b.feature && a.distance == b.distance &&
         a.point == b.point && a.normal == b.normal && a.face_normal == b.face_normal && a.collider == b.collider &&
         a.user_id == b.user_id && a.primitive == b.primitive && a.u == b.u && a.v == b.v;
}

}  // namespace

int main() {
  const std::vector<ScriptedShot> script = scripted_shots();
  const std::vector<ShotRecord> first = run_script(script, true);

  Checks checks;
  checks.expect(first.size() == script.size(),
                text("%zu shots fired, the script has %zu", first.size(), script.size()));
  for (std::size_t i = 0; i < first.size(); ++i) {
    const std::string name = text("shot %zu", i + 1);
    check_against_expectation(checks, name, first[i]);
    checks.expect(!meets_character(first[i].result, first[i].shot->shooter), name + ": met its own shooter");
  }
  check_own_head_needs_the_mask(checks);

  // The same shot (shooter, weapon, aim) at a later frame, after the characters moved, must not
  // do the same thing: character 1 stepped out of the lane, or turned round.
  int repeats = 0;
  for (std::size_t i = 0; i < first.size(); ++i) {
    for (std::size_t j = i + 1; j < first.size(); ++j) {
      const ScriptedShot& a = *first[i].shot;
      const ScriptedShot& b = *first[j].shot;
      const bool same_shot =
          a.shooter == b.shooter && std::string_view(a.weapon.name) == b.weapon.name && a.aim == b.aim;
      if (a.frame == b.frame || !same_shot) continue;
      ++repeats;
      checks.expect(first[i].outcome != first[j].outcome,
                    text("shots %zu (frame %d) and %zu (frame %d) should differ: %s", i + 1, a.frame, j + 1, b.frame,
                         first[i].outcome.c_str()));
    }
  }
  checks.expect(repeats > 0, "the script repeats a shot at a later frame");

  // Determinism: a new world, the same script, the same bits.
  const std::vector<ShotRecord> second = run_script(script, false);
  checks.expect(second.size() == first.size(), "the second run fires as many shots");
  for (std::size_t i = 0; i < first.size() && i < second.size(); ++i) {
    const ShotResult& a = first[i].result;
    const ShotResult& b = second[i].result;
    checks.expect(same_hit(a.hit, b.hit) && a.passages == b.passages && first[i].outcome == second[i].outcome,
                  text("shot %zu differs in the second run: %s", i + 1, second[i].outcome.c_str()));
  }

  std::printf("%d checks (%zu shots, %d repeated at a later frame, a second run), %d failed\n", checks.count(),
              script.size(), repeats, checks.failed());
  return checks.failed() == 0 ? 0 : 1;
}
