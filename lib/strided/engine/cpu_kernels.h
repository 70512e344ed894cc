// The table of CPU kernels each capability exports (dispatch.h): one kernel source,
// cpu_kernels_body.h, compiled three times (cpu_kernels_default.cpp, _avx2.cpp, _avx512.cpp), each
// defining its table in a namespace of its own, as ATen's REGISTER_DISPATCH fills one DispatchStub
// slot per CPU_CAPABILITY. The ops (ops.cpp, copies.cpp, reduce.cpp) make their checks and plans
// once, in baseline code, and call through the table only for the loops.
#pragma once

#include <cstdint>

#include "strided/engine/iterator.h"
#include "strided/engine/ops.h"

namespace strided {

struct CpuKernels {
  const char* name;  // to_string(CpuCapability)
  // The element-wise ops' loops over a checked plan (ops.cpp, run_binary and run_unary).
  void (*binary)(BinaryOp op, const TensorIterator& it, const Scalar& alpha);
  void (*unary)(UnaryOp op, const TensorIterator& it);
  // copy_'s loop over copy_plan (src converted to dst's dtype).
  void (*copy)(const TensorIterator& it);
  // fill_'s loop: value points at one element of the output's dtype; serial for an output that
  // writes one address more than once.
  void (*fill)(const TensorIterator& it, const void* value, bool serial);
  // The reductions over a plan of make_reduction (reduce.cpp): R inputs per output, into out
  // (sum), or into values and/or indices (max, min and their arg forms; either may be null).
  void (*sum)(const TensorIterator& plan, int64_t R, const Tensor& out);
  void (*extreme)(const TensorIterator& plan, int64_t R, bool is_max, const Tensor* values,
                  const Tensor* indices);
};

// The AVX2 and AVX-512 tables exist on x86 only: elsewhere (the wasm build) their files compile
// to nothing, and the baseline table is the only one.
#if defined(__x86_64__) || defined(__i386__)
#define STRIDED_X86_KERNELS 1
#else
#define STRIDED_X86_KERNELS 0
#endif

namespace cpu {
namespace base {
extern const CpuKernels kernels;
}
#if STRIDED_X86_KERNELS
namespace avx2 {
extern const CpuKernels kernels;
}
namespace avx512 {
extern const CpuKernels kernels;
}
#endif
}  // namespace cpu

}  // namespace strided
