#pragma once
/// Depth occlusion: whether the real world, as reconstructed, hides virtual content at a pixel.
/// The real depth comes either from the reconstructed mesh, rendered by batch ray casting from the
/// camera (render_depth), or from a depth map the AR framework supplies (a float array, wrapped in
/// a DepthMapView). A virtual object is hidden at a pixel when its depth there lies behind the
/// real surface's by more than a bias.
///
/// Conventions (ARKit's, and those of ar/camera.hpp): the camera frame has +x to the right of the
/// image, +y up, and looks along -z. Pixel (i, j) is column i and row j from the top-left corner;
/// it covers [i, i + 1) x [j, j + 1), so its centre is (i + 0.5, j + 0.5), and a camera-frame point
/// (x, y, z) in front (z < 0) falls at u = cx + fx x / (-z), v = cy - fy y / (-z). Depth is the
/// distance along the viewing axis, -z (not the distance to the camera centre), in metres; +inf
/// means no surface.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hitscan/ar/camera.hpp"
#include "hitscan/executor.hpp"
#include "hitscan/math/transform.hpp"
#include "hitscan/query/scene.hpp"
#include "hitscan/status.hpp"

namespace hitscan {

/// A depth image owned by the library: depth[j * width + i] for pixel (i, j), in metres along the
/// viewing axis, +inf where there is no surface.
struct DepthMap {
  int width = 0;
  int height = 0;
  std::vector<float> depth;
};

/// Renders the scene's depth as seen by `camera` into `out` (resized to width x height): per pixel,
/// the nearest hit of the ray through the pixel's centre (Scene::raycast_coherent_distances, one packet
/// per 8 x 8 pixel tile, over `executor`, the default pool when null, with `options`: layer mask,
/// filter, faces, max_distance; the hit Scene::raycast gives for that ray), converted from
/// distance along the ray to depth along the viewing axis; +inf where the ray hits nothing. A ray
/// starting inside a solid (options.solid) gives depth 0. The camera is valid by construction
/// (PinholeCamera::make), so this fails only as the batch does.
Status render_depth(const Scene& scene, const PinholeCamera& camera, DepthMap& out, const QueryOptions& options = {},
                    Executor* executor = nullptr);

/// A caller's depth image, not owned: the value of pixel (i, j) is data[j * row_stride + i] times
/// meters_per_unit. As AR frameworks deliver it, a pixel with no measurement may hold NaN, 0 or a
/// negative value: all of these read as no surface (+inf), as does +inf itself.
class DepthMapView {
 public:
  /// Wraps `data` (`size` floats). Fails with invalid_argument for null data, a width or height
  /// below 1, a row_stride (in floats, not bytes) below width (negative strides included: flip
  /// the image's rows yourself), data too short for height rows of that stride, or a
  /// meters_per_unit that is not positive and finite (1 for metres, 0.001 for millimetres).
  static Result<DepthMapView> make(const float* data, std::size_t size, int width, int height,
                                   std::ptrdiff_t row_stride, float meters_per_unit = 1.0f);
  /// A view of a library depth map (valid while the map is unchanged). Fails like make for a map
  /// whose depth array is not width x height.
  static Result<DepthMapView> of(const DepthMap& map);

  int width() const { return width_; }
  int height() const { return height_; }
  /// Depth of pixel (i, j) in metres, +inf for no surface; (i, j) must lie in the image.
  float depth(int i, int j) const;

 private:
  DepthMapView(const float* data, int width, int height, std::ptrdiff_t stride, float scale)
      : data_(data), width_(width), height_(height), stride_(stride), scale_(scale) {}
  const float* data_;
  int width_, height_;
  std::ptrdiff_t stride_;
  float scale_;
};

/// Whether virtual content at `depth` (metres along the viewing axis) is hidden at pixel (i, j):
/// the real surface there is nearer than depth - bias. The bias (>= 0) keeps content resting on a
/// surface from flickering against the reconstruction's noise. A pixel outside the image, a depth
/// that is not finite (no content), or a pixel with no real surface is not hidden.
bool hidden(const DepthMapView& real, int i, int j, float depth, float bias = 0.0f);

/// A pixel covered by virtual content, and the content's depth there.
struct PixelDepth {
  int i = 0;
  int j = 0;
  float depth = 0;
};

/// hidden_out[k] = hidden(real, covered[k], bias) as 0 or 1, for only the pixels the content
/// covers. Fails with invalid_argument when the spans differ in size, or with out_of_range for a
/// pixel outside the image, before writing anything.
Status occlusion_mask(const DepthMapView& real, std::span<const PixelDepth> covered, std::span<std::uint8_t> hidden_out,
                      float bias = 0.0f);

/// The full map: mask[j * width + i] = hidden(real, i, j, virtual_depth.depth(i, j), bias) as 0 or
/// 1, rows split over `executor` (the default pool when null). Pixels the virtual content does
/// not cover hold no surface (+inf, NaN or <= 0) in virtual_depth and come out 0. Fails with
/// invalid_argument when the two images differ in size or the mask is not width x height.
Status occlusion_map(const DepthMapView& real, const DepthMapView& virtual_depth, std::span<std::uint8_t> mask,
                     float bias = 0.0f, Executor* executor = nullptr);

}  // namespace hitscan
