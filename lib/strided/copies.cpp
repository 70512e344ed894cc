#include "strided/layout.h"
#include "strided/tensor.h"

namespace strided {

Tensor& Tensor::fill_(const Scalar& value) {
  STRIDED_CHECK(device().is_cpu(), "fill_: tensor is on ", device().str());
  STRIDED_CHECK(has_internal_overlap(sizes_, strides_) != MemOverlap::Yes,
                "fill_: unsupported operation: more than one element of the written-to tensor "
                "refers to a single memory location. Please clone() the tensor before performing "
                "the operation.");
  const int64_t n = numel();
  if (n == 0) return *this;
  char* base = static_cast<char*>(storage_.data());
  const int64_t item = element_size();
  Shape idx(sizes_.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = offset_;
    for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * strides_[d];
    store_scalar(base + off * item, dtype_, value);
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < sizes_[d]) break;
      idx[d] = 0;
    }
  }
  return *this;
}

}  // namespace strided
