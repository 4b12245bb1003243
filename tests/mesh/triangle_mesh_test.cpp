#include "hitscan/mesh/triangle_mesh.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace hitscan {
namespace {

using Indices = TriangleMesh::Indices;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

TriangleMesh make_or_die(std::vector<Vec3f> positions, std::vector<Indices> triangles,
                         std::vector<Vec3f> normals = {}) {
  Result<TriangleMesh> mesh = TriangleMesh::make(std::move(positions), std::move(triangles), std::move(normals));
  EXPECT_TRUE(mesh.ok()) << mesh.status().message();
  return std::move(mesh).value();
}

// Builds the one-triangle mesh a, b, c and says whether that triangle is usable.
bool usable_triangle(Vec3f a, Vec3f b, Vec3f c) {
  const TriangleMesh mesh = make_or_die({a, b, c}, {Indices{0, 1, 2}});
  EXPECT_EQ(mesh.report().degenerate_triangles, mesh.is_usable(0) ? 0u : 1u);
  return mesh.is_usable(0);
}

// A unit square in z = 0 as two triangles, with a fifth vertex no triangle uses.
std::vector<Vec3f> square_positions() { return {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {5, 5, 5}}; }
std::vector<Indices> square_triangles() { return {Indices{0, 1, 2}, Indices{0, 2, 3}}; }

// --- building -------------------------------------------------------------------------------------

TEST(TriangleMeshMake, EmptyMeshIsValidWithAnEmptyBox) {
  const TriangleMesh mesh = make_or_die({}, {});
  EXPECT_EQ(mesh.triangle_count(), 0u);
  EXPECT_EQ(mesh.vertex_count(), 0u);
  EXPECT_TRUE(mesh.normals().empty());
  EXPECT_FALSE(mesh.bounds().is_valid());
  EXPECT_EQ(mesh.report().degenerate_triangles, 0u);
  EXPECT_EQ(mesh.report().unreferenced_vertices, 0u);
}

TEST(TriangleMeshMake, VerticesWithoutTrianglesAreAllUnreferencedAndOutsideTheBounds) {
  const TriangleMesh mesh = make_or_die({{1, 2, 3}, {4, 5, 6}, {kNaN, 0, 0}}, {});
  EXPECT_EQ(mesh.vertex_count(), 3u);
  EXPECT_EQ(mesh.report().unreferenced_vertices, 3u);
  EXPECT_FALSE(mesh.bounds().is_valid());
}

TEST(TriangleMeshMake, OneTriangleKeepsItsCornersWindingAndBounds) {
  const TriangleMesh mesh = make_or_die({{1, 2, 3}, {-4, 5, 6}, {7, -8, 0.5f}}, {Indices{2, 0, 1}});
  ASSERT_EQ(mesh.triangle_count(), 1u);
  EXPECT_EQ(mesh.vertex_count(), 3u);
  const Trianglef t = mesh.triangle(0);
  EXPECT_EQ(t.v0, (Vec3f{7, -8, 0.5f}));
  EXPECT_EQ(t.v1, (Vec3f{1, 2, 3}));
  EXPECT_EQ(t.v2, (Vec3f{-4, 5, 6}));
  EXPECT_TRUE(mesh.is_usable(0));
  EXPECT_EQ(mesh.bounds().min, (Vec3f{-4, -8, 0.5f}));
  EXPECT_EQ(mesh.bounds().max, (Vec3f{7, 5, 6}));
  EXPECT_EQ(mesh.report().degenerate_triangles, 0u);
  EXPECT_EQ(mesh.report().unreferenced_vertices, 0u);
}

TEST(TriangleMeshMake, CountsUnreferencedVerticesAndBoundsOnlyReferencedOnes) {
  const TriangleMesh mesh = make_or_die(square_positions(), square_triangles());
  EXPECT_EQ(mesh.report().unreferenced_vertices, 1u);
  EXPECT_EQ(mesh.bounds().min, (Vec3f{0, 0, 0}));
  EXPECT_EQ(mesh.bounds().max, (Vec3f{1, 1, 0}));  // not (5, 5, 5)
  EXPECT_EQ(mesh.report().degenerate_triangles, 0u);
}

TEST(TriangleMeshMake, DuplicateVerticesAreSeparateVerticesAndNotDegenerate) {
  // Vertices 0 and 4 coincide; the two triangles use one each, so neither triangle is flat.
  const TriangleMesh mesh = make_or_die({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 0}},
                                        {Indices{0, 1, 2}, Indices{4, 1, 3}});
  EXPECT_EQ(mesh.vertex_count(), 5u);
  EXPECT_EQ(mesh.report().unreferenced_vertices, 0u);
  EXPECT_EQ(mesh.report().degenerate_triangles, 0u);
  EXPECT_TRUE(mesh.is_usable(0));
  EXPECT_TRUE(mesh.is_usable(1));
}

