// Is there a CUDA device, and which one: the questions every GPU chapter, test and benchmark asks
// first. A machine without one is an honest answer ("not run", with the runtime's reason), never
// an error and never a pass.
#pragma once

#include <cstdint>
#include <string>

namespace strided::cuda {

// True when this build has CUDA support and the runtime reports at least one usable device. The
// first call also registers the CUDA allocator (cudaMalloc/cudaFree, never managed memory) with
// strided::register_allocator, so strided::empty(..., {dtype, Device::cuda()}) works after it.
bool available();

// Why available() is false, in the CUDA runtime's words: "this build has no CUDA support", or
// e.g. "cudaGetDeviceCount failed: CUDA driver version is insufficient for CUDA runtime version
// (cudaErrorInsufficientDriver)". Empty when available() is true.
std::string unavailable_reason();

// unavailable_reason() said plainly, for a reader rather than a CUDA programmer: "no CUDA device
// on this machine", "no NVIDIA driver on this machine, or one older than the CUDA runtime", "this
// build has no CUDA support". The raw reason stays the detail. Host code: defined in every build.
std::string plain_reason(const std::string& reason);

// Throws strided::Error "<op>: no CUDA device: <reason>" unless available(). Every operation of
// strided::cuda calls it after checking its arguments.
void require_available(const char* op);

int device_count();  // 0 when unavailable

// Provenance for a recorded run: what ran it.
struct DeviceInfo {
  int index = 0;
  std::string name;               // "NVIDIA H100 80GB HBM3"
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessor_count = 0;
  int64_t total_memory_bytes = 0;
};
DeviceInfo device_info(int index = 0);
std::string device_name(int index = 0);
// "13.0": the CUDA runtime this program was linked with (cudaRuntimeGetVersion), and the newest
// CUDA version the installed driver supports (cudaDriverGetVersion); "none" when there is none.
std::string runtime_version();
std::string driver_version();
// "13.1.0": the cuBLAS the products use (cublasGetProperty), which is loaded then, on first use,
// not when the program starts (cublas.cpp); "none" in a build without CUDA. Throws when the
// library cannot be loaded.
std::string cublas_version();

// Waits for all work queued on the current device and reports any error it raised.
void synchronize();

}  // namespace strided::cuda
