#pragma once
/// Generalised winding numbers (Jacobson, Kavan and Sorkine-Hornung 2013): for a point p and a
/// triangle mesh, the sum over triangles of the signed solid angle each subtends at p, divided by
/// 4 pi. For a closed, consistently wound (counter-clockwise seen from outside) mesh it is 1
/// inside and 0 outside; for a mesh with holes, gaps or flipped patches it varies smoothly and
/// stays near 1 deep inside and near 0 far outside, so thresholding it at 0.5 gives inside /
/// outside where ray parity would flip at every hole.
///
/// WindingNumber evaluates it fast with the hierarchical approximation of Barill, Dickson,
/// Schmidt, Levin and Jacobson 2018 ("Fast winding numbers for soups and clouds"): every child
/// slot of the mesh's own 8-wide BVH carries the Taylor expansion, to second order, of its
/// triangles' solid angle about their area-weighted centroid (the dipole term, area-weighted normal
/// sum, and its first- and second-order corrections); a slot far enough from p (its bounding
/// radius below distance / accuracy) contributes its expansion, and nearer slots are opened down
/// to exact per-triangle solid angles (Van Oosterom and Strackee's formula).
/// Degenerate (zero-area) triangles contribute nothing either way.
///
/// On the surface the solid angle of a triangle jumps by 4 pi. A triangle whose plane holds p,
/// to within the rounding of the triple product that decides the side (p on the triangle, its
/// edges or corners, or anywhere else in that plane), contributes 0, the mean of its two sides.
/// So the exact sum gives 1/2 on a face of a closed mesh, on an edge or corner the fraction of
/// the sphere around p that the solid fills (1/4 and 1/8 on a box), and is finite everywhere.
/// The fast evaluation opens the triangles under p and agrees within its accuracy, but it takes
/// float points, which on a tilted face mostly lie a rounding to one side: they get that side's
/// value (near 0 or 1), as they should.

#include <cstddef>
#include <memory>
#include <span>

#include "hitscan/executor.hpp"
#include "hitscan/math/vec3.hpp"
#include "hitscan/mesh/mesh_bvh.hpp"
#include "hitscan/status.hpp"

namespace hitscan {

/// Exact winding number of `mesh` at p by summing every triangle's solid angle (in double):
/// the reference, linear in the triangle count. NaN for a non-finite p; 0 for an empty mesh.
double winding_number_exact(const TriangleMesh& mesh, Vec3d p);

class WindingNumber {
 public:
  /// Prepares the expansions over `bvh`'s tree (shared: it is kept alive with this object).
  /// accuracy is Barill et al.'s beta: a slot is approximated when its radius is below
  /// distance / accuracy. The error falls about 20-fold per doubling: on CGAL's bunny and
  /// elephant, at points around them (half within 2% of their size from a vertex), 2 errs by at
  /// most 3e-3 (5e-4 on average), 3 by 5e-4, 4 by 1.5e-4, 8 by 7e-6 and 16 by 3e-7, each
  /// doubling costing three to four times the time. Fails with invalid_argument for a null tree,
  /// or accuracy not finite or below 1.
  ///
  /// The expansions are computed here from the tree's current triangles: after the mesh moves
  /// and the tree is refit, make a new WindingNumber.
  static Result<WindingNumber> make(std::shared_ptr<const MeshBvh> bvh, double accuracy = 2.0);

  /// The winding number at p. NaN for a non-finite p; 0 for an empty mesh.
  double operator()(Vec3f p) const;

  /// One value per point into out (same size as points), over `executor` (the default pool
  /// when null); identical to calling operator() on each. invalid_argument when the sizes differ.
  Status evaluate_batch(std::span<const Vec3f> points, std::span<double> out, Executor* executor = nullptr) const;

  const MeshBvh& bvh() const { return *bvh_; }
  double accuracy() const { return accuracy_; }

 private:
  struct Expansions;
  WindingNumber() = default;
  std::shared_ptr<const MeshBvh> bvh_;
  std::shared_ptr<const Expansions> expansions_;
  double accuracy_ = 2.0;
};

}  // namespace hitscan
