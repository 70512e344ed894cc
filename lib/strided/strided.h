// The whole library in one include.
#pragma once

#include "strided/device.h"
#include "strided/dtype.h"
#include "strided/error.h"
#include "strided/layout.h"
#include "strided/shape.h"
#include "strided/storage.h"
#include "strided/tensor.h"
