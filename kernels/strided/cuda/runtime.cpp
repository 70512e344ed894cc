// The CUDA runtime side of runtime.h and backend.h: device discovery, the allocator, memory copies,
// device guards and event timing. Compiled only in CUDA builds (no_cuda.cpp stands in otherwise).
#include "strided/cuda/runtime.h"

#include <cstdio>
#include <mutex>

#include "strided/cuda/backend.h"
#include "strided/cuda/check.h"
#include "strided/tensor/storage.h"

namespace strided::cuda {

namespace {

struct RuntimeState {
  bool ok = false;
  std::string reason;
  int count = 0;
};

void* cuda_allocate(int64_t nbytes) {
  void* p = nullptr;
  // cudaMalloc(0) may return a null pointer, which Storage reads as out of memory; one byte keeps
  // every storage a unique, valid address, as the CPU allocator does.
  const cudaError_t err = cudaMalloc(&p, static_cast<size_t>(nbytes > 0 ? nbytes : 1));
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    int device = -1;
    (void)cudaGetDevice(&device);
    throw Error("cudaMalloc",
                strided::detail::concat("of ", nbytes, " bytes on cuda:", device,
                                        " failed: ", cudaGetErrorString(err), " (",
                                        cudaGetErrorName(err), ") at ", __FILE__, ":", __LINE__));
  }
  return p;
}

void cuda_deallocate(void* p) {
  // A storage may die while another device is current: free on the device that owns p.
  cudaPointerAttributes attr{};
  int previous = -1;
  const bool switched = cudaPointerGetAttributes(&attr, p) == cudaSuccess &&
                        cudaGetDevice(&previous) == cudaSuccess && attr.device != previous &&
                        cudaSetDevice(attr.device) == cudaSuccess;
  const cudaError_t err = cudaFree(p);
  if (switched) (void)cudaSetDevice(previous);
  // A destructor cannot throw. cudaErrorCudartUnloading means the process is exiting and the
  // runtime already released everything.
  if (err != cudaSuccess && err != cudaErrorCudartUnloading) {
    std::fprintf(stderr, "strided::cuda: cudaFree failed: %s (%s) at %s:%d\n",
                 cudaGetErrorString(err), cudaGetErrorName(err), __FILE__, __LINE__);
  }
  (void)cudaGetLastError();
}

const RuntimeState& state() {
  static const RuntimeState s = [] {
    RuntimeState r;
    const cudaError_t err = cudaGetDeviceCount(&r.count);
    if (err != cudaSuccess) {
      (void)cudaGetLastError();
      r.count = 0;
      r.reason = strided::detail::concat("cudaGetDeviceCount failed: ", cudaGetErrorString(err),
                                         " (", cudaGetErrorName(err), ")");
      return r;
    }
    if (r.count == 0) {
      r.reason = "cudaGetDeviceCount found no CUDA device";
      return r;
    }
    r.ok = true;
    register_allocator(Device::Type::CUDA, Allocator{cuda_allocate, cuda_deallocate});
    return r;
  }();
  return s;
}

std::string version_string(int v) {
  if (v <= 0) return "none";
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

}  // namespace

bool available() { return state().ok; }
std::string unavailable_reason() { return state().reason; }
int device_count() { return state().ok ? state().count : 0; }

void require_available(const char* op) {
  STRIDED_CHECK(available(), op, "no CUDA device: ", unavailable_reason());
}

DeviceInfo device_info(int index) {
  require_available("cuda::device_info");
  STRIDED_CHECK(index >= 0 && index < device_count(), "cuda::device_info", "device cuda:", index,
                " does not exist (", device_count(), " CUDA devices)");
  cudaDeviceProp p{};
  STRIDED_CUDA_CHECK(cudaGetDeviceProperties(&p, index));
  DeviceInfo info;
  info.index = index;
  info.name = p.name;
  info.compute_capability_major = p.major;
  info.compute_capability_minor = p.minor;
  info.multiprocessor_count = p.multiProcessorCount;
  info.total_memory_bytes = static_cast<int64_t>(p.totalGlobalMem);
  return info;
}

std::string device_name(int index) { return device_info(index).name; }

std::string runtime_version() {
  int v = 0;
  return cudaRuntimeGetVersion(&v) == cudaSuccess ? version_string(v) : "none";
}

std::string driver_version() {
  int v = 0;
  return cudaDriverGetVersion(&v) == cudaSuccess ? version_string(v) : "none";
}

void synchronize() {
  require_available("cuda::synchronize");
  STRIDED_CUDA_CHECK(cudaDeviceSynchronize());
}

namespace backend {

int current_device() {
  int d = 0;
  STRIDED_CUDA_CHECK(cudaGetDevice(&d));
  return d;
}

void set_device(int index) { STRIDED_CUDA_CHECK(cudaSetDevice(index)); }

DeviceGuard::DeviceGuard(int index) {
  const int current = current_device();
  if (current != index) {
    set_device(index);
    previous_ = current;
  }
}

DeviceGuard::~DeviceGuard() {
  if (previous_ >= 0) (void)cudaSetDevice(previous_);
}

void memcpy(void* dst, const void* src, int64_t nbytes, CopyKind kind) {
  const cudaMemcpyKind k = kind == CopyKind::HostToDevice   ? cudaMemcpyHostToDevice
                           : kind == CopyKind::DeviceToHost ? cudaMemcpyDeviceToHost
                                                            : cudaMemcpyDeviceToDevice;
  STRIDED_CUDA_CHECK(cudaMemcpy(dst, src, static_cast<size_t>(nbytes), k));
}

void memcpy_peer(void* dst, int dst_device, const void* src, int src_device, int64_t nbytes) {
  STRIDED_CUDA_CHECK(
      cudaMemcpyPeer(dst, dst_device, src, src_device, static_cast<size_t>(nbytes)));
  STRIDED_CUDA_CHECK(cudaDeviceSynchronize());
}

void memset_zero(void* dst, int64_t nbytes) {
  STRIDED_CUDA_CHECK(cudaMemset(dst, 0, static_cast<size_t>(nbytes)));
}

float time_once_ms(void (*launch)(void*), void* context) {
  // Events are created per sample: a few microseconds of host time, outside the timed interval,
  // and no state survives a thrown error.
  struct Events {
    cudaEvent_t start = nullptr, stop = nullptr;
    ~Events() {
      if (start) (void)cudaEventDestroy(start);
      if (stop) (void)cudaEventDestroy(stop);
    }
  } e;
  STRIDED_CUDA_CHECK(cudaEventCreate(&e.start));
  STRIDED_CUDA_CHECK(cudaEventCreate(&e.stop));
  STRIDED_CUDA_CHECK(cudaEventRecord(e.start));
  launch(context);
  STRIDED_CUDA_CHECK(cudaEventRecord(e.stop));
  STRIDED_CUDA_CHECK(cudaEventSynchronize(e.stop));
  float ms = 0;
  STRIDED_CUDA_CHECK(cudaEventElapsedTime(&ms, e.start, e.stop));
  return ms;
}

}  // namespace backend

}  // namespace strided::cuda
