#include "hitscan/bvh/uniform_grid.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "hitscan/assert.hpp"

namespace hitscan::bvh {
namespace {

// floor(v / size) clamped to the int32 range. Division by a positive constant (correctly
// rounded), floor and clamping are all monotone, so a larger coordinate never lands in a smaller
// cell: the report-once rule depends on that, and it holds for infinite coordinates too.
std::int32_t cell_coordinate(float v, double size) {
  const double q = std::floor(static_cast<double>(v) / size);
  constexpr double lo = std::numeric_limits<std::int32_t>::min(), hi = std::numeric_limits<std::int32_t>::max();
  return static_cast<std::int32_t>(q < lo ? lo : (q > hi ? hi : q));
}

// A 64-bit mix of the three coordinates (the finaliser of SplitMix64 over a multiplicative
// combination), so that neighbouring cells scatter over the table.
std::uint64_t hash_cell(const GridCell& c) {
  std::uint64_t h = static_cast<std::uint32_t>(c.x) * 0x9E3779B97F4A7C15ull;
  h ^= static_cast<std::uint32_t>(c.y) * 0xC2B2AE3D27D4EB4Full;
  h ^= static_cast<std::uint32_t>(c.z) * 0x165667B19E3779F9ull;
  h ^= h >> 30;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 27;
  h *= 0x94D049BB133111EBull;
  return h ^ (h >> 31);
}

double cells_between(const GridCell& lo, const GridCell& hi) {
  return (double(hi.x) - lo.x + 1) * (double(hi.y) - lo.y + 1) * (double(hi.z) - lo.z + 1);
}

}  // namespace

GridCell UniformGrid::cell_of(Vec3f p) const {
  const double size = cell_size_;
  return {cell_coordinate(p.x, size), cell_coordinate(p.y, size), cell_coordinate(p.z, size)};
}

// Twice the geometric mean of the boxes' mean sides. The geometric mean rather than the
// arithmetic one, so that a few huge boxes (a floor, a terrain) do not inflate the cells of all
// the small ones: one box a million times larger than a thousand others moves it by 1.4%.
float UniformGrid::choose_cell_size(std::span<const Aabbf> boxes) const {
  if (settings_.cell_size > 0.0f && is_finite(settings_.cell_size)) return settings_.cell_size;
  double log_sum = 0.0;
  std::size_t sized = 0, finite = 0;
  Aabbf all;
  for (const Aabbf& b : boxes) {
    if (!b.is_valid() || !is_finite(b.min) || !is_finite(b.max)) continue;
    ++finite;
    all.grow(b);
    const Vec3d e = vec3_cast<double>(b.max) - vec3_cast<double>(b.min);
    const double side = (e.x + e.y + e.z) / 3.0;
    if (side > 0.0) {
      log_sum += std::log(side);
      ++sized;
    }
  }
  double size = sized > 0 ? 2.0 * std::exp(log_sum / static_cast<double>(sized)) : 0.0;
  if (sized == 0 && finite > 0) {
    // Every box is a point: spread the points over about one cell each.
    const Vec3d e = vec3_cast<double>(all.max) - vec3_cast<double>(all.min);
    size = std::max(e.x, std::max(e.y, e.z)) / std::cbrt(static_cast<double>(finite));
  }
  if (!(size > 0.0)) return 1.0f;
  return static_cast<float>(std::min<double>(size, std::numeric_limits<float>::max()));
}

std::uint32_t UniformGrid::find_cell(const GridCell& cell) const {
  if (slots_.empty()) return kNoCell;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t s = hash_cell(cell) & mask;; s = (s + 1) & mask) {
    const std::uint32_t id = slots_[s];
    if (id == kNoCell || cell_keys_[id] == cell) return id;
  }
}

std::uint32_t UniformGrid::find_or_add_cell(const GridCell& cell) {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t s = hash_cell(cell) & mask;; s = (s + 1) & mask) {
    const std::uint32_t id = slots_[s];
    if (id != kNoCell && cell_keys_[id] == cell) return id;
    if (id == kNoCell) {
      slots_[s] = static_cast<std::uint32_t>(cell_keys_.size());
      cell_keys_.push_back(cell);
      return slots_[s];
    }
  }
}

GridStats UniformGrid::update(std::span<const Aabbf> boxes) {
  GridStats stats;
  cell_size_ = choose_cell_size(boxes);
  const std::size_t n = boxes.size();
  HITSCAN_ASSERT(n < kNoCell);
  boxes_.assign(boxes.begin(), boxes.end());
  kind_.assign(n, Kind::invalid);
  min_cell_.resize(n);
  large_.clear();

  // Pass 1: classify, and count the entries to size the hash table.
  const double large_cells = std::max<double>(64.0, static_cast<double>(n));
  std::size_t entries = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const Aabbf& b = boxes_[i];
    if (!b.is_valid()) continue;
    const GridCell lo = cell_of(b.min), hi = cell_of(b.max);
    min_cell_[i] = lo;
    const double cells = cells_between(lo, hi);
    if (cells > large_cells) {
      kind_[i] = Kind::large;
      large_.push_back(i);
      continue;
    }
    kind_[i] = Kind::in_cells;
    entries += static_cast<std::size_t>(cells);
  }
  HITSCAN_ASSERT(entries < kNoCell);

  // Pass 2: give each occupied cell an id (in order of first appearance) and note every entry's.
  const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(16, 2 * entries));
  slots_.assign(capacity, kNoCell);
  cell_keys_.clear();
  entry_cell_.clear();
  for (std::uint32_t i = 0; i < n; ++i) {
    if (kind_[i] != Kind::in_cells) continue;
    const GridCell lo = min_cell_[i], hi = cell_of(boxes_[i].max);
    for (std::int64_t z = lo.z; z <= hi.z; ++z) {
      for (std::int64_t y = lo.y; y <= hi.y; ++y) {
        for (std::int64_t x = lo.x; x <= hi.x; ++x) {
          entry_cell_.push_back(find_or_add_cell(
              {static_cast<std::int32_t>(x), static_cast<std::int32_t>(y), static_cast<std::int32_t>(z)}));
        }
      }
    }
  }
  stats.cell_visits = entry_cell_.size();

  // Pass 3: a counting sort of the entries by cell, stable, so each cell lists its objects in
  // increasing order. cell_start_[c + 1] first counts, then serves as the write cursor of cell c.
  const std::size_t cells = cell_keys_.size();
  cell_start_.assign(cells + 2, 0);
  for (const std::uint32_t c : entry_cell_) ++cell_start_[c + 2];
  for (std::size_t c = 2; c < cells + 2; ++c) cell_start_[c] += cell_start_[c - 1];
  cell_objects_.resize(entry_cell_.size());
  std::size_t k = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (kind_[i] != Kind::in_cells) continue;
    const GridCell lo = min_cell_[i], hi = cell_of(boxes_[i].max);
    const auto count = static_cast<std::size_t>(cells_between(lo, hi));
    for (std::size_t e = 0; e < count; ++e) cell_objects_[cell_start_[entry_cell_[k++] + 1]++] = i;
  }
  cell_start_.pop_back();
  return stats;
}

GridStats UniformGrid::find_pairs(std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs) const {
  pairs.clear();
  return find_pairs([&pairs](std::uint32_t i, std::uint32_t j) { pairs.emplace_back(i, j); });
}

}  // namespace hitscan::bvh
