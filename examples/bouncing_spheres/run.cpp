#include "run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>

#include "hitscan/bvh/uniform_grid.hpp"

namespace bouncing {
namespace {

double total_energy(const std::vector<Body>& bodies, std::uint32_t sphere_count, double gravity) {
  double energy = 0;
  for (std::uint32_t i = 0; i < sphere_count; ++i) {
    const Body& s = bodies[i];
    energy += 0.5 * s.mass * length_squared(s.velocity) + 0.5 / s.inverse_inertia * length_squared(s.angular_velocity) +
              s.mass * gravity * s.position.y;
  }
  return energy;
}

bool moving(const Body& s, double rest_speed) {
  return length(s.velocity) > rest_speed || length(s.angular_velocity) * s.radius > rest_speed;
}

Aabbf sphere_bounds(const Body& s) {
  const Vec3d r{s.radius, s.radius, s.radius};
  return to_float_outward(s.position - r, s.position + r);
}

}  // namespace

RunResult run(const World& world, const Settings& settings, const Limits& limits) {
  const auto start = std::chrono::steady_clock::now();
  Simulation simulation(world, settings);
  const std::uint32_t n = simulation.sphere_count();
  RunResult result;
  result.traces.resize(n);
  result.initial_energy = total_energy(simulation.bodies(), n, settings.gravity);
  double energy = result.initial_energy;
  // Penetration is measured against every box, not through the solver's broadphase; the
  // two-stage test (the box's bounding sphere first) decides which pairs need a contact.
  std::vector<CachedObb<double>> cached_boxes;
  for (const Obbd& box : world.boxes) cached_boxes.push_back(CachedObb<double>::from_obb(box));
  // Overlaps between spheres are found through a second broadphase, a uniform grid.
  bvh::UniformGrid grid;
  std::vector<Aabbf> bounds(n);
  for (int step = 0; step < settings.step_count; ++step) {
    if (step % settings.trace_every == 0) {
      for (std::uint32_t i = 0; i < n; ++i) result.traces[i].push_back(simulation.bodies()[i].position);
    }
    const StepReport report = simulation.step();
    const std::vector<Body>& bodies = simulation.bodies();
    result.push_steps += report.pushed ? 1 : 0;
    result.widenings += report.widenings;
    result.uncovered_steps += report.covered ? 0 : 1;
    result.max_contacts = std::max(result.max_contacts, report.contacts);
    result.total_contacts += report.contacts;

    const double next_energy = total_energy(bodies, n, settings.gravity);
    if (next_energy - energy > result.max_energy_increase) {
      result.max_energy_increase = next_energy - energy;
      result.max_energy_increase_step = step;
    }
    result.energy_increase_steps += next_energy > energy ? 1 : 0;
    energy = next_energy;

    for (std::uint32_t i = 0; i < n; ++i) {
      const Sphered sphere{bodies[i].position, bodies[i].radius};
      double deepest = std::max(contact(sphere, world.floor).depth, 0.0);
      for (const CachedObb<double>& box : cached_boxes) {
        if (overlap(sphere, box)) deepest = std::max(deepest, contact(sphere, box.box).depth);
      }
      if (deepest / sphere.radius > result.max_box_penetration) {
        result.max_box_penetration = deepest / sphere.radius;
        result.max_box_penetration_sphere = int(i);
        result.max_box_penetration_step = step;
      }
      bounds[i] = sphere_bounds(bodies[i]);
      if (moving(bodies[i], limits.rest_speed)) result.last_moving_step = step;
    }
    grid.update(bounds);
    grid.find_pairs([&](std::uint32_t i, std::uint32_t j) {
      const Body& a = bodies[i];
      const Body& b = bodies[j];
      const Contact<double> c = contact(Sphered{a.position, a.radius}, Sphered{b.position, b.radius});
      if (!c.touching) return;
      result.max_sphere_overlap = std::max(result.max_sphere_overlap, c.depth / std::min(a.radius, b.radius));
    });
  }
  result.final_bodies = simulation.bodies();
  result.final_contacts = simulation.contacts();
  result.final_energy = energy;
  for (std::uint32_t i = 0; i < n; ++i) result.traces[i].push_back(result.final_bodies[i].position);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::vector<Support> supports(const RunResult& result, const Settings& settings, const Limits& limits) {
  const auto n = std::uint32_t(result.final_bodies.size() - 1);
  const double cos_limit = std::cos(limits.support_angle_degrees * kPi<double> / 180);
  const auto degrees_from_up = [](const Vec3d& v) {
    return std::acos(std::clamp(dot(normalize(v), kUp), -1.0, 1.0)) * 180 / kPi<double>;
  };
  std::vector<Support> support(n);
  std::vector<double> face_impulse(n, 0.0);
  for (const ContactRow& row : result.final_contacts) {
    if (row.b != n || !(row.normal_impulse > 0)) continue;
    support[row.a].from_static += row.normal * row.normal_impulse;
    if (dot(row.normal, kUp) >= cos_limit && row.normal_impulse > face_impulse[row.a]) {
      face_impulse[row.a] = row.normal_impulse;
      support[row.a].angle_degrees = degrees_from_up(row.normal);
    }
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    const double half_weight = 0.5 * result.final_bodies[i].mass * settings.gravity * settings.time_step;
    const Vec3d push = support[i].from_static;
    if (face_impulse[i] >= half_weight) {
      support[i].held = Held::on_face;
    } else if (dot(push, kUp) >= half_weight && dot(normalize(push), kUp) >= cos_limit) {
      support[i].held = Held::in_crevice;
      support[i].angle_degrees = degrees_from_up(push);
    } else {
      support[i].angle_degrees = push == Vec3d{} ? 90 : degrees_from_up(push);
    }
  }
  return support;
}

}  // namespace bouncing
