#pragma once
// The world the AR suite runs in: the generated street (src/tools/street_scene.hpp) at about a
// million triangles and long enough for the route, loaded chunk by chunk into a Scene through
// ReconstructionChunks; the route cut to the asked length; and a second noise draw of one chunk,
// so that chunk_update replaces that chunk's positions (same triangles) every frame.

#include <cstddef>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "hitscan/ar/chunks.hpp"
#include "hitscan/executor.hpp"
#include "hitscan/query/scene.hpp"
#include "tools/street_scene.hpp"

namespace hitscan::bench {

/// An executor that forwards to another, chosen before each timed run: ReconstructionChunks keeps
/// the executor it was made with, and the suite times it at 1 thread and at all of them.
class SwitchableExecutor final : public Executor {
 public:
  void use(Executor& target) { target_ = &target; }
  void parallel_for(std::size_t count, std::size_t grain,
                    const std::function<void(std::size_t, std::size_t)>& body) override {
    target_->parallel_for(count, grain, body);
  }
  unsigned concurrency() const override { return target_->concurrency(); }

 private:
  Executor* target_ = &default_executor();
};

struct ArWorld {
  explicit ArWorld(tools::StreetScene generated) : street(std::move(generated)) {}

  tools::StreetScene street;
  /// The street's route cut to the asked arc length (the whole route when it is shorter).
  std::vector<Vec3f> route;
  float route_length = 0;
  /// The street's options with seed + 1: same triangles, fresh noise.
  std::vector<Vec3f> updated_positions;
  /// The chunk chunk_update replaces (the one in front of the camera), and which of its two noise
  /// draws the scene holds now.
  std::size_t updated_chunk = 0;
  bool holds_update = false;

  SwitchableExecutor executor;
  Scene scene;
  std::unique_ptr<ReconstructionChunks> chunks;

  /// The positions of chunk k as the scene holds them now.
  const std::vector<Vec3f>& chunk_positions(std::size_t k) const {
    return k == updated_chunk && holds_update ? updated_positions : street.chunks[k].positions;
  }
};

/// Builds the world: a street of about `triangles` triangles at least route_length (plus a margin)
/// long, every chunk added and committed. Prints what it built. Fails with a message on stderr.
std::unique_ptr<ArWorld> make_ar_world(std::size_t triangles, float route_length);

/// One chunk_update frame: the updated chunk's positions swapped for its other noise draw and the
/// scene recommitted. Returns whether the chunk's tree was refit (rather than built).
bool update_chunk_frame(ArWorld& world);

/// The polyline `route` cut at arc length `length` (unchanged when it is shorter).
std::vector<Vec3f> cut_route(const std::vector<Vec3f>& route, float length);

/// Arc length of a polyline.
float route_length(const std::vector<Vec3f>& route);

}  // namespace hitscan::bench
