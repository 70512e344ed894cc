// Tensor: a storage, a layout (sizes, strides, storage offset, all in elements) and a dtype.
// Element (i0, i1, ...) lives at byte  data_ptr() + itemsize * sum_k i_k * stride[k]
//                                    = storage.data() + itemsize * (offset + sum_k i_k * stride[k]).
// Names and semantics follow PyTorch's torch.Tensor; PyTorch is the reference for every rule.
// The complex dtypes (complex64, complex128) are viewed (view_as_real, real, imag, conj, H, mH,
// adjoint, view(dtype)), copied (copy_, clone, contiguous, to, fill_ with a real value) and
// printed; element-wise ops, reductions and matmul refuse them with an error naming the op and the
// dtype ("add: complex64 is not supported by this library's kernels"), and so do at, item and
// to_vector, whose Scalar holds no complex value (read a complex tensor through view_as_real).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "strided/core/device.h"
#include "strided/core/dtype.h"
#include "strided/core/error.h"
#include "strided/layout/memory_format.h"
#include "strided/core/shape.h"
#include "strided/tensor/storage.h"

namespace strided {

class Tensor;

namespace indexing {
// One entry of t.index({...}), as PyTorch's C++ frontend: an integer, a Slice, None (a new dim of
// size 1), Ellipsis, or a list of integers (advanced indexing: a copy).
struct NoneType {};
struct EllipsisType {};
inline constexpr NoneType None{};
inline constexpr EllipsisType Ellipsis{};
struct Slice {
  std::optional<int64_t> start, stop;
  int64_t step = 1;
  Slice() = default;
  Slice(std::optional<int64_t> start_, std::optional<int64_t> stop_, int64_t step_ = 1)
      : start(start_), stop(stop_), step(step_) {}
  Slice(NoneType, std::optional<int64_t> stop_ = std::nullopt, int64_t step_ = 1)
      : stop(stop_), step(step_) {}
  Slice(std::optional<int64_t> start_, NoneType, int64_t step_ = 1)
      : start(start_), step(step_) {}
  Slice(NoneType, NoneType, int64_t step_ = 1) : step(step_) {}
};
using TensorIndex = std::variant<int64_t, Slice, NoneType, EllipsisType, std::vector<int64_t>>;
}  // namespace indexing

struct TensorOptions {
  DType dtype = DType::Float32;
  Device device = Device::cpu();
};

class Tensor {
 public:
  Tensor() = default;  // undefined, as a default-constructed at::Tensor
  // A tensor over `storage` with this layout. The layout is checked as as_strided checks it
  // (setStrided and checkInBoundsForStorage): as many strides as sizes, no negative size, stride
  // or offset, and every element inside the storage; a bad one is refused with a strided::Error
  // naming the values, never built.
  Tensor(Storage storage, Layout layout, DType dtype);
  Tensor(Storage storage, Shape sizes, Shape strides, int64_t storage_offset, DType dtype)
      : Tensor(std::move(storage), Layout(std::move(sizes), std::move(strides), storage_offset),
               dtype) {}

  // ---- metadata ------------------------------------------------------------------------------
  bool defined() const { return storage_.defined(); }
  // The layout: sizes, strides and storage offset, in elements (layout.h).
  const Layout& layout() const { return layout_; }
  const Shape& sizes() const { return layout_.sizes(); }
  const Shape& strides() const { return layout_.strides(); }
  int64_t size(int64_t dim) const;    // dim wraps
  int64_t stride(int64_t dim) const;  // dim wraps
  int64_t storage_offset() const { return layout_.storage_offset(); }
  DType dtype() const { return dtype_; }
  // The lazy conjugate bit (PyTorch 1.13's is_conj): the elements read as the complex conjugates of
  // the bytes. Only conj() sets it; every view keeps it; copies out of the tensor resolve it.
  bool is_conj() const { return conj_; }
  // Sets the bit (c10's _set_conj), for the view ops that carry it; a real tensor never has it.
  void set_conj(bool conj);
  Device device() const { return storage_.device(); }
  const Storage& storage() const { return storage_; }
  int64_t dim() const { return layout_.dim(); }
  int64_t numel() const;
  int64_t element_size() const { return itemsize(dtype_); }
  int64_t nbytes() const { return numel() * element_size(); }
  void* data_ptr() const;  // storage.data() + offset * itemsize
  template <class T>
  T* data() const {
    STRIDED_CHECK(dtype_of<T>::value == dtype_, "data", "expected dtype ", name(dtype_),
                  " but got ", name(dtype_of<T>::value));
    return static_cast<T*>(data_ptr());
  }

