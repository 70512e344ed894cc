// The tensor operations strided-explore offers, each charged to the request's Meter (budget.h)
// before it runs. Views allocate nothing and cost their dims; factories and copies are charged
// for what they allocate and write, and refused, naming the op and the budget, when that would
// pass one. Both front ends (the expression language and --jsonl) go through these functions,
// so they agree on every shape, stride, offset, error and cost.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "budget.h"
#include "strided/tensor.h"

namespace strided::explore {

// The start tensor of a --jsonl chain and each matmul operand: arange(numel) in the dtype,
// reshaped to shape, contiguous. Booleans are arange's values converted (0 is False). Errors
// name op (the request's field, "start.shape").
Tensor arange_shaped(IntList shape, DType dtype, const std::string& op, Meter& m);

Tensor bounded_arange(int64_t start, int64_t end, int64_t step, DType dtype, Meter& m);
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
  m.charge(op, "a view of " + t.layout(), view_cost(t));
  return f();
}

// Operations that may copy: charged for the copy only when they make one.
Tensor bounded_reshape(const Tensor& t, IntList shape, Meter& m);
Tensor bounded_flatten(const Tensor& t, int64_t start_dim, int64_t end_dim, Meter& m);
Tensor bounded_contiguous(const Tensor& t, Meter& m);
Tensor bounded_clone(const Tensor& t, Meter& m);
Tensor bounded_flip(const Tensor& t, IntList dims, Meter& m);
Tensor bounded_to(const Tensor& t, DType dtype, Meter& m);
Tensor bounded_index(const Tensor& t, const std::vector<indexing::TensorIndex>& index, Meter& m);
// torch.matmul, charged by strided::matmul_cost.
Tensor bounded_matmul(const Tensor& a, const Tensor& b, Meter& m);

}  // namespace strided::explore
