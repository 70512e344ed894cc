#include "strided/tensor/tensor.h"

#include "strided/layout/layout.h"

namespace strided {

Tensor::Tensor(Storage storage, Layout layout, DType dtype)
    : storage_(std::move(storage)), layout_(std::move(layout)), dtype_(dtype) {
  // The Layout's constructor has checked the ranks and the sizes; what is left is PyTorch's
  // as_strided check against this storage (setStrided, checkInBoundsForStorage).
  const Shape& sizes = layout_.sizes();
  const Shape& strides = layout_.strides();
  const int64_t offset = layout_.storage_offset();
  // A stride that is never stepped may be whatever a view's wrapping arithmetic left (slicing
  // with step 2^63-1 wraps the stride, in PyTorch too): that of a size-1 dim, and every stride and
  // the offset of a tensor with no element, which addresses nothing.
  for (int64_t s : sizes)
    if (s == 0) return;
  for (size_t d = 0; d < sizes.size(); ++d)
    STRIDED_CHECK(strides[d] >= 0 || sizes[d] == 1, "Tensor", "negative stride at dim ", d,
                  ": sizes ", to_string(sizes), ", strides ", to_string(strides));
  STRIDED_CHECK(offset >= 0, "Tensor", "invalid storage offset ", offset);
  const int64_t item = itemsize(dtype_);
  const int64_t needed = storage_nbytes_needed(layout_, item, "Tensor");
  STRIDED_CHECK(needed <= storage_.nbytes(), "Tensor", "sizes ", to_string(sizes), ", strides ",
                to_string(strides), " and storage offset ", offset, " need ", needed,
                " bytes, but the storage holds ", storage_.nbytes());
}

void Tensor::set_conj(bool conj) {
  STRIDED_CHECK(!conj || is_complex(dtype_), "set_conj",
                "only a complex tensor has a conjugate bit, got ", name(dtype_));
  conj_ = conj;
}

int64_t Tensor::size(int64_t d) const {
  return sizes()[wrap_dim(d, dim(), "size")];
}
int64_t Tensor::stride(int64_t d) const {
  return strides()[wrap_dim(d, dim(), "stride")];
}

int64_t Tensor::numel() const {
  // Not a plain product: c10's safe_compute_numel accepts sizes such as [2^63-1, 2, 0], whose
  // partial product overflows int64 before the 0 makes it 0 (torch.ones(1, 1, 0).expand(2**63-1,
  // 2, 0).numel() is 0). checked_numel gives 0 for them and refuses only a real overflow.
  return checked_numel(sizes(), "numel");
}

void* Tensor::data_ptr() const {
  return static_cast<char*>(storage_.data()) + storage_offset() * element_size();
}

int64_t Tensor::offset_of(IntList index) const {
  STRIDED_CHECK(static_cast<int64_t>(index.size()) == dim(), "at", "expected ", dim(),
                " indices for a tensor of shape ", to_string(sizes()), " but got ", index.size());
  int64_t off = storage_offset();
  for (size_t k = 0; k < index.size(); ++k) {
    int64_t i = index[k];
    STRIDED_CHECK(i >= -sizes()[k] && i < sizes()[k], "at", "index ", i,
                  " is out of bounds for dimension ", k, " with size ", sizes()[k]);
    if (i < 0) i += sizes()[k];
    off += i * strides()[k];
  }
  return off;
}

void check_cpu(const Tensor& t, const char* op) {
  check_cpu(t.device(), op);
}

void check_cpu(Device device, const char* op) {
  STRIDED_CHECK(device.is_cpu(), op, "only CPU tensors are supported here, got a tensor on ",
                device.str(), "; copy it to the CPU first");
}

Scalar Tensor::at(IntList index) const {
  check_cpu(*this, "at");
  if (is_complex(dtype_)) refuse_complex("at", dtype_);  // no Scalar holds a complex value
  const int64_t off = offset_of(index);
  return load_scalar(static_cast<const char*>(storage_.data()) + off * element_size(), dtype_);
}

void Tensor::set(IntList index, const Scalar& value) {
  check_cpu(*this, "set");
  if (is_complex(dtype_)) refuse_complex("set", dtype_);
  const int64_t off = offset_of(index);
  store_scalar(static_cast<char*>(storage_.data()) + off * element_size(), dtype_, value);
}

Scalar Tensor::item() const {
  STRIDED_CHECK(numel() == 1, "item", "a Tensor with ", numel(),
                " elements cannot be converted to Scalar");
  Shape zero(sizes().size(), 0);
  return at(zero);
}

std::vector<double> Tensor::to_vector() const {
  check_cpu(*this, "to_vector");
  if (is_complex(dtype_)) refuse_complex("to_vector", dtype_);  // view_as_real(t).to_vector()
  std::vector<double> out;
  const int64_t n = numel();
  if (n == 0) return out;
  out.reserve(static_cast<size_t>(n));
  const char* base = static_cast<const char*>(storage_.data());
  const int64_t item = element_size();
  for_each_index(sizes(), {strides()}, 0, n, [&](const int64_t* off) {
    out.push_back(load_scalar(base + (storage_offset() + off[0]) * item, dtype_).to_double());
  });
  return out;
}

bool Tensor::is_contiguous() const {
  return strided::is_contiguous(layout_);
}
bool Tensor::is_contiguous(MemoryFormat memory_format) const {
  return strided::is_contiguous(layout_, memory_format);
}
bool Tensor::is_non_overlapping_and_dense() const {
  return strided::is_non_overlapping_and_dense(layout_);
}
bool is_contiguous_strict(const Tensor& t) {
  return strided::is_contiguous_strict(t.layout());
}

}  // namespace strided