  // ---- elements, through the address formula (CPU only) --------------------------------------
  // Element offset (in elements, from the storage's start) of a full index; indices wrap like
  // Python's and are bounds-checked.
  int64_t offset_of(IntList index) const;
  Scalar at(IntList index) const;
  void set(IntList index, const Scalar& value);
  Scalar item() const;  // the one element of a one-element tensor
  // All elements in row-major order of the logical shape, as doubles (for checks and printing).
  std::vector<double> to_vector() const;

  // ---- predicates -----------------------------------------------------------------------------
  bool is_contiguous() const;
  // is_contiguous(memory_format=...): ChannelsLast asks for channels-last order (memory_format.h).
  bool is_contiguous(MemoryFormat memory_format) const;
  bool is_non_overlapping_and_dense() const;

  // ---- views: pure metadata changes sharing this storage (views.cpp) ---------------------------
  Tensor select(int64_t dim, int64_t index) const;
  Tensor slice(int64_t dim, std::optional<int64_t> start = std::nullopt,
               std::optional<int64_t> end = std::nullopt, int64_t step = 1) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor permute(IntList dims) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor t() const;
  Tensor mT() const;
  Tensor movedim(IntList source, IntList destination) const;
  Tensor movedim(int64_t source, int64_t destination) const;
  Tensor diagonal(int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  Tensor expand(IntList sizes) const;
  Tensor broadcast_to(IntList sizes) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor squeeze(IntList dims) const;  // PyTorch 2.0: the size-1 dims among dims
  Tensor view(IntList sizes) const;
  // view({}) is a 0-d view, not view(DType{}): a braced list prefers this overload.
  Tensor view(std::initializer_list<int64_t> sizes) const { return view(IntList(sizes)); }
  Tensor as_strided(IntList sizes, IntList strides,
                    std::optional<int64_t> storage_offset = std::nullopt) const;
  Tensor unfold(int64_t dim, int64_t size, int64_t step) const;
  Tensor unflatten(int64_t dim, IntList sizes) const;
  Tensor view_as(const Tensor& other) const;
  Tensor expand_as(const Tensor& other) const;
  // The same bytes read as another dtype (TensorConversions.cpp, view_dtype): when the element
  // size changes by a ratio r, the last dim (stride 1) grows or shrinks by r, the other strides
  // and the offset scale by r.
  Tensor view(DType dtype) const;
  Tensor swapaxes(int64_t axis0, int64_t axis1) const;  // transpose's NumPy spellings
  Tensor swapdims(int64_t dim0, int64_t dim1) const;
  Tensor moveaxis(IntList source, IntList destination) const;  // movedim's
  Tensor moveaxis(int64_t source, int64_t destination) const;
  Tensor detach() const;  // the same layout over the same storage (no autograd here to detach)
  Tensor alias() const;

  // ---- complex views (views.cpp; UnaryOps.cpp, TensorShape.cpp) ----------------------------------
  // conj(): a complex tensor's view with the conjugate bit flipped (no element is touched); a
  // real tensor itself. resolve_conj(): the tensor itself without the bit, else a copy holding the
  // conjugated values. conj_physical(): always a copy for a complex tensor, without the bit.
  Tensor conj() const;
  Tensor resolve_conj() const;
  Tensor conj_physical() const;
  // real(), imag(): the parts as float32/float64 views: view_as_real(...).select(-1, 0 or 1), so
  // strides double and the offset is 2·offset (+1 for imag). real() of a real tensor is the tensor;
  // imag() of one is refused. PyTorch's imag() of a conjugated tensor is a view with its negative
  // bit, which this library does not model: it is refused (resolve_conj() first).
  Tensor real() const;
  Tensor imag() const;
  // H: the conjugate transpose of a matrix (2-D) or a 0-d tensor; mH and adjoint(): of the last
  // two dims of a batch (any dim but 1). A real tensor is only transposed.
  Tensor H() const;
  Tensor mH() const;
  Tensor adjoint() const;

  // ---- views with several outputs (splits.cpp): each output narrows, slices or selects dim -----
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;
  std::vector<Tensor> split_with_sizes(IntList split_sizes, int64_t dim = 0) const;
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  std::vector<Tensor> unbind(int64_t dim = 0) const;
  std::vector<Tensor> tensor_split(int64_t sections, int64_t dim = 0) const;
  std::vector<Tensor> tensor_split(IntList indices, int64_t dim = 0) const;
  std::vector<Tensor> hsplit(int64_t sections) const;  // dim 1, or 0 for a 1-d tensor
  std::vector<Tensor> hsplit(IntList indices) const;
  std::vector<Tensor> vsplit(int64_t sections) const;  // dim 0 of a tensor of 2 dims or more
  std::vector<Tensor> vsplit(IntList indices) const;
  std::vector<Tensor> dsplit(int64_t sections) const;  // dim 2 of a tensor of 3 dims or more
  std::vector<Tensor> dsplit(IntList indices) const;
  // A braced list is indices, never sections: hsplit({1}) cuts before 1, as x.hsplit([1]) does.
  using Indices = std::initializer_list<int64_t>;
  std::vector<Tensor> tensor_split(Indices i, int64_t dim = 0) const {
    return tensor_split(IntList(i), dim);
  }
  std::vector<Tensor> hsplit(Indices i) const { return hsplit(IntList(i)); }
  std::vector<Tensor> vsplit(Indices i) const { return vsplit(IntList(i)); }
  std::vector<Tensor> dsplit(Indices i) const { return dsplit(IntList(i)); }

  // ---- maybe a view, maybe a copy --------------------------------------------------------------
  Tensor reshape(IntList sizes) const;  // a view when compute_view_strides allows, else a copy
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor reshape_as(const Tensor& other) const;  // reshape(other.sizes())
  Tensor contiguous() const;                    // *this when already contiguous
  // *this when is_contiguous(memory_format), else clone(memory_format); Preserve is refused then.
  Tensor contiguous(MemoryFormat memory_format) const;
  Tensor to(DType dtype, bool copy = false) const;  // *this when the dtype matches and !copy
  // *this when the format is Preserve or the one the strides suggest (suggest_memory_format), else
  // a copy laid out in it.
  Tensor to(MemoryFormat memory_format) const;
  Tensor index(std::initializer_list<indexing::TensorIndex> indices) const;
  Tensor index(const std::vector<indexing::TensorIndex>& indices) const;
  // x.index_put_((i0, i1, ...), values, accumulate): writes values, broadcast to the shape of
  // x[i0, i1, ...], into the cells the lists i0, i1, ... (indexing dims 0, 1, ...) pick, in place;
  // with accumulate, adds them instead, a repeated index adding each value (indexing.cpp).
  Tensor& index_put_(const std::vector<std::vector<int64_t>>& indices, const Tensor& values,
                     bool accumulate = false);

  // ---- copies (copies.cpp) ----------------------------------------------------------------------
  Tensor clone() const;  // keeps the layout when non-overlapping and dense, as preserve_format
  Tensor clone(MemoryFormat memory_format) const;
  // Tiles the tensor: sizes[i]·repeats[i] after padding sizes with leading 1s to repeats' length,
  // in a new contiguous tensor holding a copy of every element (never a view, unlike expand).
  Tensor repeat(IntList repeats) const;
  Tensor& copy_(const Tensor& src);  // src broadcasts to *this; refuses internal overlap
  Tensor index_select(int64_t dim, IntList indices) const;
  Tensor flip(IntList dims) const;
  Tensor& fill_(const Scalar& value);

 private:
  Storage storage_;
  Layout layout_;
  DType dtype_ = DType::Float32;
  bool conj_ = false;
};

// The CPU side's one refusal of a tensor that lives on another device, worded once for every op
// that reads elements on the CPU: "<op>: only CPU tensors are supported here, got a tensor on
// cuda:0; copy it to the CPU first". (PyTorch runs these ops on any device; this library runs the
// GPU's own ops in strided::cuda.)
void check_cpu(const Tensor& t, const char* op);
void check_cpu(Device device, const char* op);  // the same, for a device known without a tensor

// torch.view_as_real (ComplexHelper.h, view_complex_as_float): a complex tensor as its parts,
// sizes + [2], strides doubled + [1], offset doubled; refused on a conjugated tensor.
// torch.view_as_complex: the inverse; the last dim must have size 2 and stride 1, every other
// stride and the offset must be even.
Tensor view_as_real(const Tensor& t);
Tensor view_as_complex(const Tensor& t);

// torch.atleast_1d/2d/3d (views.cpp): a tensor of fewer dims gets size-1 dims, always a view: a
// 0-d tensor becomes [1], [1, 1] or [1, 1, 1]; a 1-d tensor [1, n] or [1, n, 1]; a 2-d one
// [m, n, 1]; a tensor with enough dims comes back as it is.
Tensor atleast_1d(const Tensor& t);
Tensor atleast_2d(const Tensor& t);
Tensor atleast_3d(const Tensor& t);

// ---- factories (factories.cpp) -------------------------------------------------------------------
Tensor empty(IntList sizes, TensorOptions options = {});
// empty(sizes, memory_format=...): strides from memory_format_strides.
Tensor empty(IntList sizes, TensorOptions options, MemoryFormat memory_format);
Tensor empty_strided(IntList sizes, IntList strides, TensorOptions options = {});
// empty_like(t, memory_format=...): Preserve, the default, keeps t's strides when t is
// non-overlapping and dense and otherwise lays it out densely in the order of its strides
// (infer_dense_strides); another format gives that format's strides. The options variant makes
// another dtype (clone, to); op names the caller in errors.
Tensor empty_like(const Tensor& t, MemoryFormat memory_format = MemoryFormat::Preserve);
Tensor empty_like(const Tensor& t, TensorOptions options,
                  MemoryFormat memory_format = MemoryFormat::Preserve,
                  const char* op = "empty_like");
Tensor zeros(IntList sizes, TensorOptions options = {});
Tensor ones(IntList sizes, TensorOptions options = {});
Tensor full(IntList sizes, const Scalar& value, TensorOptions options = {});
// arange(end), arange(start, end, step): int64 by default, as torch.arange with integer bounds.
Tensor arange(int64_t end, TensorOptions options = {DType::Int64});
Tensor arange(int64_t start, int64_t end, int64_t step = 1, TensorOptions options = {DType::Int64});
// torch.arange with numbers that may have a fraction (arange(5.0), arange(0, 1, 0.25)), into the
// dtype of options, which the caller chooses (PyTorch: float32 when any argument is a float).
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions options);
// How many elements that arange makes, with its refusals (a zero step, a non-finite bound, a step
// of the wrong sign, a count past int64), before anything is allocated.
int64_t arange_numel(const Scalar& start, const Scalar& end, const Scalar& step, DType dtype);
// A tensor of the given shape holding values in row-major order (values.size() must equal numel).
Tensor from_values(const std::vector<double>& values, IntList sizes, TensorOptions options = {});
// The same from Scalars: an integer stays exact (int64 all the way, as torch.tensor([2**63 - 1])).
// The one home of the conversion rule; its errors name op.
Tensor from_scalars(const std::vector<Scalar>& values, IntList sizes, TensorOptions options = {},
                    const char* op = "from_values");
Tensor scalar_tensor(const Scalar& value, TensorOptions options = {});  // 0-d

// A seeded generator (xoshiro256**), so every random tensor in the book is reproducible.
class Generator {
 public:
  explicit Generator(uint64_t seed = 0);
  uint64_t next_u64();
  double uniform();  // [0, 1)
  double normal();   // standard normal (Box–Muller)

 private:
  uint64_t s_[4];
};
Tensor rand(IntList sizes, Generator& gen, TensorOptions options = {});
Tensor randn(IntList sizes, Generator& gen, TensorOptions options = {});

// ---- printing (print.cpp) ---------------------------------------------------------------------------
// As PyTorch prints: "tensor([[0., 1.],\n        [2., 3.]])", with ", dtype=torch.int32" when
// the dtype is not the default for its values.
std::string to_string(const Tensor& t);
// The number of elements to_string writes out: every one up to 1000 (PyTorch's threshold), else
// the first and last three along each dim longer than six (its edge items), in every dim. It
// is bounded by neither: ones(2, 2, ..., 2) with 24 dims shows all 2^24 elements, as PyTorch
// does. Saturates at INT64_MAX; a caller that bounds its output checks it before printing.
int64_t printed_elements(const Tensor& t);
std::ostream& operator<<(std::ostream& out, const Tensor& t);

// The seed notebook's stricter contiguity test, so the book can contrast it with PyTorch's.
bool is_contiguous_strict(const Tensor& t);

}  // namespace strided
