#pragma once
/// The virtual content of `hitscan drape`'s picture — the draped route as a line, arrows and signs
/// as flat triangles — rasterised from the AR camera into a layer of its own, with a depth per
/// pixel, so that each pixel can be tested against the real depth (ar/occlusion.hpp) and then
/// laid over the shaded picture, dimmed where the real world hides it.
///
/// Occlusion of a line. A line drawn a few pixels wide has no depth of its own beside its centre:
/// the pixels at its sides look past it at the floor in front of or behind it, which at a grazing
/// angle lies metres away. So every pixel of a line is tested at the pixel under the line's centre
/// (its probe), at the line's depth there less kLineDepthSlack of it: the centre pixel's ray misses
/// the exact centre by up to half a pixel, which on a floor seen at a grazing angle moves the real
/// depth by about 0.0006 d² (m, for a camera 1.6 m up at 550 pixels per radian) — 2% at 40 m.
/// Triangles are surfaces and are tested at their own pixels, at their own depth.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hitscan/ar/camera.hpp"
#include "hitscan/ar/occlusion.hpp"
#include "hitscan/io/image.hpp"

namespace hitscan::tools {

/// What covers a pixel of the layer.
enum class OverlayKind : std::uint8_t { none, route, arrow, sign };

/// See the file comment.
inline constexpr float kLineDepthSlack = 0.03f;
/// Content nearer to the camera than this (metres along the viewing axis) is not drawn.
inline constexpr float kOverlayNearDepth = 0.05f;

struct OverlayPixel {
  /// Depth of the nearest content at the pixel (+inf where none), which wins among the content;
  /// but an arrow covers the route's line, on which it lies, unless it is over 10% + 0.1 m farther.
  float depth = kInfinity<float>;
  /// The depth and the pixel at which the content's occlusion is decided (see the file comment).
  float occlusion_depth = kInfinity<float>;
  int probe_i = 0;
  int probe_j = 0;
  io::Rgb8 colour{};
  OverlayKind kind = OverlayKind::none;
};

/// How wide a line is drawn: half_width metres to either side, seen from the camera, so that it
/// narrows with distance as a stripe on the floor does, but never below min_radius pixels (to
/// stay visible) nor above max_radius (to stay a line near the camera).
struct LineWidth {
  float half_width = 0;
  float min_radius = 1;
  float max_radius = 1;

  /// Pixels to either side at depth d, for a focal length of fx pixels: half_width fx / d clamped
  /// to [min_radius, max_radius], and at least 0.5.
  float radius(float d, float fx) const;
};

class Overlay {
 public:
  /// An empty layer of the camera's image size.
  explicit Overlay(const hitscan::PinholeCamera& camera);

  int width() const { return width_; }
  int height() const { return height_; }
  const std::vector<OverlayPixel>& pixels() const { return pixels_; }
  const OverlayPixel& at(int i, int j) const { return pixels_[static_cast<std::size_t>(j) * width_ + i]; }

  /// The segment from a to b (world points), `width.radius(d)` pixels to either side of its
  /// projection where its depth is d, clipped to kOverlayNearDepth and to the image; depth is
  /// interpolated perspective-correctly along it. Non-finite points draw nothing.
  void draw_line(Vec3f a, Vec3f b, const LineWidth& width, io::Rgb8 colour, OverlayKind kind);
  /// The filled triangle a, b, c (either winding), at the pixels whose centres it covers. A
  /// triangle with a corner nearer than kOverlayNearDepth, or non-finite, draws nothing.
  void draw_triangle(Vec3f a, Vec3f b, Vec3f c, io::Rgb8 colour, OverlayKind kind);

  /// Indices (j * width + i) of the covered pixels, in row order.
  std::vector<std::size_t> covered() const;
  /// For each covered pixel, its probe and occlusion depth, as occlusion_mask takes them.
  std::vector<PixelDepth> occlusion_probes(std::span<const std::size_t> covered) const;

 private:
  void write(int i, int j, float depth, float occlusion_depth, int probe_i, int probe_j, io::Rgb8 colour,
             OverlayKind kind);

  hitscan::PinholeCamera camera_;
  int width_;
  int height_;
  std::vector<OverlayPixel> pixels_;
};

/// Lays the covered pixels over `image` (the camera's size): colour * alpha + image * (1 - alpha),
/// alpha = hidden_alpha where hidden[k] is set for covered[k], visible_alpha elsewhere.
void composite(io::Image& image, const Overlay& overlay, std::span<const std::size_t> covered,
               std::span<const std::uint8_t> hidden, float visible_alpha, float hidden_alpha);

/// colour * alpha + under * (1 - alpha), per channel, rounded.
io::Rgb8 blend(io::Rgb8 under, io::Rgb8 colour, float alpha);

}  // namespace hitscan::tools
