// For the library's tests: the message of the strided::Error that f throws, or "" when it throws
// nothing. Any other exception escapes, and the test fails with it.
#pragma once

#include <string>

#include "strided/core/error.h"

namespace strided {

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace strided
