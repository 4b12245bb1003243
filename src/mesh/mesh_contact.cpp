#include "hitscan/mesh/mesh_contact.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include "hitscan/geometry/contact_triangle.hpp"
#include "hitscan/geometry/shape_size.hpp"
#include "mesh_bvh_data.hpp"

namespace hitscan {
namespace {

// ---- box traversal ------------------------------------------------------------------------------

/// The lanes (as bits) of W boxes (a node's 8, or a leaf pack's triangles' 4) that overlap `box`,
/// touching included. The empty box (min +inf, max -inf) and a NaN box overlap nothing.
template <class F>
unsigned overlapping(const AabbPack<F>& b, const Aabbf& box) {
  return static_cast<unsigned>(bits((b.min_x <= F(box.max.x)) & (F(box.min.x) <= b.max_x) &
                                    (b.min_y <= F(box.max.y)) & (F(box.min.y) <= b.max_y) &
                                    (b.min_z <= F(box.max.z)) & (F(box.min.z) <= b.max_z)));
}

/// Calls leaf(first_pack, pack_count) for every leaf of the wide tree whose box overlaps `box`
/// (closed boxes: touching counts); leaf returns true to stop the walk. Returns whether it was
/// stopped.
template <class Leaf>
bool visit_leaves_overlapping(std::span<const bvh::WideNode> nodes, const Aabbf& box, Leaf&& leaf) {
  if (nodes.empty() || !box.is_valid()) return false;
  std::uint32_t stack[bvh::kTraversalStackSize];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const bvh::WideNode& node = nodes[stack[--top]];
    // Empty slots hold the empty box (min +inf, max -inf), which overlaps nothing.
    for (unsigned mask = overlapping(node.bounds, box); mask != 0; mask &= mask - 1) {
      const int i = std::countr_zero(mask);
      // An infinite query box overlaps even the empty box of an unused slot.
      if (node.child[i] == bvh::kEmptySlot) continue;
      if (node.count[i] == 0) {
        stack[top++] = node.child[i];
      } else if (leaf(node.child[i], node.count[i])) {
        return true;
      }
    }
  }
  return false;
}

/// Walks the triangles that may lie within max(margin, 0) + tolerance of the shape: its box grown
/// by that much, at the largest size a triangle of this mesh can have (half the bounds' diagonal
/// bounds half of any edge), plus a few ulps of the coordinates for the rounding of the box.
/// visit(triangle index, triangle) returns true to stop.
template <class Shape, class Visit>
bool visit_candidates(const Shape& a, const MeshBvh& b, float margin, ContactTolerancef tol, Visit&& visit) {
  const MeshBvh::Data* tree = b.data();
  if (!tree) return false;
  const TriangleMesh& mesh = b.mesh();
  const Aabbf mesh_bounds = mesh.bounds();
  const float mesh_size = mesh_bounds.is_valid() ? 0.5f * length(mesh_bounds.extent()) : 0.0f;
  Aabbf box = bounds_of(a);
  const float size = size_of(a);
  const float coordinates = max(max_component(abs(box.min)), max_component(abs(box.max)));
  const float grow = max(margin, 0.0f) + tol.at_size(max(size, mesh_size)) + 64 * kEpsilon<float> * (coordinates + size);
  box.min -= Vec3f{grow, grow, grow};
  box.max += Vec3f{grow, grow, grow};
  return visit_leaves_overlapping(tree->nodes, box, [&](std::uint32_t first, std::uint32_t count) {
    for (std::uint32_t p = first; p < first + count; ++p) {
      const LeafPack& pack = tree->packs[p];
      // Each triangle's own box against the grown box first, as the walk tests the leaves' boxes:
      // a leaf that meets the box mostly holds triangles that do not. A padding lane (NaN) fails.
      for (unsigned lanes = overlapping(triangle_boxes(pack.triangles), box); lanes != 0; lanes &= lanes - 1) {
        const int lane = std::countr_zero(lanes);
        // The pack holds the mesh's own floats, read here from the lines the walk just touched.
        if (pack.ids[lane] != kNoPrimitive && visit(pack.ids[lane], lane_triangle(pack.triangles, lane))) return true;
      }
    }
    return false;
  });
}

/// Deepest first, then by triangle index.
bool deeper(const MeshContact& x, const MeshContact& y) {
  return x.contact.depth > y.contact.depth || (x.contact.depth == y.contact.depth && x.triangle < y.triangle);
}

template <class Shape>
bool overlap_any(const Shape& a, const MeshBvh& b, ContactTolerancef tol) {
  return visit_candidates(a, b, 0.0f, tol, [&](std::uint32_t, const Trianglef& t) { return overlap(a, t, tol); });
}

template <class Shape>
MeshContact deepest(const Shape& a, const MeshBvh& b, float margin, ContactTolerancef tol) {
  MeshContact best;
  visit_candidates(a, b, margin, tol, [&](std::uint32_t id, const Trianglef& t) {
    const MeshContact c{id, contact(a, t, margin, tol)};
    if (c.contact.touching && (!best.contact.touching || deeper(c, best))) best = c;
    return false;
  });
  return best;
}

template <class Shape>
std::size_t all_into_vector(const Shape& a, const MeshBvh& b, std::vector<MeshContact>& out, float margin,
                            ContactTolerancef tol) {
  out.clear();
  visit_candidates(a, b, margin, tol, [&](std::uint32_t id, const Trianglef& t) {
    const MeshContact c{id, contact(a, t, margin, tol)};
    if (c.contact.touching) out.push_back(c);
    return false;
  });
  std::sort(out.begin(), out.end(), deeper);
  return out.size();
}

template <class Shape>
std::size_t all_into_span(const Shape& a, const MeshBvh& b, std::span<MeshContact> buffer, float margin,
                          ContactTolerancef tol, std::size_t* total) {
  std::size_t found = 0, kept = 0;
  visit_candidates(a, b, margin, tol, [&](std::uint32_t id, const Trianglef& t) {
    const MeshContact c{id, contact(a, t, margin, tol)};
    if (!c.contact.touching) return false;
    ++found;
    // Insertion into the sorted buffer; when it is full, c replaces the shallowest if deeper.
    std::size_t k;
    if (kept < buffer.size()) {
      k = kept++;
    } else {
      if (buffer.empty() || !deeper(c, buffer.back())) return false;
      k = buffer.size() - 1;
    }
    for (; k > 0 && deeper(c, buffer[k - 1]); --k) buffer[k] = buffer[k - 1];
    buffer[k] = c;
    return false;
  });
  if (total) *total = found;
  return kept;
}

}  // namespace

