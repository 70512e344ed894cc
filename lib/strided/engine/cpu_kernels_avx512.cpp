// The CPU kernels for CPUs with AVX-512 F, BW, VL and DQ (dispatch.h): 64-byte vectors.
#include "strided/engine/cpu_kernels.h"  // STRIDED_X86_KERNELS
#if STRIDED_X86_KERNELS
#define STRIDED_CPU_NS avx512
#define STRIDED_CPU_NAME "avx512"
#define STRIDED_VEC_BYTES 64
#define STRIDED_CPU_TARGET "avx512f,avx512bw,avx512vl,avx512dq"
#include "strided/engine/cpu_kernels_body.h"
#endif
