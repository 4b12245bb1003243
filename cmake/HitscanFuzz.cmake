# HITSCAN_BUILD_FUZZERS: the libFuzzer targets of fuzz/. Every hitscan target is then compiled
# with coverage instrumentation and AddressSanitizer + UndefinedBehaviorSanitizer, so that the
# fuzzers are guided by, and check, the library itself and not only their own code. Included
# before the first target is defined, since add_compile_options reaches only the targets after it.
option(HITSCAN_BUILD_FUZZERS "Build the libFuzzer targets in fuzz/ (clang only; instruments every target)" OFF)
if(HITSCAN_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "HITSCAN_BUILD_FUZZERS needs clang, which ships libFuzzer: configure with "
                        "CC=clang CXX=clang++ in a fresh build directory")
  endif()
  if(HITSCAN_SANITIZE OR HITSCAN_SANITIZE_THREAD)
    message(FATAL_ERROR "HITSCAN_BUILD_FUZZERS brings its own sanitizers: leave HITSCAN_SANITIZE and "
                        "HITSCAN_SANITIZE_THREAD off")
  endif()
  # fuzzer-no-link: coverage without libFuzzer's main, which only the fuzz executables link.
  # Line tables alone keep stack traces symbolised at a fraction of full debug info's build time.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -gline-tables-only)
  # A violated contract inside the library is a bug the fuzzers must see, in any build type.
  add_compile_definitions(HITSCAN_ENABLE_ASSERTS=1)
  add_link_options(-fsanitize=address,undefined)
endif()
