# cmake -DCHECK=<check_layers.cmake> -DSCRATCH=<directory> -P lower_layer_including_ar.cmake
# A scratch tree in which the query layer, a mesh header (by a relative path) and the umbrella
# header include the AR layer, beside an AR file that includes the query layer as it may: the
# check must fail and name the three offending includes, and only them.

file(REMOVE_RECURSE ${SCRATCH})
file(WRITE ${SCRATCH}/src/query/scene_drape.cpp "#include \"hitscan/query/scene.hpp\"\n#include \"hitscan/ar/drape.hpp\"\n")
file(WRITE ${SCRATCH}/include/hitscan/mesh/mesh_camera.hpp "#pragma once\n#include <vector>\n#include \"../ar/camera.hpp\"\n")
file(WRITE ${SCRATCH}/include/hitscan/hitscan.hpp "#pragma once\n#include <hitscan/ar/chunks.hpp>\n")
file(WRITE ${SCRATCH}/src/ar/drape.cpp "#include \"hitscan/ar/drape.hpp\"\n#include \"hitscan/query/scene.hpp\"\n")
file(WRITE ${SCRATCH}/include/hitscan/ar/drape.hpp "#pragma once\n#include \"hitscan/query/scene.hpp\"\n")

execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${SCRATCH} -P ${CHECK}
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(result EQUAL 0)
  message(FATAL_ERROR "the check passed a tree whose lower layers include the AR layer:\n${output}")
endif()
foreach(expected "src/query/scene_drape.cpp (query) includes hitscan/ar/drape.hpp (ar)"
                 "include/hitscan/mesh/mesh_camera.hpp (mesh) includes ../ar/camera.hpp (ar)"
                 "include/hitscan/hitscan.hpp (query) includes hitscan/ar/chunks.hpp (ar)")
  string(FIND "${output}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the check did not name `${expected}`:\n${output}")
  endif()
endforeach()
string(REGEX MATCHALL "\\) includes " named "${output}")
list(LENGTH named count)
if(NOT count EQUAL 3)
  message(FATAL_ERROR "the check named ${count} includes, expected 3:\n${output}")
endif()
message(STATUS "refused as expected:\n${output}")
