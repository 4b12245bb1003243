// fuzz_ray_file: the input is one ray table, read both as `.npy` and as `.csv` by io::read_rays.
// Whatever the bytes, each read must return rays or a parse_error / out_of_memory that names the
// file in one short printable line. Rays read from a .npy file must be the file's last bytes,
// decoded (checked against an independent decoding); rays read from a .csv file must number no
// more than the file's lines.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "hitscan/io/ray_file.hpp"
#include "scratch_file.hpp"

namespace {

using hitscan::Rayf;
using hitscan::StatusCode;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_ray_file: %s\n", what.c_str());
  std::abort();
}

void check_failure(const hitscan::Status& status, const std::string& path) {
  if (status.code() != StatusCode::parse_error && status.code() != StatusCode::out_of_memory) {
    fail(std::string("unexpected status ") + hitscan::status_code_name(status.code()) + ": " + status.message());
  }
  const std::string& message = status.message();
  if (message.rfind(path + ": ", 0) != 0) fail("the message does not begin with the path: " + message);
  // Messages quote the file only in short excerpts, so that a binary file cannot flood a log.
  if (message.size() > path.size() + 300) fail("a message of " + std::to_string(message.size()) + " bytes");
  for (const char c : message) {
    if (c < 0x20 || c > 0x7e) fail("a message with an unprintable byte: " + message);
  }
}

// The bits of a ray's values, NaN or not, so that equal decodings compare equal.
std::vector<std::uint32_t> ray_bits(const Rayf& ray) {
  const float values[] = {ray.origin.x, ray.origin.y, ray.origin.z, ray.dir.x,
                          ray.dir.y,    ray.dir.z,    ray.tmin,     ray.tmax};
  std::vector<std::uint32_t> bits(8);
  for (int i = 0; i < 8; ++i) std::memcpy(&bits[i], &values[i], 4);
  return bits;
}

float decode_item(const std::uint8_t* item, std::size_t item_size) {
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < item_size; ++i) bits |= std::uint64_t{item[i]} << (8 * i);
  if (item_size == 4) {
    float value;
    const auto narrow = static_cast<std::uint32_t>(bits);
    std::memcpy(&value, &narrow, 4);
    return value;
  }
  double value;
  std::memcpy(&value, &bits, 8);
  if (std::isnan(value)) return NAN;  // any NaN will do: compared below as "NaN or not"
  if (std::abs(value) > 3.4028234663852886e38) return value > 0 ? INFINITY : -INFINITY;
  return static_cast<float>(value);
}

bool same_value(std::uint32_t a, std::uint32_t b) {
  float fa, fb;
  std::memcpy(&fa, &a, 4);
  std::memcpy(&fb, &b, 4);
  return a == b || (std::isnan(fa) && std::isnan(fb));
}

// Whether `rays` are the last rows * columns * item_size bytes of the file, for some table layout
// of 6 or 8 columns of float32 or float64: the data must sit at the end, exactly filling it.
bool matches_npy_data(const std::vector<Rayf>& rays, const std::uint8_t* data, std::size_t size) {
  for (const std::size_t columns : {6u, 8u}) {
    for (const std::size_t item_size : {4u, 8u}) {
      const std::size_t bytes = rays.size() * columns * item_size;
      if (bytes + 10 > size) continue;  // a header of at least magic, version and length
      const std::uint8_t* table = data + size - bytes;
      bool all = true;
      for (std::size_t r = 0; r < rays.size() && all; ++r) {
        const std::vector<std::uint32_t> got = ray_bits(rays[r]);
        Rayf expected{};
        float row[8] = {0, 0, 0, 0, 0, 0, 0, INFINITY};
        for (std::size_t c = 0; c < columns; ++c)
          row[c] = decode_item(table + (r * columns + c) * item_size, item_size);
        expected.origin = {row[0], row[1], row[2]};
        expected.dir = {row[3], row[4], row[5]};
        expected.tmin = row[6];
        expected.tmax = row[7];
        const std::vector<std::uint32_t> want = ray_bits(expected);
        for (int i = 0; i < 8; ++i) all = all && same_value(got[i], want[i]);
      }
      if (all) return true;
    }
  }
  return false;
}

void check_npy(const std::uint8_t* data, std::size_t size) {
  static const hitscan::fuzz::ScratchFile file("rays.npy");
  file.write(data, size);
  const hitscan::Result<std::vector<Rayf>> rays = hitscan::io::read_rays(file.path());
  if (!rays) return check_failure(rays.status(), file.path());
  if (size < 10 || std::memcmp(data, "\x93NUMPY", 6) != 0) fail("a file without the .npy magic string loaded");
  if (!matches_npy_data(rays.value(), data, size)) {
    fail(std::to_string(rays.value().size()) + " rays loaded that are not the file's trailing data");
  }
}

void check_csv(const std::uint8_t* data, std::size_t size) {
  static const hitscan::fuzz::ScratchFile file("rays.csv");
  file.write(data, size);
  const hitscan::Result<std::vector<Rayf>> rays = hitscan::io::read_rays(file.path());
  if (!rays) return check_failure(rays.status(), file.path());
  std::size_t lines = 1;
  for (std::size_t i = 0; i < size; ++i) lines += data[i] == '\n';
  if (rays.value().size() > lines)
    fail(std::to_string(rays.value().size()) + " rays from " + std::to_string(lines) + " lines");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  check_npy(data, size);
  check_csv(data, size);
  return 0;
}
