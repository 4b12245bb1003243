#pragma once
/// Horizontal reductions, shared by every backend: a left-to-right fold over the lanes with the
/// min / max rule of simd.hpp, reduce_min(v) == min(...min(min(v[0], v[1]), v[2])..., v[N-1]).
/// Each NaN lane is thus replaced by the lane after it, and the result is NaN exactly when the
/// last lane is. Folding the halves separately would change which NaN lanes survive, so no
/// backend shuffles. Meant for the end of a loop, not its body.
/// Include "hitscan/math/simd.hpp" rather than this file.

namespace hitscan::simd {

template <class F>
float reduce_min(F a) requires requires(F v, float* p) { v.store(p); } {
  float l[F::width];
  a.store(l);
  float r = l[0];
  for (int i = 1; i < F::width; ++i) r = r < l[i] ? r : l[i];
  return r;
}

template <class F>
float reduce_max(F a) requires requires(F v, float* p) { v.store(p); } {
  float l[F::width];
  a.store(l);
  float r = l[0];
  for (int i = 1; i < F::width; ++i) r = r > l[i] ? r : l[i];
  return r;
}

}  // namespace hitscan::simd
