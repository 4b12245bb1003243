#include "ar_world.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "../common/arguments.hpp"

namespace hitscan::bench {
namespace {

// The street's length beyond the route's: the route runs from near the start to near the end.
constexpr float kLengthMargin = 10.0f;

// The default street at `length`, with the cell that keeps about `triangles` triangles: the count
// goes as length / cell^2 (street_scene.hpp), so the cell of street_options_for_triangles scales
// with the square root of the length.
tools::StreetOptions street_options(std::size_t triangles, float length) {
  tools::StreetOptions options = tools::street_options_for_triangles(triangles);
  options.cell *= std::sqrt(length / options.length);
  options.length = length;
  return options;
}

}  // namespace

float route_length(const std::vector<Vec3f>& route) {
  double total = 0;
  for (std::size_t i = 1; i < route.size(); ++i) total += double(distance(route[i - 1], route[i]));
  return float(total);
}

std::vector<Vec3f> cut_route(const std::vector<Vec3f>& route, float length) {
  std::vector<Vec3f> cut;
  if (route.empty()) return cut;
  cut.push_back(route.front());
  double travelled = 0;
  for (std::size_t i = 1; i < route.size(); ++i) {
    const double step = double(distance(route[i - 1], route[i]));
    if (travelled + step >= double(length)) {
      if (step > 0) cut.push_back(lerp(route[i - 1], route[i], float((double(length) - travelled) / step)));
      return cut;
    }
    travelled += step;
    cut.push_back(route[i]);
  }
  return cut;
}

std::unique_ptr<ArWorld> make_ar_world(std::size_t triangles, float length) {
  auto start = std::chrono::steady_clock::now();
  // The route's length is only known once the street is made: lengthen the street until it holds
  // a route that long (the route climbs and descends, so it is a little longer than the street).
  float street_length = length + kLengthMargin;
  std::unique_ptr<ArWorld> world;
  for (int attempt = 0;; ++attempt) {
    Result<tools::StreetScene> street = tools::make_street_scene(street_options(triangles, street_length));
    if (!street.ok()) {
      std::fprintf(stderr, "hitscan_ar_bench: make_street_scene: %s\n", street.status().message().c_str());
      return nullptr;
    }
    world = std::make_unique<ArWorld>(std::move(street).value());
    const float available = route_length(world->street.route);
    if (available >= length || attempt == 3) break;
    street_length += length - available + 1.0f;
  }
  world->route = cut_route(world->street.route, length);
  world->route_length = route_length(world->route);
  const tools::StreetOptions& options = world->street.options;
  std::printf("street: %.1f m x %.1f m, cell %.4f m, noise %.3f m, %zu triangles in %zu chunks of %.1f m "
              "(generated in %.2f s)\n",
              double(options.length), double(options.width), double(options.cell), double(options.noise),
              world->street.triangle_count(), world->street.chunks.size(), double(options.chunk_length),
              seconds_since(start));
  std::printf("route: %zu points, %.2f m of the street's %.2f m route\n", world->route.size(),
              double(world->route_length), double(route_length(world->street.route)));

  // The updated chunk: the one that holds the point 7 m down the street from the camera (in view).
  const Vec3f ahead = world->street.camera.position() + Vec3f{7.0f, 0.0f, 0.0f};
  world->updated_chunk = 0;
  for (std::size_t k = 0; k < world->street.chunks.size(); ++k) {
    const std::vector<Vec3f>& p = world->street.chunks[k].positions;
    if (p.empty()) continue;
    const auto [lo, hi] = std::minmax_element(p.begin(), p.end(), [](Vec3f a, Vec3f b) { return a.x < b.x; });
    if (lo->x <= ahead.x && ahead.x <= hi->x) world->updated_chunk = k;
  }
  tools::StreetOptions renoised = options;
  renoised.seed = options.seed + 1;
  Result<tools::StreetScene> other = tools::make_street_scene(renoised);
  if (!other.ok()) {
    std::fprintf(stderr, "hitscan_ar_bench: make_street_scene: %s\n", other.status().message().c_str());
    return nullptr;
  }
  const tools::StreetChunk& fresh = other.value().chunks.at(world->updated_chunk);
  if (fresh.triangles != world->street.chunks[world->updated_chunk].triangles) {
    std::fprintf(stderr, "hitscan_ar_bench: a new noise seed changed the street's triangles\n");
    return nullptr;
  }
  world->updated_positions = fresh.positions;

  start = std::chrono::steady_clock::now();
  world->chunks = std::make_unique<ReconstructionChunks>(world->scene, ChunkSettings{}, &world->executor);
  for (std::size_t k = 0; k < world->street.chunks.size(); ++k) {
    const tools::StreetChunk& chunk = world->street.chunks[k];
    Result<ChunkUpdate> added = world->chunks->update_chunk(k, chunk.positions, chunk.triangles);
    if (!added.ok()) {
      std::fprintf(stderr, "hitscan_ar_bench: update_chunk %zu: %s\n", k, added.status().message().c_str());
      return nullptr;
    }
  }
  world->scene.commit();
  std::printf("scene: %zu chunk colliders built and committed in %.2f s; chunk_update replaces chunk %zu "
              "(%zu triangles)\n",
              world->chunks->chunk_count(), seconds_since(start), world->updated_chunk,
              world->street.chunks[world->updated_chunk].triangles.size());
  return world;
}

bool update_chunk_frame(ArWorld& world) {
  world.holds_update = !world.holds_update;
  const std::size_t k = world.updated_chunk;
  Result<ChunkUpdate> update =
      world.chunks->update_chunk(k, world.chunk_positions(k), world.street.chunks[k].triangles);
  world.scene.commit();
  return update.ok() && update.value().work == ChunkWork::refit;
}

}  // namespace hitscan::bench
