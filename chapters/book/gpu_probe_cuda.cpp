// Compiled into a chapter only when the strided_cuda target exists: it tells the book runtime
// whether a CUDA device is present, in the CUDA runtime's own words when it is not.
#include "book/gpu.h"
#include "strided/cuda/runtime.h"

namespace {
book::GpuInfo probe_cuda() {
  book::GpuInfo info;
  info.available = strided::cuda::available();
  if (info.available) {
    info.name = strided::cuda::device_name();
  } else {
    info.reason = strided::cuda::unavailable_reason();
    info.plain = strided::cuda::plain_reason(info.reason);
  }
  const std::string runtime = strided::cuda::runtime_version();
  if (runtime != "none")
    info.runtime = "CUDA runtime " + runtime + ", driver " + strided::cuda::driver_version();
  return info;
}
[[maybe_unused]] const bool registered = book::register_gpu_probe(&probe_cuda);
}  // namespace
