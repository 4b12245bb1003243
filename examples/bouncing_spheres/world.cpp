#include "world.hpp"

#include <algorithm>
#include <cmath>

namespace bouncing {
namespace {

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

}  // namespace

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

}  // namespace bouncing
