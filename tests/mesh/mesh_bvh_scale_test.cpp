// MeshBvh's answers on a mesh whose vertices are multiplied by k (and MeshInstance's on the unit
// mesh placed with a transform that scales by k) are its answers on the unit mesh, scaled by k:
// hit or miss, t, point and closest distance scaled, normals, triangle and barycentrics the same.
// The rays and points are scaled with the mesh (origins, tmin, tmax, max_distance; directions
// kept, so that t scales too). k runs over the powers of ten from 1e-9 to the largest that keeps
// the mesh and the queries within ±kMaxCoordinate.
//
// The mesh is a closed, bumpy icosphere (320 triangles, seeded), off the origin. A hit or a closest
// point that lies on an edge or a vertex at scale 1 is a tie between triangles, broken by
// rounding: there only the triangle-independent fields are compared.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "hitscan/math/scalar.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "mesh/mesh_test_meshes.hpp"
#include "support/scale_answers.hpp"

namespace hitscan {
namespace {

using test::largest_scale;
using test::length_agrees;
using test::point_agrees;
using test::scaled;
using test::show;
using test::show_scaled;

constexpr double kRelative = test::kScaleRelative;
constexpr double kNormalDot = test::kScaleNormalDot;
constexpr Vec3f kCentre{1.5f, -0.8f, 0.6f};

Rayf scaled(const Rayf& r, double k) { return {scaled(r.origin, k), r.dir, scaled(r.tmin, k), scaled(r.tmax, k)}; }

// A level-2 icosphere around kCentre whose vertices lie at radii from 0.85 to 1.15, seeded.
const TriangleMesh& unit_mesh() {
  static const std::shared_ptr<const TriangleMesh> mesh = [] {
    const std::shared_ptr<const TriangleMesh> sphere = test::icosphere(2, 1.0f);
    std::mt19937 gen(20261130);
    std::uniform_real_distribution<float> radius(0.85f, 1.15f);
    std::vector<Vec3f> p;
    for (const Vec3f& v : sphere->positions()) p.push_back(kCentre + v * radius(gen));
    std::vector<TriangleMesh::Indices> t(sphere->triangles().begin(), sphere->triangles().end());
    return std::make_shared<const TriangleMesh>(TriangleMesh::make(std::move(p), std::move(t)).value());
  }();
  return *mesh;
}

std::shared_ptr<const MeshBvh> bvh_at_scale(double k) {
  std::vector<Vec3f> p;
  for (const Vec3f& v : unit_mesh().positions()) p.push_back(scaled(v, k));
  std::vector<TriangleMesh::Indices> t(unit_mesh().triangles().begin(), unit_mesh().triangles().end());
  Result<TriangleMesh> mesh = TriangleMesh::make(std::move(p), std::move(t));
  EXPECT_TRUE(mesh.ok()) << "k=" << k << ": " << mesh.status().message();
  Result<MeshBvh> bvh = MeshBvh::build(std::make_shared<const TriangleMesh>(std::move(mesh).value()));
  EXPECT_TRUE(bvh.ok()) << "k=" << k << ": " << bvh.status().message();
  return std::make_shared<const MeshBvh>(std::move(bvh).value());
}

const char* face_name(FaceMode f) {
  return f == FaceMode::both ? "both faces" : f == FaceMode::front_only ? "front only" : "back only";
}

// ---------------------------------------------------------------------------------------------
// Probes around a mesh centred at `centre`, at unit scale.

enum class Expect { miss, hit, any };

struct RayProbe {
  std::string name;
  Rayf ray;
  FaceMode faces;
  Expect expect;
};

struct PointProbe {
  std::string name;
  Vec3f point;
  float max_distance;
  Expect expect;
};

struct Probes {
  std::vector<RayProbe> rays;
  std::vector<PointProbe> points;
  std::vector<Rayf> tiles;  // 8 x 8 tiles, 64 consecutive rays each, from one eye
};

Vec3f random_unit(std::mt19937& gen) {
  std::normal_distribution<float> n(0, 1);
  for (;;) {
    const Vec3f v{n(gen), n(gen), n(gen)};
    if (length(v) > 1e-3f) return normalize(v);
  }
}

// Every crossing of the ray, through the tree in the mesh's frame for an instance (t is the same
// there).
void crossings(const MeshBvh& bvh, const Rayf& ray, std::vector<MeshHit>& out) { bvh.intersect_all(ray, out); }
void crossings(const MeshInstance& instance, const Rayf& ray, std::vector<MeshHit>& out) {
  const Transformf& t = instance.transform;
  instance.bvh->intersect_all({t.inverse_point(ray.origin), t.inverse_vector(ray.dir), ray.tmin, ray.tmax}, out);
}

// The probes, with the limits of some set from the unit answers of `unit` (intersect_all's gaps
// between crossings, closest distances), so that no limit falls near an answer.
template <class Target>
Probes make_probes(const Target& unit, Vec3f centre, unsigned seed) {
  Probes p;
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u01(0, 1), length_of_dir(0.2f, 3.0f);
  const FaceMode modes[3] = {FaceMode::both, FaceMode::front_only, FaceMode::back_only};
  for (int i = 0; i < 120; ++i) {
    const Vec3f origin = centre + random_unit(gen) * (2.0f + 1.5f * u01(gen));
    const Vec3f target = centre + random_unit(gen) * (0.6f * u01(gen));
    const FaceMode f = modes[i % 3];
    p.rays.push_back({"ray from outside at the mesh #" + std::to_string(i) + ", " + face_name(f),
                      {origin, (target - origin) * length_of_dir(gen)},
                      f,
                      Expect::hit});
  }
  for (int i = 0; i < 45; ++i) {
    const Vec3f origin = centre + random_unit(gen) * (0.5f * u01(gen));
    const FaceMode f = modes[i % 3];
    p.rays.push_back({"ray from inside #" + std::to_string(i) + ", " + face_name(f),
                      {origin, random_unit(gen) * length_of_dir(gen)},
                      f,
                      f == FaceMode::front_only ? Expect::any : Expect::hit});
  }
  for (int i = 0; i < 30; ++i) {
    const Vec3f out = random_unit(gen);
    const Vec3f origin = centre + out * (2.0f + u01(gen));
    p.rays.push_back({"ray from outside away from the mesh #" + std::to_string(i),
                      {origin, normalize(out + random_unit(gen) * 0.3f) * length_of_dir(gen)},
                      FaceMode::both,
                      Expect::miss});
  }
  // Limits between the first two crossings: tmax there keeps the first, tmin there skips it.
  std::vector<MeshHit> all;
  for (int i = 0; i < 40; ++i) {
    const RayProbe r = p.rays[static_cast<std::size_t>(i)];
    if (r.faces != FaceMode::both) continue;
    crossings(unit, r.ray, all);
    if (all.size() < 2) continue;
    const float middle = 0.5f * (all[0].t + all[1].t);
    Rayf before = r.ray, after = r.ray;
    before.tmax = middle;
    after.tmin = middle;
    p.rays.push_back({r.name + ", tmax between its first two crossings", before, FaceMode::both, Expect::hit});
    p.rays.push_back({r.name + ", tmin between its first two crossings", after, FaceMode::both, Expect::hit});
    Rayf short_of_it = r.ray;
    short_of_it.tmax = 0.5f * all[0].t;
    p.rays.push_back({r.name + ", tmax half way to its first crossing", short_of_it, FaceMode::both, Expect::miss});
  }
  for (int i = 0; i < 80; ++i) {
    const Vec3f q = centre + random_unit(gen) * (1.3f + 1.2f * u01(gen));
    p.points.push_back({"closest point from outside #" + std::to_string(i), q, kInfinity<float>, Expect::hit});
  }
  for (int i = 0; i < 40; ++i) {
    const Vec3f q = centre + random_unit(gen) * (0.6f * u01(gen));
    p.points.push_back({"closest point from inside #" + std::to_string(i), q, kInfinity<float>, Expect::hit});
  }
  for (int i = 0; i < 30; ++i) {
    const PointProbe base = p.points[static_cast<std::size_t>(i * 4)];
    const float d = unit.closest_point(base.point).distance;
    p.points.push_back({base.name + " within half its distance", base.point, 0.5f * d, Expect::miss});
    p.points.push_back({base.name + " within 1.5 times its distance", base.point, 1.5f * d, Expect::hit});
  }
  // Two 8 x 8 tiles from one eye: one well inside the silhouette, one wider with misses.
  const Vec3f eye = centre + Vec3f{0.3f, -0.2f, 3.0f};
  for (const float half : {0.5f, 2.0f}) {
    for (int i = 0; i < 8; ++i) {
      for (int j = 0; j < 8; ++j) {
        const Vec3f target = centre + Vec3f{-half + 2 * half * (static_cast<float>(i) + 0.5f) / 8.0f,
                                            -half + 2 * half * (static_cast<float>(j) + 0.5f) / 8.0f, 0.0f};
        p.tiles.push_back({eye, target - eye});
      }
    }
  }
  return p;
}

double extent_of(const Probes& p, const Aabbf& bounds) {
  double e = 0;
  auto grow = [&](Vec3f v) { e = std::max({e, std::abs(double(v.x)), std::abs(double(v.y)), std::abs(double(v.z))}); };
  grow(bounds.min), grow(bounds.max);
  for (const RayProbe& r : p.rays) grow(r.ray.origin);
  for (const PointProbe& q : p.points) grow(q.point);
  for (const Rayf& r : p.tiles) grow(r.origin);
  return e;
}

// The failures of one test, each under "[what] query".
class Report {
 public:
  explicit Report(std::string what) : what_(std::move(what)) {}
  void fail(double k, const std::string& query, const std::string& detail) {
    report_.fail(k, "[" + what_ + "] " + query, detail);
  }
  void finish() { report_.finish(); }

