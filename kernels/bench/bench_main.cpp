// The benchmark program's main: Google Benchmark's, plus the provenance of the run (the device,
// the CUDA runtime and driver) in the context block every report starts with.
#include <benchmark/benchmark.h>

#include "strided/cuda/runtime.h"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  namespace cuda = strided::cuda;
  if (cuda::available()) {
    benchmark::AddCustomContext("gpu", cuda::device_name());
    benchmark::AddCustomContext("cuda_runtime", cuda::runtime_version());
    benchmark::AddCustomContext("cuda_driver", cuda::driver_version());
  } else {
    benchmark::AddCustomContext("gpu", "none (" + cuda::unavailable_reason() + ")");
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
