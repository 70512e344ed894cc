// The view ops with several outputs: each output is a narrow, slice or select of the input, so
// each is a view of the same storage and none allocates.
// Reference: aten/src/ATen/native/TensorShape.cpp (PyTorch 1.13): split, split_with_sizes, chunk,
// unbind, tensor_split, hsplit, vsplit, dsplit; the argument checks come in PyTorch's order, so a
// call with two faults is refused for the one PyTorch names.
#include "strided/layout/layout.h"
#include "strided/tensor/tensor.h"

namespace strided {

std::vector<Tensor> Tensor::split(int64_t split_size, int64_t dim) const {
  STRIDED_CHECK(defined(), "split()", "the tensor is undefined (default-constructed)");
  STRIDED_CHECK(this->dim() != 0, "split()", "split expects at least a 1-dimensional tensor");
  STRIDED_CHECK(split_size >= 0, "split()",
                "split expects split_size be non-negative, but got "
                "split_size=",
                split_size);
  const int64_t d = wrap_dim(dim, this->dim(), "split()");
  const int64_t dim_size = sizes()[d];
  STRIDED_CHECK(split_size > 0 || dim_size == 0, "split()",
                "split_size can only be 0 if dimension size is 0, but got dimension "
                "size of ",
                dim_size);
  // ceil(dim_size / split_size), at least 1 (a split_size past the dim gives the whole dim once);
  // written without PyTorch's dim_size + split_size - 1, which overflows for a huge split_size.
  const int64_t parts =
      split_size == 0 || dim_size == 0 ? 1 : (dim_size - 1) / split_size + 1;
  std::vector<Tensor> out;
  out.reserve(static_cast<size_t>(parts));
  for (int64_t i = 0; i < parts; ++i) {
    const int64_t start = i * split_size;
    out.push_back(narrow(d, start, i < parts - 1 ? split_size : dim_size - start));
  }
  return out;
}

std::vector<Tensor> Tensor::split_with_sizes(IntList split_sizes, int64_t dim) const {
  STRIDED_CHECK(defined(), "split_with_sizes()", "the tensor is undefined (default-constructed)");
  STRIDED_CHECK(this->dim() != 0, "split_with_sizes()",
                "split expects at least a 1-dimensional tensor");
  const int64_t d = wrap_dim(dim, this->dim(), "split_with_sizes()");
  const int64_t dim_size = sizes()[d];
  std::vector<Tensor> out;
  out.reserve(split_sizes.size());
  Checked start(0);
  for (int64_t length : split_sizes) {
    STRIDED_CHECK(length >= 0, "split_with_sizes()",
                  "split_with_sizes expects split_sizes have "
                  "only non-negative entries, but got split_sizes=",
                  to_string(split_sizes));
    // slice clamps, so a sum past the dim only shows in the check below, as in PyTorch.
    const int64_t from = start.overflowed() ? dim_size : std::min(start.value(), dim_size);
    start = start + length;
    const int64_t to = start.overflowed() ? dim_size : std::min(start.value(), dim_size);
    out.push_back(slice(d, from, to));
  }
  STRIDED_CHECK(!start.overflowed() && start.value() == dim_size, "split_with_sizes()",
                "split_with_sizes expects split_sizes to sum exactly to ", dim_size,
                " (input tensor's size at dimension ", dim,
                "), but got split_sizes=", to_string(split_sizes));
  return out;
}

std::vector<Tensor> Tensor::chunk(int64_t chunks, int64_t dim) const {
  // chunk is split by ceil(dim_size / chunks), so it may return fewer than chunks outputs; an
  // empty dim gives exactly chunks empty outputs (through split_with_sizes in PyTorch).
  STRIDED_CHECK(defined(), "chunk()", "the tensor is undefined (default-constructed)");
  STRIDED_CHECK(this->dim() > 0, "chunk()", "chunk expects at least a 1-dimensional tensor");
  STRIDED_CHECK(chunks > 0, "chunk()",
                "chunk expects `chunks` to be greater than 0, got: ", chunks);
  const int64_t d = wrap_dim(dim, this->dim(), "chunk()");
  const int64_t dim_size = sizes()[d];
  if (dim_size == 0) return std::vector<Tensor>(static_cast<size_t>(chunks), slice(d, 0, 0));
  return split((dim_size - 1) / chunks + 1, d);
}

std::vector<Tensor> Tensor::unbind(int64_t dim) const {
  STRIDED_CHECK(defined(), "unbind()", "the tensor is undefined (default-constructed)");
  // A 0-d tensor takes dim -1 or 0 (maybe_wrap_dim's scalar rule), then has no size to read.
  const int64_t d = wrap_dim(dim, this->dim(), "unbind()");
  STRIDED_CHECK(this->dim() > 0, "unbind()", "Dimension specified as ", d,
                " but tensor has no dimensions");
  std::vector<Tensor> out;
  out.reserve(static_cast<size_t>(sizes()[d]));
  for (int64_t i = 0; i < sizes()[d]; ++i) out.push_back(select(d, i));
  return out;
}

namespace {
void check_tensor_split(const Tensor& t, const char* op) {
  STRIDED_CHECK(t.defined(), op, "the tensor is undefined (default-constructed)");
  STRIDED_CHECK(t.dim() > 0, op,
                "tensor_split expected at least a 1-dimensional tensor, but "
                "got a tensor with ",
                t.dim(), " dims");
}
}  // namespace

std::vector<Tensor> Tensor::tensor_split(int64_t sections, int64_t dim) const {
  // sections parts, the first dim_size % sections one longer than the rest (unlike chunk, always
  // exactly sections outputs, empty ones included).
  check_tensor_split(*this, "tensor_split()");
  const int64_t d = wrap_dim(dim, this->dim(), "tensor_split()");
  STRIDED_CHECK(sections > 0, "tensor_split()", "number of sections must be larger than 0, got ",
                sections);
  const int64_t dim_size = sizes()[d];
  const int64_t min_size = dim_size / sections, one_extra = dim_size % sections;
  std::vector<Tensor> out;
  out.reserve(static_cast<size_t>(sections));
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    const int64_t size = min_size + (i < one_extra ? 1 : 0);
    out.push_back(slice(d, start, start + size));
    start += size;
  }
  return out;
}

