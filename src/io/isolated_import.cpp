#include "isolated_import.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "child_process.hpp"
#include "mesh_load_errors.hpp"

namespace hitscan::io::detail {
namespace {

// The child's answer: kRead once assimp's reader has returned, then kError (code, message) or
// kMesh (the report, then the three arrays), in the machine's own byte order. An array or string
// goes as its length, then its elements; the report as its counts, then its part ranges (an
// array of ranges, each its name, node name and counts).
constexpr char kRead = 'R', kError = 'E', kMesh = 'M';

// Calls f on each count of `report` (a MeshLoadReport or a MeshPartRange, const or not), in the
// order the answer carries them.
template <class Report, class F>
void for_each_count(Report& report, F&& f) {
  if constexpr (std::is_same_v<std::remove_const_t<Report>, MeshLoadReport>) {
    for (auto* count : {&report.polygons, &report.points, &report.lines, &report.parts}) f(*count);
  } else {
    for (auto* count : {&report.first_vertex, &report.vertex_count, &report.first_triangle, &report.triangle_count,
                        &report.polygons, &report.points, &report.lines}) {
      f(*count);
    }
  }
}

template <class T>
void send_value(const ChildSend& send, const T& value) {
  send(std::string_view(reinterpret_cast<const char*>(&value), sizeof value));
}
template <class Array>  // std::vector or std::string
void send_array(const ChildSend& send, const Array& values) {
  using T = typename Array::value_type;
  send_value(send, static_cast<std::uint64_t>(values.size()));
  send(std::string_view(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
}
void send_report(const ChildSend& send, const MeshLoadReport& report) {
  for_each_count(report, [&](const std::size_t& count) { send_value(send, count); });
  send_value(send, static_cast<std::uint64_t>(report.part_ranges.size()));
  for (const MeshPartRange& range : report.part_ranges) {
    send_array(send, range.name);
    send_array(send, range.node_name);
    for_each_count(range, [&](const std::size_t& count) { send_value(send, count); });
  }
}

// Reads the child's answer back.
class Answer {
 public:
  explicit Answer(std::string_view bytes) : rest_(bytes) {}
  template <class T>
  bool value(T& out) {
    if (rest_.size() < sizeof out) return false;
    std::memcpy(&out, rest_.data(), sizeof out);
    rest_.remove_prefix(sizeof out);
    return true;
  }
  template <class Array>  // std::vector or std::string
  bool array(Array& out) {
    using T = typename Array::value_type;
    std::uint64_t count = 0;
    if (!value(count) || count > rest_.size() / sizeof(T)) return false;
    out.resize(static_cast<std::size_t>(count));
    if (count != 0) std::memcpy(out.data(), rest_.data(), out.size() * sizeof(T));
    rest_.remove_prefix(out.size() * sizeof(T));
    return true;
  }
  bool report(MeshLoadReport& out) {
    bool complete = true;
    const auto read_count = [&](std::size_t& count) { complete = complete && value(count); };
    for_each_count(out, read_count);
    std::uint64_t ranges = 0;
    // Every range takes at least its two string lengths: a bound before anything is allocated.
    if (!complete || !value(ranges) || ranges > rest_.size() / (2 * sizeof(std::uint64_t))) return false;
    out.part_ranges.resize(static_cast<std::size_t>(ranges));
    for (MeshPartRange& range : out.part_ranges) {
      if (!array(range.name) || !array(range.node_name)) return false;
      for_each_count(range, read_count);
    }
    return complete;
  }
  std::string_view rest() const { return rest_; }

 private:
  std::string_view rest_;
};

}  // namespace

std::optional<Result<Imported>> import_isolated(const std::string& path, const MeshLoadOptions& options,
                                                const std::optional<OffCounts>& off_counts, MeshLoadReport& report) {
  const ChildRun run = run_in_child(
      [&](const ChildSend& send, const std::function<void()>& restore_handlers) {
        MeshLoadReport counts;
        // guarded: no exception may leave the child.
        const Result<Imported> imported = guarded(path, [&] {
          return import_file(path, options, off_counts, counts, [&] {
            send(std::string_view(&kRead, 1));
            restore_handlers();  // from here on the code is hitscan's own
          });
        });
        if (!imported.ok()) {
          send(std::string_view(&kError, 1));
          send_value(send, static_cast<std::int32_t>(imported.status().code()));
          send(imported.status().message());
          return;
        }
        send(std::string_view(&kMesh, 1));
        send_report(send, counts);
        send_array(send, imported.value().positions);
        send_array(send, imported.value().normals);
        send_array(send, imported.value().triangles);
      },
      options.time_limit_seconds);
  const bool read = !run.output.empty() && run.output[0] == kRead;
  switch (run.end) {
    case ChildEnd::not_started:
      return std::nullopt;
    case ChildEnd::timed_out: {
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g", options.time_limit_seconds);
      return fail(StatusCode::io_error, path,
                  std::string(read ? "turning assimp's scene into a mesh" : "assimp's reader") + " did not finish within " +
                      limit + " s and was stopped");
    }
    case ChildEnd::crashed:
      if (!read) return fail(StatusCode::parse_error, path, "assimp's reader crashed on the file (" + run.how + ")");
      return fail(StatusCode::parse_error, path,
                  "hitscan crashed turning assimp's scene into a mesh (" + run.how + "): a bug, please report it");
    case ChildEnd::finished:
      break;
  }
  Answer answer(std::string_view(run.output).substr(read ? 1 : 0));
  char kind = 0;
  const auto malformed = [&] {
    return fail(StatusCode::parse_error, path, "the loading process gave a malformed answer");
  };
  if (!read || !answer.value(kind)) return malformed();
  if (kind == kError) {
    std::int32_t code = 0;
    if (!answer.value(code)) return malformed();
    return Status{static_cast<StatusCode>(code), std::string(answer.rest())};
  }
  Imported imported;
  MeshLoadReport counts;
  if (kind != kMesh || !answer.report(counts) || !answer.array(imported.positions) || !answer.array(imported.normals) ||
      !answer.array(imported.triangles) || !answer.rest().empty()) {
    return malformed();
  }
  report = std::move(counts);
  return imported;
}

}  // namespace hitscan::io::detail
