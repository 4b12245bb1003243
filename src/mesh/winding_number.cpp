#include "hitscan/mesh/winding_number.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "mesh_bvh_data.hpp"

namespace hitscan {

namespace {

constexpr double kFourPi = 4.0 * std::numbers::pi;

// The signed solid angle that triangle (a, b, c), given relative to the query point, subtends
// there: Van Oosterom and Strackee, "The Solid Angle of a Plane Triangle" (IEEE Trans. Biomed.
// Eng. 30(2), 1983): tan(omega / 2) = a . (b x c) / (|a||b||c| + (a.b)|c| + (b.c)|a| + (c.a)|b|).
// Positive when the point sees the back of the triangle (the side its normal leaves from), as it
// does every face of a closed, outward-wound mesh from inside.
//
// On the triangle's plane the solid angle is 0 outside the triangle and jumps between -2 pi and
// +2 pi across it, and there the triple product is zero; where it is no larger than its rounding
// error (bounded by a few ulps of |a||b||c|, from the subtractions that made a, b and c and the
// products), its sign, and atan2's answer, would be noise. Such a point counts as in the plane and
// the triangle contributes 0, the mean of its two sides: so a point on a face of a closed mesh
// gets 1/2, on an edge the fraction of the sphere around it that the solid fills, and a point
// at a corner (a, b or c zero) gets 0 from the triangles around it.
double solid_angle(Vec3d a, Vec3d b, Vec3d c) {
  constexpr double kPlaneTolerance = 16.0 * std::numeric_limits<double>::epsilon();
  const double la = length(a), lb = length(b), lc = length(c);
  const double triple = dot(a, cross(b, c));
  if (std::abs(triple) <= kPlaneTolerance * (la * lb * lc)) return 0.0;
  const double denominator = la * lb * lc + dot(a, b) * lc + dot(b, c) * la + dot(c, a) * lb;
  return 2.0 * std::atan2(triple, denominator);
}

Vec3d to_double(Vec3f v) { return vec3_cast<double>(v); }

double triangle_solid_angle(const Trianglef& t, Vec3d p) {
  return solid_angle(to_double(t.v0) - p, to_double(t.v1) - p, to_double(t.v2) - p);
}

// The moments of a subtree's triangles about its expansion centre c (Barill et al.,
// "Fast winding numbers for soups and clouds", SIGGRAPH 2018), each triangle t of area a_t, unit
// normal n_t and centroid x_t taken as the patch it is, so the moments are exact integrals:
//   normal        N      = sum a_t n_t                                   (zeroth order: the dipole)
//   first[i][j]   M_ij   = sum a_t n_ti (x_t - c)_j                      (first order)
//   second[i][jk] T_ijk  = sum a_t n_ti ((x_t - c)_j (x_t - c)_k + C_tjk) (second order)
// where C_t = (1/12) sum_corners (v - x_t)(v - x_t)^T is the covariance of a uniform triangle.
// The centre is the area-weighted centroid, and radius bounds the distance from it to any corner.
struct Moments {
  double area = 0.0;
  Vec3d weighted_centroid{};
  Vec3d centre{};
  double radius = 0.0;
  Vec3d normal{};
  double first[3][3] = {};
  /// jk symmetric, stored as xx, yy, zz, xy, xz, yz.
  double second[3][6] = {};
};

constexpr int kPair[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};

// Adds a triangle's area terms (pass one: what the centre needs).
void add_area(Moments& m, const Trianglef& t) {
  const Vec3d v0 = to_double(t.v0), v1 = to_double(t.v1), v2 = to_double(t.v2);
  const Vec3d area_normal = cross(v1 - v0, v2 - v0) * 0.5;
  const double area = length(area_normal);
  m.normal += area_normal;
  m.area += area;
  m.weighted_centroid += (v0 + v1 + v2) * (area / 3.0);
}

// Adds a triangle's higher moments about m.centre (pass two) and grows the radius.
void add_higher(Moments& m, const Trianglef& t) {
  const Vec3d v[3] = {to_double(t.v0), to_double(t.v1), to_double(t.v2)};
  const Vec3d area_normal = cross(v[1] - v[0], v[2] - v[0]) * 0.5;
  const Vec3d centroid = (v[0] + v[1] + v[2]) / 3.0;
  const Vec3d d = centroid - m.centre;
  double spread[6] = {};  // (x_t - c)(x_t - c)^T + C_t
  for (int k = 0; k < 6; ++k) {
    const int a = kPair[k][0], b = kPair[k][1];
    spread[k] = d[a] * d[b];
    for (const Vec3d& corner : v) spread[k] += (corner - centroid)[a] * (corner - centroid)[b] / 12.0;
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) m.first[i][j] += area_normal[i] * d[j];
    for (int k = 0; k < 6; ++k) m.second[i][k] += area_normal[i] * spread[k];
  }
  for (const Vec3d& corner : v) m.radius = std::max(m.radius, distance(corner, m.centre));
}

// Adds a child's moments, taken about child.centre, to m's about m.centre: with e = child.centre
// - m.centre, (x - m.centre) = (x - child.centre) + e, so M' = M + N e^T and
// T'_ijk = T_ijk + M_ij e_k + M_ik e_j + N_i e_j e_k. The radius grows by the sphere of the child.
void add_shifted(Moments& m, const Moments& child) {
  const Vec3d e = child.centre - m.centre;
  m.normal += child.normal;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) m.first[i][j] += child.first[i][j] + child.normal[i] * e[j];
    for (int k = 0; k < 6; ++k) {
      const int a = kPair[k][0], b = kPair[k][1];
      m.second[i][k] +=
          child.second[i][k] + child.first[i][a] * e[b] + child.first[i][b] * e[a] + child.normal[i] * e[a] * e[b];
    }
  }
  m.radius = std::max(m.radius, length(e) + child.radius);
}