TEST(TriangleMeshMake, OutOfRangeIndexNamesTheTriangleAndTheVertex) {
  std::vector<Vec3f> positions(1000);
  for (std::size_t i = 0; i < positions.size(); ++i) positions[i] = {float(i), float(i % 7), float(i % 13)};
  std::vector<Indices> triangles(40, Indices{0, 1, 2});
  triangles[17] = {5, 1024, 6};
  triangles[30] = {5000, 1, 2};  // a later offender is not the one named
  const Result<TriangleMesh> mesh = TriangleMesh::make(positions, triangles);
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(mesh.status().message(), "triangle 17 refers to vertex 1024 but the mesh has 1000 vertices");
}

TEST(TriangleMeshMake, IndexEqualToTheVertexCountIsOutOfRange) {
  const Result<TriangleMesh> mesh = TriangleMesh::make({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {Indices{0, 1, 3}});
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.status().message(), "triangle 0 refers to vertex 3 but the mesh has 3 vertices");
}

TEST(TriangleMeshMake, LargestIndexIsOutOfRangeWithoutOverflow) {
  const Result<TriangleMesh> mesh =
      TriangleMesh::make({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {Indices{0, 1, 2}, Indices{0, 0xFFFFFFFFu, 2}});
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.status().message(), "triangle 1 refers to vertex 4294967295 but the mesh has 3 vertices");
}

TEST(TriangleMeshMake, TrianglesOverNoVerticesAreOutOfRange) {
  const Result<TriangleMesh> mesh = TriangleMesh::make({}, {Indices{0, 0, 0}});
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.status().message(), "triangle 0 refers to vertex 0 but the mesh has 0 vertices");
}

TEST(TriangleMeshMake, NanInAReferencedVertexNamesTheTriangleAndTheVertex) {
  std::vector<Vec3f> positions = square_positions();
  positions[3] = {0, kNaN, 0};
  const Result<TriangleMesh> mesh = TriangleMesh::make(positions, square_triangles());
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(mesh.status().message(), "triangle 1 refers to vertex 3, which is not finite (0, nan, 0)");
}

TEST(TriangleMeshMake, InfinityInAReferencedVertexIsAnError) {
  std::vector<Vec3f> positions = square_positions();
  positions[1] = {-kInf, 0, 0};
  const Result<TriangleMesh> mesh = TriangleMesh::make(positions, square_triangles());
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.status().message(), "triangle 0 refers to vertex 1, which is not finite (-inf, 0, 0)");
}

TEST(TriangleMeshMake, NanInAnUnreferencedVertexIsAllowed) {
  std::vector<Vec3f> positions = square_positions();
  positions[4] = {kNaN, kNaN, kInf};
  const TriangleMesh mesh = make_or_die(positions, square_triangles());
  EXPECT_EQ(mesh.report().unreferenced_vertices, 1u);
  EXPECT_EQ(mesh.bounds().min, (Vec3f{0, 0, 0}));
  EXPECT_EQ(mesh.bounds().max, (Vec3f{1, 1, 0}));
  EXPECT_TRUE(std::isnan(mesh.positions()[4].x));  // kept as given
}

TEST(TriangleMeshMake, OutOfRangeIndexIsReportedBeforeALaterNan) {
  std::vector<Vec3f> positions = square_positions();
  positions[2] = {kNaN, 0, 0};
  const Result<TriangleMesh> mesh = TriangleMesh::make(positions, {Indices{0, 9, 2}});
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.status().message(), "triangle 0 refers to vertex 9 but the mesh has 5 vertices");
}

// --- normals --------------------------------------------------------------------------------------

TEST(TriangleMeshNormals, CountMustMatchTheVertexCount) {
  const Result<TriangleMesh> mesh =
      TriangleMesh::make(square_positions(), square_triangles(), {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}});
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.status().code(), StatusCode::invalid_argument);
  EXPECT_EQ(mesh.status().message(), "mesh has 3 normals but 5 vertices");
}

