#include "book/gpu.h"

#include <optional>

namespace book {

namespace {
GpuProbe& probe_slot() {
  static GpuProbe probe = nullptr;
  return probe;
}
}  // namespace

bool register_gpu_probe(GpuProbe probe) {
  probe_slot() = probe;
  return true;
}

const GpuInfo& gpu() {
  static const GpuInfo info = [] {
    if (GpuProbe probe = probe_slot()) return probe();
    GpuInfo none;
    none.reason = "this build has no CUDA support (no CUDA compiler, or STRIDED_ENABLE_CUDA=OFF)";
    none.plain = "this build has no CUDA support";
    return none;
  }();
  return info;
}

}  // namespace book
