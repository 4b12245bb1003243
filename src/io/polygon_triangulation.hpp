#pragma once
// Triangulation of one polygon face of a mesh file: the loader turns each face of k corners into
// k - 2 triangles with it. Private to the io layer.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "hitscan/math/vec3.hpp"

namespace hitscan::io::detail {

/// Three corners of a polygon, as indices into its corner list.
using PolygonTriangle = std::array<std::uint32_t, 3>;

/// Working memory of triangulate_polygon, kept from face to face so that a file's faces
/// allocate only while the largest face so far grows.
struct PolygonScratch {
  std::vector<double> x, y;  // the corners in the face's plane
  std::vector<std::uint32_t> previous, next;
};

/// Writes the k - 2 triangles of a face of k = corners.size() >= 3 corners to `triangles`, which
/// holds exactly k - 2, each wound as the face is (counter-clockwise about the face's Newell
/// normal when the face runs counter-clockwise).
///
/// A face whose corners, seen along its Newell normal, make a convex polygon (collinear and
/// repeated corners allowed) gives its fan (c0, ci, ci+1), i = 1 ... k-2, in that order. Any other
/// face, concave or non-planar, is projected on the plane of its Newell normal and ear clipped
/// there: the walk clips the first ear it meets going forward from corner 1, so triangle j is the
/// j-th ear clipped, (previous, ear, next) in face order. Collinear and repeated corners are
/// clipped as zero-area triangles. A face without a Newell normal (all corners on a line or a
/// point, or a non-finite coordinate) gives its fan, and so does the rest of a face where no ear
/// remains (a self-intersecting outline) or whose clipping takes more than a fixed amount of work
/// (a face of thousands of corners).
void triangulate_polygon(std::span<const Vec3d> corners, std::span<PolygonTriangle> triangles,
                         PolygonScratch& scratch);

}  // namespace hitscan::io::detail