 private:
  std::string what_;
  test::ScaleReport report_;
};

bool clear_of_edges(float u, float v) { return min(u, min(v, 1.0f - u - v)) > 1e-4f; }

struct Compare {
  Report& report;
  double k;

  void length(const std::string& q, const char* field, float unit, float got) const {
    if (!length_agrees(unit, got / k)) {
      report.fail(k, q,
                  std::string(field) + "/k = " + show(got / k) + " (got " + show(got) + "), at k=1: " + show(unit));
    }
  }
  void point(const std::string& q, const char* field, Vec3f unit, Vec3f got) const {
    if (!point_agrees(unit, got, k)) {
      report.fail(
          k, q, std::string(field) + "/k = " + show_scaled(got, k) + " (got " + show(got) + "), at k=1: " + show(unit));
    }
  }
  void normal(const std::string& q, const char* field, Vec3f unit, Vec3f got) const {
    if (!(dot(unit, got) > kNormalDot)) {
      report.fail(k, q, std::string(field) + " = " + show(got) + ", at k=1: " + show(unit));
    }
  }
  void triangle(const std::string& q, std::uint32_t unit, std::uint32_t got, float uu, float uv, float gu,
                float gv) const {
    if (unit != got) {
      report.fail(k, q, "triangle " + std::to_string(got) + ", at k=1: " + std::to_string(unit));
    } else if (std::abs(uu - gu) > kRelative || std::abs(uv - gv) > kRelative) {
      report.fail(k, q,
                  "barycentrics (" + show(gu) + ", " + show(gv) + "), at k=1: (" + show(uu) + ", " + show(uv) + ")");
    }
  }

