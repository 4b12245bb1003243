#pragma once
/// Status and Result: how fallible work (building, loading, validating input) reports failure.
/// Hot kernels never return a Status; they document what a miss or degenerate input gives.

#include <string>
#include <utility>
#include <variant>

#include "hitscan/assert.hpp"

namespace hitscan {

enum class StatusCode {
  ok = 0,
  invalid_argument,  ///< A caller-supplied value is out of its domain (NaN, negative radius, ...).
  degenerate,        ///< Geometry has no area or volume where some is required.
  io_error,          ///< A file could not be opened, read or written.
  parse_error,       ///< A file's contents are malformed or truncated.
  out_of_memory,
  not_found,     ///< An id or name refers to nothing (a removed collider, a stale id).
  out_of_range,  ///< A count or index is beyond what the object can hold.
};

/// Short stable name of a code, e.g. "invalid_argument".
const char* status_code_name(StatusCode code);

class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status success() { return {}; }

  bool ok() const { return code_ == StatusCode::ok; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::ok;
  std::string message_;
};

/// A value or the Status that explains why there is none.
template <class T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT: implicit by design, like std::expected
  Result(Status status) : state_(std::move(status)) {  // NOLINT
    HITSCAN_ASSERT(!std::get<Status>(state_).ok());
  }

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  /// The value; calling it on a failed Result is a contract violation.
  const T& value() const& { HITSCAN_ASSERT(ok()); return std::get<T>(state_); }
  T& value() & { HITSCAN_ASSERT(ok()); return std::get<T>(state_); }
  T&& value() && { HITSCAN_ASSERT(ok()); return std::get<T>(std::move(state_)); }

  /// The failure; on success an ok Status.
  Status status() const { return ok() ? Status{} : std::get<Status>(state_); }

 private:
  std::variant<T, Status> state_;
};

}  // namespace hitscan