TEST(TriangleMeshNormals, AreNormalisedAndAZeroOrNonFiniteNormalBecomesZero) {
  const TriangleMesh mesh = make_or_die(square_positions(), square_triangles(),
                                        {{0, 0, 3}, {3, 4, 0}, {0, 0, 0}, {kNaN, 0, 1}, {1e-30f, 0, 0}});
  ASSERT_EQ(mesh.normals().size(), 5u);
  EXPECT_EQ(mesh.normals()[0], (Vec3f{0, 0, 1}));
  EXPECT_NEAR(mesh.normals()[1].x, 0.6f, 1e-7f);
  EXPECT_NEAR(mesh.normals()[1].y, 0.8f, 1e-7f);
  EXPECT_EQ(mesh.normals()[1].z, 0.0f);
  EXPECT_EQ(mesh.normals()[2], (Vec3f{0, 0, 0}));
  EXPECT_EQ(mesh.normals()[3], (Vec3f{0, 0, 0}));
  EXPECT_EQ(mesh.normals()[4], (Vec3f{1, 0, 0}));  // tiny but not zero: still a direction
}

TEST(TriangleMeshNormals, NoneGivenMeansNone) {
  EXPECT_TRUE(make_or_die(square_positions(), square_triangles()).normals().empty());
}

// --- degenerate triangles -------------------------------------------------------------------------

TEST(TriangleMeshDegenerate, RepeatedIndexIsDegenerate) {
  const TriangleMesh mesh = make_or_die(square_positions(), {Indices{0, 1, 2}, Indices{0, 2, 2}, Indices{3, 3, 3}});
  EXPECT_TRUE(mesh.is_usable(0));
  EXPECT_FALSE(mesh.is_usable(1));
  EXPECT_FALSE(mesh.is_usable(2));
  EXPECT_EQ(mesh.report().degenerate_triangles, 2u);
  EXPECT_EQ(mesh.triangle_count(), 3u);  // kept, so indices stay the input's
  EXPECT_EQ(mesh.triangles()[1], (Indices{0, 2, 2}));
}

TEST(TriangleMeshDegenerate, CoincidentCornersAreDegenerate) {
  EXPECT_FALSE(usable_triangle({1, 2, 3}, {1, 2, 3}, {4, 5, 6}));
  EXPECT_FALSE(usable_triangle({1, 2, 3}, {4, 5, 6}, {4, 5, 6}));
  EXPECT_FALSE(usable_triangle({7, 7, 7}, {7, 7, 7}, {7, 7, 7}));
}

TEST(TriangleMeshDegenerate, ExactlyCollinearCornersAreDegenerate) {
  EXPECT_FALSE(usable_triangle({0, 0, 0}, {1, 1, 1}, {2, 2, 2}));
  EXPECT_FALSE(usable_triangle({0, 0, 0}, {2, 2, 2}, {1, 1, 1}));  // middle corner last
  EXPECT_FALSE(usable_triangle({-3, 0, 0}, {5, 0, 0}, {1e6f, 0, 0}));
  EXPECT_FALSE(usable_triangle({1, 2, 3}, {3, 6, 9}, {-1, -2, -3}));
}

TEST(TriangleMeshDegenerate, NearlyCollinearFloatCornersAreUsable) {
  // 0.1f, 0.3f and 1/3 are not exactly in proportion, so the float corners are off the line by a
  // rounding error: a sliver of real, tiny area. The watertight kernel hits it consistently with
  // its neighbours, so it stays in the tree; leaving it out would open a crack in a closed mesh.
  EXPECT_TRUE(usable_triangle({0.1f, 0.2f, 0.7f}, {1.0f / 3, 2.0f / 3, 7.0f / 3}, {0.3f, 0.6f, 2.1f}));
  EXPECT_TRUE(usable_triangle({0, 0, 0}, {0.1f, 0.3f, 0}, {0.3f, 0.9f, 0}));
  // Points with x = y = z lie exactly on the diagonal whatever their rounding: truly flat.
  EXPECT_FALSE(usable_triangle({0, 0, 0}, {0.1f, 0.1f, 0.1f}, {0.3f, 0.3f, 0.3f}));
}

