// Linked into every GPU test program (label gpu). Before doctest's main runs a single test case,
// a machine where strided::cuda::available() is false ends the program with exit code 77, which
// ctest's SKIP_RETURN_CODE turns into "skipped", after printing the CUDA runtime's reason. A GPU
// test therefore never reports "passed" where no kernel ran.
#include <cstdio>
#include <cstdlib>

#include "strided/cuda/runtime.h"

namespace {

[[maybe_unused]] const bool g_device_checked = [] {
  if (!strided::cuda::available()) {
    std::printf("skipped: no usable CUDA device: %s\n",
                strided::cuda::unavailable_reason().c_str());
    std::fflush(stdout);
    std::exit(77);
  }
  return true;
}();

}  // namespace
