# Compile settings shared by every hitscan target.
function(hitscan_configure_target target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic
    # The watertight triangle test relies on a*b - c*d being exactly antisymmetric under swapping
    # the pairs; a fused multiply-add breaks that, so contraction stays off everywhere.
    -ffp-contract=off
    # sqrt may then compile to one instruction: kernels never read errno, and no result changes.
    -fno-math-errno
    # Functions on 64-byte and loops on 32-byte boundaries: the BVH walk's speed otherwise swung
    # by 30% with where unrelated code changes put it (spider, coherent single rays, same source:
    # 12.2 against 8.4 Mrays/s).
    $<$<COMPILE_LANG_AND_ID:CXX,GNU>:-falign-functions=64>
    $<$<COMPILE_LANG_AND_ID:CXX,GNU>:-falign-loops=32>)
  if(HITSCAN_ARCH)
    # PUBLIC: the SIMD wrapper types differ by instruction set, so users must see the same one.
    target_compile_options(${target} PUBLIC -march=${HITSCAN_ARCH})
  endif()
  if(NOT HITSCAN_SIMD)
    target_compile_definitions(${target} PUBLIC HITSCAN_SIMD_SCALAR=1)
  endif()
  if(HITSCAN_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-sanitize-recover=all
      -fno-omit-frame-pointer)
    target_link_options(${target} PUBLIC -fsanitize=address,undefined)
  endif()
  if(HITSCAN_SANITIZE_THREAD)
    target_compile_options(${target} PRIVATE -fsanitize=thread -fno-omit-frame-pointer)
    target_link_options(${target} PUBLIC -fsanitize=thread)
  endif()
endfunction()
