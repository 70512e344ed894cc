// The one kernel source (cpu_kernels.h), included by cpu_kernels_default.cpp, _avx2.cpp and
// _avx512.cpp after they define
//   STRIDED_CPU_NS     the capability's namespace (base, avx2, avx512) and its table's name;
//   STRIDED_VEC_BYTES  its vector width (16, 32, 64: vec.h);
//   STRIDED_CPU_TARGET the instruction sets the loops may use ("avx2", ...), absent for the baseline.
//
// Why a target pragma rather than ATen's per-file -mavx2 flags: every header the loops share with
// the rest of the library (the standard library, dtype.h's conversions, iterator.h) is included
// here first, as baseline code. Their inline functions, compiled in this file too, stay baseline
// code, so whichever copy the linker keeps runs on any x86-64 CPU; with per-file flags, an inline
// function compiled with AVX-512 in this file could be the copy every caller gets. Only what
// follows the pragma, the loops and vec.h (whose names carry the capability), uses the wider
// instructions; the compiler inlines the baseline helpers into it.
#ifndef STRIDED_CPU_NS
#error "cpu_kernels_body.h is included by the cpu_kernels_*.cpp files only"
#endif

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "strided/engine/cpu_kernels.h"
#include "strided/core/dtype.h"
#include "strided/engine/convert.h"
#include "strided/core/error.h"
#include "strided/engine/iterator.h"
#include "strided/layout/layout.h"
#include "strided/engine/ops.h"
#include "strided/engine/parallel.h"
#include "strided/tensor/promotion.h"
#include "strided/engine/reduce_plan.h"
#include "strided/engine/gather.h"
#include "strided/engine/streaming.h"
#include "strided/tensor/tensor.h"

#if defined(STRIDED_CPU_TARGET) && (defined(__x86_64__) || defined(__i386__))
#define STRIDED_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define STRIDED_TARGET_PUSH(t) \
  STRIDED_PRAGMA(clang attribute push(__attribute__((target(t))), apply_to = function))
STRIDED_TARGET_PUSH(STRIDED_CPU_TARGET)
#else
#define STRIDED_TARGET_PUSH(t) STRIDED_PRAGMA(GCC target(t))
#pragma GCC push_options
STRIDED_TARGET_PUSH(STRIDED_CPU_TARGET)
#endif
#endif

#include "strided/engine/vec.h"
// The loops, in this order: the reductions use nothing of the element-wise ones.
#include "strided/engine/elementwise_loops.h"
#include "strided/engine/reduce_loops.h"

namespace strided::cpu::STRIDED_CPU_NS {

extern const CpuKernels kernels;
const CpuKernels kernels{
    STRIDED_CPU_NAME, binary_loops, unary_loops, copy_loops, fill_loops, sum_kernel,
    extreme_kernel,
};

}  // namespace strided::cpu::STRIDED_CPU_NS

#if defined(STRIDED_CPU_TARGET) && (defined(__x86_64__) || defined(__i386__))
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif
