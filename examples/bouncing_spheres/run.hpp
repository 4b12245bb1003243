#pragma once
// A run of the simulation and what it measured after every step, and how each sphere rests at the
// end.

#include <vector>

#include "simulation.hpp"

namespace bouncing {

struct RunResult {
  std::vector<Body> final_bodies;
  /// The contact rows of the last step, with their impulses.
  std::vector<ContactRow> final_contacts;
  /// traces[i]: sphere i's recorded positions.
  std::vector<std::vector<Vec3d>> traces;
  double initial_energy = 0, final_energy = 0;
  double max_energy_increase = 0;
  int max_energy_increase_step = -1;
  int energy_increase_steps = 0;
  double max_box_penetration = 0;  // fraction of the radius
  int max_box_penetration_sphere = -1, max_box_penetration_step = -1;
  double max_sphere_overlap = 0;  // fraction of the smaller radius
  int push_steps = 0;
  int widenings = 0, uncovered_steps = 0;
  int max_contacts = 0;
  long long total_contacts = 0;
  /// The last step after which some sphere moved faster than the rest speed.
  int last_moving_step = -1;
  double seconds = 0;
};

/// Runs the whole simulation, measuring after every step what the test checks.
RunResult run(const World& world, const Settings& settings, const Limits& limits);

enum class Held { on_face, in_crevice, not_held };

/// How a sphere rests at the end, judged from the normal impulses of the last step, and the angle
/// from up of what holds it.
struct Support {
  Held held = Held::not_held;
  double angle_degrees = 90;
  /// The sum of the normal impulses boxes and the floor give the sphere.
  Vec3d from_static{};
};

/// On a top face: one box or the floor pushes with at least half the sphere's weight, its normal
/// within the limit of up (neighbours may lean on the sphere or on its side). In a crevice: no
/// single one does, but together the boxes and the floor push that way. Otherwise the sphere is
/// held up by other spheres, or pressed by them against a box and held by friction.
std::vector<Support> supports(const RunResult& result, const Settings& settings, const Limits& limits);

}  // namespace bouncing
