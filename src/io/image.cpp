#include "hitscan/io/image.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

#include <stb_image_write.h>

namespace hitscan::io {

Image::Image(int width, int height, Rgb8 fill) {
  HITSCAN_ASSERT(width >= 0 && height >= 0);
  if (width <= 0 || height <= 0) return;
  width_ = width;
  height_ = height;
  pixels_.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), fill);
}

Rgb8& Image::at(int x, int y) {
  HITSCAN_ASSERT(x >= 0 && x < width_ && y >= 0 && y < height_);
  return pixels_[static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x)];
}

const Rgb8& Image::at(int x, int y) const {
  HITSCAN_ASSERT(x >= 0 && x < width_ && y >= 0 && y < height_);
  return pixels_[static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x)];
}

namespace {

static_assert(sizeof(Rgb8) == 3, "Rgb8 must be three packed bytes: it is handed to the encoder as is");

// stb_image_write sizes its buffers in int (one filter byte per row plus the samples), and its
// deflate output can slightly exceed its input, and its JPEG writer indexes the samples in int;
// staying well below INT_MAX keeps all three in range.
constexpr std::int64_t kMaxEncoderBytes = std::int64_t{1} << 30;

struct FileSink {
  std::FILE* file = nullptr;
  bool failed = false;
  int error_number = 0;
};

// stb's own file writer ignores fwrite errors (a full disk gives a truncated PNG and success), so
// the bytes go through this callback, which records a short write.
void write_to_file(void* context, void* data, int size) {
  auto* sink = static_cast<FileSink*>(context);
  if (size <= 0) return;
  if (std::fwrite(data, 1, static_cast<std::size_t>(size), sink->file) != static_cast<std::size_t>(size)) {
    sink->failed = true;
    sink->error_number = errno;
  }
}

Status io_failure(const std::string& what, const std::string& path, int error_number) {
  std::string message = what + " '" + path + "'";
  if (error_number != 0) message += ": " + std::generic_category().message(error_number);
  return {StatusCode::io_error, message};
}

// Checks what both encoders need: pixels, and a size that their int arithmetic holds.
Status check_encodable(const Image& image, const std::string& path, const char* format) {
  if (image.empty()) {
    return {StatusCode::invalid_argument, "cannot write an empty (0x0) image to '" + path + "'"};
  }
  const std::int64_t raw_bytes = (std::int64_t{3} * image.width() + 1) * image.height();
  if (raw_bytes > kMaxEncoderBytes) {
    return {StatusCode::invalid_argument, "image of " + std::to_string(image.width()) + "x" +
                                              std::to_string(image.height()) + " pixels is too large for the " +
                                              format + " encoder, writing '" + path + "'"};
  }
  return Status::success();
}

// Creates `path` and fills it with what `encode` (an stb *_to_func call given write_to_file and
// the sink) produces; `encode` returns 0 when the encoder fails, which `encoder_failure` reports.
template <typename Encode>
Status write_encoded(const std::string& path, const std::string& format, Encode encode, Status encoder_failure) {
  errno = 0;
  FileSink sink{std::fopen(path.c_str(), "wb")};
  if (sink.file == nullptr) return io_failure("cannot open " + format + " file for writing", path, errno);

  const int encoded = encode(sink);
  const bool closed = std::fclose(sink.file) == 0;
  const int close_errno = closed ? 0 : errno;

  if (encoded == 0 || sink.failed || !closed) {
    // Remove the truncated file, but only a regular file: the path may name a device or a pipe
    // (/dev/full, a FIFO) or a symbolic link, none of which this function created.
    std::error_code ignored;
    if (std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ignored))) {
      std::filesystem::remove(path, ignored);
    }
    if (encoded == 0) return encoder_failure;
    return io_failure("cannot write " + format + " file", path, sink.failed ? sink.error_number : close_errno);
  }
  return Status::success();
}

}  // namespace

Status write_png(const Image& image, const std::string& path) {
  if (Status status = check_encodable(image, path, "PNG"); !status.ok()) return status;
  return write_encoded(
      path, "PNG",
      [&](FileSink& sink) {
        return stbi_write_png_to_func(write_to_file, &sink, image.width(), image.height(), 3, image.pixels().data(),
                                      3 * image.width());
      },
      {StatusCode::out_of_memory, "PNG encoder ran out of memory writing '" + path + "'"});
}

Result<ImageFormat> image_format(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  std::string lower = extension;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == ".png") return ImageFormat::png;
  if (lower == ".jpg" || lower == ".jpeg") return ImageFormat::jpeg;
  const std::string reason =
      extension.empty() ? "no image extension" : "unsupported image extension '" + extension + "'";
  return Status{StatusCode::invalid_argument,
                "cannot write '" + path + "': " + reason + " (supported: .png, .jpg, .jpeg)"};
}

Status write_jpeg(const Image& image, const std::string& path, int quality) {
  // The JPEG frame header holds each side in 16 bits.
  constexpr int kMaxJpegSide = 65535;
  if (Status status = check_encodable(image, path, "JPEG"); !status.ok()) return status;
  if (image.width() > kMaxJpegSide || image.height() > kMaxJpegSide) {
    return {StatusCode::invalid_argument, "image of " + std::to_string(image.width()) + "x" +
                                              std::to_string(image.height()) +
                                              " pixels is beyond JPEG's 65535 pixels a side, writing '" + path + "'"};
  }
  const int clamped_quality = std::clamp(quality, 1, 100);
  return write_encoded(
      path, "JPEG",
      [&](FileSink& sink) {
        return stbi_write_jpg_to_func(write_to_file, &sink, image.width(), image.height(), 3, image.pixels().data(),
                                      clamped_quality);
      },
      // stb's JPEG writer fails only on arguments, which the checks above have excluded.
      {StatusCode::invalid_argument, "JPEG encoder rejected the image writing '" + path + "'"});
}

Status write_image(const Image& image, const std::string& path, int jpeg_quality) {
  const Result<ImageFormat> format = image_format(path);
  if (!format) return format.status();
  return format.value() == ImageFormat::png ? write_png(image, path) : write_jpeg(image, path, jpeg_quality);
}

}  // namespace hitscan::io
