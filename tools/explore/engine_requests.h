// The --jsonl requests that compute values rather than layouts:
//   {"unary":"neg","x":<chain>}  with unary in {neg, add_scalar (x + 1), clone, empty_like,
//                                contiguous}
//   {"binary":"mul","x":<chain>,"y":<chain>}  with binary in {add, sub, mul, div}
//   {"matmul":{"a_shape":[3,4,1,2],"b_shape":[1,2,3],"dtype":"float32"}}
// answered {"shape","stride","storage_offset","dtype","is_contiguous","numel","values"} (values
// row-major, when numel <= kMaxValues) with PyTorch's output layout: the element-wise ops through
// the compute engine's TensorIterator plan (ops.h, NOTE: [Computing output strides]), clone and
// empty_like with memory_format=preserve, contiguous returning a contiguous input itself, matmul
// through strided::matmul. unary also takes abs, exp and sqrt. What PyTorch refuses is answered
// {"error":true,"message":...}; a malformed request is bad input. This file is the one place
// that dispatches them.
#pragma once

#include <optional>

#include "jsonl.h"

namespace strided::explore {

// The answer to an engine request, or nullopt when the request is not one.
std::optional<Json> engine_request(const Request& request, Meter& m);

}  // namespace strided::explore
