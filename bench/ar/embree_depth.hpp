#pragma once
// Embree 3 beside render_depth, so that the depth map's time has a baseline measured in the same
// run: the street's chunks as triangle geometries of one Embree scene (Embree builds one tree over
// all of them, build quality HIGH), the camera's rays traced one at a time (rtcIntersect1) or in
// packets of 8 or 16 (rtcIntersect8, rtcIntersect16: blocks of 4 x 2 and 4 x 4 pixels), each
// pixel's depth t * dot(dir, forward)
// as render_depth gives it. The street as generated: chunk_update's second noise draw of one chunk
// is not followed, which moves nothing the timing depends on.

#include <memory>
#include <vector>

#include "hitscan/ar/camera.hpp"
#include "hitscan/executor.hpp"
#include "tools/street_scene.hpp"

namespace hitscan::bench {

class EmbreeDepth {
 public:
  explicit EmbreeDepth(const tools::StreetScene& street);
  ~EmbreeDepth();
  EmbreeDepth(const EmbreeDepth&) = delete;
  EmbreeDepth& operator=(const EmbreeDepth&) = delete;

  /// depth (width * height, row-major) for `camera`; +inf where no surface is seen. Bands of 8
  /// rows over `executor`, as render_depth splits its frame.
  /// packet: 1 (rtcIntersect1), 8 (rtcIntersect8, blocks of 4 x 2) or 16 (rtcIntersect16, 4 x 4).
  void render(const PinholeCamera& camera, std::vector<float>& depth, Executor& executor, int packet) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace hitscan::bench
