#include "strided/cuda/matmul.h"

#include "strided/cuda/backend.h"
#include "strided/cuda/elementwise.h"
#include "strided/cuda/gemm_layout.h"
#include "strided/cuda/runtime.h"
#include "strided/cuda/out_checks.h"

namespace strided::cuda {

namespace {

void check_matrix(const Tensor& t, const char* op, const char* what) {
  STRIDED_CHECK(t.defined(), op, what, " is an undefined tensor");
  STRIDED_CHECK(t.device().is_cuda(), op, "expected ", what, " on a CUDA device, got ",
                t.device().str());
  STRIDED_CHECK(t.dtype() == DType::Float32, op, "the GPU matmul is compiled for float32 only, ",
                what, " is ", name(t.dtype()));
  STRIDED_CHECK(t.dim() == 2, op, "expected ", what, " to be 2-D, got shape ",
                to_string(t.sizes()));
}

// Xᵀ as cuBLAS reads it from X's memory; an operand with no such reading is copied contiguous.
BlasOperand blas_operand(Tensor& x) {
  if (auto r = transposed_operand(x.layout())) return *r;
  x = cuda::contiguous(x);
  auto r = transposed_operand(x.layout());
  STRIDED_INTERNAL_ASSERT(r.has_value());
  return *r;
}

constexpr const char* kOp = "cuda::matmul";

void check_matmul_operands(const Tensor& a, const Tensor& b) {
  check_matrix(a, kOp, "self");
  check_matrix(b, kOp, "other");
  STRIDED_CHECK(a.device() == b.device(), kOp, "expected both operands on one device, got ",
                a.device().str(), " and ", b.device().str());
  STRIDED_CHECK(a.size(1) == b.size(0), kOp, "mat1 and mat2 shapes cannot be multiplied (",
                a.size(0), "x", a.size(1), " and ", b.size(0), "x", b.size(1), ")");
}

}  // namespace

Tensor& matmul_out(Tensor& out, const Tensor& a, const Tensor& b, MatmulKernel kernel) {
  const char* op = kOp;
  check_matmul_operands(a, b);
  check_matrix(out, op, "out");
  STRIDED_CHECK(out.device() == a.device(), op, "expected out on ", a.device().str(), ", got ",
                out.device().str());
  const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
  STRIDED_CHECK(out.size(0) == M && out.size(1) == N && out.is_contiguous(), op,
                "out must be a contiguous ", M, "x", N, " matrix, got ", out.layout());
  for (const Tensor* in : {&a, &b}) check_no_overlap(op, out, *in, "an operand");
  require_available(op);
  backend::DeviceGuard guard(out.device().index);
  if (M == 0 || N == 0) return out;
  if (K == 0) {  // an empty sum: C = 0
    backend::memset_zero(out.data_ptr(), out.nbytes());
    return out;
  }
  if (kernel != MatmulKernel::Cublas) {
    backend::launch_matmul(kernel,
                           out.data<float>(), a.data<float>(), b.data<float>(), M, N, K,
                           a.stride(0), a.stride(1), b.stride(0), b.stride(1));
    return out;
  }
  Tensor ca = a, cb = b;
  const BlasOperand at = blas_operand(ca);
  const BlasOperand bt = blas_operand(cb);
  const GemmCall call = make_gemm_call(M, N, K, at, bt, std::max<int64_t>(1, N));
  STRIDED_CHECK(call.fits_int32(), op, "(", M, "x", K, ")·(", K, "x", N,
                ") exceeds the 32-bit sizes of the cuBLAS API");
  backend::cublas_sgemm(call, out.data<float>(), ca.data<float>(), cb.data<float>());
  return out;
}

Tensor matmul(const Tensor& a, const Tensor& b, MatmulKernel kernel) {
  check_matmul_operands(a, b);
  require_available(kOp);
  backend::DeviceGuard guard(a.device().index);
  Tensor out = empty({a.size(0), b.size(1)}, {DType::Float32, a.device()});
  return matmul_out(out, a, b, kernel);
}

}  // namespace strided::cuda
