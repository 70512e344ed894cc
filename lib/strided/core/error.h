// Errors: every bad input becomes a strided::Error whose message names the operation and the
// offending values, in the manner of PyTorch's TORCH_CHECK messages.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace strided {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
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

// Internal invariants: a failure is a bug in the library, not bad input.
#define STRIDED_INTERNAL_ASSERT(cond)                                                      \
  do {                                                                                     \
    if (!(cond))                                                                           \
      throw ::strided::Error(::strided::detail::concat("internal error at ", __FILE__, ":", \
                                                       __LINE__, ": ", #cond));            \
  } while (0)
