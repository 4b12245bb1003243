#pragma once
// How the pieces of load_mesh() report a failure: a Status whose message begins with the path,
// and no exception let out. Private to the io layer.

#include <exception>
#include <new>
#include <string>

#include "hitscan/status.hpp"

namespace hitscan::io::detail {

/// `code` with the message "<path>: <reason>".
inline Status fail(StatusCode code, const std::string& path, const std::string& reason) {
  return Status{code, path + ": " + reason};
}

/// f(), with any exception it lets out turned into an error naming the file: assimp reports
/// through ReadFile's return value, but its readers may still throw (an allocation failure at
/// least), and no exception crosses load_mesh or leaves a loading child.
template <class F>
auto guarded(const std::string& path, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return fail(StatusCode::out_of_memory, path, "out of memory while loading the mesh");
  } catch (const std::exception& e) {
    return fail(StatusCode::parse_error, path, std::string("cannot read the file: ") + e.what());
  } catch (...) {
    return fail(StatusCode::parse_error, path, "cannot read the file: unknown failure");
  }
}

}  // namespace hitscan::io::detail
