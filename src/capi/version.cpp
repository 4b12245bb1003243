// hs_version: the C API's view of hitscan::version().

#include "hitscan/hitscan.h"
#include "hitscan/version.hpp"

extern "C" const char* hs_version(void) { return hitscan::version(); }
