#include "io/polygon_triangulation.hpp"
#include "support/plane_polygon.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace hitscan::io::detail {
namespace {

using test::inside_polygon;
using test::inside_triangle;
using test::Point2;
using test::Polygon2;

std::vector<PolygonTriangle> triangulate(const std::vector<Vec3d>& corners) {
  std::vector<PolygonTriangle> triangles(corners.size() - 2);
  PolygonScratch scratch;
  triangulate_polygon(corners, triangles, scratch);
  return triangles;
}

std::vector<Vec3d> in_xy_plane(const Polygon2& polygon) {
  std::vector<Vec3d> corners;
  for (const Point2& p : polygon) corners.push_back({p.x, p.y, 0});
  return corners;
}

std::vector<PolygonTriangle> fan(std::size_t corner_count) {
  std::vector<PolygonTriangle> triangles;
  for (std::uint32_t i = 1; i + 1 < corner_count; ++i) triangles.push_back({0, i, i + 1});
  return triangles;
}

double signed_area(Point2 a, Point2 b, Point2 c) { return 0.5 * test::orient(a, b, c); }

// The shoelace formula.
double signed_area(const Polygon2& polygon) {
  double twice = 0;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Point2& a = polygon[i];
    const Point2& b = polygon[(i + 1) % polygon.size()];
    twice += a.x * b.y - a.y * b.x;
  }
  return 0.5 * twice;
}

// The triangles cover the polygon exactly, each wound as the polygon is: their areas, taken
// positive, add up to the polygon's, and seeded sample points inside the polygon by the even-odd
// rule are exactly those inside some triangle (points within a hair of the outline are skipped).
void expect_exact_cover(const Polygon2& polygon, const std::vector<PolygonTriangle>& triangles, std::uint32_t seed,
                        const std::string& name) {
  ASSERT_EQ(triangles.size(), polygon.size() - 2) << name;
  const double area = signed_area(polygon);
  const double orientation = area < 0 ? -1 : 1;
  double min_x = polygon[0].x, max_x = min_x, min_y = polygon[0].y, max_y = min_y;
  for (const Point2& p : polygon) {
    min_x = std::min(min_x, p.x), max_x = std::max(max_x, p.x);
    min_y = std::min(min_y, p.y), max_y = std::max(max_y, p.y);
  }
  const double extent = std::max(max_x - min_x, max_y - min_y);
  double covered = 0;
  for (const PolygonTriangle& t : triangles) {
    for (std::uint32_t corner : t) ASSERT_LT(corner, polygon.size()) << name;
    const double a = orientation * signed_area(polygon[t[0]], polygon[t[1]], polygon[t[2]]);
    EXPECT_GE(a, -1e-12 * extent * extent) << name << ": a triangle wound against the polygon";
    covered += std::abs(a);
  }
  EXPECT_NEAR(covered, std::abs(area), 1e-9 * extent * extent) << name;

  std::mt19937 random(seed);
  std::uniform_real_distribution<double> along_x(min_x, max_x), along_y(min_y, max_y);
  for (int sample = 0; sample < 400; ++sample) {
    const Point2 p{along_x(random), along_y(random)};
    if (test::near_outline(polygon, p, 1e-9 * extent)) continue;
    const bool in_a_triangle = std::any_of(triangles.begin(), triangles.end(), [&](const PolygonTriangle& t) {
      return inside_triangle(polygon[t[0]], polygon[t[1]], polygon[t[2]], p);
    });
    ASSERT_EQ(in_a_triangle, inside_polygon(polygon, p)) << name << " at (" << p.x << ", " << p.y << ")";
  }
}

void expect_exact_cover_in_xy(const Polygon2& polygon, const std::string& name) {
  expect_exact_cover(polygon, triangulate(in_xy_plane(polygon)), 7, name);
}

