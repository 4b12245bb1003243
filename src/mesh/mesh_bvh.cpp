#include "hitscan/mesh/mesh_bvh.hpp"

#include <array>
#include <bit>

#include "hitscan/bvh/traverse.hpp"
#include "hitscan/geometry/ray_triangle.hpp"

namespace hitscan {

using TrianglePack4 = TrianglePack<simd::Float4>;

struct MeshBvh::Data {
  std::vector<bvh::WideNode> nodes;
  /// Leaf triangles, 4 to a pack, in leaf order; padding lanes are degenerate (never hit).
  std::vector<TrianglePack4> packs;
  /// The mesh's triangle index of every pack lane (kNoTriangle for padding).
  std::vector<std::array<std::uint32_t, 4>> ids;
};

namespace {

TrianglePack4 make_pack(const TriangleMesh& mesh, const std::array<std::uint32_t, 4>& ids) {
  float lanes[9][4] = {};
  for (int lane = 0; lane < 4; ++lane) {
    if (ids[lane] == kNoTriangle) continue;
    const Trianglef t = mesh.triangle(ids[lane]);
    const Vec3f corners[3] = {t.v0, t.v1, t.v2};
    for (int c = 0; c < 3; ++c) {
      for (int a = 0; a < 3; ++a) lanes[3 * c + a][lane] = corners[c][a];
    }
  }
  using F = simd::Float4;
  return {F::load(lanes[0]), F::load(lanes[1]), F::load(lanes[2]), F::load(lanes[3]), F::load(lanes[4]),
          F::load(lanes[5]), F::load(lanes[6]), F::load(lanes[7]), F::load(lanes[8])};
}

// Lanes whose facing the query accepts.
int accepted_faces(const PackHit<simd::Float4>& h, FaceMode faces) {
  const int back = bits(h.back_face);
  switch (faces) {
    case FaceMode::front_only: return ~back & 0xF;
    case FaceMode::back_only: return back;
    case FaceMode::both: break;
  }
  return 0xF;
}

}  // namespace

Result<MeshBvh> MeshBvh::build(std::shared_ptr<const TriangleMesh> mesh, const bvh::BuildSettings& settings) {
  if (!mesh) return Status{StatusCode::invalid_argument, "MeshBvh::build: the mesh is null"};
  if (mesh->triangle_count() >= kNoTriangle) {
    return Status{StatusCode::invalid_argument, "MeshBvh::build: more triangles than 32-bit indices can name"};
  }
  std::vector<Aabbf> boxes(mesh->triangle_count());
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    if (!mesh->is_usable(i)) continue;  // stays the empty box: left out of the tree
    const Trianglef t = mesh->triangle(i);
    boxes[i] = Aabbf::from_point(t.v0);
    boxes[i].grow(t.v1);
    boxes[i].grow(t.v2);
  }
  const bvh::BinaryBvh binary = bvh::build_binned_sah(boxes, settings);
  auto data = std::make_shared<Data>();
  const bvh::MakeLeaf make_leaf = [&](std::uint32_t first, std::uint32_t count) {
    const auto first_pack = static_cast<std::uint32_t>(data->packs.size());
    for (std::uint32_t k = 0; k < count; k += 4) {
      std::array<std::uint32_t, 4> ids;
      for (std::uint32_t lane = 0; lane < 4; ++lane) {
        ids[lane] = k + lane < count ? binary.primitive_order[first + k + lane] : kNoTriangle;
      }
      data->packs.push_back(make_pack(*mesh, ids));
      data->ids.push_back(ids);
    }
    return std::pair{first_pack, static_cast<std::uint32_t>(data->packs.size()) - first_pack};
  };
  data->nodes = bvh::collapse_to_wide(binary, make_leaf);
  MeshBvh result;
  result.mesh_ = std::move(mesh);
  result.data_ = std::move(data);
  return result;
}

MeshHit MeshBvh::intersect(const Rayf& ray, FaceMode faces) const {
  MeshHit result;
  if (!data_ || !is_valid(ray)) return result;
  WatertightRay<float> prepared = WatertightRay<float>::from_ray(ray);
  float tmax = ray.tmax;
  std::uint32_t best_triangle = kNoTriangle;
  float best_u = 0, best_v = 0;
  bool best_back = false;
  const Data& d = *data_;
  bvh::traverse<true>(d.nodes, ray, tmax, [&](std::uint32_t first, std::uint32_t count, float& t_limit) {
    for (std::uint32_t p = first; p < first + count; ++p) {
      prepared.tmax = t_limit;
      const PackHit<simd::Float4> h = ray_vs_triangles(d.packs[p], prepared, ray.dir);
      int lanes = bits(h.hit) & accepted_faces(h, faces);
      for (; lanes != 0; lanes &= lanes - 1) {
        const int lane = std::countr_zero(static_cast<unsigned>(lanes));
        const float t = h.t[lane];
        if (t < t_limit || (t == t_limit && best_triangle == kNoTriangle)) {
          t_limit = t;
          best_triangle = d.ids[p][lane];
          best_u = h.u[lane];
          best_v = h.v[lane];
          best_back = ((bits(h.back_face) >> lane) & 1) != 0;
        }
      }
    }
    return false;
  });
  if (best_triangle == kNoTriangle) return result;

  result.hit = true;
  result.t = tmax;
  result.triangle = best_triangle;
  result.u = best_u;
  result.v = best_v;
  result.back_face = best_back;
  result.point = ray.at(tmax);
  const Trianglef tri = mesh_->triangle(best_triangle);
  result.normal = normalize(cross(tri.v1 - tri.v0, tri.v2 - tri.v0));
  result.shading_normal = result.normal;
  if (!mesh_->normals().empty()) {
    const auto& idx = mesh_->triangles()[best_triangle];
    const auto n = mesh_->normals();
    const Vec3f s = normalize(n[idx[0]] * (1.0f - best_u - best_v) + n[idx[1]] * best_u + n[idx[2]] * best_v);
    if (s != Vec3f{}) result.shading_normal = s;
  }
  return result;
}

bool MeshBvh::occluded(const Rayf& ray, FaceMode faces) const {
  if (!data_ || !is_valid(ray)) return false;
  WatertightRay<float> prepared = WatertightRay<float>::from_ray(ray);
  float tmax = ray.tmax;
  bool found = false;
  const Data& d = *data_;
  bvh::traverse<false>(d.nodes, ray, tmax, [&](std::uint32_t first, std::uint32_t count, float&) {
    for (std::uint32_t p = first; p < first + count; ++p) {
      const PackHit<simd::Float4> h = ray_vs_triangles(d.packs[p], prepared, ray.dir);
      if ((bits(h.hit) & accepted_faces(h, faces)) != 0) return found = true;
    }
    return false;
  });
  return found;
}

std::size_t MeshBvh::memory_bytes() const {
  if (!data_) return 0;
  return data_->nodes.size() * sizeof(bvh::WideNode) + data_->packs.size() * sizeof(TrianglePack4) +
         data_->ids.size() * sizeof(data_->ids[0]);
}

std::size_t MeshBvh::node_count() const { return data_ ? data_->nodes.size() : 0; }

}  // namespace hitscan
