// The core of the library in one include: dtypes, devices, storage, the layout algebra and Tensor
// with its views and copies. The engine (ops.h, reduce.h, matmul.h), memory sets (memory.h),
// pictures (picture.h) and the access models (models.h) are included where they are used.
#pragma once

#include "strided/device.h"
#include "strided/dtype.h"
#include "strided/error.h"
#include "strided/layout.h"
#include "strided/shape.h"
#include "strided/storage.h"
#include "strided/tensor.h"
