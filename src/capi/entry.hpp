#pragma once
// The boundary every hs_ function crosses: failures become an hs_status plus a message for the
// calling thread and the error callback, and nothing thrown inside gets out (Embree's model:
// catch at every entry, report through a getter and a callback).

#include <cstring>
#include <exception>
#include <new>
#include <type_traits>

#include "hitscan/hitscan.h"
#include "hitscan/status.hpp"

namespace hitscan::capi {

/// The integer a C caller stored in an enum field. C allows any int there; reading a value
/// outside the enumerators through the C++ enum type would be undefined, so it is read as bytes.
template <class Enum>
std::underlying_type_t<Enum> raw_enum(const Enum& value) {
  std::underlying_type_t<Enum> raw;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

/// One call of an hs_ function, named for its messages ("hs_scene_remove: ...").
class Entry {
 public:
  explicit Entry(const char* function) : function_(function) {}

  /// Records a failure (message "<function>: <printf-formatted detail>") and returns `code`.
  hs_status fail(hs_status code, const char* format, ...) const __attribute__((format(printf, 3, 4)));
  /// HS_OK for an ok status, else its failure recorded with its code mapped and its message.
  hs_status check(const Status& status) const;
  /// HS_INVALID_ARGUMENT for the argument `name` being null.
  hs_status null(const char* name) const { return fail(HS_INVALID_ARGUMENT, "%s is null", name); }

  /// Runs the body of the call; whatever it throws becomes a failure (std::bad_alloc is
  /// HS_OUT_OF_MEMORY, anything else HS_INTERNAL).
  template <class Body>
  hs_status run(Body&& body) const noexcept {
    try {
      return body();
    } catch (const std::bad_alloc&) {
      return fail(HS_OUT_OF_MEMORY, "out of memory");
    } catch (const std::exception& e) {
      return fail(HS_INTERNAL, "internal error: %s", e.what());
    } catch (...) {
      return fail(HS_INTERNAL, "internal error: an unknown exception");
    }
  }

 private:
  const char* function_;
};

}  // namespace hitscan::capi
