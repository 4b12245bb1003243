#pragma once
// A closed unit cube [0, 1]^3 as an OFF file, 12 triangles wound counter-clockwise seen from outside.

namespace hitscan::test {

inline constexpr const char* kUnitCubeOff =
    "OFF\n8 12 0\n"
    "0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n1 0 1\n1 1 1\n0 1 1\n"
    "3 0 2 1\n3 0 3 2\n3 4 5 6\n3 4 6 7\n3 0 1 5\n3 0 5 4\n"
    "3 1 2 6\n3 1 6 5\n3 2 3 7\n3 2 7 6\n3 3 0 4\n3 3 4 7\n";

}  // namespace hitscan::test