// A polygon of random radii around the origin, one corner at a random angle in each of
// `corner_count` equal sectors: two corners are less than half a turn apart, so the polygon is
// simple (star-shaped from the origin), and concave at most of its corners.
Polygon2 random_star_shaped(std::mt19937& random, std::size_t corner_count) {
  std::uniform_real_distribution<double> within_sector(0, 0.9), radius(0.1, 1.0);
  Polygon2 polygon;
  for (std::size_t i = 0; i < corner_count; ++i) {
    const double a = (double(i) + within_sector(random)) * 2 * std::numbers::pi / double(corner_count);
    const double r = radius(random);
    polygon.push_back({r * std::cos(a), r * std::sin(a)});
  }
  return polygon;
}

// The plane polygon placed in a random plane of space, at a random offset; `flip` turns the
// plane over, which makes the polygon run the other way about the plane's normal.
std::vector<Vec3d> in_random_plane(const Polygon2& polygon, std::mt19937& random, bool flip) {
  std::normal_distribution<double> gaussian;
  const Vec3d w = normalize(Vec3d{gaussian(random), gaussian(random), gaussian(random)});
  const Vec3d u = normalize(cross(w, std::abs(w.x) < 0.9 ? Vec3d{1, 0, 0} : Vec3d{0, 1, 0}));
  const Vec3d v = flip ? -cross(w, u) : cross(w, u);
  const Vec3d offset{gaussian(random) * 10, gaussian(random) * 10, gaussian(random) * 10};
  std::vector<Vec3d> corners;
  for (const Point2& p : polygon) corners.push_back(offset + u * p.x + v * p.y);
  return corners;
}

TEST(PolygonTriangulation, ArrowIsNotFilledBetweenItsBarbs) {
  const Polygon2 arrow = {{0, 0}, {2, 1}, {0, 2}, {1, 1}};
  const std::vector<PolygonTriangle> triangles = triangulate(in_xy_plane(arrow));
  EXPECT_EQ(triangles, (std::vector<PolygonTriangle>{{1, 2, 3}, {1, 3, 0}}));
  for (const PolygonTriangle& t : triangles) {
    EXPECT_FALSE(inside_triangle(arrow[t[0]], arrow[t[1]], arrow[t[2]], {0.3, 1}));
  }
  expect_exact_cover_in_xy(arrow, "arrow");
}

TEST(PolygonTriangulation, LShapeAndStarAreCoveredExactly) {
  expect_exact_cover_in_xy({{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}, "L");
  expect_exact_cover_in_xy({{1, 2}, {0, 2}, {0, 0}, {2, 0}, {2, 1}, {1, 1}}, "L from its reflex neighbour");
  Polygon2 star;
  for (int i = 0; i < 10; ++i) {
    const double a = std::numbers::pi / 2 + i * std::numbers::pi / 5, r = i % 2 == 0 ? 1.0 : 0.38;
    star.push_back({r * std::cos(a), r * std::sin(a)});
  }
  expect_exact_cover_in_xy(star, "star");
  Polygon2 clockwise_star(star.rbegin(), star.rend());
  expect_exact_cover_in_xy(clockwise_star, "clockwise star");
  // A comb: many reflex corners, and ears only at the teeth.
  Polygon2 comb = {{0, 0}, {9, 0}};
  for (int tooth = 4; tooth >= 0; --tooth) {
    comb.push_back({2.0 * tooth + 1, 3});
    comb.push_back({2.0 * tooth, 3});
    if (tooth > 0) comb.push_back({2.0 * tooth, 1}), comb.push_back({2.0 * tooth - 1, 1});
  }
  expect_exact_cover_in_xy(comb, "comb");
}

TEST(PolygonTriangulation, ConvexPolygonsKeepTheirFan) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> angle(0, 2 * std::numbers::pi);
  for (std::size_t corner_count = 3; corner_count <= 40; ++corner_count) {
    for (int round = 0; round < 20; ++round) {
      std::vector<double> angles(corner_count);
      for (double& a : angles) a = angle(random);
      std::sort(angles.begin(), angles.end());
      Polygon2 polygon;
      for (double a : angles) polygon.push_back({std::cos(a), std::sin(a)});
      const bool clockwise = round % 2 == 1;
      if (clockwise) std::reverse(polygon.begin(), polygon.end());
      const std::vector<PolygonTriangle> triangles = triangulate(in_random_plane(polygon, random, round % 4 >= 2));
      EXPECT_EQ(triangles, fan(corner_count)) << corner_count << " corners, round " << round;
    }
  }
}