// The centre of a subtree's expansion: its area-weighted centroid, or the middle of its box
// should its area underflow to zero.
Vec3d expansion_centre(const Moments& m, const Aabbf& box) {
  if (m.area > 0.0) return m.weighted_centroid / m.area;
  return to_double(box.center());
}

// The farthest corner of `box` from c: the radius of a sphere around c holding the whole box.
double farthest_box_distance(const Aabbf& box, Vec3d c) {
  const Vec3d lo = to_double(box.min), hi = to_double(box.max);
  return length(max(abs(c - lo), abs(c - hi)));
}

Aabbf slot_box(const bvh::WideNode& node, int slot) {
  return {{node.bounds.min_x[slot], node.bounds.min_y[slot], node.bounds.min_z[slot]},
          {node.bounds.max_x[slot], node.bounds.max_y[slot], node.bounds.max_z[slot]}};
}

}  // namespace

/// The expansion of every used child slot of every wide node of the mesh's tree, with a copy of
/// the tree's topology, so that an evaluation reads the MeshBvh only for the triangles of the
/// leaves it opens. nodes[n] lists the used slots of the tree's node n, in the node's order;
/// empty slots are left out, which halves the memory (a quarter of a kilobyte per slot).
struct WindingNumber::Expansions {
  struct Slot {
    Vec3d centre{};
    /// Zeroth order: N.
    Vec3d normal{};
    /// First order: the coefficients of r^T M r (xx, yy, zz, xy, xz, yz); the first three sum to
    /// the trace of M.
    double first_form[6] = {};
    /// Second order: 2 v + u with v_k = T_iik and u_i = T_ijj, and the coefficients of
    /// T(r, r, r) (xxx, yyy, zzz, xxy, xxz, xyy, yyz, xzz, yzz, xyz).
    Vec3d second_linear{};
    double second_form[10] = {};
    /// (accuracy * radius)^2: the slot is approximated from points farther than this from centre.
    double open_distance_squared = 0.0;
    /// As in bvh::WideNode: a wide node (count == 0) or a range of leaf packs (count > 0).
    std::uint32_t child = 0;
    std::uint32_t count = 0;
  };
  struct Node {
    std::uint32_t first_slot = 0, slot_count = 0;
  };
  std::vector<Node> nodes;
  std::vector<Slot> slots;

  static Slot make_slot(const Moments& m, double accuracy, std::uint32_t child, std::uint32_t count);
  static double far_field(const Slot& s, Vec3d r, double d2);
};

