# cmake -DBUILD_DIR=... -DPREFIX=... -DLIBDIR=... -DINCLUDEDIR=... -DBINDIR=... -DVERSION=x.y.z
#       -DCLI=ON|OFF -DIO=ON|OFF -P install_check.cmake
# Installs the (already built) build tree into a fresh PREFIX, then checks that every file the
# package promises is there, and that the installed command line program runs.

file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${result}): is the build complete?\n${output}")
endif()

string(REGEX MATCH "^[0-9]+" major ${VERSION})
set(lib ${PREFIX}/${LIBDIR})
set(expected
  ${PREFIX}/${INCLUDEDIR}/hitscan/hitscan.h
  ${PREFIX}/${INCLUDEDIR}/hitscan/version.hpp
  ${PREFIX}/${INCLUDEDIR}/hitscan/query/scene.hpp
  ${PREFIX}/${INCLUDEDIR}/hitscan/math/simd.hpp
  ${PREFIX}/${INCLUDEDIR}/hitscan/ar/drape.hpp
  ${lib}/libhitscan_c.so.${VERSION}
  ${lib}/cmake/hitscan/hitscanConfig.cmake
  ${lib}/cmake/hitscan/hitscanConfigVersion.cmake
  ${lib}/cmake/hitscan/hitscanTargets.cmake
  ${lib}/pkgconfig/hitscan_c.pc)
if(EXISTS ${lib}/libhitscan.so.${VERSION})  # BUILD_SHARED_LIBS
  list(APPEND expected ${lib}/libhitscan.so.${VERSION} ${lib}/libhitscan_ar.so.${VERSION})
else()
  list(APPEND expected ${lib}/libhitscan.a ${lib}/libhitscan_ar.a)
endif()
if(IO)
  list(APPEND expected ${PREFIX}/${INCLUDEDIR}/hitscan/io/mesh_loader.hpp ${lib}/cmake/hitscan/hitscanIoTargets.cmake)
endif()
if(CLI)
  list(APPEND expected ${PREFIX}/${BINDIR}/hitscan)
endif()
foreach(file ${expected})
  if(NOT EXISTS ${file})
    message(FATAL_ERROR "not installed: ${file}\n${output}")
  endif()
endforeach()
# The shared C library with its SONAME link and its development link.
foreach(link libhitscan_c.so.${major} libhitscan_c.so)
  if(NOT IS_SYMLINK ${lib}/${link})
    message(FATAL_ERROR "not installed as a symbolic link: ${lib}/${link}")
  endif()
endforeach()
# Sources and test programs stay out.
file(GLOB_RECURSE stray RELATIVE ${PREFIX} ${PREFIX}/*.cpp ${PREFIX}/*.c ${PREFIX}/*_test*)
if(stray)
  message(FATAL_ERROR "installed but not part of the package: ${stray}")
endif()

if(CLI)
  execute_process(COMMAND ${PREFIX}/${BINDIR}/hitscan --help
                  RESULT_VARIABLE result OUTPUT_VARIABLE help ERROR_VARIABLE help)
  if(NOT result EQUAL 0 OR NOT help MATCHES "render" OR NOT help MATCHES "info")
    message(FATAL_ERROR "installed `hitscan --help` failed (${result}):\n${help}")
  endif()
endif()

file(GLOB_RECURSE installed RELATIVE ${PREFIX} ${PREFIX}/*)
list(LENGTH installed count)
message(STATUS "installed ${count} files into ${PREFIX}")
