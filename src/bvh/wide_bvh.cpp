#include "hitscan/bvh/wide_bvh.hpp"

namespace hitscan::bvh {
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
        child[i] = first;
        count[i] = items;
      } else {
        child[i] = emit(members[i]);
      }
    }
    WideNode& node = nodes_[position];
    node.bounds = {simd::Float8::load(box[0]), simd::Float8::load(box[1]), simd::Float8::load(box[2]),
                   simd::Float8::load(box[3]), simd::Float8::load(box[4]), simd::Float8::load(box[5])};
    for (int i = 0; i < kWideWidth; ++i) node.child[i] = child[i], node.count[i] = count[i];
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
