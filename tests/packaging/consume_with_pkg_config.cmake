# cmake -DPREFIX=... -DLIBDIR=... -DPKG_CONFIG=... -DC_COMPILER=... -DSOURCE=main.c -DBINARY=...
#       -DVERSION=x.y.z -P consume_with_pkg_config.cmake
# Compiles a C program by hand with the flags `pkg-config --cflags --libs hitscan_c` gives for the
# package installed in PREFIX, and runs it against the installed libhitscan_c.so.

set(ENV{PKG_CONFIG_PATH} ${PREFIX}/${LIBDIR}/pkgconfig)
execute_process(COMMAND ${PKG_CONFIG} --modversion hitscan_c RESULT_VARIABLE result
                OUTPUT_VARIABLE version ERROR_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT result EQUAL 0 OR NOT version STREQUAL VERSION)
  message(FATAL_ERROR "pkg-config --modversion hitscan_c gave '${version}' (${result}), expected ${VERSION}")
endif()
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs hitscan_c RESULT_VARIABLE result
                OUTPUT_VARIABLE flags ERROR_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags --libs hitscan_c failed (${result}): ${flags}")
endif()
message(STATUS "pkg-config --cflags --libs hitscan_c: ${flags}")
separate_arguments(flags UNIX_COMMAND "${flags}")

file(REMOVE_RECURSE ${BINARY})
file(MAKE_DIRECTORY ${BINARY})
execute_process(COMMAND ${C_COMPILER} -std=c99 -Wall -Wextra -Werror ${SOURCE} ${flags} -lm -o ${BINARY}/consumer_c
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "compiling ${SOURCE} with pkg-config's flags failed (${result}):\n${output}")
endif()
set(ENV{LD_LIBRARY_PATH} ${PREFIX}/${LIBDIR})
execute_process(COMMAND ${BINARY}/consumer_c RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the C consumer failed (${result}):\n${output}")
endif()
message(STATUS "${output}")