TEST(TriangleMeshDegenerate, FlatCapSliverWithAreaIsUsable) {
  // Apex (1, h) over the base from (0, 0) to (2, 0): nearly 180 degrees at the apex, area h.
  EXPECT_TRUE(usable_triangle({0, 0, 0}, {2, 0, 0}, {1, 1e-6f, 0}));
  EXPECT_TRUE(usable_triangle({0, 0, 0}, {2, 0, 0}, {1, 1e-30f, 0}));
  EXPECT_FALSE(usable_triangle({0, 0, 0}, {2, 0, 0}, {1, 0, 0}));
}

TEST(TriangleMeshDegenerate, ThinNeedleWithAProperCornerIsUsable) {
  // A right angle at the origin, one leg a millionth of the other: thin, but a real plane.
  EXPECT_TRUE(usable_triangle({0, 0, 0}, {1, 0, 0}, {0, 1e-6f, 0}));
  EXPECT_TRUE(usable_triangle({1, 0, 0}, {0, 1e-6f, 0}, {0, 0, 0}));
  EXPECT_TRUE(usable_triangle({0, 1e-6f, 0}, {0, 0, 0}, {1, 0, 0}));
}

TEST(TriangleMeshDegenerate, TinyAndHugeTrianglesAreUsable) {
  EXPECT_TRUE(usable_triangle({0, 0, 0}, {1e-30f, 0, 0}, {0, 1e-30f, 0}));
  EXPECT_TRUE(usable_triangle({0, 0, 0}, {1e-44f, 0, 0}, {0, 1e-44f, 0}));  // subnormal
  EXPECT_TRUE(usable_triangle({-1e15f, 0, 0}, {1e15f, 0, 0}, {0, 1e15f, 3e14f}));  // the working range's edge
}

TEST(TriangleMeshValidation, VerticesBeyondTheWorkingRangeAreRefusedByName) {
  const std::vector<TriangleMesh::Indices> f = {{0, 1, 2}};
  const Result<TriangleMesh> huge = TriangleMesh::make({{-3e38f, 0, 0}, {3e38f, 0, 0}, {0, 3e38f, 1e38f}}, f);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), StatusCode::invalid_argument);
  EXPECT_NE(huge.status().message().find("refers to vertex 0, which lies beyond"), std::string::npos)
      << huge.status().message();
  const float past = std::nextafter(kMaxCoordinate, kInfinity<float>);
  EXPECT_FALSE(TriangleMesh::make({{0, 0, 0}, {1, 0, 0}, {0, 0, past}}, f).ok());
  EXPECT_TRUE(TriangleMesh::make({{0, 0, 0}, {1, 0, 0}, {0, 0, kMaxCoordinate}}, f).ok());
  // An unreferenced vertex may still hold anything.
  EXPECT_TRUE(TriangleMesh::make({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1e30f, 0, 0}}, f).ok());
}

// Reference: the cross product in long double, where float differences and their products are
// exact (64-bit significand), written from the corner at b rather than at a.
bool reference_zero_area(Vec3f a, Vec3f b, Vec3f c) {
  using L = long double;
  const L ux = L(a.x) - b.x, uy = L(a.y) - b.y, uz = L(a.z) - b.z;
  const L vx = L(c.x) - b.x, vy = L(c.y) - b.y, vz = L(c.z) - b.z;
  return uy * vz - uz * vy == 0 && uz * vx - ux * vz == 0 && ux * vy - uy * vx == 0;
}

TEST(TriangleMeshDegenerate, ExactlyZeroAreaDecidesWhateverTheCornerOrderOrScale) {
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<int> small(-50, 50);
  std::uniform_real_distribution<float> coordinate(-10, 10);
  std::size_t degenerate = 0, usable = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    Vec3f a, b, c;
    if (trial % 2 == 0) {
      // Integer corners with c = a + k (b - a): exactly collinear, unless k's product rounds.
      a = {float(small(rng)), float(small(rng)), float(small(rng))};
      b = {float(small(rng)), float(small(rng)), float(small(rng))};
      c = a + (b - a) * float(small(rng) % 4);
      if (trial % 4 == 0) c.z += 1.0f / 1024;  // just off the line: usable
    } else {
      a = {coordinate(rng), coordinate(rng), coordinate(rng)};
      b = {coordinate(rng), coordinate(rng), coordinate(rng)};
      c = lerp(a, b, std::uniform_real_distribution<float>(-0.5f, 1.5f)(rng));  // near the line
    }
    const bool got = !usable_triangle(a, b, c);
    EXPECT_EQ(got, reference_zero_area(a, b, c)) << trial;
    EXPECT_EQ(got, !usable_triangle(b, c, a)) << trial;
    EXPECT_EQ(got, !usable_triangle(c, a, b)) << trial;
    EXPECT_EQ(got, !usable_triangle(a * 1024.0f, b * 1024.0f, c * 1024.0f)) << trial;
    (got ? degenerate : usable) += 1;
  }
  EXPECT_GT(degenerate, 2000u);
  EXPECT_GT(usable, 2000u);
}

