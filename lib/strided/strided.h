// The core of the library in one include: dtypes, devices, storage, the layout algebra and Tensor
// with its views and copies. The engine (ops.h, reduce.h, matmul.h), memory sets (memory.h),
// pictures (picture.h) and the access models (models.h) are included where they are used.
#pragma once

#include "strided/core/device.h"
#include "strided/core/dtype.h"
#include "strided/core/error.h"
#include "strided/layout/layout.h"
#include "strided/core/shape.h"
#include "strided/tensor/storage.h"
#include "strided/tensor/tensor.h"
