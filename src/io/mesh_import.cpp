#include "mesh_import.hpp"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/scene.h>

#include <cstdint>
#include <limits>
#include <utility>

#include "affine.hpp"
#include "mesh_load_errors.hpp"
#include "polygon_triangulation.hpp"

namespace hitscan::io::detail {
namespace {

// assimp's matrices are row-major and act on column vectors; the bottom row of a node transform
// is (0, 0, 0, 1).
Affine affine_from(const aiMatrix4x4& m) {
  Affine a;
  a.linear = Mat3d::from_columns({m.a1, m.b1, m.c1}, {m.a2, m.b2, m.c2}, {m.a3, m.b3, m.c3});
  a.offset = {m.a4, m.b4, m.c4};
  return a;
}

struct Placement {
  const aiMesh* mesh = nullptr;
  Affine transform;
  const aiNode* node = nullptr;  // none without node transforms
};

// Parts in the order load_mesh() describes: a depth-first, pre-order walk of the node graph,
// or the scene's own list. An explicit stack keeps a deep graph from exhausting the call stack.
Result<std::vector<Placement>> place_parts(const aiScene& scene, bool apply_node_transforms, const std::string& path) {
  std::vector<Placement> placements;
  if (!apply_node_transforms) {
    for (unsigned int i = 0; i < scene.mNumMeshes; ++i) placements.push_back({scene.mMeshes[i], Affine{}, nullptr});
    return placements;
  }
  if (scene.mRootNode == nullptr) return placements;
  std::vector<std::pair<const aiNode*, Affine>> stack;
  stack.emplace_back(scene.mRootNode, affine_from(scene.mRootNode->mTransformation));
  while (!stack.empty()) {
    const auto [node, transform] = stack.back();
    stack.pop_back();
    for (unsigned int i = 0; i < node->mNumMeshes; ++i) {
      const unsigned int index = node->mMeshes[i];
      if (index >= scene.mNumMeshes) {
        return fail(StatusCode::parse_error, path, "a scene node refers to mesh " + std::to_string(index) +
                                                       " but the file has " + std::to_string(scene.mNumMeshes));
      }
      placements.push_back({scene.mMeshes[index], transform, node});
    }
    // Pushed in reverse so that the first child is visited first.
    for (unsigned int i = node->mNumChildren; i-- > 0;) {
      const aiNode* child = node->mChildren[i];
      if (child != nullptr) stack.emplace_back(child, transform.then_inner(affine_from(child->mTransformation)));
    }
  }
  return placements;
}

// What the first pass over the parts found.
struct PartTotals {
  std::uint64_t vertices = 0;
  std::size_t triangles = 0;
  bool all_have_normals = true;
};

// Checks every face of every part (corners present, indices within the part) and counts, so
// that the second pass can allocate once and trust the data; the counts go into the report, part
// by part.
Result<PartTotals> check_parts(const std::vector<Placement>& placements, const std::string& path,
                               MeshLoadReport& report) {
  PartTotals totals;
  std::size_t face_number = 0;  // in the order of the result, for messages
  report.part_ranges.reserve(placements.size());
  for (const Placement& part : placements) {
    const aiMesh& mesh = *part.mesh;
    if ((mesh.mNumVertices > 0 && mesh.mVertices == nullptr) || (mesh.mNumFaces > 0 && mesh.mFaces == nullptr)) {
      return fail(StatusCode::parse_error, path, "assimp returned a mesh without its vertices or faces");
    }
    MeshPartRange& range = report.part_ranges.emplace_back();
    range.name = mesh.mName.C_Str();
    if (part.node != nullptr) range.node_name = part.node->mName.C_Str();
    range.first_vertex = static_cast<std::size_t>(totals.vertices);
    range.vertex_count = mesh.mNumVertices;
    range.first_triangle = totals.triangles;
    totals.vertices += mesh.mNumVertices;
    totals.all_have_normals = totals.all_have_normals && mesh.mNormals != nullptr;
    for (unsigned int f = 0; f < mesh.mNumFaces; ++f, ++face_number) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices == 0 || face.mIndices == nullptr) {
        return fail(StatusCode::parse_error, path,
                    "face " + std::to_string(face_number) + " has no corners (is the file truncated?)");
      }
      for (unsigned int c = 0; c < face.mNumIndices; ++c) {
        if (face.mIndices[c] >= mesh.mNumVertices) {
          return fail(StatusCode::parse_error, path,
                      "face " + std::to_string(face_number) + " refers to vertex " +
                          std::to_string(face.mIndices[c]) + " but its part has " +
                          std::to_string(mesh.mNumVertices) + " vertices");
        }
      }
      if (face.mNumIndices == 1) {
        ++range.points;
      } else if (face.mNumIndices == 2) {
        ++range.lines;
      } else {
        ++range.polygons;
        range.triangle_count += face.mNumIndices - 2;
      }
    }
    totals.triangles += range.triangle_count;
    report.points += range.points;
    report.lines += range.lines;
    report.polygons += range.polygons;
  }
  return totals;
}

