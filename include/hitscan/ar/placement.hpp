#pragma once
/// Surface placement: where a virtual object goes when the user taps the screen. One ray
/// through the tapped pixel is at the mercy of a single noisy triangle, a crack or a thin pole;
/// several rays over a small pixel neighbourhood, with the outliers dropped, give a position and
/// normal that hold still, and a confidence that says how much to trust them.
///
/// Method. The rays' hits are first filtered by distance from the camera (median and median
/// absolute deviation, a robust spread), then by normal (angle from the component-wise median
/// normal of the survivors). The inliers' normals are averaged into the surface normal; the
/// position is where the centre ray meets the plane through the inliers' centroid with that
/// normal, so that it lies under the tapped pixel even when the centre ray itself was an outlier.

#include <cstdint>

#include "hitscan/ar/camera.hpp"
#include "hitscan/math/transform.hpp"
#include "hitscan/query/scene.hpp"

namespace hitscan {

enum class PlacementPattern : std::uint8_t {
  /// grid_size x grid_size rays spread evenly over the square [-pixel_radius, pixel_radius]².
  grid,
  /// The centre ray and ring_rays rays evenly spaced on the circle of pixel_radius.
  ring,
};

inline constexpr int kMaxPlacementGridSize = 64;
inline constexpr int kMaxPlacementRingRays = 4096;

struct PlacementSettings {
  /// Half the neighbourhood's width in pixels. 0 casts a single ray, whatever the pattern.
  float pixel_radius = 6;
  PlacementPattern pattern = PlacementPattern::grid;
  /// grid: rays per side, 1 to kMaxPlacementGridSize (1 is the centre ray alone).
  int grid_size = 3;
  /// ring: rays on the circle, 0 to kMaxPlacementRingRays.
  int ring_rays = 8;
  /// A hit is a distance outlier when |distance - median| exceeds the larger of
  /// outlier_mads x 1.4826 x MAD (1.4826 MAD estimates a normal spread's sigma) and
  /// distance_tolerance x median: the floor keeps a clean flat neighbourhood, whose MAD is near
  /// zero, from rejecting its own perspective spread.
  float outlier_mads = 3;
  float distance_tolerance = 0.02f;
  /// A hit is a normal outlier when its normal is more than this many radians from the median
  /// normal.
  float max_normal_deviation = 0.35f;  // 20 degrees
  /// Fewer inliers than this and nothing is placed.
  int min_inliers = 3;
  /// Options of every ray.
  QueryOptions options{};
};

/// Where the object goes. On a miss (fewer than min_inliers inliers) found is false, position and
/// normal are zero and confidence is 0; inliers and rays still count what happened.
struct Placement {
  bool found = false;
  Vec3f position{};
  /// Unit surface normal, on the side facing the camera.
  Vec3f normal{};
  /// In [0, 1]: the fraction of rays that are inliers, times the length of the mean of their
  /// unit normals (1 when they all agree, smaller as they scatter).
  float confidence = 0;
  int inliers = 0;
  int rays = 0;

  explicit operator bool() const { return found; }
};

/// Places at image point `pixel_u, pixel_v` (see camera.hpp for image coordinates). Casts the
/// pattern's rays one by one on the calling thread (a handful of rays is not worth a batch). A
/// non-finite pixel or settings out of their domain (a negative or NaN radius, grid_size or
/// ring_rays out of range, negative or NaN tolerances) find nothing, with rays = 0.
Placement place(const Scene& scene, const PinholeCamera& camera, float pixel_u, float pixel_v,
                const PlacementSettings& settings = {});

/// The pose of an object placed at `placement`: its local +y along the normal, its local +z (the
/// front, as in glTF) facing the camera — the direction to the camera projected onto the surface
/// plane — and +x = y x z; scale 1, translation the placement's position. When the camera is
/// straight above the point along the normal (that direction has no length in the plane), the
/// front faces the bottom of the camera's image instead, towards the user holding the device.
/// A placement that was not found gives the identity.
Transformf object_pose(const Placement& placement, const PinholeCamera& camera);

}  // namespace hitscan
