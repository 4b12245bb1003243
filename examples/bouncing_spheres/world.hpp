#pragma once
// The world of the bouncing spheres: the settings, what the test allows, and the spheres, boxes and
// floor a run starts from, placed at random from the seed.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hitscan/geometry/contact_sphere_box.hpp"

namespace bouncing {

using namespace hitscan;

using Sphered = Sphere<double>;
using Obbd = Obb<double>;

inline constexpr Vec3d kUp{0, 1, 0};

struct Settings {
  std::uint64_t seed = 20240611;
  int sphere_count = 256;
  int box_count = 12;
  double time_step = 1.0 / 120.0;
  int step_count = 12 * 120;
  int iterations = 12;
  int push_iterations = 4;
  double gravity = 9.81;
  double density = 1000.0;
  double min_radius = 0.15, max_radius = 0.35;
  double restitution = 0.5;
  /// Approach speed (m/s) below which contacts do not bounce (see the energy note above).
  double restitution_threshold = 1.0;
  /// Coulomb friction coefficients, sphere on box and sphere on sphere (smoother, so that a
  /// sphere does not stay wedged between others).
  double friction = 0.5, sphere_friction = 0.2;
  /// Torque limit over (radius * normal force); also the tangent of the steepest slope a sphere
  /// rests on.
  double rolling_resistance = 0.15, sphere_rolling_resistance = 0.05;
  /// Penetration, as a fraction of the smaller radius, left alone by the split impulses.
  double slop_fraction = 0.002;
  /// Fraction of the penetration beyond the slop removed per step by the split impulses.
  double push_fraction = 0.2;
  /// Positions are recorded for the picture every this many steps.
  int trace_every = 4;
};

/// What the test allows.
struct Limits {
  double penetration_fraction = 0.01;      // of the sphere's radius
  double energy_increase_fraction = 1e-9;  // of the initial energy, per step
  double rest_speed = 1e-3;                // m/s, linear and at the surface from rotation
  double support_angle_degrees = 15.0;
};

struct Body {
  Vec3d position{}, velocity{}, angular_velocity{};
  double radius = 0;
  double mass = 0;
  /// Zero for the static body that stands for every box.
  double inverse_mass = 0, inverse_inertia = 0;
};

struct World {
  Aabbd floor{};
  /// The obstacles, then the walls.
  std::vector<Obbd> boxes;
  std::size_t obstacle_count = 0;
  /// The spheres, then one static body (index sphere count) that every box contact refers to.
  std::vector<Body> bodies;
};

// The half extents of the box's axis-aligned bounds.
Vec3d obb_half_size(const Obbd& box);

World make_world(const Settings& settings);

}  // namespace bouncing
