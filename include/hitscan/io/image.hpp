#pragma once
/// Image: an 8-bit RGB raster held in memory, and writing it as a PNG or JPEG file.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hitscan/status.hpp"

namespace hitscan::io {

/// One pixel, 8 bits per channel, laid out exactly as a PNG's RGB samples.
struct Rgb8 {
  std::uint8_t r = 0, g = 0, b = 0;

  friend constexpr bool operator==(const Rgb8&, const Rgb8&) = default;
};

/// width x height pixels in rows, the top row first, each row left to right. The pixel count
/// always equals width * height. An image with no pixels is 0 x 0, however it was asked for,
/// and cannot be written.
class Image {
 public:
  Image() = default;
  /// A width x height image of `fill`; a zero side gives the empty image. Negative sizes are a
  /// contract violation.
  Image(int width, int height, Rgb8 fill = {});

  int width() const { return width_; }
  int height() const { return height_; }
  bool empty() const { return pixels_.empty(); }

  /// The pixel in column x of row y; x, y outside the image are a contract violation.
  Rgb8& at(int x, int y);
  const Rgb8& at(int x, int y) const;

  std::span<Rgb8> pixels() { return pixels_; }
  std::span<const Rgb8> pixels() const { return pixels_; }

 private:
  int width_ = 0;
  int height_ = 0;
  std::vector<Rgb8> pixels_;
};

/// Writes `image` to `path` as an 8-bit RGB PNG, replacing any file there. Fails with
/// invalid_argument for an empty image or one too large for the encoder, out_of_memory when the
/// encoder cannot allocate, and io_error when the file cannot be created or fully written (a
/// partly written regular file is removed then; a device, pipe or symbolic link is left alone).
/// Every message names the path.
Status write_png(const Image& image, const std::string& path);

/// The image file formats, as a file's extension names them.
enum class ImageFormat { png, jpeg };

/// The format `path`'s extension names, in any case: .png, or .jpg and .jpeg. Fails with
/// invalid_argument for any other extension or none, the message naming the path, the extension
/// and the ones supported.
Result<ImageFormat> image_format(const std::string& path);

/// Writes `image` to `path` as a baseline 8-bit RGB JPEG of `quality` (1 smallest .. 100 best;
/// values outside are clamped), replacing any file there. Fails as write_png does, with
/// invalid_argument also for a side beyond JPEG's 65535 pixels.
Status write_jpeg(const Image& image, const std::string& path, int quality);

/// The JPEG quality write_image uses: no visible blocks on rendered shading, a tenth of the PNG.
inline constexpr int kDefaultJpegQuality = 90;

/// Writes `image` in the format `path`'s extension names (image_format): write_png, or write_jpeg
/// at `jpeg_quality`. Fails as image_format does for an unsupported extension, writing nothing.
Status write_image(const Image& image, const std::string& path, int jpeg_quality = kDefaultJpegQuality);

}  // namespace hitscan::io
