#include "hitscan/io/image.hpp"
#include "support/scratch_directory.hpp"

#include <gtest/gtest.h>
#include <stb_image.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace hitscan::io {
namespace {

namespace fs = std::filesystem;

using test::ScratchDirectory;

// Every pixel different, and every channel of a pixel different, so a swapped axis, channel
// order or row order cannot go unnoticed.
Image distinct_pixel_image(int width, int height) {
  Image image(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      image.at(x, y) = {static_cast<std::uint8_t>(40 * x + 1), static_cast<std::uint8_t>(50 * y + 2),
                        static_cast<std::uint8_t>(255 - 7 * (x + width * y))};
    }
  }
  return image;
}

TEST(Image, NewImageHasTheRequestedSizeAndFill) {
  const Image image(4, 3, {9, 8, 7});
  EXPECT_EQ(image.width(), 4);
  EXPECT_EQ(image.height(), 3);
  ASSERT_EQ(image.pixels().size(), 12u);
  for (const Rgb8& pixel : image.pixels()) EXPECT_EQ(pixel, (Rgb8{9, 8, 7}));
}

TEST(Image, PixelsAreStoredRowByRowFromTheTop) {
  Image image(3, 2);
  image.at(2, 0) = {1, 2, 3};
  image.at(0, 1) = {4, 5, 6};
  EXPECT_EQ(image.pixels()[2], (Rgb8{1, 2, 3}));
  EXPECT_EQ(image.pixels()[3], (Rgb8{4, 5, 6}));
}

TEST(WritePng, ReadBackGivesTheSamePixels) {
  const ScratchDirectory directory;
  const std::string path = directory.file("small.png");
  const Image image = distinct_pixel_image(5, 3);

  const Status status = write_png(image, path);
  ASSERT_TRUE(status.ok()) << status.message();

  int width = 0, height = 0, channels = 0;
  stbi_uc* loaded = stbi_load(path.c_str(), &width, &height, &channels, 3);
  ASSERT_NE(loaded, nullptr) << stbi_failure_reason();
  EXPECT_EQ(width, 5);
  EXPECT_EQ(height, 3);
  EXPECT_EQ(channels, 3);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const stbi_uc* sample = loaded + 3 * (y * width + x);
      EXPECT_EQ((Rgb8{sample[0], sample[1], sample[2]}), image.at(x, y)) << "pixel " << x << ", " << y;
    }
  }
  stbi_image_free(loaded);
}

TEST(WriteImage, ExtensionChoosesTheFormatInAnyCase) {
  const ScratchDirectory directory;
  // An even grey: JPEG's blocks and chroma halving reproduce it within a level or two.
  const Image grey(16, 16, Rgb8{120, 120, 120});
  for (const char* name : {"a.png", "b.PNG", "c.jpg", "d.jpeg", "e.JpG"}) {
    const std::string path = directory.file(name);
    const Status status = write_image(grey, path);
    ASSERT_TRUE(status.ok()) << name << ": " << status.message();
    std::ifstream in(path, std::ios::binary);
    std::string head(4, '\0');
    in.read(head.data(), 4);
    const std::string extension = fs::path(path).extension().string();
    const bool png = extension == ".png" || extension == ".PNG";
    EXPECT_EQ(head, png ? std::string("\x89PNG") : std::string("\xFF\xD8\xFF\xE0", 4)) << name;
    int width = 0, height = 0, channels = 0;
    stbi_uc* loaded = stbi_load(path.c_str(), &width, &height, &channels, 3);
    ASSERT_NE(loaded, nullptr) << name << ": " << stbi_failure_reason();
    EXPECT_EQ(width, 16);
    EXPECT_EQ(height, 16);
    for (int i = 0; i < 16 * 16 * 3; ++i) EXPECT_NEAR(loaded[i], 120, png ? 0 : 2) << name << " sample " << i;
    stbi_image_free(loaded);
  }
}

TEST(WriteImage, UnsupportedExtensionIsInvalidArgumentAndWritesNothing) {
  const ScratchDirectory directory;
  const std::string path = directory.file("picture.bmp");
  const Status status = write_image(Image(4, 4), path);
  EXPECT_EQ(status.code(), StatusCode::invalid_argument);
  EXPECT_NE(status.message().find(path), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("'.bmp'"), std::string::npos) << status.message();
  EXPECT_FALSE(fs::exists(path));
}

TEST(WritePng, ReplacesAnExistingFile) {
  const ScratchDirectory directory;
  const std::string path = directory.file("replaced.png");
  std::ofstream(path) << "not a png";

  ASSERT_TRUE(write_png(Image(1, 1, {200, 100, 50}), path).ok());

  int width = 0, height = 0, channels = 0;
  stbi_uc* loaded = stbi_load(path.c_str(), &width, &height, &channels, 3);
  ASSERT_NE(loaded, nullptr) << stbi_failure_reason();
  EXPECT_EQ((Rgb8{loaded[0], loaded[1], loaded[2]}), (Rgb8{200, 100, 50}));
  stbi_image_free(loaded);
}

TEST(WritePng, MissingDirectoryIsAnIoErrorNamingTheFile) {
  const ScratchDirectory directory;
  const std::string path = directory.file("no/such/directory/out.png");

  const Status status = write_png(distinct_pixel_image(2, 2), path);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::io_error);
  EXPECT_NE(status.message().find(path), std::string::npos) << status.message();
  EXPECT_FALSE(fs::exists(path));
}

TEST(WritePng, PathThatIsADirectoryIsAnIoError) {
  const ScratchDirectory directory;
  const std::string path = directory.file("a_directory");
  fs::create_directory(path);

  const Status status = write_png(distinct_pixel_image(2, 2), path);
  EXPECT_EQ(status.code(), StatusCode::io_error);
  EXPECT_NE(status.message().find(path), std::string::npos) << status.message();
}

// A failed write once removed the "partial file" at the path, and /dev/full is a device node.
TEST(WritePng, FullDeviceIsAnIoErrorAndTheDeviceSurvives) {
  const std::string path = "/dev/full";
  if (!fs::is_character_file(path)) GTEST_SKIP() << path << " is not available";

  const Status status = write_png(distinct_pixel_image(64, 64), path);
  EXPECT_EQ(status.code(), StatusCode::io_error);
  EXPECT_NE(status.message().find(path), std::string::npos) << status.message();
  EXPECT_TRUE(fs::is_character_file(path));
}

TEST(WritePng, EmptyImageIsInvalidArgumentAndWritesNothing) {
  const ScratchDirectory directory;
  const std::string path = directory.file("empty.png");

  const Status status = write_png(Image(0, 0), path);
  EXPECT_EQ(status.code(), StatusCode::invalid_argument);
  EXPECT_NE(status.message().find(path), std::string::npos) << status.message();
  EXPECT_FALSE(fs::exists(path));
}

TEST(WritePng, ImageWithZeroHeightIsEmpty) {
  const Image image(7, 0);
  EXPECT_TRUE(image.empty());
  EXPECT_EQ(image.width(), 0);
  EXPECT_EQ(write_png(image, "unused.png").code(), StatusCode::invalid_argument);
}

}  // namespace
}  // namespace hitscan::io
