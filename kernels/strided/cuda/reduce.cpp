#include "strided/cuda/reduce.h"

#include "strided/cuda/backend.h"
#include "strided/cuda/elementwise.h"
#include "strided/cuda/runtime.h"
#include "strided/layout/layout.h"
#include "strided/cuda/out_checks.h"

namespace strided::cuda {

namespace {

// The input seen as (outer, reduced, inner) around dim, and the result's shape.
struct Split {
  int64_t dim = 0;
  int64_t outer = 1, reduced = 1, inner = 1;
  Shape out_sizes;
};

Split check_and_split(const char* op, backend::ReduceOp kind, const Tensor& in, int64_t dim) {
  STRIDED_CHECK(in.defined(), op, ": undefined tensor");
  STRIDED_CHECK(in.device().is_cuda(), op, ": expected a CUDA tensor, got one on ",
                in.device().str());
  STRIDED_CHECK(in.dtype() == DType::Float32, op,
                ": the GPU reductions are compiled for float32 only, got ", name(in.dtype()));
  Split s;
  s.dim = wrap_dim(dim, in.dim(), op);
  for (int64_t k = 0; k < in.dim(); ++k) {
    const int64_t size = in.sizes()[static_cast<size_t>(k)];
    if (k < s.dim) s.outer *= size;
    if (k == s.dim) s.reduced = size;
    if (k > s.dim) s.inner *= size;
    if (k != s.dim) s.out_sizes.push_back(size);
  }
  STRIDED_CHECK(kind != backend::ReduceOp::Max || s.reduced > 0 || s.outer * s.inner == 0, op,
                ": Expected reduction dim ", s.dim, " to have non-zero size (input shape ",
                to_string(in.sizes()), ")");
  return s;
}

backend::ReduceVersion version(ReduceKernel k, int64_t inner) {
  if (k == ReduceKernel::Auto)
    k = inner == 1 ? ReduceKernel::BlockPerRow : ReduceKernel::ColumnSplit;
  return k == ReduceKernel::ThreadPerOutput ? backend::ReduceVersion::ThreadPerOutput
         : k == ReduceKernel::BlockPerRow   ? backend::ReduceVersion::BlockPerRow
                                            : backend::ReduceVersion::ColumnSplit;
}

Tensor& reduce_out(const char* op, backend::ReduceOp kind, Tensor& out, const Tensor& in,
                   int64_t dim, ReduceKernel kernel) {
  const Split s = check_and_split(op, kind, in, dim);
  check_packed_out(op, out, in, s.out_sizes, DType::Float32,
                   "float32 tensor of shape " + to_string(s.out_sizes));
  check_no_overlap(op, out, in, "the input");
  require_available(op);
  if (out.numel() == 0) return out;
  backend::DeviceGuard guard(in.device().index);
  if (s.reduced == 0) {  // a sum over nothing is 0
    backend::memset_zero(out.data_ptr(), out.nbytes());
    return out;
  }
  const Tensor src = cuda::contiguous(in);
  backend::launch_reduce(version(kernel, s.inner), kind, out.data<float>(), src.data<float>(),
                         s.outer, s.reduced, s.inner);
  return out;
}

Tensor reduce(const char* op, backend::ReduceOp kind, const Tensor& in, int64_t dim,
              ReduceKernel kernel) {
  const Split s = check_and_split(op, kind, in, dim);
  require_available(op);
  backend::DeviceGuard guard(in.device().index);
  Tensor out = strided::empty(s.out_sizes, {DType::Float32, in.device()});
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
