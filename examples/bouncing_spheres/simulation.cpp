#include "simulation.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace bouncing {
namespace {

Vec3d clamp_length(Vec3d v, double limit) {
  const double length2 = length_squared(v);
  if (length2 <= limit * limit) return v;
  return v * (limit / std::sqrt(length2));
}

/// The first element of `rows` (sorted by key) whose key is not below `key`.
template <class Rows>
auto find_key(Rows& rows, std::uint64_t key) {
  return std::lower_bound(rows.begin(), rows.end(), key, [](const auto& r, std::uint64_t k) { return r.key < k; });
}

}  // namespace

Aabbf to_float_outward(const Vec3d& lo, const Vec3d& hi) {
  const auto down = [](double x) { return std::nextafter(float(x), -kInfinity<float>); };
  const auto up = [](double x) { return std::nextafter(float(x), kInfinity<float>); };
  return {{down(lo.x), down(lo.y), down(lo.z)}, {up(hi.x), up(hi.y), up(hi.z)}};
}

Simulation::Simulation(const World& world, const Settings& settings)
    : settings_(settings), floor_(world.floor), boxes_(world.boxes), bodies_(world.bodies) {
  sphere_count_ = std::uint32_t(bodies_.size() - 1);
  static_object_count_ = std::uint32_t(boxes_.size() + 1);
  reach_.assign(bodies_.size(), 0.0);
  start_velocity_.assign(bodies_.size(), Vec3d{});
  push_velocity_.assign(bodies_.size(), Vec3d{});
  for (std::uint32_t i = 0; i < sphere_count_; ++i) proxies_.push_back(tree_.insert(sphere_box(i), i));
  for (std::uint32_t k = 0; k < boxes_.size(); ++k) {
    const Vec3d half = obb_half_size(boxes_[k]);
    tree_.insert(to_float_outward(boxes_[k].center - half, boxes_[k].center + half), sphere_count_ + k);
  }
  tree_.insert(to_float_outward(floor_.min, floor_.max), sphere_count_ + boxes_.size());
}

StepReport Simulation::step() {
  const double dt = settings_.time_step;
  for (std::uint32_t i = 0; i < sphere_count_; ++i) {
    Body& s = bodies_[i];
    s.velocity += kUp * (-settings_.gravity * dt);
    start_velocity_[i] = s.velocity;
    reach_[i] = 0;
  }
  widen_reach();
  find_contacts();
  for (ContactRow& row : rows_) prepare_row(row, true);
  solve();
  // The speculative distances were guessed from the velocities before the solve, and a
  // collision can speed a sphere up towards something it has no row with. Widen them and
  // solve on until every sphere's final motion stays within its distance: then every pair that
  // can meet in this step has a row.
  StepReport report;
  while (widen_reach()) {
    if (report.widenings == kMaxWidenings) {
      report.covered = false;
      break;
    }
    ++report.widenings;
    std::vector<ContactRow> solved = std::move(rows_);
    find_contacts();
    for (ContactRow& row : rows_) {
      const auto old = find_key(solved, row.key);
      if (old != solved.end() && old->key == row.key) {
        row = *old;
      } else {
        prepare_row(row, false);
      }
    }
    solve();
  }
  report.contacts = int(rows_.size());
  report.pushed = push_out();
  for (std::uint32_t i = 0; i < sphere_count_; ++i) {
    bodies_[i].position += (bodies_[i].velocity + push_velocity_[i]) * dt;
  }
  warm_.clear();
  for (const ContactRow& row : rows_) {
    warm_.push_back({row.key, row.normal_impulse, row.friction_impulse, row.rolling_impulse});
  }
  return report;
}

bool Simulation::widen_reach() {
  bool grew = false;
  const double slack = 0.002 * settings_.min_radius;
  for (std::uint32_t i = 0; i < sphere_count_; ++i) {
    const double motion = length(bodies_[i].velocity) * settings_.time_step;
    if (motion + slack > reach_[i]) {
      reach_[i] = 1.25 * motion + slack;
      grew = true;
    }
  }
  return grew;
}

