// hs_last_error, the error callback and hs_status_name, and the recording of failures.

#include "entry.hpp"

#include <atomic>
#include <cstdarg>
#include <cstdio>

namespace hitscan::capi {
namespace {

// Fixed-size, so that recording a failure (out of memory included) never allocates or throws.
// Longer messages are cut.
thread_local char t_last_error[1024] = "";

struct ErrorCallback {
  hs_error_callback callback = nullptr;
  void* user = nullptr;
};

// The callback and its user pointer change together, so they are read and written together under
// a spin lock, which unlike std::mutex cannot fail. It is held for the copy of two pointers only,
// and only on failures and hs_set_error_callback.
std::atomic_flag g_callback_lock = ATOMIC_FLAG_INIT;
ErrorCallback g_callback;

class CallbackLock {
 public:
  CallbackLock() {
    while (g_callback_lock.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~CallbackLock() { g_callback_lock.clear(std::memory_order_release); }
  CallbackLock(const CallbackLock&) = delete;
  CallbackLock& operator=(const CallbackLock&) = delete;
};

hs_status to_hs_status(StatusCode code) {
  switch (code) {
    case StatusCode::ok: return HS_OK;
    case StatusCode::invalid_argument: return HS_INVALID_ARGUMENT;
    case StatusCode::degenerate: return HS_DEGENERATE;
    case StatusCode::not_found: return HS_NOT_FOUND;
    case StatusCode::out_of_range: return HS_OUT_OF_RANGE;
    case StatusCode::out_of_memory: return HS_OUT_OF_MEMORY;
    case StatusCode::io_error:
    case StatusCode::parse_error: break;  // the C API reads no files
  }
  return HS_INTERNAL;
}

}  // namespace

hs_status Entry::fail(hs_status code, const char* format, ...) const {
  const int prefix = std::snprintf(t_last_error, sizeof t_last_error, "%s: ", function_);
  if (prefix > 0 && static_cast<std::size_t>(prefix) < sizeof t_last_error) {
    va_list args;
    va_start(args, format);
    std::vsnprintf(t_last_error + prefix, sizeof t_last_error - static_cast<std::size_t>(prefix), format, args);
    va_end(args);
  }
  ErrorCallback current;
  {
    const CallbackLock lock;
    current = g_callback;
  }
  if (current.callback) {
    try {
      current.callback(code, t_last_error, current.user);
    } catch (...) {
      // A C++ callback that throws must not carry the exception through the C boundary.
    }
  }
  return code;
}

hs_status Entry::check(const Status& status) const {
  if (status.ok()) return HS_OK;
  return fail(to_hs_status(status.code()), "%s", status.message().c_str());
}

}  // namespace hitscan::capi

using hitscan::capi::raw_enum;

extern "C" {

const char* hs_status_name(hs_status status) {
  switch (raw_enum(status)) {
    case HS_OK: return "HS_OK";
    case HS_INVALID_ARGUMENT: return "HS_INVALID_ARGUMENT";
    case HS_DEGENERATE: return "HS_DEGENERATE";
    case HS_NOT_FOUND: return "HS_NOT_FOUND";
    case HS_OUT_OF_RANGE: return "HS_OUT_OF_RANGE";
    case HS_OUT_OF_MEMORY: return "HS_OUT_OF_MEMORY";
    case HS_INTERNAL: return "HS_INTERNAL";
    default: return "HS_UNKNOWN";
  }
}

const char* hs_last_error(void) { return hitscan::capi::t_last_error; }

void hs_set_error_callback(hs_error_callback callback, void* user) {
  const hitscan::capi::CallbackLock lock;
  hitscan::capi::g_callback = {callback, user};
}

}  // extern "C"
