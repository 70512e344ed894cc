// The in-place ops the explorer offers (add_, mul_, fill_, copy_, zero_, index_put_, and Python's
// x[...] = v), each charged to the request's Meter before it writes. Both front ends (the
// expression language and --jsonl) write through these functions, and they through the library's
// own in-place ops (strided/engine/ops.h, Tensor::copy_, fill_ and index_put_), whose checks are
// PyTorch's: a written-to tensor with a stride-0 dim, an operand that partly overlaps it, a
// result that does not broadcast to its shape or cannot be cast to its dtype, an index out of
// range. What they refuse is rethrown in PyTorch's words alone (torch_words).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "budget.h"
#include "strided/tensor/tensor.h"

namespace strided::explore {

// The explorer's in-place methods, by PyTorch's names.
bool is_inplace(const std::string& name);

// The other operand of add_ and mul_, the value of x[...] = v: a Python number or a tensor.
struct Operand {
  std::optional<Scalar> number;
  Tensor tensor;  // when number is empty
};

// valueToTensor (python_variable_indexing.cpp): a Python number as a 0-d tensor of self's dtype,
// charged to m; a tensor operand as itself.
Tensor value_tensor(const Tensor& self, const Operand& v, Meter& m);

// x.add_(other, alpha=alpha), x.mul_(other), x.fill_(value), x.zero_(), x.copy_(src),
// x.index_put_(indices, values, accumulate): write self's elements; self is returned, as
// PyTorch's in-place methods return it.
const Tensor& bounded_add_(const Tensor& self, const Operand& other, const Scalar& alpha, Meter& m);
const Tensor& bounded_mul_(const Tensor& self, const Operand& other, Meter& m);
const Tensor& bounded_fill_(const Tensor& self, const Scalar& value, Meter& m);
const Tensor& bounded_zero_(const Tensor& self, Meter& m);
const Tensor& bounded_copy_(const Tensor& self, const Tensor& src, Meter& m);
// indices[k] indexes dim k (torch's tuple of 1-D index tensors, read as lists).
const Tensor& bounded_index_put_(const Tensor& self, const std::vector<std::vector<int64_t>>& indices,
                                 const Tensor& values, bool accumulate, Meter& m);
// Python's x[index] = value (torch/csrc/autograd/python_variable_indexing.cpp, THPVariable_setitem):
// a number becomes a 0-d tensor of x's dtype (valueToTensor); with lists in the index the write is
// index_put_ (the lists alone are taken here), otherwise the value is copied into the view
// x[index] (at::indexing::copy_to).
const Tensor& bounded_set_item(const Tensor& self, const std::vector<indexing::TensorIndex>& index,
                               const Operand& value, Meter& m);

// A library refusal in PyTorch's words alone: its message without the op the library names
// first ("add", "copy_()", a field of the Error), the refusal it explains when it has one (copy_'s
// broadcast), and without the layouts the library adds after the words
// (" (written-to tensor (4,3):(0,1))"), which PyTorch's message does not have.
std::string torch_words(const Error& e);

}  // namespace strided::explore
