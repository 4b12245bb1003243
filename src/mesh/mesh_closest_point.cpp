// Closest point of a mesh to a point: a nearest-first walk of the 8-wide tree, each node's
// children ordered by the distance from the point to their boxes, subtrees farther than the best
// found so far skipped.

#include <bit>
#include <cmath>

#include "hitscan/mesh/mesh_bvh.hpp"
#include "mesh_bvh_data.hpp"

namespace hitscan {
namespace {

// Squared distances from q to W boxes (a node's 8, or a leaf pack's triangles' 4; 0 inside);
// empty slots give +inf or NaN, and so do padding triangles, which compare false below.
template <class F>
F box_distances_squared(const AabbPack<F>& b, Vec3f q) {
  const F zero(0.0f);
  const F dx = max(max(b.min_x - F(q.x), F(q.x) - b.max_x), zero);
  const F dy = max(max(b.min_y - F(q.y), F(q.y) - b.max_y), zero);
  const F dz = max(max(b.min_z - F(q.z), F(q.z) - b.max_z), zero);
  return dx * dx + dy * dy + dz * dz;
}

// The walk, in the mesh's frame with `world` taking points to where distances are measured
// (identity for MeshBvh::closest_point). `shrink` bounds how much the map can shorten a distance
// (its smallest scale), so that local box distances times it never exceed world ones.
MeshClosestPoint search(const MeshBvh::Data& d, Vec3f world_p, Vec3f local_p, float max_distance,
                        const Transformf* world, float shrink) {
  MeshClosestPoint best;
  if (d.nodes.empty() || !is_finite(world_p) || !is_finite(local_p) || !(max_distance >= 0.0f)) return best;
  float best_sq = max_distance * max_distance;  // inclusive: ties with the limit are found
  bool any = false;
  struct Entry {
    std::uint32_t child, count;
    float d2;
  };
  Entry stack[bvh::kTraversalStackSize];
  int top = 0;
  stack[top++] = {0, 0, 0.0f};
  const float shrink_sq = shrink * shrink;
  while (top > 0) {
    const Entry e = stack[--top];
    if (e.d2 * shrink_sq > best_sq) continue;
    if (e.count != 0) {
      for (std::uint32_t p = e.child; p < e.child + e.count; ++p) {
        const LeafPack& leaf = d.packs[p];
        // Each triangle's box first, as the walk tests the nodes' boxes: a triangle whose box lies
        // farther than the best found cannot be nearer.
        alignas(16) float lane_d2[4];
        box_distances_squared(triangle_boxes(leaf.triangles), local_p).store(lane_d2);
        for (int lane = 0; lane < 4; ++lane) {
          const std::uint32_t id = leaf.ids[lane];
          if (id == kNoPrimitive || !(lane_d2[lane] * shrink_sq <= best_sq)) continue;
          Trianglef tri = lane_triangle(leaf.triangles, lane);
          if (world) tri = {world->apply_point(tri.v0), world->apply_point(tri.v1), world->apply_point(tri.v2)};
          const TriangleClosestPoint<float> c = closest_point_on_triangle(tri, world_p);
          const Vec3f delta = c.point - world_p;
          const float d2 = dot(delta, delta);
          if (d2 < best_sq || (d2 == best_sq && (!any || id < best.triangle))) {
            any = true;
            best_sq = d2;
            best.triangle = id;
            best.point = c.point;
            best.u = c.u;
            best.v = c.v;
            best.feature = c.feature;
            best.normal = normalize(cross(tri.v1 - tri.v0, tri.v2 - tri.v0));
          }
        }
      }
      continue;
    }
    const bvh::WideNode& node = d.nodes[e.child];
    alignas(32) float d2[bvh::kWideWidth];
    box_distances_squared(node.bounds, local_p).store(d2);
    // Push the children farthest first, so that the nearest is popped first.
    int order[bvh::kWideWidth], n = 0;
    for (int i = 0; i < bvh::kWideWidth; ++i) {
      if (node.child[i] != bvh::kEmptySlot && d2[i] * shrink_sq <= best_sq) order[n++] = i;
    }
    for (int k = 1; k < n; ++k) {  // insertion sort, farthest first: at most 8 children
      const int child = order[k];
      int j = k;
      for (; j > 0 && d2[order[j - 1]] < d2[child]; --j) order[j] = order[j - 1];
      order[j] = child;
    }
    for (int k = 0; k < n; ++k) stack[top++] = {node.child[order[k]], node.count[order[k]], d2[order[k]]};
  }
  if (!any) return best;
  best.found = true;
  best.distance = std::sqrt(best_sq);
  return best;
}

// The smallest factor by which the transform can shorten a vector.
float smallest_scale(const Transformf& t) { return min_component(abs(t.scale)); }

}  // namespace

MeshClosestPoint MeshBvh::closest_point(Vec3f p, float max_distance) const {
  if (!data_) return {};
  return search(*data_, p, p, max_distance, nullptr, 1.0f);
}

MeshClosestPoint MeshInstance::closest_point(Vec3f p, float max_distance) const {
  if (!bvh || !bvh->data() || !transform.is_invertible()) return {};
  return search(*bvh->data(), p, transform.inverse_point(p), max_distance, &transform, smallest_scale(transform));
}

}  // namespace hitscan
