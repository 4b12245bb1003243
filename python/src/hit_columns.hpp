#pragma once
// The arrays several queries return about what each of their queries hit (geometry and primitive
// ids, uvs, points and normals), made, filled and handed over in one place.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "arrays.hpp"
#include "hitscan/query/query_hit.hpp"

namespace hitscan::python {

/// Open3D's primitive id of a hit: the triangle of a mesh, 0 for an analytic shape (one primitive
/// each, so that `primitive_ids != INVALID_ID` still means a hit); INVALID_ID for a miss.
inline std::uint32_t primitive_id(const QueryHit& hit) {
  if (!hit) return kInvalidId;
  return hit.primitive == kNoPrimitive ? 0u : hit.primitive;
}

/// The columns a HitColumns holds (bits), each a numpy array of the queries' leading shape and
/// handed over under its name, in this order.
enum HitColumn : unsigned {
  kPoints = 1u << 0,            ///< "points" (..., 3): the hit point; the miss point on a miss
  kNormals = 1u << 1,           ///< "normals" (..., 3): the hit's normal (facing the query); 0 on a miss
  kGeometryIds = 1u << 2,       ///< "geometry_ids": the hit's user id, the geometry's index; INVALID_ID on a miss
  kPrimitiveIds = 1u << 3,      ///< "primitive_ids": primitive_id(hit)
  kPrimitiveUvs = 1u << 4,      ///< "primitive_uvs" (..., 2): the hit's u, v; 0 on a miss
  kPrimitiveNormals = 1u << 5,  ///< "primitive_normals" (..., 3): the primitive's face normal; 0 on a miss
};

/// Made with the GIL held; put() writes query i's entry of every column and may run on any
/// thread, each i once; into() adds the columns to a result dict.
class HitColumns {
 public:
  HitColumns(const std::vector<py::ssize_t>& shape, unsigned columns, Vec3f miss_point = {}) : columns_(columns),
                                                                                              miss_point_(miss_point) {
    if (columns & kPoints) points_ = make_array<float>(shape, {3}), point_ = points_.mutable_data();
    if (columns & kNormals) normals_ = make_array<float>(shape, {3}), normal_ = normals_.mutable_data();
    if (columns & kGeometryIds) geometry_ids_ = make_array<std::uint32_t>(shape), geometry_ = geometry_ids_.mutable_data();
    if (columns & kPrimitiveIds) {
      primitive_ids_ = make_array<std::uint32_t>(shape), primitive_ = primitive_ids_.mutable_data();
    }
    if (columns & kPrimitiveUvs) uvs_ = make_array<float>(shape, {2}), uv_ = uvs_.mutable_data();
    if (columns & kPrimitiveNormals) face_normals_ = make_array<float>(shape, {3}), face_normal_ = face_normals_.mutable_data();
  }

  void put(std::size_t i, const QueryHit& hit) {
    if (point_) write3(point_, i, hit ? hit.point : miss_point_);
    if (normal_) write3(normal_, i, hit ? hit.normal : Vec3f{});
    if (geometry_) geometry_[i] = hit ? static_cast<std::uint32_t>(hit.user_id) : kInvalidId;
    if (primitive_) primitive_[i] = primitive_id(hit);
    if (uv_) {
      uv_[2 * i] = hit ? hit.u : 0.0f;
      uv_[2 * i + 1] = hit ? hit.v : 0.0f;
    }
    if (face_normal_) write3(face_normal_, i, hit ? hit.face_normal : Vec3f{});
  }

  void into(py::dict& out) const {
    if (columns_ & kPoints) out["points"] = points_;
    if (columns_ & kNormals) out["normals"] = normals_;
    if (columns_ & kGeometryIds) out["geometry_ids"] = geometry_ids_;
    if (columns_ & kPrimitiveIds) out["primitive_ids"] = primitive_ids_;
    if (columns_ & kPrimitiveUvs) out["primitive_uvs"] = uvs_;
    if (columns_ & kPrimitiveNormals) out["primitive_normals"] = face_normals_;
  }

 private:
  unsigned columns_;
  Vec3f miss_point_;
  py::array_t<float> points_, normals_, uvs_, face_normals_;
  py::array_t<std::uint32_t> geometry_ids_, primitive_ids_;
  float* point_ = nullptr;
  float* normal_ = nullptr;
  std::uint32_t* geometry_ = nullptr;
  std::uint32_t* primitive_ = nullptr;
  float* uv_ = nullptr;
  float* face_normal_ = nullptr;
};

}  // namespace hitscan::python