WindingNumber::Expansions::Slot WindingNumber::Expansions::make_slot(const Moments& m, double accuracy,
                                                                     std::uint32_t child, std::uint32_t count) {
  Slot s;
  s.centre = m.centre;
  s.normal = m.normal;
  const auto& M = m.first;
  const double first_form[6] = {M[0][0], M[1][1], M[2][2], M[0][1] + M[1][0], M[0][2] + M[2][0], M[1][2] + M[2][1]};
  std::copy(std::begin(first_form), std::end(first_form), s.first_form);
  const auto& T = m.second;  // T[i][xx, yy, zz, xy, xz, yz]
  const Vec3d v{T[0][0] + T[1][3] + T[2][4], T[0][3] + T[1][1] + T[2][5], T[0][4] + T[1][5] + T[2][2]};
  const Vec3d u{T[0][0] + T[0][1] + T[0][2], T[1][0] + T[1][1] + T[1][2], T[2][0] + T[2][1] + T[2][2]};
  s.second_linear = v * 2.0 + u;
  const double second_form[10] = {T[0][0],
                                  T[1][1],
                                  T[2][2],
                                  2 * T[0][3] + T[1][0],
                                  2 * T[0][4] + T[2][0],
                                  T[0][1] + 2 * T[1][3],
                                  2 * T[1][5] + T[2][1],
                                  T[0][2] + 2 * T[2][4],
                                  T[1][2] + 2 * T[2][5],
                                  2 * (T[0][5] + T[1][4] + T[2][3])};
  std::copy(std::begin(second_form), std::end(second_form), s.second_form);
  const double reach = accuracy * m.radius;
  s.open_distance_squared = reach * reach;
  s.child = child;
  s.count = count;
  return s;
}

// The solid angle of a slot's triangles seen from p, r = centre - p, from the Taylor expansion
// of the kernel n . r / |r|^3 about the centre up to second order (Barill et al. 2018):
// with f(r) = r / |r|^3, J = df/dr = I / |r|^3 - 3 r r^T / |r|^5 and
// H_ijk = -3 (d_ij r_k + d_ik r_j + d_jk r_i) / |r|^5 + 15 r_i r_j r_k / |r|^7,
// the angle is N . f + M : J + T : H / 2.
double WindingNumber::Expansions::far_field(const Slot& s, Vec3d r, double d2) {
  const double inv1 = 1.0 / std::sqrt(d2), inv3 = inv1 / d2, inv5 = inv3 / d2, inv7 = inv5 / d2;
  const double x = r.x, y = r.y, z = r.z;
  const double* q = s.first_form;
  const double quadratic = q[0] * x * x + q[1] * y * y + q[2] * z * z + q[3] * x * y + q[4] * x * z + q[5] * y * z;
  const double* c = s.second_form;
  const double cubic = c[0] * x * x * x + c[1] * y * y * y + c[2] * z * z * z + c[3] * x * x * y + c[4] * x * x * z +
                       c[5] * x * y * y + c[6] * y * y * z + c[7] * x * z * z + c[8] * y * z * z + c[9] * x * y * z;
  const double zeroth = dot(s.normal, r) * inv3;
  const double trace = q[0] + q[1] + q[2];
  const double first = trace * inv3 - 3.0 * quadratic * inv5;
  const double second = 0.5 * (-3.0 * dot(s.second_linear, r) * inv5 + 15.0 * cubic * inv7);
  return zeroth + first + second;
}

