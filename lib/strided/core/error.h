// Errors: every bad input becomes a strided::Error whose message names the operation and the
// offending values, in the manner of PyTorch's TORCH_CHECK messages; a broken invariant of the
// library becomes a strided::InternalError, which is not an Error.
#pragma once

#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace strided {

// A user's error: bad input to an op (PyTorch's TORCH_CHECK, raised as c10::Error). Tests and the
// chapters' checks that expect a refusal accept this type alone.
// It carries the op that refused ("view()", "matmul") apart from the words, so that an op which
// calls another can raise the refusal in its own name (renamed) without reading the text back.
// what() is "op: message", as PyTorch words its refusals; an empty op is a message that names no
// op, as autograd's own ("Trying to backward through the graph a second time ...").
class Error : public std::runtime_error {
 public:
  Error(std::string op, std::string message)
      : std::runtime_error(op.empty() ? message : op + ": " + message),
        op_(std::move(op)),
        message_(std::move(message)) {}
  // A refusal that explains another: what() ends with the cause's own what().
  Error(std::string op, std::string message, const Error& cause)
      : Error(std::move(op), message + ": " + cause.what()) {
    cause_ = std::make_shared<const Error>(cause);
  }
  const std::string& op() const { return op_; }
  const std::string& message() const { return message_; }
  const Error* cause() const { return cause_.get(); }  // null when none
  // The same refusal in the name of the op the user wrote.
  Error renamed(std::string op) const { return Error(std::move(op), message_); }

 private:
  std::string op_;
  std::string message_;
  std::shared_ptr<const Error> cause_;
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

// STRIDED_CHECK(cond, op, values...) throws strided::Error(op, the values concatenated):
// STRIDED_CHECK(d < n, "select()", "index ", d, " out of range") says "select(): index 5 out ...".
#define STRIDED_CHECK(cond, op, ...)                                                   \
  do {                                                                                 \
    if (!(cond)) throw ::strided::Error((op), ::strided::detail::concat(__VA_ARGS__)); \
  } while (0)

// Internal invariants: a failure is a bug in the library, not bad input (strided::InternalError).
#define STRIDED_INTERNAL_ASSERT(cond)                                                            \
  do {                                                                                           \
    if (!(cond))                                                                                 \
      throw ::strided::InternalError(::strided::detail::concat("internal error at ", __FILE__,   \
                                                               ":", __LINE__, ": ", #cond));     \
  } while (0)
