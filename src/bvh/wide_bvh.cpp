#include "hitscan/bvh/wide_bvh.hpp"

#include <cassert>

namespace hitscan::bvh {

void set_bounds(WideNode& node, const float (&box)[6][kWideWidth]) {
  using F = simd::Float8;
  node.bounds = {F::load(box[0]), F::load(box[1]), F::load(box[2]), F::load(box[3]), F::load(box[4]), F::load(box[5])};
  // The used slots (a box that is not empty) and twice their centres.
  int used[kWideWidth], empty[kWideWidth];
  int n = 0, e = 0;
  float centre[3][kWideWidth];
  for (int i = 0; i < kWideWidth; ++i) {
    if (box[0][i] <= box[3][i]) {
      for (int a = 0; a < 3; ++a) centre[a][n] = box[a][i] + box[3 + a][i];
      used[n++] = i;
    } else {
      empty[e++] = i;
    }
  }
  // Octant o and its opposite 7 - o have opposite keys: one sort serves both, the used slots
  // read forwards for one and backwards for the other, the empty slots first in both.
  for (unsigned octant = 0; octant < 4; ++octant) {
    float key[kWideWidth];
    for (int k = 0; k < n; ++k) {
      float sum = 0.0f;
      for (int a = 0; a < 3; ++a) sum += ((octant >> a) & 1u) != 0 ? -centre[a][k] : centre[a][k];
      key[k] = sum;
    }
    // Farthest first, ties in lane order: an insertion sort of at most 8 (stable, no allocation).
    int sorted[kWideWidth];
    for (int k = 0; k < n; ++k) {
      int j = k;
      for (; j > 0 && key[sorted[j - 1]] < key[k]; --j) sorted[j] = sorted[j - 1];
      sorted[j] = k;
    }
    std::uint32_t order = 0, opposite = 0;
    for (int j = 0; j < e; ++j) {
      order |= static_cast<std::uint32_t>(empty[j]) << (3 * j);
      opposite |= static_cast<std::uint32_t>(empty[j]) << (3 * j);
    }
    for (int k = 0; k < n; ++k) {
      order |= static_cast<std::uint32_t>(used[sorted[k]]) << (3 * (e + k));
      opposite |= static_cast<std::uint32_t>(used[sorted[n - 1 - k]]) << (3 * (e + k));
    }
    for (int b = 0; b < 3; ++b) {
      node.order[3 * octant + b] = static_cast<std::uint8_t>(order >> (8 * b));
      node.order[3 * (7 - octant) + b] = static_cast<std::uint8_t>(opposite >> (8 * b));
    }
  }
}

namespace {

class Collapser {
 public:
  Collapser(const BinaryBvh& binary, const MakeLeaf& make_leaf) : binary_(binary), make_leaf_(make_leaf) {}

  HugePageVector<WideNode> run() {
    if (binary_.nodes.empty()) return {};
    // Every wide node but a leaf root opens at least one inner binary node of its own.
    nodes_.reserve(binary_.nodes.size() / 2 + 1);
    emit(0);
    return std::move(nodes_);
  }

 private:
  // Emits the wide node standing for binary node `index` (its children, opened up to 8) and
  // returns its position.
  std::uint32_t emit(std::uint32_t index) {
    std::uint32_t members[kWideWidth] = {index};
    int n = 1;
    const auto& bn = binary_.nodes;
    if (!bn[index].is_leaf()) {
      // Open the inner member of largest area until the node is full or only leaves remain.
      while (n < kWideWidth) {
        int best = -1;
        float best_area = -1.0f;
        for (int i = 0; i < n; ++i) {
          const BinaryNode& m = bn[members[i]];
          if (!m.is_leaf() && m.bounds.surface_area() > best_area) best = i, best_area = m.bounds.surface_area();
        }
        if (best < 0) break;
        const std::uint32_t opened = members[best];
        members[best] = bn[opened].first;
        members[n++] = bn[opened].first + 1;
      }
    }
    const auto position = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();
    float box[6][kWideWidth];
    std::uint32_t child[kWideWidth], count[kWideWidth];
    for (int i = 0; i < kWideWidth; ++i) {
      const Aabbf b = i < n ? bn[members[i]].bounds : Aabbf::empty();
      for (int a = 0; a < 3; ++a) box[a][i] = b.min[a], box[3 + a][i] = b.max[a];
      child[i] = kEmptySlot;
      count[i] = 0;
    }
    for (int i = 0; i < n; ++i) {
      const BinaryNode& m = bn[members[i]];
      if (m.is_leaf()) {
        const auto [first, items] = make_leaf_(m.first, m.count);
        assert(items > 0 && items <= kMaxLeafItems);  // make_leaf's contract
        child[i] = first;
        count[i] = items;
      } else {
        child[i] = emit(members[i]);
      }
    }
    WideNode& node = nodes_[position];
    set_bounds(node, box);
    for (int i = 0; i < kWideWidth; ++i) node.child[i] = child[i], node.count[i] = static_cast<std::uint8_t>(count[i]);
    return position;
  }

  const BinaryBvh& binary_;
  const MakeLeaf& make_leaf_;
  HugePageVector<WideNode> nodes_;
};

}  // namespace

HugePageVector<WideNode> collapse_to_wide(const BinaryBvh& binary, const MakeLeaf& make_leaf) {
  return Collapser(binary, make_leaf).run();
}

}  // namespace hitscan::bvh
