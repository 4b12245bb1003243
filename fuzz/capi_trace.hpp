#pragma once
// How fuzz_capi reports: fail() for a broken promise, trace() for a readable account of a run
// (HITSCAN_FUZZ_TRACE=1).

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "hitscan/hitscan.h"

namespace hitscan::fuzz {

[[noreturn]] __attribute__((format(printf, 1, 2))) inline void fail(const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::fputs("fuzz_capi: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
  std::abort();
}

// HITSCAN_FUZZ_TRACE=1 in the environment prints every call and its main arguments, to turn a
// crashing input into a readable reproducer.
__attribute__((format(printf, 1, 2))) inline void trace(const char* format, ...) {
  static const bool enabled = std::getenv("HITSCAN_FUZZ_TRACE") != nullptr;
  if (!enabled) return;
  std::va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
}

inline void trace_vec3(const char* name, const hs_vec3& v) {
  trace("  %s = {%a, %a, %a}", name, double(v.x), double(v.y), double(v.z));
}

inline void trace_transform(const hs_transform* t) {
  if (t == nullptr) return trace("  transform = null");
  trace("  rotation = {%a, %a, %a, %a}", double(t->rotation.w), double(t->rotation.x), double(t->rotation.y),
        double(t->rotation.z));
  trace_vec3("translation", t->translation);
  trace_vec3("scale", t->scale);
}

inline void trace_mesh(const std::vector<float>& positions, const std::vector<uint32_t>& indices) {
  for (std::size_t i = 0; i + 2 < positions.size(); i += 3) {
    trace_vec3("vertex", {positions[i], positions[i + 1], positions[i + 2]});
  }
  for (std::size_t i = 0; i + 2 < indices.size(); i += 3)
    trace("  triangle %u %u %u", indices[i], indices[i + 1], indices[i + 2]);
}

inline void trace_ray(const hs_ray& ray) {
  trace_vec3("ray origin", ray.origin);
  trace_vec3("ray direction", ray.direction);
  trace("  ray max_distance = %a", double(ray.max_distance));
}

inline void trace_shape(const hs_shape& shape) {
  float values[10];  // the largest member, a box, is 10 floats
  static_assert(sizeof shape.data >= sizeof values);
  std::memcpy(values, &shape.data, sizeof values);
  trace("  shape type %d, data {%a, %a, %a, %a, %a, %a, %a, %a, %a, %a}", int(shape.type), double(values[0]),
        double(values[1]), double(values[2]), double(values[3]), double(values[4]), double(values[5]),
        double(values[6]), double(values[7]), double(values[8]), double(values[9]));
  if (shape.type == HS_SHAPE_CONVEX_POLYGON && shape.data.convex_polygon.vertices != nullptr) {
    for (std::size_t i = 0; i < shape.data.convex_polygon.vertex_count; ++i) {
      trace_vec3("polygon vertex", shape.data.convex_polygon.vertices[i]);
    }
  }
  if (shape.type == HS_SHAPE_CONVEX_HULL && shape.data.convex_hull.points != nullptr) {
    for (std::size_t i = 0; i < shape.data.convex_hull.point_count; ++i) {
      trace_vec3("hull point", shape.data.convex_hull.points[i]);
    }
  }
}

}  // namespace hitscan::fuzz
