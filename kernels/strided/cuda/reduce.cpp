#include "strided/cuda/reduce.h"

#include "strided/cuda/backend.h"
#include "strided/cuda/reduce_plan.h"
#include "strided/engine/reduce.h"
#include "strided/cuda/runtime.h"
#include "strided/layout/layout.h"
#include "strided/cuda/out_checks.h"

namespace strided::cuda {

namespace {

// The result's shape (in's without dim) and the wrapped dim, after PyTorch's checks.
struct ReduceArgs {
  int64_t dim = 0;
  int64_t reduced = 1;
  Shape out_sizes;
};

ReduceArgs check(const char* op, backend::ReduceOp kind, const Tensor& in, int64_t dim) {
  STRIDED_CHECK(in.defined(), op, "undefined tensor");
  STRIDED_CHECK(in.device().is_cuda(), op, "expected a CUDA tensor, got one on ",
                in.device().str());
  STRIDED_CHECK(in.dtype() == DType::Float32, op,
                "the GPU reductions are compiled for float32 only, got ", name(in.dtype()));
  ReduceArgs c;
  c.dim = wrap_dim(dim, in.dim(), op);
  c.reduced = in.dim() == 0 ? 1 : in.sizes()[static_cast<size_t>(c.dim)];
  c.out_sizes = reduced_sizes(in.sizes(), c.dim, /*keepdim=*/false);
  const int64_t outputs = checked_numel(c.out_sizes, op);
  STRIDED_CHECK(kind != backend::ReduceOp::Max || c.reduced > 0 || outputs == 0, op,
                "Expected reduction dim ", c.dim, " to have non-zero size (input shape ",
                to_string(in.sizes()), ")");
  return c;
}

// The kernel that runs: the one asked for, or the plan's choice for Auto.
ReduceKernel chosen(ReduceKernel k, const ReducePlan& plan) {
  return k == ReduceKernel::Auto ? auto_version(plan, sizeof(float)) : k;
}

Tensor& reduce_out(const char* op, backend::ReduceOp kind, Tensor& out, const Tensor& in,
                   int64_t dim, ReduceKernel kernel) {
  const ReduceArgs c = check(op, kind, in, dim);
  check_packed_out(op, out, in, c.out_sizes, DType::Float32,
                   "float32 tensor of shape " + to_string(c.out_sizes));
  check_no_overlap(op, out, in, "the input");
  require_available(op);
  if (out.numel() == 0) return out;
  backend::DeviceGuard guard(in.device().index);
  if (c.reduced == 0) {  // a sum over nothing is 0
    backend::memset_zero(out.data_ptr(), out.nbytes());
    return out;
  }
  // The input is walked in place, in whatever layout it has: the plan carries its strides.
  const ReducePlan plan = reduce_plan(make_reduction(op, in, c.dim, {out}), op);
  backend::launch_reduce(chosen(kernel, plan), kind, plan);
  return out;
}

Tensor reduce(const char* op, backend::ReduceOp kind, const Tensor& in, int64_t dim,
              ReduceKernel kernel) {
  const ReduceArgs c = check(op, kind, in, dim);
  require_available(op);
  backend::DeviceGuard guard(in.device().index);
  Tensor out = strided::empty(c.out_sizes, {DType::Float32, in.device()});
  return reduce_out(op, kind, out, in, dim, kernel);
}

}  // namespace

Tensor sum(const Tensor& in, int64_t dim, ReduceKernel kernel) {
  return reduce("cuda::sum", backend::ReduceOp::Sum, in, dim, kernel);
}
Tensor amax(const Tensor& in, int64_t dim, ReduceKernel kernel) {
  return reduce("cuda::amax", backend::ReduceOp::Max, in, dim, kernel);
}
Tensor& sum_out(Tensor& out, const Tensor& in, int64_t dim, ReduceKernel kernel) {
  return reduce_out("cuda::sum", backend::ReduceOp::Sum, out, in, dim, kernel);
}
Tensor& amax_out(Tensor& out, const Tensor& in, int64_t dim, ReduceKernel kernel) {
  return reduce_out("cuda::amax", backend::ReduceOp::Max, out, in, dim, kernel);
}

}  // namespace strided::cuda
