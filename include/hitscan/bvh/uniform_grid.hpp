#pragma once
/// UniformGrid: a broadphase that drops every box into the cubic cells of a uniform grid it
/// covers and tests only boxes that share a cell (Ericson, "Real-Time Collision Detection", 2005,
/// section 7.1). The occupied cells live in a hash table keyed by their integer coordinates
/// (spatial hashing, Teschner et al. 2003), so the world has no bounds and memory follows the
/// objects, not the space. The grid is rebuilt from the boxes every frame, in time linear in the
/// number of (object, cell) entries, reusing its storage.
///
/// A pair of boxes may share several cells; it is reported only from the cell that holds the min
/// corner of the intersection of the two boxes. Cell coordinates grow with position, so that
/// cell is, axis by axis, the larger of the two boxes' min-corner cells: an integer comparison,
/// with no rounding to disagree between cells. A query box is deduplicated the same way.
///
/// An object covering more cells than max(64, object count) is not put in cells; it goes to a
/// short list tested against every object, so that one huge box costs O(n), not O(cells).
/// The default cell size is twice the typical box side (a geometric mean, which a few huge boxes
/// do not inflate). Where sizes spread over orders of magnitude, the small boxes are served
/// well and the large ones pay for many cells or go to the list; a DynamicTree suits such scenes
/// better.

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "hitscan/math/aabb.hpp"

namespace hitscan::bvh {

struct UniformGridSettings {
  /// Side of a cell, in world units. 0 (or anything not positive and finite) chooses, at each
  /// update, twice the geometric mean over the valid finite boxes of the mean of their three sides
  /// (boxes of zero size left out; for points only, the extent of the points over the cube root
  /// of their number).
  float cell_size = 0.0f;
};

/// What an update or a query cost, counted rather than timed, so that tests can check how the
/// cost grows.
struct GridStats {
  /// update: (object, cell) entries written. Queries: cells looked up or scanned.
  std::uint64_t cell_visits = 0;
  /// Candidates examined: pairs sharing a cell, objects in a queried cell, large-object tests.
  std::uint64_t candidate_tests = 0;
  /// Objects or pairs handed to the callback.
  std::uint64_t reported = 0;
};

/// Integer coordinates of a cell: floor(p / cell_size), clamped to the int32 range.
struct GridCell {
  std::int32_t x = 0, y = 0, z = 0;
  friend constexpr bool operator==(const GridCell&, const GridCell&) = default;
};

class UniformGrid {
 public:
  explicit UniformGrid(const UniformGridSettings& settings = {}) : settings_(settings) {}

  /// Replaces the objects by `boxes`: object i is boxes[i]. A box that is not valid (min > max on
  /// some axis, or NaN) belongs to no pair and no query result; infinite coordinates are allowed.
  /// Linear in the number of boxes and of cells they cover; after the first frames of a scene
  /// of steady size it allocates nothing.
  GridStats update(std::span<const Aabbf> boxes);

  /// The cell size chosen at the last update.
  float cell_size() const { return cell_size_; }
  std::size_t object_count() const { return boxes_.size(); }
  std::size_t occupied_cell_count() const { return cell_keys_.size(); }
  /// Objects kept out of the cells for covering too many (see above).
  std::size_t large_object_count() const { return large_.size(); }
  /// The cell containing point p.
  GridCell cell_of(Vec3f p) const;

  /// Calls `callback(i, j)` once for every unordered pair of objects whose boxes overlap (touching
  /// counts), with i < j. Deterministic order for given boxes.
  template <class Callback>
  GridStats find_pairs(Callback&& callback) const;
  /// The same, into `pairs` (cleared first).
  GridStats find_pairs(std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs) const;

  /// Calls `callback(i) -> bool` once for every object whose box overlaps `box`, until it returns
  /// false. An invalid `box` reports nothing. A box covering more cells than there are objects is
  /// answered by testing every object instead.
  template <class Callback>
  GridStats query(const Aabbf& box, Callback&& callback) const;

 private:
  enum class Kind : std::uint8_t { invalid, in_cells, large };

  /// The id of a cell, or kNoCell when no object occupies it.
  std::uint32_t find_cell(const GridCell& cell) const;
  std::uint32_t find_or_add_cell(const GridCell& cell);
  float choose_cell_size(std::span<const Aabbf> boxes) const;

  static constexpr std::uint32_t kNoCell = 0xFFFFFFFFu;

  UniformGridSettings settings_;
  float cell_size_ = 1.0f;

  std::vector<Aabbf> boxes_;
  std::vector<Kind> kind_;
  /// Per object: the cell of its min corner (the basis of the report-once rule).
  std::vector<GridCell> min_cell_;
  std::vector<std::uint32_t> large_;

