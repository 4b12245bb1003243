// Bouncing spheres: 256 spheres fall under gravity onto boxes at random rotations and onto a floor,
// bounce, roll and come to rest. hitscan supplies the geometry: the broadphase (bvh::DynamicTree,
// moved every step, never rebuilt), the contacts (sphere against sphere, Aabb and Obb, in double)
// and the PNG writer. The dynamics are a small rigid-body solver written here. The program checks
// its own physics and is run as a test: it prints what it measured and fails when
//   - a sphere sinks into a box or the floor deeper than 1 % of its radius after a step,
//   - the total energy (kinetic, linear and rotational, plus potential) rises from one step to the
//     next by more than 1e-9 of the initial energy (rounding),
//   - at the end a sphere still moves (1 mm/s at its centre, or at its surface by turning), or is
//     not held from below by a top face: a box or the floor pushing with at least half its weight
//     along a normal within 15 degrees of up, or a crevice whose normals add up to such a push,
//   - a second run in the same process ends with some final position different in some bit.
// It draws the paths, a side view above a top view, to out/bouncing_spheres.png or to the path given
// as the first argument (a second argument replaces the seed).
//
// The solver, per fixed step of 1/120 s (semi-implicit Euler: velocities, then positions):
//   - Sequential impulses with accumulated, clamped impulses and warm starting (E. Catto,
//     "Iterative Dynamics with Temporal Coherence", GDC 2005; "Fast and Simple Physics using
//     Sequential Impulses", GDC 2006): per contact a normal row, a friction row whose impulse is
//     clamped to the Coulomb cone |f| <= mu * normal impulse, and a rolling-resistance row on the
//     relative angular velocity, clamped to c_r * r * normal impulse (like Box2D v3.1's rolling
//     resistance; without it a sphere rolls on a flat floor for ever).
//   - Speculative contacts (Catto, "Continuous Collision", GDC 2013): every pair closer than the
//     distance the two can travel in the step is a row, with the constraint "approach by at most
//     the gap". A box lies behind the plane through its closest point, and two spheres are at least
//     their distance along any unit vector apart, so a converged step never penetrates and no fast
//     sphere tunnels. The distances are guessed from the velocities before the solve; when a
//     collision speeds a sphere up beyond its guess, the distances grow and the solve goes on
//     with the new rows, until every sphere's motion is covered.
//   - Restitution as a velocity target, e times the approach speed before the solve, for new
//     contacts approaching faster than 1 m/s. A contact that already pushed in the last step is
//     resting or jammed: a bounce target there would feed the solver's residual back into the
//     next approach speed and grow without bound.
//   - Split impulses (pseudo velocities that move positions and carry no momentum; Catto 2006,
//     Bullet's split impulse) push out penetration beyond a slop. Converged speculative rows leave
//     none, so this is a safety net; the run reports how often it acted.
// Spheres are rigid bodies with inertia 2/5 m r^2; their orientation is not tracked (a sphere looks
// the same in every orientation), their angular velocity is. Boxes and the floor are static.
//
// Why the energy never grows. With u the velocities after gravity, v' = u + M^-1 J^T lambda after
// the solve and positions moved by v' dt, the energy changes by exactly
//   dE = sum over rows (J v') . lambda  -  1/2 |P + g dt|^2_M,      P = M^-1 J^T lambda,
// and at convergence every row's term is <= 0: a normal row pushes only while its gap closes at the
// speed allowed (<= 0), friction and rolling resistance oppose the slip they clamp. Restitution
// gives a positive term, e * approach * lambda, which the second term outweighs for approach speeds
// above g dt (1 + e + sqrt(2e (1 + e))) / (1 - e^2) (0.30 m/s here; the threshold is 1 m/s). A split
// impulse that lifts a sphere adds potential energy; it acts only beyond the slop.
//
// The scene is built so that the end state the test asks for exists. Half the boxes turn about the
// vertical only and stand on the floor (flat tops); half turn by uniform random quaternions and
// float more than a sphere's diameter above the floor (no wedge under an overhang). Boxes stay
// further apart than a sphere's diameter (no crevice between two boxes to be wedged in by
// friction); a slanted face holds a sphere only below atan(c_r) = 8.5 degrees. Walls keep spheres
// thrown sideways by a slanted box on the floor. Sphere-on-sphere friction is lower, so that a
// sphere does not stay wedged between others. The last sphere stops after about 7 s; the run lasts
// 12 s. The default seed passes every check; of seeds 1 to 40, two end with one sphere wedged
// between other spheres, held by friction: physically right, but not on a top face.

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include "hitscan/bvh/dynamic_tree.hpp"
#include "hitscan/bvh/uniform_grid.hpp"
#include "hitscan/geometry/contact_sphere_box.hpp"
#include "hitscan/io/image.hpp"