// --- large meshes ---------------------------------------------------------------------------------

// Vertices on a small integer grid (mapped exactly to floats by a per-axis scale and offset),
// triangles over random corners: many triples are exactly collinear or repeat an index, and exact
// integer arithmetic decides every triangle.
TEST(TriangleMeshLarge, RandomGridMeshAgreesWithExactIntegerCounts) {
  std::mt19937 rng(7);
  constexpr int kGrid = 4;  // coordinates 0..3
  constexpr std::size_t kVertices = 150000, kTriangles = 300000;
  std::vector<Vec3f> positions(kVertices);
  std::vector<std::array<std::int64_t, 3>> integer(kVertices);
  for (std::size_t i = 0; i < kVertices; ++i) {
    integer[i] = {std::int64_t(rng() % kGrid), std::int64_t(rng() % kGrid), std::int64_t(rng() % kGrid)};
    positions[i] = {float(integer[i][0]) - 1.5f, float(integer[i][1]) * 0.25f, float(integer[i][2]) * 3 + 100};
  }
  // Triangles use only the first two thirds of the vertices (plus a few scattered ones), so
  // many vertices stay unreferenced.
  std::vector<Indices> triangles(kTriangles);
  for (Indices& t : triangles) {
    for (std::uint32_t& v : t) v = rng() % (kVertices * 2 / 3);
  }
  std::vector<bool> referenced(kVertices, false);
  std::size_t expected_degenerate = 0;
  Aabbf expected_bounds;
  for (const Indices& t : triangles) {
    const auto& p = integer[t[0]];
    const auto& q = integer[t[1]];
    const auto& r = integer[t[2]];
    const std::int64_t u[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
    const std::int64_t v[3] = {r[0] - p[0], r[1] - p[1], r[2] - p[2]};
    const bool flat =
        u[1] * v[2] - u[2] * v[1] == 0 && u[2] * v[0] - u[0] * v[2] == 0 && u[0] * v[1] - u[1] * v[0] == 0;
    expected_degenerate += flat ? 1 : 0;
    for (const std::uint32_t i : t) {
      referenced[i] = true;
      expected_bounds.grow(positions[i]);
    }
  }
  const auto expected_unreferenced = static_cast<std::size_t>(std::count(referenced.begin(), referenced.end(), false));

  const TriangleMesh mesh = make_or_die(positions, triangles);
  EXPECT_EQ(mesh.report().degenerate_triangles, expected_degenerate);
  EXPECT_GT(expected_degenerate, kTriangles / 20);  // the grid makes plenty of flat triples
  EXPECT_EQ(mesh.report().unreferenced_vertices, expected_unreferenced);
  EXPECT_GT(expected_unreferenced, kVertices / 4);
  EXPECT_EQ(mesh.bounds().min, expected_bounds.min);
  EXPECT_EQ(mesh.bounds().max, expected_bounds.max);
  std::size_t unusable = 0;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) unusable += mesh.is_usable(i) ? 0 : 1;
  EXPECT_EQ(unusable, expected_degenerate);
  EXPECT_TRUE(std::equal(triangles.begin(), triangles.end(), mesh.triangles().begin()));
}

