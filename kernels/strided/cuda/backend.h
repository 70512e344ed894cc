// The seam between the host logic, compiled in every build, and the code that talks to the CUDA
// runtime and launches kernels, compiled only where nvcc is (runtime.cpp, cublas.cpp,
// *_kernels.cu); a CPU-only build links no_cuda.cpp in its place. Internal to strided_cuda: the
// public operations check their arguments and require_available() before reaching any of this.
//
// Every function here takes plain data (byte pointers, plans, sizes), checks every CUDA call it
// makes, and checks cudaGetLastError() after every launch; a failure throws strided::Error naming
// the CUDA error, the call and its file and line. Launches go to the default stream.
#pragma once

#include <cstdint>

#include "strided/cuda/gemm_layout.h"
#include "strided/cuda/kernel_choice.h"
#include "strided/cuda/plan.h"
#include "strided/cuda/reduce_plan.h"

namespace strided::cuda::backend {

// ---- devices and memory ----------------------------------------------------------------------
int current_device();
void set_device(int index);
// Sets the current device for a scope and restores the previous one, as c10::cuda::CUDAGuard.
class DeviceGuard {
 public:
  explicit DeviceGuard(int index);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = -1;
};

enum class CopyKind : uint8_t { HostToDevice, DeviceToHost, DeviceToDevice };
void memcpy(void* dst, const void* src, int64_t nbytes, CopyKind kind);  // synchronous
void memcpy_peer(void* dst, int dst_device, const void* src, int src_device, int64_t nbytes);
void memset_zero(void* dst, int64_t nbytes);

// ---- element-wise ------------------------------------------------------------------------------
enum class ElementwiseOp : uint8_t { Copy, Add, Mul, AddScalar, MulScalar };
// data[0] is the output; data[1], data[2] the inputs the op reads (Copy and *Scalar read one).
// itemsize selects the element type: 1, 2, 4 or 8 bytes for Copy (bits are moved, not values);
// 4 (float32) for the arithmetic ops. Flat requires plan.is_flat(itemsize). index64 selects the
// strided kernel's 64-bit linear indices, required when plan.numel > INT32_MAX. path is Strided or
// Flat (kernel_choice.h), never Auto; likewise reductions and matmuls below take the kernel chosen.
void launch_elementwise(ElementwiseOp op, ElementwiseKernel path, int64_t itemsize,
                        const ElementwisePlan& plan, char* const data[3], float scalar,
                        bool index64);

// ---- transpose: out (cols×rows, contiguous) = in (rows×cols, element strides s0, s1) ------------
// index64: the tiled version's offsets in 64 bits (tiles_fit_32bit false, launch.h); the naive
// version always uses 64.
inline constexpr int kTransposeTile = 64;  // the tiled version's tile side
void launch_transpose_4byte(TransposeKernel v, void* out, const void* in, int64_t rows,
                            int64_t cols, int64_t s0, int64_t s1, bool index64);

// ---- reductions of float32 along one dim, over make_reduction's plan (reduce_plan.h) -----------
enum class ReduceOp : uint8_t { Sum, Max };
// plan.outputs >= 1 and plan.reduced >= 1.
void launch_reduce(ReduceKernel v, ReduceOp op, const ReducePlan& plan);

// ---- matmul: C (M×N, contiguous) = A (M×K) · B (K×N), element strides ----------------------------
void launch_matmul(MatmulKernel v, float* c, const float* a, const float* b, int64_t M,
                   int64_t N, int64_t K, int64_t a_s0, int64_t a_s1, int64_t b_s0, int64_t b_s1);
// One cublasSgemm with the call's flags and leading dims (gemm_layout.h); a and b as our operands
// (the swap is already in the call), alpha = 1, beta = 0, full FP32 math.
void cublas_sgemm(const GemmCall& call, float* c, const float* a, const float* b);

// ---- events, for timing.h ------------------------------------------------------------------------
// Milliseconds the device spent between two events recorded around launch(), which runs on the
// host and queues work on the default stream.
float time_once_ms(void (*launch)(void*), void* context);

}  // namespace strided::cuda::backend