namespace {

using namespace hitscan;

using Sphered = Sphere<double>;
using Obbd = Obb<double>;

constexpr Vec3d kUp{0, 1, 0};

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

// --- random numbers: splitmix64 (Steele, Lea, Flood 2014), the same on every platform -----------

class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1), from the top 53 bits.
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

  /// A uniformly distributed rotation (Shoemake, "Uniform Random Rotations", Graphics Gems III).
  Quatd rotation() {
    const double u1 = uniform(), u2 = uniform() * 2 * kPi<double>, u3 = uniform() * 2 * kPi<double>;
    const double a = std::sqrt(1 - u1), b = std::sqrt(u1);
    return Quatd::from_components(b * std::cos(u3), a * std::sin(u2), a * std::cos(u2), b * std::sin(u3));
  }

 private:
  std::uint64_t state_;
};

// --- the world ------------------------------------------------------------------------------------

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

Vec3d obb_half_size(const Obbd& box) {
  const Mat3d& r = box.rotation;
  return abs(r.col[0]) * box.half_extents.x + abs(r.col[1]) * box.half_extents.y + abs(r.col[2]) * box.half_extents.z;
}

World make_world(const Settings& settings) {
  Random random(settings.seed);
  World world;
  world.floor = {{-21, -1, -21}, {21, 0, 21}};
  // Obstacles over the middle of the floor. Their bounding spheres stay more than a sphere's
  // diameter apart, so that no sphere touches two boxes at once: a crevice between two boxes can
  // hold a sphere by friction, pressed from the sides rather than carried from below.
  while (int(world.boxes.size()) < settings.box_count) {
    const Vec3d half{random.uniform(0.4, 1.0), random.uniform(0.3, 0.8), random.uniform(0.4, 1.0)};
    const double x = random.uniform(-7, 7), z = random.uniform(-7, 7);
    Obbd box;
    if (world.boxes.size() % 2 == 0) {
      // Turned about the vertical only: stands on the floor with a flat top.
      box = Obbd::from_quat({x, half.y, z}, half, Quatd::from_axis_angle(kUp, random.uniform(0, kPi<double>)));
    } else {
      // Any rotation, held in the air more than a sphere's diameter above the floor: standing on
      // an edge, it would overhang the floor and could wedge a sphere against it.
      box = Obbd::from_quat({x, 0, z}, half, random.rotation());
      box.center.y = obb_half_size(box).y + random.uniform(1.0, 1.8);
    }
    const double gap = 2 * settings.max_radius + 0.1;
    const bool crowded = std::any_of(world.boxes.begin(), world.boxes.end(), [&](const Obbd& other) {
      return distance(box.center, other.center) < length(half) + length(other.half_extents) + gap;
    });
    if (!crowded) world.boxes.push_back(box);
  }
  world.obstacle_count = world.boxes.size();
  // Walls around the floor, 1.5 m high: a sphere launched sideways off a slanted box rolls far.
  for (const Vec3d& side : {Vec3d{1, 0, 0}, Vec3d{-1, 0, 0}, Vec3d{0, 0, 1}, Vec3d{0, 0, -1}}) {
    const Vec3d half = side.x != 0 ? Vec3d{0.5, 0.75, 21} : Vec3d{21, 0.75, 0.5};
    world.boxes.push_back(Obbd{side * 20.5 + Vec3d{0, 0.75, 0}, half, Mat3d::identity()});
  }
  // Spheres at random in a volume above the boxes, none overlapping another or a box, drifting
  // sideways; their heights spread the landings over about a second.
  while (int(world.bodies.size()) < settings.sphere_count) {
    Body s;
    s.radius = random.uniform(settings.min_radius, settings.max_radius);
    s.position = {random.uniform(-8, 8), random.uniform(3.5, 10), random.uniform(-8, 8)};
    const Sphered sphere{s.position, s.radius + 0.05};
    const bool blocked =
        std::any_of(world.bodies.begin(), world.bodies.end(),
                    [&](const Body& o) { return overlap(sphere, Sphered{o.position, o.radius}); }) ||
        std::any_of(world.boxes.begin(), world.boxes.end(), [&](const Obbd& box) { return overlap(sphere, box); });
    if (blocked) continue;
    s.velocity = {random.uniform(-1, 1), 0, random.uniform(-1, 1)};
    s.mass = settings.density * 4.0 / 3.0 * kPi<double> * s.radius * s.radius * s.radius;
    s.inverse_mass = 1 / s.mass;
    s.inverse_inertia = 1 / (0.4 * s.mass * s.radius * s.radius);
    world.bodies.push_back(s);
  }
  world.bodies.push_back(Body{});
  return world;
}

