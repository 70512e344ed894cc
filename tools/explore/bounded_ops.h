// The tensor operations strided-explore offers, each charged to the request's Meter (budget.h)
// before it runs. Views allocate nothing and cost their dims; factories and copies are charged
// for what they allocate and write, and refused, naming the op and the budget, when that would
// pass one. Both front ends (the expression language and --jsonl) go through these functions,
// so they agree on every shape, stride, offset, error and cost.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "budget.h"
#include "strided/layout/refusal.h"
#include "strided/tensor/tensor.h"

namespace strided::explore {

// The start tensor of a --jsonl chain and each matmul operand: arange(numel) in the dtype,
// reshaped to shape, contiguous. Booleans are arange's values converted (0 is False). Errors
// name op (the request's field, "start.shape").
Tensor arange_shaped(IntList shape, DType dtype, const std::string& op, Meter& m);

Tensor bounded_arange(int64_t start, int64_t end, int64_t step, DType dtype, Meter& m);
// arange with a number that has a fraction (arange(5.0), arange(0, 1, 0.25)): float32 unless dtype
// says otherwise.
Tensor bounded_arange(const Scalar& start, const Scalar& end, const Scalar& step, DType dtype,
                      Meter& m);
Tensor bounded_full(IntList shape, const Scalar& value, DType dtype, const char* op, Meter& m);
// empty and empty_strided (op names which): zero-filled, so that every run of the explorer prints
// the same values.
Tensor bounded_empty(IntList shape, DType dtype, Meter& m);
Tensor bounded_empty_strided(IntList shape, IntList strides, DType dtype, const char* op,
                             Meter& m);
Tensor bounded_rand(IntList shape, uint64_t seed, DType dtype, bool normal, Meter& m);
// torch.tensor(data): values in row-major order and the shape of the nested lists.
Tensor bounded_from_values(const std::vector<Scalar>& values, IntList shape, DType dtype,
                           Meter& m);

// A view op: charged for its dims, then run (f takes nothing and returns the view).
template <class F>
Tensor bounded_view(const Tensor& t, const char* op, Meter& m, F&& f) {
  m.charge(op, "a view of " + to_string(t.layout()), view_cost(t));
  return f();
}

// A view op with several outputs (split, split_with_sizes, chunk, unbind, tensor_split, hsplit,
// vsplit, dsplit), as PyTorch's call spells it, and the one output the chain continues with.
// sizes is split_with_sizes' list, or tensor_split's (and h/v/dsplit's) indices when has_sizes;
// n is split_size, chunks or sections; index picks an output as Python indexes a tuple (-1 is the
// last; past the end is "tuple index out of range").
struct MultiOutputCall {
  std::string op;
  int64_t n = 0;
  Shape sizes;
  bool has_sizes = false;
  int64_t dim = 0;
  int64_t index = 0;
};
// The op is charged for every output it makes (their number comes from its arguments and t's
// layout, before it runs); the one picked is returned.
Tensor bounded_pick(const Tensor& t, const MultiOutputCall& call, Meter& m);
// Whether op names one of the ops above.
bool is_multi_output(const std::string& op);

// A refusal by a layout rule, with the library's explanation of it (strided/layout/refusal.h):
// which rule failed, on which dims, with which numbers, and what works instead. The front ends
// print it after PyTorch's message (the text report) or add it to the error (--jsonl).
class ExplainedError : public Error {
 public:
  ExplainedError(const Error& e, LayoutRefusal why) : Error(e), why_(std::move(why)) {}
  const LayoutRefusal& why() const { return why_; }

 private:
  LayoutRefusal why_;
};
// view, expand and broadcast_to, whose refusals carry the explanation; an error the explanation
// does not cover (the shape's own, a budget's) passes unchanged.
Tensor explained_view(const Tensor& t, IntList shape);
Tensor explained_expand(const Tensor& t, IntList shape, bool broadcast_to);
// The explanation an error carries, if it is an ExplainedError.
std::optional<LayoutRefusal> explanation_of(const Error& e);

// Operations that may copy: charged for the copy only when they make one.
Tensor bounded_reshape(const Tensor& t, IntList shape, Meter& m);
Tensor bounded_flatten(const Tensor& t, int64_t start_dim, int64_t end_dim, Meter& m);
Tensor bounded_contiguous(const Tensor& t, Meter& m);
// resolve_conj copies a conjugated tensor (a view otherwise); conj_physical copies a complex one.
Tensor bounded_resolve_conj(const Tensor& t, Meter& m);
Tensor bounded_conj_physical(const Tensor& t, Meter& m);
// What t.conj_physical() allocates, charged to m (a gradient request's conj_physical too): the
// result, and for a tensor without the conjugate bit the layout probe (a real tensor over t's
// extent) and the probe's unary output that Tensor::conj_physical builds to lay the result out.
void charge_conj_physical(const Tensor& t, Meter& m);
Tensor bounded_clone(const Tensor& t, Meter& m);
Tensor bounded_flip(const Tensor& t, IntList dims, Meter& m);
Tensor bounded_to(const Tensor& t, DType dtype, Meter& m);
Tensor bounded_index(const Tensor& t, const std::vector<indexing::TensorIndex>& index, Meter& m);
// torch.matmul, charged by strided::matmul_cost.
Tensor bounded_matmul(const Tensor& a, const Tensor& b, Meter& m);

}  // namespace strided::explore
