// Checking every CUDA and cuBLAS call (CUDA builds only; internal to strided_cuda).
//
// A CUDA error is reported where it is noticed, which for a kernel may be long after the launch:
// a launch itself only fails for a bad configuration (too many threads, too much shared memory),
// caught by cudaGetLastError() right after it; a fault inside the kernel surfaces at the next
// synchronising call. Both throw strided::Error naming the error, the call and its file and line
// (llm.c's cudaCheck, with PyTorch's C10_CUDA_CHECK message shape).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <string>

#include "strided/core/error.h"

namespace strided::cuda::detail {

[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* call, const char* file,
                                          int line) {
  // Clear the error so the next, unrelated check does not report it again (non-sticky errors
  // such as cudaErrorMemoryAllocation stay pending otherwise).
  (void)cudaGetLastError();
  throw ::strided::Error(
      "CUDA error", ::strided::detail::concat(cudaGetErrorString(err), " (", cudaGetErrorName(err),
                                              ") from ", call, " at ", file, ":", line));
}

// cuBLAS's own name and words for a status, from the library loaded on first use (cublas.cpp).
std::string cublas_status_text(cublasStatus_t s);

[[noreturn]] inline void throw_cublas_error(cublasStatus_t s, const char* call, const char* file,
                                            int line) {
  throw ::strided::Error("cuBLAS error", ::strided::detail::concat(cublas_status_text(s), " from ",
                                                                   call, " at ", file, ":", line));
}

}  // namespace strided::cuda::detail

#define STRIDED_CUDA_CHECK(expr)                                                        \
  do {                                                                                  \
    const cudaError_t strided_cuda_err_ = (expr);                                       \
    if (strided_cuda_err_ != cudaSuccess)                                               \
      ::strided::cuda::detail::throw_cuda_error(strided_cuda_err_, #expr, __FILE__, __LINE__); \
  } while (0)

// After every <<<...>>> launch: a bad configuration is reported here, at the launch's line.
#define STRIDED_CUDA_CHECK_LAUNCH() STRIDED_CUDA_CHECK(cudaGetLastError())

#define STRIDED_CUBLAS_CHECK(expr)                                                          \
  do {                                                                                      \
    const cublasStatus_t strided_cublas_status_ = (expr);                                   \
    if (strided_cublas_status_ != CUBLAS_STATUS_SUCCESS)                                    \
      ::strided::cuda::detail::throw_cublas_error(strided_cublas_status_, #expr, __FILE__, __LINE__); \
  } while (0)