std::vector<Tensor> Tensor::tensor_split(IntList indices, int64_t dim) const {
  // Cut before each index; the indices are slice bounds, so they wrap when negative and clamp,
  // and a smaller index after a larger one gives an empty part.
  check_tensor_split(*this, "tensor_split()");
  const int64_t d = wrap_dim(dim, this->dim(), "tensor_split()");
  std::vector<Tensor> out;
  out.reserve(indices.size() + 1);
  int64_t start = 0;
  for (int64_t end : indices) {
    out.push_back(slice(d, start, end));
    start = end;
  }
  out.push_back(slice(d, start, sizes()[d]));
  return out;
}

namespace {
// hsplit, vsplit and dsplit: tensor_split along one dim, which needs min_dims dims; the sections
// form also needs the dim's size divisible by sections.
int64_t hvd_dim(const Tensor& t, const char* name, int64_t min_dims, int64_t dim) {
  STRIDED_CHECK(t.defined(), name, "the tensor is undefined (default-constructed)");
  STRIDED_CHECK(t.dim() >= min_dims, name, "torch.", name, " requires a tensor with at least ",
                min_dims, " dimension, but got a tensor with ", t.dim(), " dimensions!");
  return dim;
}
void check_divisible(const Tensor& t, const char* name, int64_t dim, int64_t sections) {
  // sections == -1 divides every size (INT64_MIN % -1 would trap); tensor_split refuses it.
  STRIDED_CHECK(sections != 0 && (sections == -1 || t.size(dim) % sections == 0), name, "torch.",
                name, " attempted to split along dimension ", dim,
                ", but the size of the dimension ", t.size(dim),
                " is not divisible by the split_size ", sections, "!");
}
}  // namespace

std::vector<Tensor> Tensor::hsplit(int64_t sections) const {
  const int64_t d = hvd_dim(*this, "hsplit", 1, dim() == 1 ? 0 : 1);
  check_divisible(*this, "hsplit", d, sections);
  return tensor_split(sections, d);
}
std::vector<Tensor> Tensor::hsplit(IntList indices) const {
  return tensor_split(indices, hvd_dim(*this, "hsplit", 1, dim() == 1 ? 0 : 1));
}
std::vector<Tensor> Tensor::vsplit(int64_t sections) const {
  const int64_t d = hvd_dim(*this, "vsplit", 2, 0);
  check_divisible(*this, "vsplit", d, sections);
  return tensor_split(sections, d);
}
std::vector<Tensor> Tensor::vsplit(IntList indices) const {
  return tensor_split(indices, hvd_dim(*this, "vsplit", 2, 0));
}
std::vector<Tensor> Tensor::dsplit(int64_t sections) const {
  const int64_t d = hvd_dim(*this, "dsplit", 3, 2);
  check_divisible(*this, "dsplit", d, sections);
  return tensor_split(sections, d);
}
std::vector<Tensor> Tensor::dsplit(IntList indices) const {
  return tensor_split(indices, hvd_dim(*this, "dsplit", 3, 2));
}

}  // namespace strided
