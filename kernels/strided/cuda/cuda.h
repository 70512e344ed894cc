// The CUDA side of the book in one include: device queries, moving tensors, the kernels, timing.
#pragma once

#include "strided/cuda/elementwise.h"
#include "strided/cuda/matmul.h"
#include "strided/cuda/reduce.h"
#include "strided/cuda/runtime.h"
#include "strided/cuda/timing.h"
#include "strided/cuda/to_device.h"
#include "strided/cuda/transpose.h"
