// The explorer's expression language: a small subset of Python's syntax for building a tensor and
// chaining PyTorch methods and indexing on it, e.g.
//     arange(24).reshape(2,3,4).permute(2,0,1)[1:, ::2]
// parsed by hand (recursive descent) into a chain of steps. Parsing knows nothing of tensors; the
// evaluator (evaluate.h) gives the steps their meaning. Every syntax error is an ExploreError
// carrying the span of the offending text, so the message can point at it with a caret.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "strided/core/error.h"
#include "strided/layout/refusal.h"

namespace strided::explore {

// A range of the source text, in bytes: [begin, end).
struct Span {
  size_t begin = 0;
  size_t end = 0;
};

// An error in the user's expression, with the text it is about.
class ExploreError : public Error {
 public:
  ExploreError(const std::string& message, Span span) : Error("", message), span_(span) {}
  // A layout rule's refusal, with the library's explanation of it (bounded_ops.h).
  ExploreError(const std::string& message, Span span, std::optional<LayoutRefusal> why)
      : Error("", message), span_(span), why_(std::move(why)) {}
  Span span() const { return span_; }
  const std::optional<LayoutRefusal>& why() const { return why_; }

 private:
  Span span_;
  std::optional<LayoutRefusal> why_;
};

// The message, the expression, and a caret line under the offending span:
//   error at column 27: permute: number of dims don't match
//     arange(24).reshape(2,3,4).permute(2,0)
//                               ^~~~~~~~~~~~
std::string format_error(const std::string& source, Span span, const std::string& message);
// The same for an error of an expression, and for a layout rule's refusal, after the caret, the
// library's explanation (strided/layout/refusal.h):
//   why: new dim 0 (size 12) spans dims 0 and 1, which cannot merge: merging needs stride[0] =
//   size[1] × stride[1] = 3 × 4 = 12, and stride[0] is 1
//   instead: reshape(12) copies the 12 elements; or contiguous() first, then view(12)
std::string format_error(const std::string& source, const ExploreError& e);

struct Step;

// An argument value: an integer, a float, a tuple or list (Python's (2, 3) or [2, 3]), None,
// True/False, a name (float32, torch.int64), a string ('float32') or a tensor: an expression of
// its own, as z in torch.view_as_real(z).
struct Value {
  enum class Kind { Int, Float, Sequence, None, Bool, Name, String, Tensor };
  Kind kind = Kind::None;
  int64_t integer = 0;
  double real = 0;
  bool boolean = false;
  std::string text;  // Name or String
  std::vector<Value> items;  // Sequence
  bool list = false;         // Sequence: written [...] rather than (...)
  std::vector<Step> steps;   // Tensor: its chain
  Span span;
};

struct Argument {
  std::string keyword;  // empty for a positional argument
  Value value;
  Span span;
};

// One entry of x[...]: an integer, a slice, None, ... or a list of integers.
struct IndexItem {
  enum class Kind { Int, Slice, None, Ellipsis, List };
  Kind kind = Kind::Int;
  int64_t integer = 0;
  std::optional<int64_t> start, stop, step;
  std::vector<int64_t> list;
  Span span;
};

// A factory call, a function call (torch.view_as_real(z)), a method call, a property (x.mT), an
// indexing, or an assignment through an indexing: Python's statement x[...] = value, which can
// only end an expression (Python's __setitem__ returns None; the step shows x after the write).
struct Step {
  enum class Kind { Call, Property, Index, SetItem };
  Kind kind = Kind::Call;
  std::string name;  // function, method or property name; empty for indexing
  bool torch = false;  // the call was written torch.name(...)
  std::vector<Argument> arguments;
  std::vector<IndexItem> index;  // Index and SetItem
  std::optional<Value> assigned;  // SetItem: the value after '='
  Span span;       // the step's own text: "permute(2,0,1)", "[1:, ::2]", "[:, 0] = 5"
  Span name_span;  // the name alone, where errors about the call point
};

// A chain: the first step is a factory call or a torch function applied to a tensor expression,
// the rest apply to the result one after the other; the last may be an assignment, x[...] = v.
struct Expression {
  std::string source;
  std::vector<Step> steps;
};

// Inputs are untrusted: longer expressions or deeper nesting are refused with an ExploreError.
inline constexpr size_t kMaxExpressionLength = 4096;
inline constexpr int kMaxNesting = 32;

Expression parse(const std::string& source);

}  // namespace strided::explore
