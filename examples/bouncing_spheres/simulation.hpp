#pragma once
// The solver: sequential impulses over speculative contacts, with restitution, friction, rolling
// resistance and split impulses (see main.cpp for the method and its sources).

#include <cstdint>
#include <vector>

#include "hitscan/bvh/dynamic_tree.hpp"
#include "world.hpp"

namespace bouncing {

/// One contact between sphere a and body b (a sphere, or the static body for a box), its rows'
/// effective masses and its accumulated impulses, all applied to a (b receives the opposite).
struct ContactRow {
  /// Identifies the pair from step to step (for warm starting) and orders the rows.
  std::uint64_t key = 0;
  std::uint32_t a = 0, b = 0;
  /// From b to a.
  Vec3d normal{};
  /// Distances from the centres to the contact point: r_a along -normal, r_b along +normal.
  double lever_a = 0, lever_b = 0;
  double depth = 0;
  double normal_mass = 0, tangent_mass = 0, rolling_mass = 0;
  double rolling_radius = 0;
  double friction = 0, rolling_resistance = 0;
  /// The least separating normal velocity the solve must leave.
  double normal_target = 0;
  double push_target = 0;
  double normal_impulse = 0, push_impulse = 0;
  Vec3d friction_impulse{}, rolling_impulse{};
};

struct WarmImpulse {
  std::uint64_t key = 0;
  double normal = 0;
  Vec3d friction{}, rolling{};
};

// The float box that holds the double box [lo, hi], rounded outwards.
Aabbf to_float_outward(const Vec3d& lo, const Vec3d& hi);

struct StepReport {
  int contacts = 0;
  /// Times the speculative distances had to be widened after a solve (see Simulation::step).
  int widenings = 0;
  /// False when, after the last widening allowed, some sphere still moved further than its
  /// speculative distance (it could then meet something it had no contact row with).
  bool covered = true;
  bool pushed = false;
};

class Simulation {
 public:
  Simulation(const World& world, const Settings& settings);

  const std::vector<Body>& bodies() const { return bodies_; }
  std::uint32_t sphere_count() const { return sphere_count_; }
  const std::vector<ContactRow>& contacts() const { return rows_; }

  StepReport step();

 private:
  static constexpr int kMaxWidenings = 4;

  /// Grows each sphere's speculative distance to cover its motion at its current velocity, with
  /// a quarter to spare; true when any grew.
  bool widen_reach();

  Aabbf sphere_box(std::uint32_t i) const;

  /// A row for every pair closer than the sum of their speculative distances (a box has none),
  /// in the order of their keys.
  void find_contacts();

  Vec3d relative_velocity(const ContactRow& row) const;

  void apply_linear(const ContactRow& row, const Vec3d& impulse);

  /// An impulse at the contact point: the linear part and the torque about each centre.
  void apply_at_contact(const ContactRow& row, const Vec3d& impulse);

  void apply_angular(const ContactRow& row, const Vec3d& impulse);

  /// Effective masses and targets; with `warm`, the impulses the pair ended the last step with
  /// are applied again (warm starting).
  void prepare_row(ContactRow& row, bool warm);

  void solve();

  void solve_row(ContactRow& row);

  /// Split impulses for penetration beyond the slop; true when any was needed.
  bool push_out();

  Settings settings_;
  Aabbd floor_;
  std::vector<Obbd> boxes_;
  std::vector<Body> bodies_;
  std::uint32_t sphere_count_ = 0;
  std::uint32_t static_object_count_ = 0;
  /// Per body (the static one last, always 0): how far it may move in this step, the speculative
  /// distance its contacts are found within.
  std::vector<double> reach_;
  /// Per body: the linear velocity after gravity, before any impulse of this step.
  std::vector<Vec3d> start_velocity_;
  std::vector<Vec3d> push_velocity_;
  bvh::DynamicTree tree_;
  std::vector<std::uint32_t> proxies_;
  std::vector<ContactRow> rows_;
  std::vector<WarmImpulse> warm_;
};

}  // namespace bouncing
