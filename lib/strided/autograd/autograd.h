// A small autograd over the strided library, after PyTorch's (torch/csrc/autograd): Variable
// (variable.h), the ops that record a graph (ops.h), its nodes (node.h), backward (engine.h) and
// what a graph keeps alive (memory.h).
#pragma once

#include "strided/autograd/engine.h"
#include "strided/autograd/memory.h"
#include "strided/autograd/node.h"
#include "strided/autograd/ops.h"
#include "strided/autograd/variable.h"
