// The CPU kernels for CPUs with AVX2 (dispatch.h): 32-byte vectors. No FMA: the loops never fuse
// a multiply and an add, so their results are the baseline's bits.
#include "strided/engine/cpu_kernels.h"  // STRIDED_X86_KERNELS
#if STRIDED_X86_KERNELS
#define STRIDED_CPU_NS avx2
#define STRIDED_CPU_NAME "avx2"
#define STRIDED_VEC_BYTES 32
#define STRIDED_CPU_TARGET "avx2"
#include "strided/engine/cpu_kernels_body.h"
#endif
