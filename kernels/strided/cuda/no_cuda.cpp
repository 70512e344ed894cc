// The CUDA-facing half of strided_cuda in a build without CUDA (no nvcc, or a sanitizer build):
// runtime.h answers truthfully that there is no device, and the backend, which the public
// operations reach only after require_available() has thrown, refuses with the same reason.
#include "strided/cuda/backend.h"
#include "strided/cuda/runtime.h"
#include "strided/core/error.h"

namespace strided::cuda {

namespace {
constexpr const char* kReason = "this build has no CUDA support";

[[noreturn]] void refuse(const char* what) {
  throw Error(what, strided::detail::concat("no CUDA device: ", kReason));
}
}  // namespace

bool available() { return false; }
std::string unavailable_reason() { return kReason; }
int device_count() { return 0; }
void require_available(const char* op) { refuse(op); }
DeviceInfo device_info(int) { refuse("cuda::device_info"); }
std::string device_name(int) { refuse("cuda::device_name"); }
std::string runtime_version() { return "none"; }
std::string driver_version() { return "none"; }
std::string cublas_version() { return "none"; }
void synchronize() { refuse("cuda::synchronize"); }

namespace backend {

int current_device() { refuse("cuda::current_device"); }
void set_device(int) { refuse("cuda::set_device"); }
DeviceGuard::DeviceGuard(int) { refuse("cuda::DeviceGuard"); }
DeviceGuard::~DeviceGuard() = default;
void memcpy(void*, const void*, int64_t, CopyKind) { refuse("cuda::memcpy"); }
void memcpy_peer(void*, int, const void*, int, int64_t) { refuse("cuda::memcpy_peer"); }
void memset_zero(void*, int64_t) { refuse("cuda::memset"); }
void launch_elementwise(ElementwiseOp, ElementwiseKernel, int64_t, const ElementwisePlan&,
                        char* const[3], float, bool) {
  refuse("cuda elementwise kernel");
}
void launch_transpose_4byte(TransposeKernel, void*, const void*, int64_t, int64_t, int64_t,
                            int64_t, bool) {
  refuse("cuda transpose kernel");
}
void launch_reduce(ReduceKernel, ReduceOp, const ReducePlan&) {
  refuse("cuda reduction kernel");
}
void launch_matmul(MatmulKernel, float*, const float*, const float*, int64_t, int64_t, int64_t,
                   int64_t, int64_t, int64_t, int64_t) {
  refuse("cuda matmul kernel");
}
void cublas_sgemm(const GemmCall&, float*, const float*, const float*) { refuse("cublasSgemm"); }
float time_once_ms(void (*)(void*), void*) { refuse("cuda event timing"); }

}  // namespace backend

}  // namespace strided::cuda
