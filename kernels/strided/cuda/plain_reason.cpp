// Why no GPU, in a reader's words (see runtime.h). The runtime's reasons name CUDA error codes
// (cudaGetErrorName), which are stable across CUDA versions; anything else is said generally.
#include <string>

#include "strided/cuda/runtime.h"

namespace strided::cuda {

std::string plain_reason(const std::string& reason) {
  if (reason.empty()) return "";
  if (reason.find("no CUDA support") != std::string::npos)
    return "this build has no CUDA support (no CUDA compiler was found when it was configured)";
  if (reason.find("cudaErrorNoDevice") != std::string::npos) return "no CUDA device on this machine";
  if (reason.find("cudaErrorInsufficientDriver") != std::string::npos)
    return "no NVIDIA driver on this machine, or one older than the CUDA runtime";
  return "the CUDA runtime cannot use a device here";
}

}  // namespace strided::cuda
