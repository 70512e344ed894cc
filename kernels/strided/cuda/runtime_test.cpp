// What the runtime says about this machine. Runs everywhere: where there is a device it must be
// described, where there is none the reason must be the runtime's and every use must refuse.
#include "strided/cuda/runtime.h"

#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <string>

#include "strided/core/error.h"
#include "strided/tensor/storage.h"

using namespace strided;

TEST_CASE("available() and unavailable_reason() agree") {
  if (cuda::available()) {
    MESSAGE("CUDA device: ", cuda::device_name(), ", runtime ", cuda::runtime_version(),
            ", driver ", cuda::driver_version());
    CHECK(cuda::unavailable_reason().empty());
    CHECK(cuda::device_count() >= 1);
    const cuda::DeviceInfo info = cuda::device_info(0);
    CHECK_FALSE(info.name.empty());
    CHECK(info.compute_capability_major >= 1);
    CHECK(info.multiprocessor_count >= 1);
    CHECK(info.total_memory_bytes > 0);
    CHECK(std::regex_match(cuda::driver_version(), std::regex(R"(\d+\.\d+)")));
    CHECK_NOTHROW(cuda::require_available("test"));
  } else {
    MESSAGE("no CUDA device: ", cuda::unavailable_reason());
    const std::string reason = cuda::unavailable_reason();
    if (STRIDED_HAVE_CUDA) {
      // The runtime's own words, e.g. "cudaGetDeviceCount failed: CUDA driver version is
      // insufficient for CUDA runtime version (cudaErrorInsufficientDriver)".
      CHECK(std::regex_match(reason, std::regex(R"(cudaGetDeviceCount (failed: .+ \(cuda\w+\)|found no CUDA device))")));
    } else {
      CHECK(reason == "this build has no CUDA support");
    }
    CHECK(cuda::device_count() == 0);
    CHECK_THROWS_WITH_AS(cuda::require_available("cuda::add"), ("cuda::add: no CUDA device: " + reason).c_str(), Error);
    CHECK_THROWS_AS(cuda::device_info(0), Error);
    CHECK_THROWS_AS(cuda::synchronize(), Error);
    // No allocator was registered: a CUDA storage cannot be made.
    CHECK_THROWS_AS(Storage::allocate(16, Device::cuda()), Error);
  }
}

TEST_CASE("the runtime version is known whenever the build has CUDA") {
  if (STRIDED_HAVE_CUDA) {
    CHECK(std::regex_match(cuda::runtime_version(), std::regex(R"(\d+\.\d+)")));
  } else {
    CHECK(cuda::runtime_version() == "none");
    CHECK(cuda::driver_version() == "none");
  }
}

TEST_CASE("plain_reason says the runtime's usual reasons in a reader's words") {
  using strided::cuda::plain_reason;
  CHECK(plain_reason("") == "");
  CHECK(plain_reason("cudaGetDeviceCount failed: no CUDA-capable device is detected "
                     "(cudaErrorNoDevice)") == "no CUDA device on this machine");
  CHECK(plain_reason("cudaGetDeviceCount failed: CUDA driver version is insufficient for CUDA "
                     "runtime version (cudaErrorInsufficientDriver)") ==
        "no NVIDIA driver on this machine, or one older than the CUDA runtime");
  CHECK(plain_reason("this build has no CUDA support (no CUDA compiler, or "
                     "STRIDED_ENABLE_CUDA=OFF)")
            .rfind("this build has no CUDA support", 0) == 0);
  CHECK(plain_reason("cudaGetDeviceCount failed: something else (cudaErrorUnknown)") ==
        "the CUDA runtime cannot use a device here");
  // On this machine, whatever it is: the words exist exactly when there is a reason.
  CHECK(plain_reason(strided::cuda::unavailable_reason()).empty() == strided::cuda::available());
}

namespace {

// Whether a cuBLAS library is mapped into this process (/proc/self/maps names every file mapped).
bool cublas_mapped() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find("/libcublas.so") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("cuBLAS is opened by the first use that needs it, not when the program starts") {
  // This program links the kernels' library, as every chapter does: loading cuBLAS with it cost
  // 0.09 s before main (cublas.cpp).
  CHECK_FALSE(cublas_mapped());
  const std::string version = strided::cuda::cublas_version();
  if (STRIDED_HAVE_CUDA) {
    // cublasGetProperty needs no device: the library loads and answers on any machine with it.
    CHECK(std::regex_match(version, std::regex(R"(\d+\.\d+\.\d+)")));
    CHECK(cublas_mapped());
  } else {
    CHECK(version == "none");
    CHECK_FALSE(cublas_mapped());
  }
}
