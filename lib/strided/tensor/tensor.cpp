#include "strided/tensor/tensor.h"

#include "strided/layout/layout.h"

namespace strided {

Tensor::Tensor(Storage storage, Shape sizes, Shape strides, int64_t storage_offset, DType dtype)
    : storage_(std::move(storage)),
      sizes_(std::move(sizes)),
      strides_(std::move(strides)),
      offset_(storage_offset),
      dtype_(dtype) {
  STRIDED_CHECK(sizes_.size() == strides_.size(), "Tensor: mismatch in length of strides (",
                strides_.size(), ") and shape (", sizes_.size(), ")");
  bool empty = false;
  for (size_t d = 0; d < sizes_.size(); ++d) {
    STRIDED_CHECK(sizes_[d] >= 0, "Tensor: negative size at dim ", d, ": sizes ",
                  to_string(sizes_));
    empty = empty || sizes_[d] == 0;
  }
  // A stride that is never stepped may be whatever a view's wrapping arithmetic left (slicing
  // with step 2^63-1 wraps the stride, in PyTorch too): that of a size-1 dim, and every stride and
  // the offset of a tensor with no element, which addresses nothing.
  if (empty) return;
  for (size_t d = 0; d < sizes_.size(); ++d)
    STRIDED_CHECK(strides_[d] >= 0 || sizes_[d] == 1, "Tensor: negative stride at dim ", d,
                  ": sizes ", to_string(sizes_), ", strides ", to_string(strides_));
  STRIDED_CHECK(offset_ >= 0, "Tensor: invalid storage offset ", offset_);
  const int64_t item = itemsize(dtype_);
  const int64_t needed = storage_nbytes_needed(sizes_, strides_, offset_, item, "Tensor");
  STRIDED_CHECK(needed <= storage_.nbytes(), "Tensor: sizes ", to_string(sizes_), ", strides ",
                to_string(strides_), " and storage offset ", offset_, " need ", needed,
                " bytes, but the storage holds ", storage_.nbytes());
}

void Tensor::set_conj(bool conj) {
  STRIDED_CHECK(!conj || is_complex(dtype_), "set_conj: only a complex tensor has a conjugate bit, got ",
                name(dtype_));
  conj_ = conj;
}

int64_t Tensor::size(int64_t d) const { return sizes_[wrap_dim(d, dim(), "size")]; }
int64_t Tensor::stride(int64_t d) const { return strides_[wrap_dim(d, dim(), "stride")]; }

int64_t Tensor::numel() const {
  // Not a plain product: c10's safe_compute_numel accepts sizes such as [2^63-1, 2, 0], whose
  // partial product overflows int64 before the 0 makes it 0 (torch.ones(1, 1, 0).expand(2**63-1,
  // 2, 0).numel() is 0). checked_numel gives 0 for them and refuses only a real overflow.
  return checked_numel(sizes_, "numel");
}

void* Tensor::data_ptr() const {
  return static_cast<char*>(storage_.data()) + offset_ * element_size();
}

int64_t Tensor::offset_of(IntList index) const {
  STRIDED_CHECK(static_cast<int64_t>(index.size()) == dim(), "at: expected ", dim(),
                " indices for a tensor of shape ", to_string(sizes_), " but got ", index.size());
  int64_t off = offset_;
  for (size_t k = 0; k < index.size(); ++k) {
    int64_t i = index[k];
    STRIDED_CHECK(i >= -sizes_[k] && i < sizes_[k], "at: index ", i,
                  " is out of bounds for dimension ", k, " with size ", sizes_[k]);
    if (i < 0) i += sizes_[k];
    off += i * strides_[k];
  }
  return off;
}

Scalar Tensor::at(IntList index) const {
  STRIDED_CHECK(device().is_cpu(), "at: tensor is on ", device().str(),
                "; copy it to the CPU first");
  if (is_complex(dtype_)) refuse_complex("at", dtype_);  // no Scalar holds a complex value
  const int64_t off = offset_of(index);
  return load_scalar(static_cast<const char*>(storage_.data()) + off * element_size(), dtype_);
}

void Tensor::set(IntList index, const Scalar& value) {
  STRIDED_CHECK(device().is_cpu(), "set: tensor is on ", device().str(),
                "; copy it to the CPU first");
  if (is_complex(dtype_)) refuse_complex("set", dtype_);
  const int64_t off = offset_of(index);
  store_scalar(static_cast<char*>(storage_.data()) + off * element_size(), dtype_, value);
}

Scalar Tensor::item() const {
  STRIDED_CHECK(numel() == 1, "item: a Tensor with ", numel(),
                " elements cannot be converted to Scalar");
  Shape zero(sizes_.size(), 0);
  return at(zero);
}

std::vector<double> Tensor::to_vector() const {
  STRIDED_CHECK(device().is_cpu(), "to_vector: tensor is on ", device().str(),
                "; copy it to the CPU first");
  if (is_complex(dtype_)) refuse_complex("to_vector", dtype_);  // view_as_real(t).to_vector()
  std::vector<double> out;
  const int64_t n = numel();
  if (n == 0) return out;
  out.reserve(static_cast<size_t>(n));
  const char* base = static_cast<const char*>(storage_.data());
  const int64_t item = element_size();
  for_each_index(sizes_, {strides_}, 0, n, [&](const int64_t* off) {
    out.push_back(load_scalar(base + (offset_ + off[0]) * item, dtype_).to_double());
  });
  return out;
}

bool Tensor::is_contiguous() const { return strided::is_contiguous(sizes_, strides_); }
bool Tensor::is_contiguous(MemoryFormat memory_format) const {
  return strided::is_contiguous(sizes_, strides_, memory_format);
}
bool Tensor::is_non_overlapping_and_dense() const {
  return strided::is_non_overlapping_and_dense(sizes_, strides_);
}
bool is_contiguous_strict(const Tensor& t) {
  return strided::is_contiguous_strict(t.sizes(), t.strides());
}

}  // namespace strided