Result<WindingNumber> WindingNumber::make(std::shared_ptr<const MeshBvh> bvh, double accuracy) {
  if (!bvh) return Status{StatusCode::invalid_argument, "WindingNumber::make: the tree is null"};
  if (!(accuracy >= 1.0) || !std::isfinite(accuracy)) {
    return Status{StatusCode::invalid_argument,
                  "WindingNumber::make: accuracy must be finite and at least 1, not " + std::to_string(accuracy)};
  }
  if (!bvh->data()) return Status{StatusCode::invalid_argument, "WindingNumber::make: the tree was never built"};
  const MeshBvh::Data& tree = *bvh->data();
  auto expansions = std::make_shared<Expansions>();
  expansions->nodes.resize(tree.nodes.size());
  std::uint32_t used = 0;
  for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
    const auto& child = tree.nodes[n].child;
    const auto count =
        static_cast<std::uint32_t>(bvh::kWideWidth - std::count(child, child + bvh::kWideWidth, bvh::kEmptySlot));
    expansions->nodes[n] = {used, count};
    used += count;
  }
  expansions->slots.resize(used);
  // Children follow their parents in the depth-first layout, so a reverse sweep has every child
  // node's moments ready before its parent's slot needs them.
  std::vector<Moments> node_moments(tree.nodes.size());
  for (std::size_t n = tree.nodes.size(); n-- > 0;) {
    const bvh::WideNode& node = tree.nodes[n];
    std::array<Moments, bvh::kWideWidth> moments{};
    Moments& whole = node_moments[n];
    Aabbf node_box;
    std::uint32_t slot = expansions->nodes[n].first_slot;
    for (int i = 0; i < bvh::kWideWidth; ++i) {
      if (node.child[i] == bvh::kEmptySlot) continue;
      const Aabbf box = slot_box(node, i);
      node_box.grow(box);
      Moments& m = moments[i];
      if (node.count[i] == 0) {
        m = node_moments[node.child[i]];
      } else {
        const std::uint32_t first = node.child[i], last = first + node.count[i];
        for (std::uint32_t p = first; p < last; ++p) {
          for (int lane = 0; lane < 4; ++lane) {
            if (tree.packs[p].ids[lane] != kNoPrimitive) add_area(m, lane_triangle(tree.packs[p].triangles, lane));
          }
        }
        m.centre = expansion_centre(m, box);
        for (std::uint32_t p = first; p < last; ++p) {
          for (int lane = 0; lane < 4; ++lane) {
            if (tree.packs[p].ids[lane] != kNoPrimitive) add_higher(m, lane_triangle(tree.packs[p].triangles, lane));
          }
        }
      }
      whole.area += m.area;
      whole.weighted_centroid += m.weighted_centroid;
      expansions->slots[slot++] = Expansions::make_slot(m, accuracy, node.child[i], node.count[i]);
    }
    whole.centre = expansion_centre(whole, node_box);
    for (int i = 0; i < bvh::kWideWidth; ++i) {
      if (node.child[i] != bvh::kEmptySlot) add_shifted(whole, moments[i]);
    }
    whole.radius = std::min(whole.radius, farthest_box_distance(node_box, whole.centre));
  }
  WindingNumber result;
  result.bvh_ = std::move(bvh);
  result.expansions_ = std::move(expansions);
  result.accuracy_ = accuracy;
  return result;
}

double WindingNumber::operator()(Vec3f point) const {
  if (!is_finite(point)) return std::numeric_limits<double>::quiet_NaN();
  const Expansions& e = *expansions_;
  if (e.nodes.empty()) return 0.0;
  const MeshBvh::Data& tree = *bvh_->data();
  const Vec3d p = to_double(point);
  // Solid angles, exact per triangle or expanded per slot, divided by 4 pi once at the end.
  double sum = 0.0;
  std::uint32_t stack[bvh::kTraversalStackSize];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Expansions::Node& node = e.nodes[stack[--top]];
    for (std::uint32_t s = node.first_slot; s < node.first_slot + node.slot_count; ++s) {
      const Expansions::Slot& slot = e.slots[s];
      const Vec3d to_centre = slot.centre - p;
      const double d2 = length_squared(to_centre);
      if (d2 > slot.open_distance_squared) {
        sum += Expansions::far_field(slot, to_centre, d2);
      } else if (slot.count == 0) {
        stack[top++] = slot.child;
      } else {
        for (std::uint32_t k = slot.child; k < slot.child + slot.count; ++k) {
          const LeafPack& pack = tree.packs[k];
          for (int lane = 0; lane < 4; ++lane) {
            if (pack.ids[lane] != kNoPrimitive) sum += triangle_solid_angle(lane_triangle(pack.triangles, lane), p);
          }
        }
      }
    }
  }
  return sum / kFourPi;
}

Status WindingNumber::evaluate_batch(std::span<const Vec3f> points, std::span<double> out, Executor* executor) const {
  if (points.size() != out.size()) {
    return Status{StatusCode::invalid_argument, "WindingNumber::evaluate_batch: " + std::to_string(points.size()) +
                                                    " points but room for " + std::to_string(out.size()) + " values"};
  }
  constexpr std::size_t kGrain = 256;  // points per chunk: each costs tens of node visits
  (executor ? *executor : default_executor()).parallel_for(points.size(), kGrain, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) out[i] = (*this)(points[i]);
  });
  return Status::success();
}

double winding_number_exact(const TriangleMesh& mesh, Vec3d p) {
  if (!is_finite(p)) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0.0;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    if (mesh.is_usable(i)) sum += triangle_solid_angle(mesh.triangle(i), p);
  }
  return sum / kFourPi;
}

}  // namespace hitscan
