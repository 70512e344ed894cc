#include "strided/engine/index_kernel.h"

#include <cstring>
#include <vector>

#include "strided/core/dtype.h"
#include "strided/core/error.h"

namespace strided {

namespace {

// IndexKernel.cpp's grain for index: smaller than the element-wise ops', since each element reads
// its index lists as well.
constexpr int64_t kIndexGrainSize = 3000;

// IndexKernel.cpp's Indexer: the byte offset the index operands add at element i of a row whose
// index pointers are ptrs (steps: their byte strides along the row).
struct Indexer {
  const std::vector<const char*>& ptrs;
  const int64_t* steps;
  IntList sizes, strides;

  int64_t get(int64_t i) const {
    int64_t offset = 0;
    for (size_t k = 0; k < ptrs.size(); ++k) {
      int64_t value;
      std::memcpy(&value, ptrs[k] + i * steps[k], sizeof value);
      if (value < 0) value += sizes[k];
      offset += value * strides[k];
    }
    return offset;
  }
};

enum class Direction : uint8_t { Gather, Scatter, Accumulate };

// One loop over the plan for an element of W bytes (or of dtype, for Accumulate).
template <Direction Dir, size_t W>
TensorIterator::Loop2d index_loop(int ntensors, IntList sizes, IntList strides, DType dtype) {
  return [=](char** data, const int64_t* st, int64_t n0, int64_t n1) {
    const int ni = ntensors - 2;
    std::vector<const char*> ptrs(static_cast<size_t>(ni));
    // IndexKernel.cpp, is_constant_index: every index operand steps 0 along the row.
    bool constant = true;
    for (int k = 0; k < ni; ++k) constant = constant && st[2 + k] == 0;
    const Indexer indexer{ptrs, st + 2, sizes, strides};
    for (int64_t j = 0; j < n1; ++j) {
      char* dst = data[0] + j * st[ntensors];
      char* src = data[1] + j * st[ntensors + 1];
      for (int k = 0; k < ni; ++k) ptrs[k] = data[2 + k] + j * st[ntensors + 2 + k];
      // A row that one index value addresses, contiguous on both sides: one memcpy.
      if constexpr (Dir != Direction::Accumulate) {
        if (constant && st[0] == static_cast<int64_t>(W) && st[1] == static_cast<int64_t>(W)) {
          const int64_t offset = indexer.get(0);
          if constexpr (Dir == Direction::Gather)
            std::memcpy(dst, src + offset, static_cast<size_t>(n0) * W);
          else
            std::memcpy(dst + offset, src, static_cast<size_t>(n0) * W);
          continue;
        }
      }
      const int64_t fixed = constant ? indexer.get(0) : 0;
      for (int64_t i = 0; i < n0; ++i) {
        const int64_t offset = constant ? fixed : indexer.get(i);
        char* d = dst + i * st[0];
        const char* s = src + i * st[1];
        if constexpr (Dir == Direction::Gather) {
          std::memcpy(d, s + offset, W);
        } else if constexpr (Dir == Direction::Scatter) {
          std::memcpy(d + offset, s, W);
        } else {
          // Through Scalar, as every dtype adds: floats in double, integers in int64 (wrapping
          // as they are stored), bools or'ed.
          const Scalar a = load_scalar(d + offset, dtype), b = load_scalar(s, dtype);
          store_scalar(d + offset, dtype,
                       dtype == DType::Bool ? Scalar(a.to_int() != 0 || b.to_int() != 0)
                       : is_floating_point(dtype) ? Scalar(a.to_double() + b.to_double())
                                                  : Scalar(a.to_int() + b.to_int()));
        }
      }
    }
  };
}

template <Direction Dir>
TensorIterator::Loop2d loop_for(const TensorIterator& it, int64_t item, IntList sizes,
                                IntList strides) {
  const int nt = it.ntensors();
  const DType dtype = it.operand(0).dtype();
  if constexpr (Dir == Direction::Accumulate) {
    return index_loop<Dir, 0>(nt, sizes, strides, dtype);
  } else {
    switch (item) {
      case 1:
        return index_loop<Dir, 1>(nt, sizes, strides, dtype);
      case 2:
        return index_loop<Dir, 2>(nt, sizes, strides, dtype);
      case 4:
        return index_loop<Dir, 4>(nt, sizes, strides, dtype);
      case 8:
        return index_loop<Dir, 8>(nt, sizes, strides, dtype);
    }
    STRIDED_INTERNAL_ASSERT(item == 16);
    return index_loop<Dir, 16>(nt, sizes, strides, dtype);
  }
}

void check_plan(const TensorIterator& it, IntList sizes, IntList strides) {
  STRIDED_INTERNAL_ASSERT(it.noutputs() == 1 && it.ntensors() >= 3 &&
                          static_cast<size_t>(it.ntensors() - 2) == sizes.size() &&
                          sizes.size() == strides.size());
}

}  // namespace

void index_kernel(const TensorIterator& it, int64_t item, IntList index_sizes,
                  IntList index_strides) {
  check_plan(it, index_sizes, index_strides);
  it.for_each(loop_for<Direction::Gather>(it, item, index_sizes, index_strides), kIndexGrainSize);
}

void index_put_kernel(const TensorIterator& it, int64_t item, IntList index_sizes,
                      IntList index_strides, bool accumulate) {
  check_plan(it, index_sizes, index_strides);
  const TensorIterator::Loop2d loop =
      accumulate ? loop_for<Direction::Accumulate>(it, item, index_sizes, index_strides)
                 : loop_for<Direction::Scatter>(it, item, index_sizes, index_strides);
  it.serial_for_each(loop, 0, it.numel());
}

}  // namespace strided
