# cmake -DROOT=<source tree> -P check_layers.cmake
# Fails, naming each offending line, when a file under src/ or include/hitscan/ includes a header
# of a layer above its own. The layers, in ARCHITECTURE.md's order, each of which may include only
# itself and the ones before it:
#   base (src/*.cpp and include/hitscan/*.hpp: assert, executor, status, version), math, geometry,
#   bvh, mesh, query, capi, ar, io, tools.
# Two headers at the top of include/hitscan/ stand for a layer: hitscan.hpp, the umbrella of the
# core library hitscan::hitscan, is query; hitscan.h, the C API, is capi. So the query layer or
# anything below it (and the umbrella) including hitscan/ar/ is refused, as hitscan::hitscan does
# not link hitscan::ar. Includes are read as "hitscan/<layer>/..." or <hitscan/<layer>/...>, and
# quoted relative paths ("../mesh/x.hpp", "detail/y.hpp") are resolved from the including file.

if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source tree> -P check_layers.cmake")
endif()
get_filename_component(ROOT ${ROOT} ABSOLUTE)
set(layers base math geometry bvh mesh query capi ar io tools)

# The layer of a file given by its path relative to ROOT, or "" when it is in none.
function(layer_of relative out)
  set(layer "")
  if(relative MATCHES "^include/hitscan/hitscan\\.hpp$")
    set(layer query)
  elseif(relative MATCHES "^include/hitscan/hitscan\\.h$")
    set(layer capi)
  elseif(relative MATCHES "^(src|include/hitscan)/[^/]+$")
    set(layer base)
  elseif(relative MATCHES "^(src|include/hitscan)/([^/]+)/")
    set(layer ${CMAKE_MATCH_2})
  endif()
  set(${out} ${layer} PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE files RELATIVE ${ROOT} ${ROOT}/src/*.cpp ${ROOT}/src/*.hpp ${ROOT}/src/*.h
     ${ROOT}/include/hitscan/*.hpp ${ROOT}/include/hitscan/*.h)
list(SORT files)
set(violations "")
foreach(file ${files})
  layer_of(${file} layer)
  list(FIND layers "${layer}" rank)
  if(rank EQUAL -1)
    string(APPEND violations "\n  ${file}: in no layer")
    continue()
  endif()
  get_filename_component(directory ${ROOT}/${file} DIRECTORY)
  file(STRINGS ${ROOT}/${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*([<\"])([^>\"]+)[>\"]")
      continue()
    endif()
    set(quoted ${CMAKE_MATCH_1})
    set(included ${CMAKE_MATCH_2})
    set(target "")
    if(included MATCHES "^hitscan/")
      layer_of(include/${included} target)
    elseif(quoted STREQUAL "\"")
      get_filename_component(resolved ${included} ABSOLUTE BASE_DIR ${directory})
      file(RELATIVE_PATH resolved ${ROOT} ${resolved})
      layer_of(${resolved} target)
    endif()
    if(target STREQUAL "")
      continue()  # the standard library, a third party, or a file outside the layers
    endif()
    list(FIND layers ${target} target_rank)
    if(target_rank EQUAL -1 OR target_rank GREATER rank)
      string(APPEND violations "\n  ${file} (${layer}) includes ${included} (${target})")
    endif()
  endforeach()
endforeach()

if(violations)
  string(REPLACE ";" ", " order "${layers}")
  message(FATAL_ERROR "A layer includes only itself and the layers below it (${order}; "
                      "ARCHITECTURE.md):${violations}")
endif()
list(LENGTH files count)
message(STATUS "layers: ${count} files include only their own layer and the ones below it")
