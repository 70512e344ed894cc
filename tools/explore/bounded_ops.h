// The tensor operations strided-explore offers, with the one bound it adds to the library: inputs
// are untrusted, so no operation may allocate a tensor of more than kMaxElements elements. Views
// allocate nothing and are not bounded; factories and copies are, and say so in their errors.
// Both front ends (the expression language and --jsonl) go through these functions, so they
// agree on every shape, stride, offset and error.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "strided/tensor.h"

namespace strided::explore {

inline constexpr int64_t kMaxElements = int64_t{1} << 24;

// Throws strided::Error "<op>: <what> needs N elements; strided-explore allocates at most
// 16777216 (2^24) per tensor" when elements exceeds the bound.
void check_allocation(int64_t elements, const std::string& op, const std::string& what);

// The start tensor of a --jsonl chain and the explorer's arange: arange(numel) in the dtype,
// reshaped to shape, contiguous. Booleans are arange's values converted (0 is False).
// Errors name op (the request's field, "start.shape").
Tensor arange_shaped(IntList shape, DType dtype, const std::string& op);

Tensor bounded_arange(int64_t start, int64_t end, int64_t step, DType dtype);
Tensor bounded_full(IntList shape, const Scalar& value, DType dtype, const char* op);
// empty and empty_strided: zero-filled, so that every run of the explorer prints the same values.
Tensor bounded_empty_strided(IntList shape, IntList strides, DType dtype);
Tensor bounded_rand(IntList shape, uint64_t seed, DType dtype, bool normal);
// torch.tensor(data): values in row-major order and the shape of the nested lists.
Tensor bounded_from_values(const std::vector<Scalar>& values, IntList shape, DType dtype);

// Operations that may copy: bounded only when they do.
Tensor bounded_reshape(const Tensor& t, IntList shape);
Tensor bounded_flatten(const Tensor& t, int64_t start_dim, int64_t end_dim);
Tensor bounded_contiguous(const Tensor& t);
Tensor bounded_clone(const Tensor& t);
Tensor bounded_flip(const Tensor& t, IntList dims);
Tensor bounded_to(const Tensor& t, DType dtype);
Tensor bounded_index(const Tensor& t, const std::vector<indexing::TensorIndex>& index);

}  // namespace strided::explore