  void hit(const std::string& q, const MeshHit& unit, const MeshHit& got) const {
    if (unit.hit != got.hit) {
      report.fail(k, q,
                  std::string(got.hit ? "hit at t/k " + show(got.t / k) : "missed") +
                      ", at k=1: " + (unit.hit ? "hit at t " + show(unit.t) : "a miss"));
      return;
    }
    if (!unit.hit) return;
    if (unit.back_face != got.back_face) report.fail(k, q, "back_face differs from k=1's");
    length(q, "t", unit.t, got.t);
    point(q, "point", unit.point, got.point);
    if (clear_of_edges(unit.u, unit.v)) {
      triangle(q, unit.triangle, got.triangle, unit.u, unit.v, got.u, got.v);
      normal(q, "normal", unit.normal, got.normal);
      normal(q, "shading_normal", unit.shading_normal, got.shading_normal);
    }
  }

  void closest(const std::string& q, const MeshClosestPoint& unit, const MeshClosestPoint& got) const {
    if (unit.found != got.found) {
      report.fail(k, q,
                  std::string(got.found ? "found at distance/k " + show(got.distance / k) : "found nothing") +
                      ", at k=1: " + (unit.found ? "found at " + show(unit.distance) : "nothing"));
      return;
    }
    if (!unit.found) return;
    length(q, "distance", unit.distance, got.distance);
    point(q, "point", unit.point, got.point);
    if (unit.feature != got.feature) {
      report.fail(k, q,
                  "feature " + std::to_string(int(got.feature)) + ", at k=1: " + std::to_string(int(unit.feature)));
    }
    if (unit.feature == Feature::face && clear_of_edges(unit.u, unit.v)) {
      triangle(q, unit.triangle, got.triangle, unit.u, unit.v, got.u, got.v);
      normal(q, "normal", unit.normal, got.normal);
    }
  }
};

// ---------------------------------------------------------------------------------------------
// The answers of a MeshBvh, or of a MeshInstance (which has no intersect_all nor batches).

struct Answers {
  std::vector<MeshHit> hits;
  std::vector<bool> occluded;
  std::vector<std::vector<MeshHit>> all;
  std::vector<MeshClosestPoint> closest;
  std::vector<MeshHit> batch;
  std::vector<std::uint8_t> occluded_batch;
  std::vector<MeshHit> tiles_both, tiles_front;  // intersect_coherent
  std::vector<MeshHit> tiles_one_at_a_time_both, tiles_one_at_a_time_front;
};

template <class Target>
Answers ask(const Target& target, const Probes& p, double k) {
  Answers a;
  std::vector<Rayf> rays;
  for (const RayProbe& r : p.rays) {
    const Rayf ray = scaled(r.ray, k);
    rays.push_back(ray);
    a.hits.push_back(target.intersect(ray, r.faces));
    a.occluded.push_back(target.occluded(ray, r.faces));
    if constexpr (requires { target.intersect_all(ray, a.all.back(), r.faces); }) {
      a.all.emplace_back();
      target.intersect_all(ray, a.all.back(), r.faces);
    }
  }
  for (const PointProbe& q : p.points) {
    a.closest.push_back(target.closest_point(scaled(q.point, k), scaled(q.max_distance, k)));
  }
  if constexpr (requires { target.intersect_batch(rays, std::span<MeshHit>{}); }) {
    a.batch.resize(rays.size());
    a.occluded_batch.resize(rays.size());
    EXPECT_TRUE(target.intersect_batch(rays, a.batch, FaceMode::both).ok());
    EXPECT_TRUE(target.occluded_batch(rays, a.occluded_batch, FaceMode::both).ok());
  }
  std::vector<Rayf> tiles;
  for (const Rayf& r : p.tiles) tiles.push_back(scaled(r, k));
  a.tiles_both.resize(tiles.size());
  a.tiles_front.resize(tiles.size());
  EXPECT_TRUE(target.intersect_coherent(tiles, a.tiles_both, FaceMode::both).ok());
  EXPECT_TRUE(target.intersect_coherent(tiles, a.tiles_front, FaceMode::front_only).ok());
  for (const Rayf& r : tiles) {
    a.tiles_one_at_a_time_both.push_back(target.intersect(r, FaceMode::both));
    a.tiles_one_at_a_time_front.push_back(target.intersect(r, FaceMode::front_only));
  }
  return a;
}

void check_unit_answers(const Probes& p, const Answers& a, Report& report) {
  for (std::size_t i = 0; i < p.rays.size(); ++i) {
    const RayProbe& r = p.rays[i];
    if ((r.expect == Expect::hit && !a.hits[i].hit) || (r.expect == Expect::miss && a.hits[i].hit)) {
      report.fail(1, r.name, "the probe's answer at k=1 is not what it was placed for");
    }
    if (a.occluded[i] != a.hits[i].hit) report.fail(1, r.name, "occluded differs from intersect at k=1");
  }
  for (std::size_t i = 0; i < p.points.size(); ++i) {
    const PointProbe& q = p.points[i];
    if ((q.expect == Expect::hit) != a.closest[i].found) {
      report.fail(1, q.name, "the probe's answer at k=1 is not what it was placed for");
    }
  }
  int tile_hits = 0;
  for (std::size_t i = 0; i < p.tiles.size(); ++i) tile_hits += a.tiles_one_at_a_time_both[i].hit ? 1 : 0;
  for (std::size_t i = 0; i < 64; ++i) {
    if (!a.tiles_one_at_a_time_both[i].hit) report.fail(1, "tile inside the silhouette", "a ray missed at k=1");
  }
  if (tile_hits == static_cast<int>(p.tiles.size())) report.fail(1, "wide tile", "no ray missed at k=1");
}

void compare_answers(const Probes& p, const Answers& unit, const Answers& got, double k, Report& report) {
  const Compare cmp{report, k};
  for (std::size_t i = 0; i < p.rays.size(); ++i) {
    const std::string& name = p.rays[i].name;
    cmp.hit("intersect " + name, unit.hits[i], got.hits[i]);
    if (unit.occluded[i] != got.occluded[i]) {
      report.fail(
          k, "occluded " + name,
          std::string(got.occluded[i] ? "true" : "false") + ", at k=1: " + (unit.occluded[i] ? "true" : "false"));
    }
    if (!unit.all.empty()) {
      const std::vector<MeshHit>& ua = unit.all[i];
      const std::vector<MeshHit>& ga = got.all[i];
      if (ua.size() != ga.size()) {
        std::string us, gs;
        for (const MeshHit& h : ua) us.append(" ").append(show(h.t));
        for (const MeshHit& h : ga) gs.append(" ").append(show(h.t / k));
        report.fail(k, "intersect_all " + name,
                    std::to_string(ga.size()) + " crossings (t/k:" + gs + "), at k=1 " + std::to_string(ua.size()) +
                        " (t:" + us + ")");
      } else {
        for (std::size_t j = 0; j < ua.size(); ++j) {
          cmp.hit("intersect_all " + name + ", crossing " + std::to_string(j), ua[j], ga[j]);
        }
      }
    }
    if (!unit.batch.empty() && p.rays[i].faces == FaceMode::both) {
      cmp.hit("intersect_batch " + name, unit.hits[i], got.batch[i]);
      if ((got.occluded_batch[i] != 0) != unit.occluded[i]) {
        report.fail(k, "occluded_batch " + name,
                    std::to_string(got.occluded_batch[i]) + ", at k=1: " + (unit.occluded[i] ? "1" : "0"));
      }
    }
  }
  for (std::size_t i = 0; i < p.points.size(); ++i)
    cmp.closest("closest_point " + p.points[i].name, unit.closest[i], got.closest[i]);
  for (std::size_t i = 0; i < p.tiles.size(); ++i) {
    const std::string ray =
        (i < 64 ? "tile inside the silhouette, ray #" : "wide tile, ray #") + std::to_string(i % 64);
    cmp.hit("intersect_coherent, both faces, " + ray, unit.tiles_one_at_a_time_both[i], got.tiles_both[i]);
    cmp.hit("intersect_coherent, front only, " + ray, unit.tiles_one_at_a_time_front[i], got.tiles_front[i]);
    cmp.hit("intersect one at a time, both faces, " + ray, unit.tiles_one_at_a_time_both[i],
            got.tiles_one_at_a_time_both[i]);
  }
}

// ---------------------------------------------------------------------------------------------

const Probes& bvh_probes() {
  static const Probes p = make_probes(*bvh_at_scale(1.0), kCentre, 7);
  return p;
}

double bvh_edge() { return largest_scale(extent_of(bvh_probes(), unit_mesh().bounds())); }

void expect_bvh_answers_scale(int smallest_exponent, int largest_exponent) {
  const Probes& p = bvh_probes();
  Report report("mesh vertices multiplied by k");
  const Answers unit = ask(*bvh_at_scale(1.0), p, 1.0);
  check_unit_answers(p, unit, report);
  for (int e = smallest_exponent; e <= largest_exponent; ++e) {
    if (e == 0) continue;
    const double k = std::pow(10.0, e);
    compare_answers(p, unit, ask(*bvh_at_scale(k), p, k), k, report);
  }
  report.finish();
}

int exponent_of(double power_of_ten) { return static_cast<int>(std::lround(std::log10(power_of_ten))); }

const Quatf kInstanceRotation = Quatf::from_euler({0.4f, -0.3f, 0.9f});
constexpr Vec3f kInstanceTranslation{2.0f, 1.0f, -1.5f};

MeshInstance instance_at_scale(const std::shared_ptr<const MeshBvh>& bvh, double k) {
  const float s = static_cast<float>(k);
  return {bvh, {kInstanceRotation, scaled(kInstanceTranslation, k), {s, s, s}}};
}

TEST(MeshBvhScale, ProbesAtUnitScaleHitMissAndFindAsPlacedAndTheEdgeIsAPowerOfTenBelow1e15) {
  const Probes& p = bvh_probes();
  const double extent = extent_of(p, unit_mesh().bounds());
  const double edge = largest_scale(extent);
  EXPECT_LE(extent * edge, double(kMaxCoordinate));
  EXPECT_GT(extent * edge * 10, double(kMaxCoordinate));
  EXPECT_GE(edge, 1e13) << "extent " << extent;
  RecordProperty("largest_k", show(edge));
  EXPECT_GE(unit_mesh().triangle_count(), 300u);
  Report report("unit mesh");
  const Answers a = ask(*bvh_at_scale(1.0), p, 1.0);
  check_unit_answers(p, a, report);
  // Some rays cross the bumpy surface more than twice, some hits are back faces.
  std::size_t most_crossings = 0, back_faces = 0;
  for (std::size_t i = 0; i < a.all.size(); ++i) most_crossings = std::max(most_crossings, a.all[i].size());
  for (const MeshHit& h : a.hits) back_faces += h.back_face ? 1 : 0;
  EXPECT_GE(most_crossings, 2u);
  EXPECT_GT(back_faces, 10u);
  report.finish();
}

TEST(MeshBvhScale, IntersectOccludedAllClosestPointBatchesAndPacketsScaleFrom1eMinus6ToTheEdgeOfTheWorkingRange) {
  expect_bvh_answers_scale(-6, exponent_of(bvh_edge()));
}

TEST(MeshBvhScale, IntersectOccludedAllClosestPointBatchesAndPacketsScaleDownTo1eMinus9) {
  expect_bvh_answers_scale(-9, -7);
}

TEST(MeshInstanceScale, IntersectOccludedClosestPointAndPacketsScaleWithTheTransformFrom1eMinus9ToTheEdge) {
  const std::shared_ptr<const MeshBvh> bvh = bvh_at_scale(1.0);
  const MeshInstance unit_instance = instance_at_scale(bvh, 1.0);
  const Vec3f world_centre = unit_instance.transform.apply_point(kCentre);
  const Probes p = make_probes(unit_instance, world_centre, 11);
  Aabbf bounds;
  for (const Vec3f& v : unit_mesh().positions()) bounds.grow(unit_instance.transform.apply_point(v));
  const double edge = largest_scale(extent_of(p, bounds));
  EXPECT_GE(edge, 1e13);
  Report report("unit mesh, instance transform scaled by k");
  const Answers unit = ask(unit_instance, p, 1.0);
  check_unit_answers(p, unit, report);
  for (int e = -9; e <= exponent_of(edge); ++e) {
    if (e == 0) continue;
    const double k = std::pow(10.0, e);
    compare_answers(p, unit, ask(instance_at_scale(bvh, k), p, k), k, report);
  }
  report.finish();
}

}  // namespace
}  // namespace hitscan
