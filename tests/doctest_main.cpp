// doctest's implementation and main(), compiled once and linked into every unit test program
// (strided_add_test in CMakeLists.txt): compiling them into each test source cost about 8 s a
// program.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
