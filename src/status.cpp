#include "hitscan/status.hpp"

namespace hitscan {

const char* status_code_name(StatusCode code) {
  switch (code) {
    case StatusCode::ok: return "ok";
    case StatusCode::invalid_argument: return "invalid_argument";
    case StatusCode::degenerate: return "degenerate";
    case StatusCode::io_error: return "io_error";
    case StatusCode::parse_error: return "parse_error";
    case StatusCode::out_of_memory: return "out_of_memory";
    case StatusCode::not_found: return "not_found";
    case StatusCode::out_of_range: return "out_of_range";
  }
  return "unknown";
}

}  // namespace hitscan
