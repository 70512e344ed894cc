// The paths a unit test needs that depend on where the checkout and the build lie (a conformance
// suite's cases, the built explorer): ctest passes them in the environment (the ENVIRONMENT of the
// test in its CMakeLists.txt) rather than the compiler on its command line, so that the test
// programs compile the same in every clone and ccache finds a second clone's compiles.
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace strided::testing {

// The value of the environment variable `name`; throws, saying how to run the test, when unset.
inline std::string test_path(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0')
    throw std::runtime_error(std::string(name) +
                             " is not set: run this test through ctest, which sets it");
  return value;
}

}  // namespace strided::testing