// Reused from face to face and part to part, so that faces allocate only while they grow.
struct FaceScratch {
  std::vector<Vec3d> corners;
  std::vector<PolygonTriangle> triangles;
  PolygonScratch polygon;
};

// Appends one checked part: its vertices (transformed unless the transform is the identity, so
// that untransformed coordinates stay bit for bit the file's) and the triangles of its polygons.
// A face is triangulated in the part's own coordinates, so every placement of a part gets the
// same triangles.
void append_part(const Placement& part, bool with_normals, std::vector<Vec3f>& positions, std::vector<Vec3f>& normals,
                 std::vector<TriangleMesh::Indices>& triangles, FaceScratch& scratch) {
  const aiMesh& mesh = *part.mesh;
  const auto base = static_cast<std::uint32_t>(positions.size());
  const bool identity = part.transform.is_identity();
  for (unsigned int v = 0; v < mesh.mNumVertices; ++v) {
    const aiVector3D& p = mesh.mVertices[v];
    positions.push_back(identity ? Vec3f{p.x, p.y, p.z} : vec3_cast<float>(part.transform.apply({p.x, p.y, p.z})));
    if (with_normals) {
      const aiVector3D& n = mesh.mNormals[v];
      normals.push_back(identity ? Vec3f{n.x, n.y, n.z}
                                 : vec3_cast<float>(part.transform.apply_to_normal({n.x, n.y, n.z})));
    }
  }
  const bool mirrored = part.transform.linear.determinant() < 0;
  for (unsigned int f = 0; f < mesh.mNumFaces; ++f) {
    const aiFace& face = mesh.mFaces[f];
    if (face.mNumIndices < 3) continue;
    scratch.corners.clear();
    for (unsigned int c = 0; c < face.mNumIndices; ++c) {
      const aiVector3D& p = mesh.mVertices[face.mIndices[c]];
      scratch.corners.push_back({p.x, p.y, p.z});
    }
    scratch.triangles.resize(face.mNumIndices - 2);
    triangulate_polygon(scratch.corners, scratch.triangles, scratch.polygon);
    for (const PolygonTriangle& corner : scratch.triangles) {
      const std::uint32_t c0 = base + face.mIndices[corner[0]];
      const std::uint32_t ci = base + face.mIndices[corner[1]];
      const std::uint32_t cj = base + face.mIndices[corner[2]];
      triangles.push_back(mirrored ? TriangleMesh::Indices{c0, cj, ci} : TriangleMesh::Indices{c0, ci, cj});
    }
  }
}

}  // namespace

Result<Imported> import_file(const std::string& path, const MeshLoadOptions& options,
                             const std::optional<OffCounts>& off_counts, MeshLoadReport& report,
                             const std::function<void()>& on_read) {
  Assimp::Importer importer;
  // Formats with a skeleton but no mesh (BVH, some MD5) would otherwise get a made-up mesh of bones.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  const aiScene* scene = importer.ReadFile(path, 0u);
  on_read();
  if (scene == nullptr) {
    const std::string reason = importer.GetErrorString();
    return fail(StatusCode::parse_error, path,
                "cannot read the file: " + (reason.empty() ? std::string("unknown assimp failure") : reason));
  }
  for (unsigned int i = 0; i < scene->mNumMeshes; ++i) {
    if (scene->mMeshes == nullptr || scene->mMeshes[i] == nullptr) {
      return fail(StatusCode::parse_error, path, "assimp returned a scene with a missing mesh");
    }
  }
  if (Status status = check_off_face_count(*scene, path, off_counts); !status.ok()) return status;

  const Result<std::vector<Placement>> placed = place_parts(*scene, options.apply_node_transforms, path);
  if (!placed.ok()) return placed.status();
  const std::vector<Placement>& placements = placed.value();
  report.parts = placements.size();
  const Result<PartTotals> checked = check_parts(placements, path, report);
  if (!checked.ok()) return checked.status();
  const PartTotals& totals = checked.value();
  if (totals.vertices > std::numeric_limits<std::uint32_t>::max()) {
    return fail(StatusCode::invalid_argument, path,
                std::to_string(totals.vertices) + " vertices are more than 32-bit indices can address");
  }
  if (totals.triangles == 0) {
    return fail(StatusCode::degenerate, path,
                "the file holds no triangles (points: " + std::to_string(report.points) +
                    ", line segments: " + std::to_string(report.lines) +
                    ", parts: " + std::to_string(placements.size()) + ")");
  }

  const bool with_normals = options.read_normals && totals.all_have_normals;
  Imported out;
  out.positions.reserve(static_cast<std::size_t>(totals.vertices));
  if (with_normals) out.normals.reserve(static_cast<std::size_t>(totals.vertices));
  out.triangles.reserve(totals.triangles);
  FaceScratch scratch;
  for (const Placement& part : placements) {
    append_part(part, with_normals, out.positions, out.normals, out.triangles, scratch);
  }
  return out;
}

}  // namespace hitscan::io::detail