TEST(PolygonTriangulation, ConvexPolygonsWithCollinearOrRepeatedCornersKeepTheirFan) {
  const Polygon2 square_with_midpoints = {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}, {1, 2}, {0, 2}, {0, 1}};
  EXPECT_EQ(triangulate(in_xy_plane(square_with_midpoints)), fan(8));
  const Polygon2 repeated = {{0, 0}, {0, 0}, {2, 0}, {2, 2}, {2, 2}, {0, 2}};
  EXPECT_EQ(triangulate(in_xy_plane(repeated)), fan(6));
  const Polygon2 pentagon_with_collinear_first_corner = {{1, 0}, {2, 0}, {2, 1}, {1, 2}, {0, 0}};
  EXPECT_EQ(triangulate(in_xy_plane(pentagon_with_collinear_first_corner)), fan(5));
}

TEST(PolygonTriangulation, ConcavePolygonsWithCollinearOrRepeatedCornersAreCoveredExactly) {
  expect_exact_cover_in_xy({{0, 0}, {1, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 1}, {1, 2}, {0, 2}, {0, 1}}, "L, midpoints");
  expect_exact_cover_in_xy({{0, 0}, {0, 0}, {2, 1}, {2, 1}, {0, 2}, {1, 1}, {1, 1}, {1, 1}}, "arrow, repeats");
  expect_exact_cover_in_xy({{0, 0}, {2, 0}, {2, 1}, {1.5, 1}, {1, 1}, {1, 2}, {1, 3}, {0, 3}, {0, 1.5}},
                           "L, collinear");
  // A square with a hole bridged to it: the bridge's corners come twice.
  expect_exact_cover_in_xy({{0, 0}, {4, 0}, {4, 4}, {0, 4}, {0, 0}, {1, 1}, {1, 3}, {3, 3}, {3, 1}, {1, 1}},
                           "bridged hole");
  // A spike out and back along an edge adds no area.
  const Polygon2 spiked = {{0, 0}, {2, 0}, {3, 0}, {2, 0}, {2, 2}, {1, 1}, {0, 2}};
  const std::vector<PolygonTriangle> triangles = triangulate(in_xy_plane(spiked));
  ASSERT_EQ(triangles.size(), spiked.size() - 2);
  double covered = 0;
  for (const PolygonTriangle& t : triangles) covered += signed_area(spiked[t[0]], spiked[t[1]], spiked[t[2]]);
  EXPECT_NEAR(covered, signed_area(spiked), 1e-12);
}

TEST(PolygonTriangulation, NonPlanarFacesCoverTheirOutlineSeenAlongTheirNormal) {
  // Lifted out of the xy plane by a small z, each face's Newell normal stays near +z, and its
  // triangles, seen from +z, must cover its outline.
  std::mt19937 random(5);
  std::uniform_real_distribution<double> lift(-0.2, 0.2);
  const std::vector<Polygon2> outlines = {{{0, 0}, {1, 0}, {1, 1}, {0, 1}},
                                          {{0, 0}, {2, 1}, {0, 2}, {1, 1}},
                                          {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}};
  for (std::size_t shape = 0; shape < outlines.size(); ++shape) {
    for (int round = 0; round < 50; ++round) {
      std::vector<Vec3d> corners = in_xy_plane(outlines[shape]);
      for (Vec3d& c : corners) c.z = lift(random);
      expect_exact_cover(outlines[shape], triangulate(corners), 100 + round,
                         "shape " + std::to_string(shape) + " round " + std::to_string(round));
    }
  }
  // A twisted quad, whose two diagonals differ: its convex outline keeps the fan.
  EXPECT_EQ(triangulate({{0, 0, 0}, {1, 0, 1}, {1, 1, 0}, {0, 1, 1}}), fan(4));
}

