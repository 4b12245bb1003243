# cmake -DSOURCE=... -DBINARY=... -DFRESH=ON|OFF -DGENERATOR=... -DMAKE_PROGRAM=... -DC_COMPILER=...
#       -DCXX_COMPILER=... -DBUILD_TYPE=... -DOPTIONS="-Da=1|-Db=2" -DTARGETS="t1|t2" -DRUN="t1|t2"
#       -P consume_with_cmake.cmake
# Configures the consumer project SOURCE in BINARY (wiped first when FRESH) with the outer build's
# generator and compilers plus OPTIONS, builds TARGETS, then runs each program of RUN in BINARY;
# any failing step fails the test with its output. Lists are separated by `|`.

string(REPLACE "|" ";" options "${OPTIONS}")
string(REPLACE "|" ";" targets "${TARGETS}")
string(REPLACE "|" ";" programs "${RUN}")
if(FRESH)
  file(REMOVE_RECURSE ${BINARY})
endif()

function(step what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${BINARY}
                  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${what} failed (${result}):\n${output}")
  endif()
  message(STATUS "${what}: ok\n${output}")
endfunction()

file(MAKE_DIRECTORY ${BINARY})
step("configure ${SOURCE}" ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -G ${GENERATOR}
     -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
     -DCMAKE_BUILD_TYPE=${BUILD_TYPE} ${options})
step("build" ${CMAKE_COMMAND} --build ${BINARY} --target ${targets})
foreach(program ${programs})
  step("run ${program}" ${BINARY}/${program})
endforeach()
