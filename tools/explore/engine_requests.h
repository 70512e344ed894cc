// The --jsonl requests that compute values rather than layouts:
//   {"unary":"neg","x":<chain>}  with unary in {neg, add_scalar (x + 1), clone, empty_like,
//                                contiguous}
//   {"binary":"mul","x":<chain>,"y":<chain>}  with binary in {add, sub, mul, div}
//   {"matmul":{"a_shape":[3,4,1,2],"b_shape":[1,2,3],"dtype":"float32"}}
// answered {"shape","stride","storage_offset","values"} with PyTorch's output layout. They need
// the compute engine; this file is the one place that dispatches them.
#pragma once

#include <optional>

#include "jsonl.h"

namespace strided::explore {

// The answer to an engine request, or nullopt when the request is not one.
std::optional<Json> engine_request(const Json& request);

}  // namespace strided::explore
