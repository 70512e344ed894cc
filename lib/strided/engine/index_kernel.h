// The loops of advanced indexing, over the plan indexing.cpp builds as PyTorch's
// make_index_iterator and make_index_put_iterator do (aten/src/ATen/native/
// TensorAdvancedIndexing.cpp): operand 0 the output, operand 1 the input, then one int64 operand
// per indexed dim holding its index list. The tensor that is indexed (the input of index(), the
// output of index_put_) is restrided to stride 0 along the indexed dims, so the plan walks it at
// the first element of each of them; the loop adds, element by element, each list's value times
// the stride of the dim it indexes (aten/src/ATen/native/cpu/IndexKernel.cpp, cpu_index_kernel
// and its Indexer). The values are the caller's to check first: here they only wrap when negative.
#pragma once

#include "strided/core/shape.h"
#include "strided/engine/iterator.h"

namespace strided {

// item is the bytes of one element (1, 2, 4, 8, or 16 for complex128, whose operands have taken
// part in the plan as float64 ones of their layout: indexing.cpp); index_sizes[k] and
// index_strides[k] (in bytes) are the size and the stride of the dim that index operand k (plan
// operand k + 2) indexes.
// index(): out = in at the indexed offset, split over the threads in ranges of at least 3000
// elements, ATen's index_parallel_grain_size.
void index_kernel(const TensorIterator& it, int64_t item, IntList index_sizes,
                  IntList index_strides);
// index_put_(): out at the indexed offset = in, or += in with accumulate (bools or'ed), walked on
// one thread in plan order, so that of the values a repeated index writes, the last one stays, and
// with accumulate all are added in one order every run. PyTorch walks without accumulate on all
// threads, leaving which of them stays undefined.
void index_put_kernel(const TensorIterator& it, int64_t item, IntList index_sizes,
                      IntList index_strides, bool accumulate);

}  // namespace strided
