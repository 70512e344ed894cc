#include "strided/engine/dispatch.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "strided/engine/cpu_kernels.h"
#include "strided/core/error.h"

namespace strided {

namespace {

const CpuKernels& table_of(CpuCapability c) {
#if STRIDED_X86_KERNELS
  switch (c) {
    case CpuCapability::AVX2:
      return cpu::avx2::kernels;
    case CpuCapability::AVX512:
      return cpu::avx512::kernels;
    case CpuCapability::Default:
      break;
  }
#else
  (void)c;  // detect() never finds a wider capability off x86 (the wasm build)
#endif
  return cpu::base::kernels;
}

CpuCapability detect() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  // ATen's cpu/Utils.cpp, is_cpu_support_avx512, and DispatchStub.cpp's AVX2 check (avx2, fma3).
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq"))
    return CpuCapability::AVX512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return CpuCapability::AVX2;
#endif
  return CpuCapability::Default;
}

void check_supported(CpuCapability c, const char* how) {
  const CpuCapability best = max_cpu_capability();
  STRIDED_CHECK(c <= best, "", how, " asks for the ", to_string(c),
                " kernels, which this CPU cannot run: it supports ", to_string(best),
                " at best (default < avx2 < avx512)");
}

// DispatchStub.cpp, compute_cpu_capability: the variable when set, else the CPU's best.
CpuCapability choose() {
  const char* env = std::getenv("STRIDED_CPU_CAPABILITY");
  if (env == nullptr || *env == '\0') return max_cpu_capability();
  for (CpuCapability c : {CpuCapability::Default, CpuCapability::AVX2, CpuCapability::AVX512}) {
    if (std::strcmp(env, to_string(c)) != 0) continue;
    check_supported(c, "STRIDED_CPU_CAPABILITY");
    return c;
  }
  throw Error("STRIDED_CPU_CAPABILITY", detail::concat("'", env,
                                                       "' names no CPU capability: "
                                                       "expected default, avx2 or avx512"));
}

std::atomic<const CpuKernels*> chosen{nullptr};
std::atomic<CpuCapability> chosen_capability{CpuCapability::Default};
std::mutex choosing;

}  // namespace

const char* to_string(CpuCapability c) {
  switch (c) {
    case CpuCapability::AVX2:
      return "avx2";
    case CpuCapability::AVX512:
      return "avx512";
    case CpuCapability::Default:
      break;
  }
  return "default";
}

CpuCapability max_cpu_capability() {
  static const CpuCapability best = detect();
  return best;
}

const CpuKernels& cpu_kernels() {
  if (const CpuKernels* k = chosen.load(std::memory_order_acquire)) return *k;
  std::lock_guard<std::mutex> lock(choosing);
  if (const CpuKernels* k = chosen.load(std::memory_order_acquire)) return *k;
  const CpuCapability c = choose();  // throws, and chooses again at the next op, on a bad variable
  chosen_capability.store(c, std::memory_order_relaxed);
  chosen.store(&table_of(c), std::memory_order_release);
  return table_of(c);
}

CpuCapability cpu_capability() {
  cpu_kernels();
  return chosen_capability.load(std::memory_order_relaxed);
}

const char* cpu_capability_name() {
  return to_string(cpu_capability());
}

void set_cpu_capability(CpuCapability c) {
  check_supported(c, "set_cpu_capability");
  std::lock_guard<std::mutex> lock(choosing);
  chosen_capability.store(c, std::memory_order_relaxed);
  chosen.store(&table_of(c), std::memory_order_release);
}

}  // namespace strided