  /// Per cell id: its coordinates, and its objects cell_objects_[cell_start_[id], cell_start_[id + 1])
  /// in increasing order.
  std::vector<GridCell> cell_keys_;
  std::vector<std::uint32_t> cell_start_;
  std::vector<std::uint32_t> cell_objects_;
  /// Open addressing, linear probing: cell ids, kNoCell for an empty slot; size a power of two.
  std::vector<std::uint32_t> slots_;
  /// The cell id of every (object, cell) entry, in object order: the input of the counting sort.
  std::vector<std::uint32_t> entry_cell_;
};

template <class Callback>
GridStats UniformGrid::find_pairs(Callback&& callback) const {
  GridStats stats;
  for (std::size_t c = 0; c < cell_keys_.size(); ++c) {
    ++stats.cell_visits;
    const GridCell key = cell_keys_[c];
    const std::uint32_t end = cell_start_[c + 1];
    for (std::uint32_t a = cell_start_[c]; a + 1 < end; ++a) {
      const std::uint32_t i = cell_objects_[a];
      const GridCell ci = min_cell_[i];
      const Aabbf& bi = boxes_[i];
      for (std::uint32_t b = a + 1; b < end; ++b) {
        const std::uint32_t j = cell_objects_[b];
        const GridCell cj = min_cell_[j];
        ++stats.candidate_tests;
        // Report only from the cell of the intersection's min corner.
        if ((ci.x > cj.x ? ci.x : cj.x) != key.x || (ci.y > cj.y ? ci.y : cj.y) != key.y ||
            (ci.z > cj.z ? ci.z : cj.z) != key.z) {
          continue;
        }
        if (!bi.overlaps(boxes_[j])) continue;
        ++stats.reported;
        callback(i, j);
      }
    }
  }
  const auto n = static_cast<std::uint32_t>(boxes_.size());
  for (const std::uint32_t l : large_) {
    for (std::uint32_t j = 0; j < n; ++j) {
      // A pair of two large objects is reported while visiting the smaller index.
      if (kind_[j] == Kind::invalid || j == l || (kind_[j] == Kind::large && j < l)) continue;
      ++stats.candidate_tests;
      if (!boxes_[l].overlaps(boxes_[j])) continue;
      ++stats.reported;
      callback(l < j ? l : j, l < j ? j : l);
    }
  }
  return stats;
}

template <class Callback>
GridStats UniformGrid::query(const Aabbf& box, Callback&& callback) const {
  GridStats stats;
  if (!box.is_valid() || boxes_.empty()) return stats;
  const auto report = [&](std::uint32_t i) {
    ++stats.reported;
    return static_cast<bool>(callback(i));
  };
  const GridCell lo = cell_of(box.min), hi = cell_of(box.max);
  const double cells = (double(hi.x) - lo.x + 1) * (double(hi.y) - lo.y + 1) * (double(hi.z) - lo.z + 1);
  if (cells > double(boxes_.size())) {
    for (std::uint32_t i = 0; i < boxes_.size(); ++i) {
      if (kind_[i] == Kind::invalid) continue;
      ++stats.candidate_tests;
      if (boxes_[i].overlaps(box) && !report(i)) return stats;
    }
    return stats;
  }
  // 64-bit counters: a range may end at the int32 limit.
  for (std::int64_t z = lo.z; z <= hi.z; ++z) {
    for (std::int64_t y = lo.y; y <= hi.y; ++y) {
      for (std::int64_t x = lo.x; x <= hi.x; ++x) {
        ++stats.cell_visits;
        const GridCell key{static_cast<std::int32_t>(x), static_cast<std::int32_t>(y), static_cast<std::int32_t>(z)};
        const std::uint32_t c = find_cell(key);
        if (c == kNoCell) continue;
        for (std::uint32_t a = cell_start_[c]; a < cell_start_[c + 1]; ++a) {
          const std::uint32_t i = cell_objects_[a];
          const GridCell ci = min_cell_[i];
          ++stats.candidate_tests;
          if ((ci.x > lo.x ? ci.x : lo.x) != key.x || (ci.y > lo.y ? ci.y : lo.y) != key.y ||
              (ci.z > lo.z ? ci.z : lo.z) != key.z) {
            continue;
          }
          if (boxes_[i].overlaps(box) && !report(i)) return stats;
        }
      }
    }
  }
  for (const std::uint32_t l : large_) {
    ++stats.candidate_tests;
    if (boxes_[l].overlaps(box) && !report(l)) return stats;
  }
  return stats;
}

}  // namespace hitscan::bvh