TEST(TriangleMeshLarge, RandomOffendersAreNamedExactly) {
  std::mt19937 rng(99);
  constexpr std::size_t kVertices = 50000, kTriangles = 100000;
  std::vector<Vec3f> positions(kVertices);
  for (Vec3f& p : positions) p = {float(rng() % 1000), float(rng() % 1000), float(rng() % 1000)};
  std::vector<Indices> triangles(kTriangles);
  for (Indices& t : triangles) {
    for (std::uint32_t& v : t) v = rng() % kVertices;
  }
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Vec3f> bad_positions = positions;
    std::vector<Indices> bad_triangles = triangles;
    const std::size_t t = rng() % kTriangles;
    const std::size_t corner = rng() % 3;
    std::string expected;
    if (trial % 2 == 0) {
      const std::uint32_t index = static_cast<std::uint32_t>(kVertices + rng() % 1000);
      bad_triangles[t][corner] = index;
      expected = "triangle " + std::to_string(t) + " refers to vertex " + std::to_string(index) +
                 " but the mesh has 50000 vertices";
    } else {
      // A fresh vertex index used by this triangle only, so no earlier triangle refers to it.
      const std::uint32_t index = static_cast<std::uint32_t>(bad_positions.size());
      bad_positions.push_back({1, kNaN, 2});
      bad_triangles[t][corner] = index;
      expected = "triangle " + std::to_string(t) + " refers to vertex " + std::to_string(index) +
                 ", which is not finite (1, nan, 2)";
    }
    const Result<TriangleMesh> mesh = TriangleMesh::make(bad_positions, bad_triangles);
    ASSERT_FALSE(mesh.ok());
    EXPECT_EQ(mesh.status().message(), expected);
  }
}

// --- moving the vertices --------------------------------------------------------------------------

TEST(TriangleMeshSetPositions, UpdatesBoundsAndDegeneracyAndKeepsTopologyAndNormals) {
  TriangleMesh mesh = make_or_die(square_positions(), square_triangles(), std::vector<Vec3f>(5, Vec3f{0, 0, 2}));
  // Flatten the second triangle (0, 2, 3) by moving vertex 3 onto the diagonal, and move the
  // unreferenced vertex anywhere, even to NaN.
  std::vector<Vec3f> moved = {{0, 0, 1}, {2, 0, 1}, {2, 2, 1}, {1, 1, 1}, {kNaN, 0, 0}};
  ASSERT_TRUE(mesh.set_positions(moved).ok());
  EXPECT_EQ(mesh.positions()[1], (Vec3f{2, 0, 1}));
  EXPECT_EQ(mesh.bounds().min, (Vec3f{0, 0, 1}));
  EXPECT_EQ(mesh.bounds().max, (Vec3f{2, 2, 1}));
  EXPECT_TRUE(mesh.is_usable(0));
  EXPECT_FALSE(mesh.is_usable(1));
  EXPECT_EQ(mesh.report().degenerate_triangles, 1u);
  EXPECT_EQ(mesh.report().unreferenced_vertices, 1u);
  EXPECT_EQ(mesh.normals()[0], (Vec3f{0, 0, 1}));
  EXPECT_EQ(mesh.triangles()[1], (Indices{0, 2, 3}));

  // And back: the triangle is usable again.
  ASSERT_TRUE(mesh.set_positions(square_positions()).ok());
  EXPECT_TRUE(mesh.is_usable(1));
  EXPECT_EQ(mesh.report().degenerate_triangles, 0u);
}

TEST(TriangleMeshSetPositions, WrongCountFailsAndLeavesTheMeshAsItWas) {
  TriangleMesh mesh = make_or_die(square_positions(), square_triangles());
  const Status status = mesh.set_positions({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}});
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::invalid_argument);
  EXPECT_EQ(status.message(), "set_positions got 4 vertices but the mesh has 5");
  EXPECT_EQ(mesh.vertex_count(), 5u);
  EXPECT_EQ(mesh.positions()[4], (Vec3f{5, 5, 5}));
}

TEST(TriangleMeshSetPositions, NonFiniteReferencedVertexFailsAndLeavesTheMeshAsItWas) {
  TriangleMesh mesh = make_or_die(square_positions(), square_triangles());
  std::vector<Vec3f> moved = {{0, 0, 9}, {1, 0, 9}, {1, 1, 9}, {0, kInf, 9}, {5, 5, 5}};
  const Status status = mesh.set_positions(moved);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::invalid_argument);
  EXPECT_EQ(status.message(), "triangle 1 refers to vertex 3, which is not finite (0, inf, 9)");
  EXPECT_EQ(mesh.positions()[0], (Vec3f{0, 0, 0}));
  EXPECT_EQ(mesh.bounds().max, (Vec3f{1, 1, 0}));
  EXPECT_EQ(mesh.report().degenerate_triangles, 0u);
}

TEST(TriangleMeshSetPositions, WorksOnAnEmptyMesh) {
  TriangleMesh mesh = make_or_die({}, {});
  EXPECT_TRUE(mesh.set_positions({}).ok());
  EXPECT_FALSE(mesh.set_positions({{1, 2, 3}}).ok());
}

}  // namespace
}  // namespace hitscan