bool overlap(const Spheref& a, const MeshBvh& b, ContactTolerancef tol) { return overlap_any(a, b, tol); }
bool overlap(const Capsulef& a, const MeshBvh& b, ContactTolerancef tol) { return overlap_any(a, b, tol); }
bool overlap(const Obbf& a, const MeshBvh& b, ContactTolerancef tol) { return overlap_any(a, b, tol); }

MeshContact contact(const Spheref& a, const MeshBvh& b, float margin, ContactTolerancef tol) {
  return deepest(a, b, margin, tol);
}
MeshContact contact(const Capsulef& a, const MeshBvh& b, float margin, ContactTolerancef tol) {
  return deepest(a, b, margin, tol);
}
MeshContact contact(const Obbf& a, const MeshBvh& b, float margin, ContactTolerancef tol) {
  return deepest(a, b, margin, tol);
}

std::size_t contact_all(const Spheref& a, const MeshBvh& b, std::vector<MeshContact>& out, float margin,
                        ContactTolerancef tol) {
  return all_into_vector(a, b, out, margin, tol);
}
std::size_t contact_all(const Capsulef& a, const MeshBvh& b, std::vector<MeshContact>& out, float margin,
                        ContactTolerancef tol) {
  return all_into_vector(a, b, out, margin, tol);
}
std::size_t contact_all(const Obbf& a, const MeshBvh& b, std::vector<MeshContact>& out, float margin,
                        ContactTolerancef tol) {
  return all_into_vector(a, b, out, margin, tol);
}

std::size_t contact_all(const Spheref& a, const MeshBvh& b, std::span<MeshContact> buffer, float margin,
                        ContactTolerancef tol, std::size_t* total) {
  return all_into_span(a, b, buffer, margin, tol, total);
}
std::size_t contact_all(const Capsulef& a, const MeshBvh& b, std::span<MeshContact> buffer, float margin,
                        ContactTolerancef tol, std::size_t* total) {
  return all_into_span(a, b, buffer, margin, tol, total);
}
std::size_t contact_all(const Obbf& a, const MeshBvh& b, std::span<MeshContact> buffer, float margin,
                        ContactTolerancef tol, std::size_t* total) {
  return all_into_span(a, b, buffer, margin, tol, total);
}

}  // namespace hitscan
