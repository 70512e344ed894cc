#include "strided/cuda/transpose.h"

#include "strided/cuda/backend.h"
#include "strided/cuda/launch.h"
#include "strided/cuda/runtime.h"
#include "strided/cuda/out_checks.h"

namespace strided::cuda {

namespace {
constexpr const char* kTransposeOp = "cuda::transposed_copy";

void check_input(const Tensor& in) {
  STRIDED_CHECK(in.defined(), kTransposeOp, "undefined tensor");
  STRIDED_CHECK(in.device().is_cuda(), kTransposeOp, "expected a CUDA tensor, got one on ",
                in.device().str());
  STRIDED_CHECK(in.dim() == 2, kTransposeOp, "expected a 2-D tensor, got shape ",
                to_string(in.sizes()));
  STRIDED_CHECK(in.element_size() == 4, kTransposeOp,
                "the transpose kernels move 4-byte elements (float32, int32), got ",
                name(in.dtype()));
}
}  // namespace

Tensor& transposed_copy_out(Tensor& out, const Tensor& in, TransposeKernel kernel) {
  check_input(in);
  const int64_t rows = in.size(0), cols = in.size(1);
  check_packed_out(kTransposeOp, out, in, {cols, rows}, in.dtype(),
                   strided::detail::concat(cols, "x", rows, " ", name(in.dtype()), " tensor"));
  check_no_overlap(kTransposeOp, out, in, "the input");
  require_available(kTransposeOp);
  if (out.numel() == 0) return out;
  backend::DeviceGuard guard(in.device().index);
  backend::launch_transpose_4byte(kernel,
                                  out.data_ptr(), in.data_ptr(), rows, cols, in.stride(0),
                                  in.stride(1),
                                  !tiles_fit_32bit(rows, cols, in.stride(0), in.stride(1),
                                                   backend::kTransposeTile));
  return out;
}

Tensor transposed_copy(const Tensor& in, TransposeKernel kernel) {
  check_input(in);
  require_available(kTransposeOp);
  backend::DeviceGuard guard(in.device().index);
  Tensor out = empty({in.size(1), in.size(0)}, {in.dtype(), in.device()});
  return transposed_copy_out(out, in, kernel);
}

}  // namespace strided::cuda
