// strided-cuda-info: can this machine run the book's CUDA kernels? `tools/book doctor` prints its
// answer. It asks the CUDA runtime the same question the GPU tests and chapters ask
// (strided::cuda::available), and says the answer in a reader's words first, the runtime's after.
#include <cstdio>
#include <string>

#include "strided/cuda/runtime.h"

int main() {
  namespace cuda = strided::cuda;
  if (!cuda::available()) {
    const std::string reason = cuda::unavailable_reason();
    std::printf("not usable: %s\n", cuda::plain_reason(reason).c_str());
    std::printf("detail: %s\n", reason.c_str());
    std::printf("GPU tests report skipped and GPU claims not run.\n");
    return 0;
  }
  std::printf("usable: %d device(s); CUDA runtime %s, driver supports up to %s; cuBLAS %s\n",
              cuda::device_count(), cuda::runtime_version().c_str(),
              cuda::driver_version().c_str(), cuda::cublas_version().c_str());
  for (int i = 0; i < cuda::device_count(); ++i) {
    const cuda::DeviceInfo d = cuda::device_info(i);
    std::printf("device %d: %s, compute capability %d.%d, %d multiprocessors, %.1f GiB\n", i,
                d.name.c_str(), d.compute_capability_major, d.compute_capability_minor,
                d.multiprocessor_count,
                static_cast<double>(d.total_memory_bytes) / (1024.0 * 1024.0 * 1024.0));
  }
  return 0;
}
