// Errors: every bad input becomes a strided::Error whose message names the operation and the
// offending values, in the manner of PyTorch's TORCH_CHECK messages; a broken invariant of the
// library becomes a strided::InternalError, which is not an Error.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace strided {

// A user's error: bad input to an op (PyTorch's TORCH_CHECK, raised as c10::Error). Tests and the
// chapters' checks that expect a refusal accept this type alone.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A broken invariant of the library: a bug, never bad input (PyTorch's TORCH_INTERNAL_ASSERT,
// "INTERNAL ASSERT FAILED"). It is deliberately not an Error, so a test or a chapter that expects
// a user's error fails when a library bug raises one instead.
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

namespace detail {
template <class... Args>
std::string concat(Args&&... args) {
  std::ostringstream out;
  (out << ... << std::forward<Args>(args));
  return out.str();
}
}  // namespace detail

}  // namespace strided

// STRIDED_CHECK(cond, "op: ", values...) throws strided::Error with the concatenated message.
#define STRIDED_CHECK(cond, ...)                                         \
  do {                                                                   \
    if (!(cond)) throw ::strided::Error(::strided::detail::concat(__VA_ARGS__)); \
  } while (0)

// Internal invariants: a failure is a bug in the library, not bad input (strided::InternalError).
#define STRIDED_INTERNAL_ASSERT(cond)                                                            \
  do {                                                                                           \
    if (!(cond))                                                                                 \
      throw ::strided::InternalError(::strided::detail::concat("internal error at ", __FILE__,   \
                                                               ":", __LINE__, ": ", #cond));     \
  } while (0)
