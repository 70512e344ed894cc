// Is there a CUDA device? The book runtime must answer without linking CUDA, so the answer comes
// through a hook: a build with kernels/ registers a probe (gpu_probe_cuda.cpp, compiled into each
// chapter only when the strided_cuda target exists); without one, there is no GPU and the reason
// says why. GPU claims then report *not run* with that reason — never passed.
#pragma once

#include <string>

namespace book {

struct GpuInfo {
  bool available = false;
  std::string name;     // "NVIDIA H100 80GB HBM3", empty without a device
  std::string runtime;  // "CUDA runtime 12.4, driver 12.6", empty without CUDA
  std::string reason;   // why not available: the CUDA runtime's own words when it has any
  std::string plain;    // the same for a reader: "no CUDA device on this machine"
};

using GpuProbe = GpuInfo (*)();

// Installs the probe; returns true so that a namespace-scope `static bool` can call it at start-up.
bool register_gpu_probe(GpuProbe probe);

// The answer of the registered probe (asked once, then remembered), or "built without CUDA".
const GpuInfo& gpu();

}  // namespace book
