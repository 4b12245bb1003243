#include <iostream>

#include "tools/command_line.hpp"

int main(int argc, char** argv) { return hitscan::tools::run_command_line(argc, argv, std::cout, std::cerr); }
