// Far from the origin, for a mesh: an icosphere of radius 1 m placed 0, 1e3, 1e4 and 1e5 m from the
// origin and hit by rays from about 10 m away. Three ways of holding it:
// - world: the vertices themselves moved out, stored in float, and the ray in float world
//   coordinates;
// - instance: the mesh kept local and placed by a MeshInstance whose float transform carries the
//   offset; the ray is still a float world ray, so it has been rounded before the instance sees it;
// - local frame: the mesh kept local, its placement held in double, and the ray taken into the
//   mesh's frame in double before it is converted to float (a floating origin at the mesh).
// The reference is independent of the BVH: every triangle of the local mesh tested in long double
// (plane crossing and 3D sign tests); the true hit is offset + local hit.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "mesh/mesh_test_meshes.hpp"

namespace hitscan {
namespace {

using Wide = long double;

using W3 = Vec3<Wide>;
template <Real T>
W3 wide(Vec3<T> v) {
  return vec3_cast<Wide>(v);
}
Wide norm(W3 a) { return length(a); }

struct ReferenceHit {
  Wide t = std::numeric_limits<Wide>::infinity();
  W3 point;
};

/// The nearest crossing of any triangle ahead of the origin, brute force in long double.
std::optional<ReferenceHit> reference_hit(const TriangleMesh& mesh, const Rayd& ray) {
  const W3 o = wide(ray.origin), d = wide(ray.dir);
  std::optional<ReferenceHit> best;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const Trianglef tri = mesh.triangle(i);
    const W3 a = wide(tri.v0), b = wide(tri.v1), c = wide(tri.v2);
    const W3 n = cross(b - a, c - a);
    const Wide t = dot(n, a - o) / dot(n, d);
    const W3 p = o + d * t;
    const bool inside = dot(cross(b - a, p - a), n) >= 0 && dot(cross(c - b, p - b), n) >= 0 &&
                        dot(cross(a - c, p - c), n) >= 0;
    if (inside && t > 0 && (!best || t < best->t)) best = ReferenceHit{t, p};
  }
  return best;
}

constexpr double kOffsets[] = {0, 1e3, 1e4, 1e5};
Vec3d offset_vector(double d) { return {d, -d, d}; }
double ulp(float x) { return double(std::nextafter(x, kInfinity<float>)) - double(x); }

struct Stats {
  double max = 0, median = 0;
};
/// Errors of the hit point (metres, Euclidean) and of t (metres: the directions are unit).
struct Errors {
  std::vector<double> point, t;
  int misses = 0;