// --- the solver -----------------------------------------------------------------------------------

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

Vec3d clamp_length(Vec3d v, double limit) {
  const double length2 = length_squared(v);
  if (length2 <= limit * limit) return v;
  return v * (limit / std::sqrt(length2));
}

Aabbf to_float_outward(const Vec3d& lo, const Vec3d& hi) {
  const auto down = [](double x) { return std::nextafter(float(x), -kInfinity<float>); };
  const auto up = [](double x) { return std::nextafter(float(x), kInfinity<float>); };
  return {{down(lo.x), down(lo.y), down(lo.z)}, {up(hi.x), up(hi.y), up(hi.z)}};
}

/// The first element of `rows` (sorted by key) whose key is not below `key`.
template <class Rows>
auto find_key(Rows& rows, std::uint64_t key) {
  return std::lower_bound(rows.begin(), rows.end(), key, [](const auto& r, std::uint64_t k) { return r.key < k; });
}

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
  Simulation(const World& world, const Settings& settings)
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

  const std::vector<Body>& bodies() const { return bodies_; }
  std::uint32_t sphere_count() const { return sphere_count_; }
  const std::vector<ContactRow>& contacts() const { return rows_; }

  StepReport step() {
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

 private:
  static constexpr int kMaxWidenings = 4;

  /// Grows each sphere's speculative distance to cover its motion at its current velocity, with
  /// a quarter to spare; true when any grew.
  bool widen_reach() {
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

  Aabbf sphere_box(std::uint32_t i) const {
    const Body& s = bodies_[i];
    const double r = s.radius + reach_[i];
    return to_float_outward(s.position - Vec3d{r, r, r}, s.position + Vec3d{r, r, r});
  }

  /// A row for every pair closer than the sum of their speculative distances (a box has none),
  /// in the order of their keys.
  void find_contacts() {
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

  Vec3d relative_velocity(const ContactRow& row) const {
    const Body& a = bodies_[row.a];
    const Body& b = bodies_[row.b];
    return a.velocity + cross(a.angular_velocity, row.normal * -row.lever_a) - b.velocity -
           cross(b.angular_velocity, row.normal * row.lever_b);
  }

  void apply_linear(const ContactRow& row, const Vec3d& impulse) {
    Body& a = bodies_[row.a];
    Body& b = bodies_[row.b];
    a.velocity += impulse * a.inverse_mass;
    b.velocity -= impulse * b.inverse_mass;
  }

  /// An impulse at the contact point: the linear part and the torque about each centre.
  void apply_at_contact(const ContactRow& row, const Vec3d& impulse) {
    Body& a = bodies_[row.a];
    Body& b = bodies_[row.b];
    const Vec3d n_cross = cross(row.normal, impulse);
    a.velocity += impulse * a.inverse_mass;
    a.angular_velocity -= n_cross * (row.lever_a * a.inverse_inertia);
    b.velocity -= impulse * b.inverse_mass;
    b.angular_velocity -= n_cross * (row.lever_b * b.inverse_inertia);
  }

  void apply_angular(const ContactRow& row, const Vec3d& impulse) {
    Body& a = bodies_[row.a];
    Body& b = bodies_[row.b];
    a.angular_velocity += impulse * a.inverse_inertia;
    b.angular_velocity -= impulse * b.inverse_inertia;
  }

  /// Effective masses and targets; with `warm`, the impulses the pair ended the last step with
  /// are applied again (warm starting).
  void prepare_row(ContactRow& row, bool warm) {
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

  void solve() {
    for (int it = 0; it < settings_.iterations; ++it) {
      for (ContactRow& row : rows_) solve_row(row);
    }
  }

  void solve_row(ContactRow& row) {
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

  /// Split impulses for penetration beyond the slop; true when any was needed.
  bool push_out() {
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

// --- the run and its measurements -----------------------------------------------------------------

double total_energy(const std::vector<Body>& bodies, std::uint32_t sphere_count, double gravity) {
  double energy = 0;
  for (std::uint32_t i = 0; i < sphere_count; ++i) {
    const Body& s = bodies[i];
    energy += 0.5 * s.mass * length_squared(s.velocity) + 0.5 / s.inverse_inertia * length_squared(s.angular_velocity) +
              s.mass * gravity * s.position.y;
  }
  return energy;
}

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

bool moving(const Body& s, double rest_speed) {
  return length(s.velocity) > rest_speed || length(s.angular_velocity) * s.radius > rest_speed;
}

Aabbf sphere_bounds(const Body& s) {
  const Vec3d r{s.radius, s.radius, s.radius};
  return to_float_outward(s.position - r, s.position + r);
}

/// Runs the whole simulation, measuring after every step what the test checks.
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

// --- the picture: a tiny rasteriser of lines and discs ----------------------------------------------

struct Color {
  double r = 0, g = 0, b = 0;
};

/// Fully saturated hues at a fixed brightness, spread by the golden ratio so neighbours differ.
Color sphere_color(std::uint32_t i) {
  const double hue = i * 0.6180339887498949;
  const double h = (hue - std::floor(hue)) * 6;
  const double f = h - std::floor(h);
  const double v = 0.85, p = v * 0.25, q = v * (1 - 0.75 * f), t = v * (1 - 0.75 * (1 - f));
  switch (int(h)) {
    case 0: return {v, t, p};
    case 1: return {q, v, p};
    case 2: return {p, v, t};
    case 3: return {p, q, v};
    case 4: return {t, p, v};
    default: return {v, p, q};
  }
}

/// An orthographic view onto a rectangle of the image: world x to the right, and `vertical` (y,
/// up the image, for the side view; z, down the image, for the top view) across.
struct Panel {
  int left = 0, top = 0, width = 0, height = 0;
  double scale = 1;  // pixels per metre
  double world_left = 0, world_top = 0;
  int vertical = 1;

  double px(const Vec3d& p) const { return left + (p.x - world_left) * scale; }
  double py(const Vec3d& p) const {
    return top + (vertical == 1 ? world_top - p.y : p[vertical] - world_top) * scale;
  }
};

class Canvas {
 public:
  explicit Canvas(io::Image& image) : image_(image) {}

  void blend(const Panel& panel, int x, int y, Color c, double alpha) {
    if (x < panel.left || y < panel.top || x >= panel.left + panel.width || y >= panel.top + panel.height) return;
    io::Rgb8& p = image_.at(x, y);
    const auto mix = [alpha](std::uint8_t old, double value) {
      return std::uint8_t(std::lround(old * (1 - alpha) + std::clamp(value, 0.0, 1.0) * 255 * alpha));
    };
    p = {mix(p.r, c.r), mix(p.g, c.g), mix(p.b, c.b)};
  }

  void fill(const Panel& panel, Color c) {
    for (int y = panel.top; y < panel.top + panel.height; ++y) {
      for (int x = panel.left; x < panel.left + panel.width; ++x) blend(panel, x, y, c, 1.0);
    }
  }

  /// A one-pixel line, stepping along its longer axis (DDA).
  void line(const Panel& panel, const Vec3d& a, const Vec3d& b, Color c, double alpha) {
    const double x0 = panel.px(a), y0 = panel.py(a), x1 = panel.px(b), y1 = panel.py(b);
    const double span = std::max(std::abs(x1 - x0), std::abs(y1 - y0));
    if (!(span < 1e5)) return;  // far outside, or not finite
    const int steps = std::max(1, int(std::ceil(span)));
    for (int k = 0; k <= steps; ++k) {
      const double s = double(k) / steps;
      blend(panel, int(std::floor(x0 + (x1 - x0) * s)), int(std::floor(y0 + (y1 - y0) * s)), c, alpha);
    }
  }

  /// A filled disc with a dark rim, by testing the pixel centres of its bounding square.
  void disc(const Panel& panel, const Vec3d& center, double radius, Color c) {
    const double cx = panel.px(center), cy = panel.py(center), r = radius * panel.scale;
    for (int y = int(std::floor(cy - r)); y <= int(std::ceil(cy + r)); ++y) {
      for (int x = int(std::floor(cx - r)); x <= int(std::ceil(cx + r)); ++x) {
        const double d = std::hypot(x + 0.5 - cx, y + 0.5 - cy);
        if (d <= r) blend(panel, x, y, d > r - 1.2 ? Color{0.1, 0.1, 0.1} : c, 1.0);
      }
    }
  }

 private:
  io::Image& image_;
};

void draw_box(Canvas& canvas, const Panel& panel, const Vec3d& center, const Mat3d& rotation, const Vec3d& half) {
  const auto corner = [&](int k) {
    return center + rotation * Vec3d{k & 1 ? half.x : -half.x, k & 2 ? half.y : -half.y, k & 4 ? half.z : -half.z};
  };
  for (int k = 0; k < 8; ++k) {
    for (int bit = 1; bit < 8; bit <<= 1) {
      if (!(k & bit)) canvas.line(panel, corner(k), corner(k | bit), {0.2, 0.2, 0.25}, 1.0);
    }
  }
}

/// The side view (looking along -z) above the top view (looking down), sharing the x axis, framed
/// on the obstacles and the spheres' starting points with 3 m to spare; the few paths that roll
/// further (towards the walls, not drawn) are cut at the frame.
Status draw(const World& world, const RunResult& result, const std::string& path) {
  Aabbd seen;
  for (const std::vector<Vec3d>& trace : result.traces) seen.grow(trace.front());
  const std::span<const Obbd> obstacles(world.boxes.data(), world.obstacle_count);
  for (const Obbd& box : obstacles) {
    const Vec3d half = obb_half_size(box);
    seen.grow(Aabbd{box.center - half, box.center + half});
  }
  const double pad = 3, scale = 1200 / (seen.extent().x + 2 * pad);
  const int width = int((seen.extent().x + 2 * pad) * scale);
  const Panel side{16, 16, width, int((seen.max.y - world.floor.max.y + 1.5) * scale),
                   scale, seen.min.x - pad, seen.max.y + 0.75, 1};
  const Panel top{16, side.top + side.height + 16, width, int((seen.extent().z + 2 * pad) * scale),
                  scale, seen.min.x - pad, seen.min.z - pad, 2};
  io::Image image(side.width + 32, top.top + top.height + 16, {255, 255, 255});
  Canvas canvas(image);
  for (const Panel& panel : {side, top}) {
    canvas.fill(panel, {0.965, 0.965, 0.95});
    draw_box(canvas, panel, world.floor.center(), Mat3d::identity(), world.floor.half_extents());
    for (const Obbd& box : obstacles) draw_box(canvas, panel, box.center, box.rotation, box.half_extents);
    for (std::uint32_t i = 0; i < result.traces.size(); ++i) {
      const std::vector<Vec3d>& trace = result.traces[i];
      for (std::size_t k = 1; k < trace.size(); ++k) canvas.line(panel, trace[k - 1], trace[k], sphere_color(i), 0.45);
    }
    for (std::uint32_t i = 0; i < result.traces.size(); ++i) {
      canvas.disc(panel, result.final_bodies[i].position, result.final_bodies[i].radius, sphere_color(i));
    }
  }
  return io::write_png(image, path);
}

// --- the test -------------------------------------------------------------------------------------

bool same_bits(const Vec3d& a, const Vec3d& b) {
  return std::bit_cast<std::uint64_t>(a.x) == std::bit_cast<std::uint64_t>(b.x) &&
         std::bit_cast<std::uint64_t>(a.y) == std::bit_cast<std::uint64_t>(b.y) &&
         std::bit_cast<std::uint64_t>(a.z) == std::bit_cast<std::uint64_t>(b.z);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "out/bouncing_spheres.png";
  Settings settings;
  if (argc > 2) settings.seed = std::strtoull(argv[2], nullptr, 10);
  const Limits limits;
  const World world = make_world(settings);
  const RunResult first = run(world, settings, limits);
  const RunResult second = run(world, settings, limits);
  const auto n = std::uint32_t(first.final_bodies.size() - 1);
  const double dt = settings.time_step;
  std::printf("bouncing spheres: %u spheres, %zu boxes, 4 walls, a floor; %d steps of 1/%.0f s (%.1f s); seed %llu\n",
              n, world.obstacle_count, settings.step_count, 1 / dt, settings.step_count * dt,
              static_cast<unsigned long long>(settings.seed));
  std::printf("  contacts per step: mean %.1f, max %d; speculative distances widened after a solve %d times (%d steps "
              "left uncovered); split impulses needed in %d steps; %.2f s per run\n",
              double(first.total_contacts) / settings.step_count, first.max_contacts, first.widenings,
              first.uncovered_steps, first.push_steps, first.seconds);

  int failures = 0;
  const auto check = [&failures](bool ok, const char* what) {
    std::printf("  %-4s %s\n", ok ? "ok" : "FAIL", what);
    failures += ok ? 0 : 1;
  };

  std::printf("penetration into boxes and the floor: max %.3g %% of the radius (sphere %d, step %d), limit %.3g %%; "
              "between spheres (not limited) max %.3g %% of the smaller radius\n",
              100 * first.max_box_penetration, first.max_box_penetration_sphere, first.max_box_penetration_step,
              100 * limits.penetration_fraction, 100 * first.max_sphere_overlap);
  check(first.max_box_penetration <= limits.penetration_fraction, "no sphere sinks into a box or the floor");

  const double energy_limit = limits.energy_increase_fraction * first.initial_energy;
  std::printf("energy: %.6g J at the start, %.6g J at the end; ", first.initial_energy, first.final_energy);
  if (first.energy_increase_steps == 0) {
    std::printf("it fell or stayed equal over each of the %d steps; limit of a rise %.3g J\n", settings.step_count,
                energy_limit);
  } else {
    std::printf("largest rise over one step %.3g J (step %d; %d of %d steps rose at all), limit %.3g J\n",
                first.max_energy_increase, first.max_energy_increase_step, first.energy_increase_steps,
                settings.step_count, energy_limit);
  }
  check(first.max_energy_increase <= energy_limit, "the total energy never grows");

  double fastest = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const Body& s = first.final_bodies[i];
    fastest = std::max({fastest, length(s.velocity), length(s.angular_velocity) * s.radius});
  }
  std::printf("rest: fastest sphere at the end %.3g m/s, limit %.3g m/s; all below it from t = %.2f s\n", fastest,
              limits.rest_speed, (first.last_moving_step + 1) * dt);
  check(fastest <= limits.rest_speed, "every sphere has come to rest");

  const std::vector<Support> support = supports(first, settings, limits);
  int on_face = 0, in_crevice = 0, on_box = 0, not_held = -1, steepest_sphere = -1;
  double steepest = -1;
  for (std::uint32_t i = 0; i < n; ++i) {
    const Body& s = first.final_bodies[i];
    on_face += support[i].held == Held::on_face ? 1 : 0;
    in_crevice += support[i].held == Held::in_crevice ? 1 : 0;
    on_box += support[i].held != Held::not_held && s.position.y - s.radius > world.floor.max.y + 0.01 ? 1 : 0;
    if (support[i].held == Held::not_held && not_held < 0) not_held = int(i);
    if (support[i].angle_degrees > steepest) steepest = support[i].angle_degrees, steepest_sphere = int(i);
  }
  std::printf("support: %d of %u spheres on a top face, %d in a crevice (%d of them on boxes, the others on the "
              "floor); the steepest support %.3g degrees from up (sphere %d), limit %.3g\n",
              on_face, n, in_crevice, on_box, steepest, steepest_sphere, limits.support_angle_degrees);
  if (not_held >= 0) {
    const Vec3d p = first.final_bodies[not_held].position, f = support[not_held].from_static;
    std::printf("  sphere %d at (%.3f, %.3f, %.3f) is not held from below: boxes and the floor push it by (%.3g, %.3g, "
                "%.3g) N s, the rest comes from other spheres or friction\n",
                not_held, p.x, p.y, p.z, f.x, f.y, f.z);
  }
  check(not_held < 0, "every sphere rests on a top face");

  int differing = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    differing += same_bits(first.final_bodies[i].position, second.final_bodies[i].position) ? 0 : 1;
  }
  std::printf("determinism: %d of %u final positions differ in some bit between two runs\n", differing, n);
  check(differing == 0, "the run is deterministic");

  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code error;
  if (!parent.empty()) std::filesystem::create_directories(parent, error);
  const Status written = draw(world, first, path);
  if (!written.ok()) {
    std::printf("FAIL: the picture was not written: %s\n", written.message().c_str());
    return 1;
  }
  std::printf("wrote %s\n", path.c_str());
  if (failures > 0) {
    std::printf("bouncing spheres: %d check(s) FAILED\n", failures);
    return 1;
  }
  return 0;
}
