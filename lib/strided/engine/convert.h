// The engine's one loop that converts elements between dtypes: copy_ between two dtypes and the
// element-wise kernels' staging of the operands a kernel computes in a wider type (float16 in
// float32) both run it, each element through convert_element (dtype.h).
//
// Compiled once, in baseline code, rather than in every CPU capability's kernels (dispatch.h): a
// loop for each pair of dtypes is many loops (the dtypes, squared), and at -O2 GCC keeps each of
// them scalar whatever the vector width (vec.h), so the capabilities' copies would be the same
// code compiled three times.
#pragma once

#include <cstdint>

#include "strided/core/dtype.h"

namespace strided {

// n elements from src (dtype sd, byte stride ss) to dst (dtype dd, byte stride ds); strides may be
// negative or 0. A complex dtype is refused (dispatch): complex copies run on their real parts.
void convert_run(char* dst, DType dd, int64_t ds, const char* src, DType sd, int64_t ss,
                 int64_t n);

}  // namespace strided