TEST(PolygonTriangulation, SeededRandomSimplePolygonsAreCoveredExactly) {
  std::mt19937 random(2024);
  std::uniform_int_distribution<std::size_t> corner_count(4, 60);
  for (int round = 0; round < 300; ++round) {
    const Polygon2 polygon = random_star_shaped(random, corner_count(random));
    const std::vector<PolygonTriangle> triangles = triangulate(in_random_plane(polygon, random, round % 2 == 1));
    expect_exact_cover(polygon, triangles, static_cast<std::uint32_t>(round), "round " + std::to_string(round));
    if (HasFatalFailure()) return;
  }
}

TEST(PolygonTriangulation, AThousandCornerPolygonIsCoveredExactly) {
  std::mt19937 random(99);
  const Polygon2 polygon = random_star_shaped(random, 1000);
  expect_exact_cover(polygon, triangulate(in_xy_plane(polygon)), 1, "1000 corners");
}

TEST(PolygonTriangulation, DegenerateFacesGiveTheirFanWithoutFailing) {
  EXPECT_EQ(triangulate({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}}), fan(4));  // on a line
  EXPECT_EQ(triangulate({{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}}), fan(5));  // on a point
  EXPECT_EQ(triangulate({{0, 0, 0}, {1, 1, 0}, {1, 0, 0}, {0, 1, 0}}), fan(4));  // a bow tie of no net area
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(triangulate({{0, 0, 0}, {2, 1, 0}, {nan, 2, 0}, {1, 1, 0}}), fan(4));
  EXPECT_EQ(triangulate({{0, 0, 0}, {2, 1, 0}, {inf, 2, 0}, {1, 1, 0}}), fan(4));
}

TEST(PolygonTriangulation, SelfIntersectingOutlinesGiveKMinusTwoTrianglesOfTheirCorners) {
  Polygon2 pentagram, twice_around;
  for (int i = 0; i < 5; ++i) {
    const double a = i * 4 * std::numbers::pi / 5;
    pentagram.push_back({std::cos(a), std::sin(a)});
  }
  for (int i = 0; i < 13; ++i) {
    const double a = i * 4 * std::numbers::pi / 13, r = i % 2 == 0 ? 1.0 : 0.8;
    twice_around.push_back({r * std::cos(a), r * std::sin(a)});
  }
  const Polygon2 bow_tie = {{0, 0}, {2, 2}, {2, 0}, {0, 1}, {0, 2}, {-1, 1}};
  for (const Polygon2& polygon : {pentagram, twice_around, bow_tie}) {
    const std::vector<PolygonTriangle> triangles = triangulate(in_xy_plane(polygon));
    ASSERT_EQ(triangles.size(), polygon.size() - 2);
    for (const PolygonTriangle& t : triangles) {
      for (std::uint32_t corner : t) EXPECT_LT(corner, polygon.size());
    }
  }
}

TEST(PolygonTriangulation, AHugeConcaveFaceEndsWithinItsWorkBudget) {
  // Clipping all of it would take hours; past the budget the rest gets its fan.
  std::mt19937 random(3);
  const Polygon2 polygon = random_star_shaped(random, 200000);
  const std::vector<PolygonTriangle> triangles = triangulate(in_xy_plane(polygon));
  ASSERT_EQ(triangles.size(), polygon.size() - 2);
  for (const PolygonTriangle& t : triangles) {
    for (std::uint32_t corner : t) ASSERT_LT(corner, polygon.size());
  }
}

}  // namespace
}  // namespace hitscan::io::detail
