// The one cuBLAS call of the book (CUDA builds only): cublasSgemm with the flags gemm_layout.h chose.
#include <mutex>
#include <vector>

#include "strided/cuda/backend.h"
#include "strided/cuda/check.h"

namespace strided::cuda::backend {

namespace {

// One handle per device, created on first use and kept for the life of the process. It is never
// destroyed: static destructors may run after the CUDA runtime has been torn down, and
// cublasDestroy would then fail or crash (PyTorch keeps its handles in a pool for the same reason).
cublasHandle_t handle_for(int device) {
  static std::mutex mutex;
  static std::vector<cublasHandle_t> handles;
  std::lock_guard lock(mutex);
  if (static_cast<size_t>(device) >= handles.size()) handles.resize(static_cast<size_t>(device) + 1);
  cublasHandle_t& h = handles[static_cast<size_t>(device)];
  if (!h) {
    STRIDED_CUBLAS_CHECK(cublasCreate(&h));
    // Float32 products and sums throughout: CUBLAS_DEFAULT_MATH never rounds SGEMM's inputs to
    // TF32 (that takes CUBLAS_TF32_TENSOR_OP_MATH), which is what PyTorch sets when
    // torch.backends.cuda.matmul.allow_tf32 is False, its default, and what the tolerance in
    // reference.h assumes. Set explicitly so the choice is visible.
    STRIDED_CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  }
  return h;
}

cublasOperation_t to_cublas(BlasTranspose t) { return t == BlasTranspose::N ? CUBLAS_OP_N : CUBLAS_OP_T; }

}  // namespace

void cublas_sgemm(const GemmCall& call, float* c, const float* a, const float* b) {
  STRIDED_INTERNAL_ASSERT(call.fits_int32());
  const float alpha = 1.0f, beta = 0.0f;
  cublasHandle_t h = handle_for(current_device());
  // cuBLAS's A is our b and its B is our a: NOTE: [The swap trick] in gemm_layout.h.
  STRIDED_CUBLAS_CHECK(cublasSgemm(h, to_cublas(call.transa), to_cublas(call.transb),
                                   static_cast<int>(call.m), static_cast<int>(call.n),
                                   static_cast<int>(call.k), &alpha, b, static_cast<int>(call.lda),
                                   a, static_cast<int>(call.ldb), &beta, c,
                                   static_cast<int>(call.ldc)));
}

}  // namespace strided::cuda::backend