  void add(const MeshHit& hit, const W3& local, const ReferenceHit& reference) {
    if (!hit.hit) {
      ++misses;
      return;
    }
    point.push_back(double(norm(local - reference.point)));
    t.push_back(double(std::abs(Wide(hit.t) - reference.t)));
  }
};
Stats stats(std::vector<double> errors) {
  if (errors.empty()) return {};
  const auto middle = errors.begin() + static_cast<std::ptrdiff_t>(errors.size() / 2);
  std::nth_element(errors.begin(), middle, errors.end());
  return {*std::max_element(errors.begin(), errors.end()), *middle};
}

struct Row {
  double offset;
  Errors world, instance, local;
};

const std::vector<Row>& table() {
  static const std::vector<Row> rows = [] {
    const std::shared_ptr<const TriangleMesh> mesh = test::icosphere(3, 1.0f);
    const auto local_bvh = std::make_shared<const MeshBvh>(MeshBvh::build(mesh).value());

    // 32 cameras 8 to 12 m away, 16 rays each aimed within 0.6 m of the centre (so at most ~37
    // degrees from the normal: no grazing hits).
    std::mt19937_64 gen(20240611u);
    std::uniform_real_distribution<double> u(-1, 1), distance(8, 12);
    const auto in_ball = [&](double r) {
      for (;;) {
        const Vec3d p{u(gen), u(gen), u(gen)};
        if (dot(p, p) <= 1 && dot(p, p) > 0.01) return p * r;
      }
    };
    std::vector<Rayd> rays;
    std::vector<ReferenceHit> references;
    for (int camera = 0; camera < 32; ++camera) {
      const Vec3d position = normalize(in_ball(1)) * distance(gen);
      for (int i = 0; i < 16; ++i) {
        const Vec3d origin = position + in_ball(0.5);
        const Rayd ray{origin, normalize(in_ball(0.6) - origin)};
        rays.push_back(ray);
        references.push_back(reference_hit(*mesh, ray).value());
      }
    }

    std::printf("\nMeshBvh, icosphere of %zu triangles, radius 1 m, %zu rays from ~10 m: hit point and t error in "
                "metres, max / median\n",
                mesh->triangle_count(), rays.size());
    std::printf("  offset | world mesh: point |         t         | float instance: point |         t         |"
                " local frame, ray in double: point | t\n");
    std::vector<Row> out;
    for (const double d : kOffsets) {
      const Vec3d offset = offset_vector(d);
      std::vector<Vec3f> positions;
      for (const Vec3f p : mesh->positions()) positions.push_back(vec3_cast<float>(offset + vec3_cast<double>(p)));
      const auto world_mesh = std::make_shared<const TriangleMesh>(
          TriangleMesh::make(std::move(positions), {mesh->triangles().begin(), mesh->triangles().end()}).value());
      const MeshBvh world_bvh = MeshBvh::build(world_mesh).value();
      Transformf placement;
      placement.translation = vec3_cast<float>(offset);  // exact: each coordinate is +-d
      const MeshInstance instance{local_bvh, placement};

      Row row{d, {}, {}, {}};
      for (std::size_t i = 0; i < rays.size(); ++i) {
        const Vec3d world_origin = offset + rays[i].origin;
        const Vec3f dir = vec3_cast<float>(rays[i].dir);
        const Rayf world_ray{vec3_cast<float>(world_origin), dir};
        // Float world points less the offset: exact in long double.
        const MeshHit far = world_bvh.intersect(world_ray);
        row.world.add(far, wide(far.point) - wide(offset), references[i]);
        const MeshHit placed = instance.intersect(world_ray);
        row.instance.add(placed, wide(placed.point) - wide(offset), references[i]);
        const MeshHit near = local_bvh->intersect(Rayf{vec3_cast<float>(world_origin - offset), dir});
        row.local.add(near, wide(near.point), references[i]);
      }
      out.push_back(row);
    }
    for (const Row& r : out) {
      std::printf("  %6.0f | %.1e / %.1e | %.1e / %.1e |   %.1e / %.1e   | %.1e / %.1e |"
                  "        %.1e / %.1e          | %.1e / %.1e\n",
                  r.offset, stats(r.world.point).max, stats(r.world.point).median, stats(r.world.t).max,
                  stats(r.world.t).median, stats(r.instance.point).max, stats(r.instance.point).median,
                  stats(r.instance.t).max, stats(r.instance.t).median, stats(r.local.point).max,
                  stats(r.local.point).median, stats(r.local.t).max, stats(r.local.t).median);
    }
    return out;
  }();
  return rows;
}

TEST(MeshFarFromOrigin, EveryRayHitsInEveryPlacement) {
  for (const Row& r : table()) {
    EXPECT_EQ(r.world.misses, 0) << "offset " << r.offset;
    EXPECT_EQ(r.instance.misses, 0) << "offset " << r.offset;
    EXPECT_EQ(r.local.misses, 0) << "offset " << r.offset;
  }
}

TEST(MeshFarFromOrigin, FloatVerticesFarOutLoseMillimetresInProportionToTheOffset) {
  const std::vector<Row>& rows = table();
  const Stats origin = stats(rows.front().world.point);
  for (const Row& r : rows) {
    if (r.offset == 0) continue;
    const double spacing = ulp(float(r.offset));
    const Stats point = stats(r.world.point);
    EXPECT_GT(point.median, 0.1 * spacing) << "offset " << r.offset;
    EXPECT_LT(point.median, 2 * spacing) << "offset " << r.offset;
    EXPECT_LT(point.max, 16 * spacing) << "offset " << r.offset;
    EXPECT_LT(stats(r.world.t).max, 16 * spacing) << "offset " << r.offset;
  }
  const Stats far = stats(rows.back().world.point);
  EXPECT_GT(far.median, 1e-3);
  EXPECT_GT(far.median, 1000 * origin.median);
}

TEST(MeshFarFromOrigin, AFloatInstanceTransformDoesNotHelpTheRayIsAlreadyRounded) {
  const std::vector<Row>& rows = table();
  const Stats origin = stats(rows.front().instance.point);
  const Stats far = stats(rows.back().instance.point);
  EXPECT_GT(far.median, 1e-3);
  EXPECT_GT(far.median, 1000 * origin.median);
  EXPECT_LT(far.max, 16 * ulp(float(rows.back().offset)));
}

TEST(MeshFarFromOrigin, TheRayTakenToTheMeshFrameInDoubleKeepsTheErrorAtTheOrigin) {
  const std::vector<Row>& rows = table();
  const Stats origin = stats(rows.front().world.point);
  for (const Row& r : rows) {
    const Stats point = stats(r.local.point);
    EXPECT_LT(point.max, 2 * origin.max) << "offset " << r.offset;
    EXPECT_LT(point.median, 2 * origin.median) << "offset " << r.offset;
    EXPECT_LT(stats(r.local.t).max, 2 * stats(rows.front().world.t).max) << "offset " << r.offset;
    EXPECT_LT(point.max, 1e-5) << "offset " << r.offset;
  }
}

}  // namespace
}  // namespace hitscan
