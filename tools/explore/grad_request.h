// strided-explore --jsonl's gradient request, through the library's autograd (strided/autograd):
//   {"grad":{"start":{"shape":[2,3],"dtype":"float64"},"ops":[...]}}
// The leaf x is the chain's start tensor (arange(numel) reshaped, as a view chain's) with
// requires_grad; the ops run on it in turn, giving y. They are a view chain's (jsonl.h) but for
// the ones without a derivative here (split_with_sizes, tensor_split, h/v/dsplit, view_dtype,
// alias, atleast_1d/2d/3d, copy_, index_put_), the in-place add_, mul_ (a number as other),
// fill_ and zero_ with PyTorch's refusals (a leaf that requires grad, a view of one, one output
// of split, chunk or unbind; and at backward, a saved tensor written since), and five more:
//   {"op":"sum","dim":..,"keepdim":..}  {"op":"mean","dim":..,"keepdim":..}  (no dim: every dim)
//   {"op":"exp"}  {"op":"log"}  {"op":"pow","exponent":2.5}  {"op":"mul_self"} (y * y)
// Backward runs from (y * w).sum(), w = arange(1, y.numel() + 1) shaped like y, so that every
// element of y has its own weight. The answer is x.grad: {"shape","stride","values"}, values
// row-major when numel <= kMaxValues, NaN and infinities as float_json writes them; what PyTorch
// refuses (requires_grad on an integer dtype, an op's arguments, backward through a detached
// result) is {"error":true,"message":...}, and a malformed request is bad input naming the field.
// Bounded as a chain is: the leaf and each op are charged before they run, and before backward
// runs, the gradients it allocates (budget.h). A request takes at most kMaxGradOps ops: the graph
// is freed node by node, recursively.
#pragma once

#include <optional>
#include <vector>

#include "jsonl.h"

namespace strided::explore {

inline constexpr size_t kMaxGradOps = 64;

// The answer to {"grad":...}, or nullopt when the request has no "grad" key.
std::optional<Json> grad_request(const Request& request, Meter& m);

// The ops a gradient request adds to a view chain's (sum, mean, exp, log, pow, mul_self), each
// with its fields as chain_ops() gives a chain's: what the gradient-request fuzzer draws from.
std::vector<OpFields> grad_math_ops();

}  // namespace strided::explore
