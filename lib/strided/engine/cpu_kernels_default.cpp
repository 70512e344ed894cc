// The CPU kernels for any x86-64 CPU (dispatch.h): 16-byte vectors, the SSE2 baseline.
#define STRIDED_CPU_NS base
#define STRIDED_CPU_NAME "default"
#define STRIDED_VEC_BYTES 16
#include "strided/engine/cpu_kernels_body.h"