Aabbf Simulation::sphere_box(std::uint32_t i) const {
  const Body& s = bodies_[i];
  const double r = s.radius + reach_[i];
  return to_float_outward(s.position - Vec3d{r, r, r}, s.position + Vec3d{r, r, r});
}

void Simulation::find_contacts() {
  const double dt = settings_.time_step;
  for (std::uint32_t i = 0; i < sphere_count_; ++i) {
    const Vec3d d = bodies_[i].velocity * dt;
    tree_.move(proxies_[i], sphere_box(i), Vec3f{float(d.x), float(d.y), float(d.z)});
  }
  rows_.clear();
  const std::uint64_t stride = sphere_count_ + static_object_count_;
  tree_.find_pairs([&](std::uint32_t p, std::uint32_t q) {
    std::uint64_t a = tree_.user(p), b = tree_.user(q);
    if (a > b) std::swap(a, b);
    if (a >= sphere_count_) return;  // two boxes
    const Body& s = bodies_[a];
    const Sphered sphere{s.position, s.radius};
    Contact<double> c;
    ContactRow row;
    row.b = sphere_count_;
    if (b < sphere_count_) {
      c = contact(sphere, Sphered{bodies_[b].position, bodies_[b].radius}, reach_[a] + reach_[b]);
      row.b = std::uint32_t(b);
      row.lever_b = bodies_[b].radius;
    } else if (b < sphere_count_ + boxes_.size()) {
      c = contact(sphere, boxes_[b - sphere_count_], reach_[a]);
    } else {
      c = contact(sphere, floor_, reach_[a]);
    }
    if (!c.touching) return;
    row.key = a * stride + b;
    row.a = std::uint32_t(a);
    row.normal = c.normal;
    row.lever_a = s.radius;
    row.depth = c.depth;
    rows_.push_back(row);
  });
  // The tree's traversal order depends on its history; the solve's order must not.
  std::sort(rows_.begin(), rows_.end(), [](const ContactRow& x, const ContactRow& y) { return x.key < y.key; });
}

Vec3d Simulation::relative_velocity(const ContactRow& row) const {
  const Body& a = bodies_[row.a];
  const Body& b = bodies_[row.b];
  return a.velocity + cross(a.angular_velocity, row.normal * -row.lever_a) - b.velocity -
         cross(b.angular_velocity, row.normal * row.lever_b);
}

void Simulation::apply_linear(const ContactRow& row, const Vec3d& impulse) {
  Body& a = bodies_[row.a];
  Body& b = bodies_[row.b];
  a.velocity += impulse * a.inverse_mass;
  b.velocity -= impulse * b.inverse_mass;
}

void Simulation::apply_at_contact(const ContactRow& row, const Vec3d& impulse) {
  Body& a = bodies_[row.a];
  Body& b = bodies_[row.b];
  const Vec3d n_cross = cross(row.normal, impulse);
  a.velocity += impulse * a.inverse_mass;
  a.angular_velocity -= n_cross * (row.lever_a * a.inverse_inertia);
  b.velocity -= impulse * b.inverse_mass;
  b.angular_velocity -= n_cross * (row.lever_b * b.inverse_inertia);
}

void Simulation::apply_angular(const ContactRow& row, const Vec3d& impulse) {
  Body& a = bodies_[row.a];
  Body& b = bodies_[row.b];
  a.angular_velocity += impulse * a.inverse_inertia;
  b.angular_velocity -= impulse * b.inverse_inertia;
}

