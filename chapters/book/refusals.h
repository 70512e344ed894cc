// A refusal as the checks use it: the words to show beside the call, or no answer where the
// library refused. None of it is shown on the pages.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "strided/core/error.h"

namespace book {

// The message of the strided::Error that f() raises, for a text output to quote. f must refuse:
// quoting a refusal that did not happen throws, and fails the claim, rather than show nothing.
template <class F>
std::string error_text(F&& f) {
  try {
    f();
  } catch (const strided::Error& e) {
    return e.what();
  }
  throw std::logic_error("book: error_text: the call did not raise the error it was to quote");
}

// What f() returns, or nothing where it raises strided::Error: a shape rule's "error" as a value.
template <class F>
auto unless_refused(F&& f) -> std::optional<decltype(f())> {
  try {
    return f();
  } catch (const strided::Error&) {
    return std::nullopt;
  }
}

}  // namespace book
