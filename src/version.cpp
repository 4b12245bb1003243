#include "hitscan/version.hpp"

namespace hitscan {

// HITSCAN_VERSION is set for this file alone by CMake, from the same project() version as the
// header's constants.
const char* version() { return HITSCAN_VERSION; }

}  // namespace hitscan