void Simulation::prepare_row(ContactRow& row, bool warm) {
  const double dt = settings_.time_step;
  const Body& a = bodies_[row.a];
  const Body& b = bodies_[row.b];
  // A normal impulse acts through both centres (no torque); a tangential one also turns them.
  row.normal_mass = 1 / (a.inverse_mass + b.inverse_mass);
  row.tangent_mass = 1 / (a.inverse_mass + b.inverse_mass + row.lever_a * row.lever_a * a.inverse_inertia +
                          row.lever_b * row.lever_b * b.inverse_inertia);
  row.rolling_mass = 1 / (a.inverse_inertia + b.inverse_inertia);
  row.rolling_radius = row.lever_b > 0 ? row.lever_a * row.lever_b / (row.lever_a + row.lever_b) : row.lever_a;
  const bool with_sphere = row.b < sphere_count_;
  row.friction = with_sphere ? settings_.sphere_friction : settings_.friction;
  row.rolling_resistance = with_sphere ? settings_.sphere_rolling_resistance : settings_.rolling_resistance;
  const double gap = -row.depth;
  // Speculative: close at most the gap in this step; overlapping, do not go deeper. The split
  // impulses remove a fraction of the overlap beyond the slop, and otherwise obey the same rule.
  row.normal_target = gap > 0 ? -gap / dt : 0.0;
  const double slop = settings_.slop_fraction * settings_.min_radius;
  row.push_target = row.depth > slop ? settings_.push_fraction * (row.depth - slop) / dt : row.normal_target;
  const auto last = find_key(warm_, row.key);
  const bool persisting = last != warm_.end() && last->key == row.key && last->normal > 0;
  // Only an impact bounces: a contact that already pushed last step is a resting or jammed one,
  // and a bounce target there would feed the solver's residual back into the next approach.
  const double approach = dot(start_velocity_[row.a] - start_velocity_[row.b], row.normal);
  if (!persisting && approach < -settings_.restitution_threshold && approach * dt + std::max(gap, 0.0) <= 0) {
    row.normal_target = std::max(row.normal_target, -settings_.restitution * approach);
  }
  if (warm && persisting) {
    row.normal_impulse = last->normal;
    row.friction_impulse = last->friction - row.normal * dot(last->friction, row.normal);
    row.rolling_impulse = last->rolling;
    apply_linear(row, row.normal * row.normal_impulse);
    apply_at_contact(row, row.friction_impulse);
    apply_angular(row, row.rolling_impulse);
  }
}

void Simulation::solve() {
  for (int it = 0; it < settings_.iterations; ++it) {
    for (ContactRow& row : rows_) solve_row(row);
  }
}

void Simulation::solve_row(ContactRow& row) {
  // Rolling resistance: stop the relative turning, within c_r * r * normal impulse.
  {
    const Vec3d spin = bodies_[row.a].angular_velocity - bodies_[row.b].angular_velocity;
    const Vec3d old = row.rolling_impulse;
    row.rolling_impulse = clamp_length(old - spin * row.rolling_mass,
                                       row.rolling_resistance * row.rolling_radius * row.normal_impulse);
    apply_angular(row, row.rolling_impulse - old);
  }
  // Friction: stop the slip at the contact point, within the Coulomb cone.
  {
    const Vec3d v = relative_velocity(row);
    const Vec3d slip = v - row.normal * dot(v, row.normal);
    const Vec3d old = row.friction_impulse;
    row.friction_impulse = clamp_length(old - slip * row.tangent_mass, row.friction * row.normal_impulse);
    apply_at_contact(row, row.friction_impulse - old);
  }
  // Normal last, so that non-penetration is what the last sweep leaves most exact.
  {
    const double vn = dot(bodies_[row.a].velocity - bodies_[row.b].velocity, row.normal);
    const double old = row.normal_impulse;
    row.normal_impulse = std::max(old - (vn - row.normal_target) * row.normal_mass, 0.0);
    apply_linear(row, row.normal * (row.normal_impulse - old));
  }
}

bool Simulation::push_out() {
  std::fill(push_velocity_.begin(), push_velocity_.end(), Vec3d{});
  const bool needed = std::any_of(rows_.begin(), rows_.end(), [](const ContactRow& r) { return r.push_target > 0; });
  if (!needed) return false;
  for (int it = 0; it < settings_.push_iterations; ++it) {
    for (ContactRow& row : rows_) {
      const double vn = dot(push_velocity_[row.a] - push_velocity_[row.b], row.normal);
      const double old = row.push_impulse;
      row.push_impulse = std::max(old - (vn - row.push_target) * row.normal_mass, 0.0);
      const Vec3d impulse = row.normal * (row.push_impulse - old);
      push_velocity_[row.a] += impulse * bodies_[row.a].inverse_mass;
      push_velocity_[row.b] -= impulse * bodies_[row.b].inverse_mass;
    }
  }
  return true;
}

}  // namespace bouncing
