// Copies: the ops that make new memory (contiguous, clone, to, repeat, flip) and the
// two that write into existing memory (copy_, fill_). Every copy runs on the engine's copy plan
// (ops.h, copy_plan and run_copy; tiled where copy_tiles.h says): flip's too, built over its
// output with the flipped dims' strides negated after the build, as ATen's flip does; fill_ runs
// on the engine's plan of its output alone.
// References: aten/src/ATen/native/Copy.cpp, TensorFactories.cpp (empty_like, clone),
// TensorProperties.cpp (contiguous), TensorConversions.cpp (to), TensorShape.cpp (repeat),
// MemoryOverlap.cpp, TensorTransformations.cpp (flip),
// c10/util/TypeCast.h.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "strided/engine/cpu_kernels.h"
#include "strided/engine/dispatch.h"
#include "strided/engine/iterator.h"
#include "strided/layout/layout.h"
#include "strided/memory/memory.h"
#include "strided/layout/memory_format.h"
#include "strided/engine/ops.h"
#include "strided/tensor/tensor.h"

namespace strided {

namespace {

void check_defined_cpu(const Tensor& t, const char* op) {
  STRIDED_CHECK(t.defined(), op, "the tensor is undefined (default-constructed)");
  check_cpu(t, op);
}


// ---- overlap: PyTorch's tests (MemoryOverlap.cpp) are memory.h's; this one is copy_'s own
// -------------------------------------------------
// Whether two tensors' byte ranges [first element, last element] intersect: cheap and
// conservative; used only to decide whether copy_ reads its source through a temporary.
bool may_overlap(const Tensor& a, const Tensor& b) {
  if (!a.storage().is_same(b.storage()) || a.numel() == 0 || b.numel() == 0) return false;
  const Extent ea = extent(a.layout());
  const Extent eb = extent(b.layout());
  const int64_t a_lo = ea.min * a.element_size(), a_hi = (ea.max + 1) * a.element_size();
  const int64_t b_lo = eb.min * b.element_size(), b_hi = (eb.max + 1) * b.element_size();
  return a_lo < b_hi && b_lo < a_hi;
}

// The layout PyTorch gives a copy that preserves its source's layout (clone, to, flip:
// MemoryFormat::Preserve): empty_like's, its errors named for op.
Tensor empty_preserving(const Tensor& t, DType dtype, const char* op) {
  return empty_like(t, {dtype, t.device()}, MemoryFormat::Preserve, op);
}

// A complex tensor's (real, imaginary) pairs, whatever its conjugate bit: the bytes as they are.
Tensor parts(const Tensor& t) {
  Tensor bytes = t;
  bytes.set_conj(false);
  return view_as_real(bytes);
}

// dst = src's values (src broadcast to dst), converted to dst's dtype, for every pair of dtypes.
// Real dtypes run on one plan; complex ones as their real parts (copy_plan): a conjugate bit that
// differs negates the imaginary parts written, a real source fills the imaginary parts with 0, and
// a complex source into a real tensor gives its real parts (PyTorch warns there that the
// imaginary parts are discarded).
void copy_values(const Tensor& dst, const Tensor& src) {
  const bool dc = is_complex(dst.dtype()), sc = is_complex(src.dtype());
  if (dc && sc) {
    run_copy(copy_config(parts(dst), parts(src)).build());
    if (dst.is_conj() != src.is_conj()) {
      Tensor im = parts(dst).select(-1, 1);
      neg_(im);  // in place: a temporary would be memory no caller asked for
    }
  } else if (dc) {
    run_copy(copy_plan(parts(dst).select(-1, 0), src));
    parts(dst).select(-1, 1).fill_(Scalar(0.0));
  } else if (sc) {
    run_copy(copy_plan(dst, parts(src).select(-1, 0)));
  } else {
    run_copy(copy_plan(dst, src));
  }
}

// TensorTransformations.cpp, flip, for a real self and out = empty_like(self): one copy plan of
// out, self and a stand-in of self whose flipped dims have stride 0, so that the build neither
// merges a flipped dim with an unflipped one nor takes the one-dim fast path. Once built, self's
// plan strides are negated along the dims the stand-in marks (stride 0 there, not in self) and
// its start moved to their last element: self is read backwards as out is written forwards, in
// the plan's order, split over the threads like any copy. (ATen negates the output's strides
// instead; reading backwards keeps the stores in order, which the engine's copy loop
// vectorises: elementwise_loops.h, copy_run.) Adjacent flipped dims merge, which
// flips their run as one. With nothing to flip (no flipped dim of size > 1 that self does not
// broadcast) it is a plain copy, as in PyTorch.
void flip_into(const Tensor& out, const Tensor& self, const std::vector<bool>& flipped) {
  Shape strides = self.strides();
  bool any = false;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!flipped[d] || self.size(d) <= 1 || self.stride(d) == 0) continue;
    any = true;
    strides[d] = 0;
  }
  if (!any || self.numel() <= 1) {
    run_copy(copy_plan(out, self));
    return;
  }
  const Tensor restrided_self = self.as_strided(self.sizes(), strides);
  TensorIterator it = TensorIteratorConfig()
                          .set_op_name("flip")
                          .set_check_mem_overlap(false)
                          .check_all_same_dtype(false)
                          .add_output(out)
                          .add_input(self)
                          .add_input(restrided_self)
                          .build();
  char* data = it.operand(1).data();
  Shape self_strides = it.operand(1).stride_bytes;
  const Shape& dummy_strides = it.operand(2).stride_bytes;
  for (int d = 0; d < it.ndim(); ++d) {
    if (dummy_strides[d] != 0 || self_strides[d] == 0) continue;
    data += self_strides[d] * (it.shape()[d] - 1);
    self_strides[d] = -self_strides[d];
  }
  it.unsafe_set_arg_strides(1, std::move(self_strides));
  it.unsafe_replace_operand(1, data);
  it.remove_operand(2);
  run_copy(it);
}

}  // namespace

// ---- copy_
// ----------------------------------------------------------------------------------------

Tensor& Tensor::copy_(const Tensor& src) {
  // Copy.cpp, copy_impl, and TensorIterator's checks: src broadcasts to *this (never the other
  // way), the destination may not write one address twice, and dense operands that partly overlap
  // are refused as PyTorch refuses them.
  check_defined_cpu(*this, "copy_()");
  check_defined_cpu(src, "copy_()");
  Shape shape;
  try {
    shape = broadcast_shapes(sizes(), src.sizes());
  } catch (const Error& e) {
    throw Error(
        "copy_()",
        detail::concat("source of shape ", to_string(src.sizes()),
                       " does not broadcast to the destination's shape ", to_string(sizes())),
        e);
  }
  STRIDED_CHECK(shape == sizes(), "copy_()", "output with shape ", to_string(sizes()),
                " doesn't match the broadcast shape ", to_string(shape));
  if (is_same_tensor(*this, src)) return *this;
  STRIDED_CHECK(has_internal_overlap(layout()) != MemOverlap::Yes, "copy_()",
                "unsupported operation: more than one element of the written-to tensor "
                "refers to a single memory location. Please clone() the tensor before performing "
                "the operation. (destination ",
                layout(), ")");
  STRIDED_CHECK(get_overlap_status(*this, src) != MemOverlapStatus::Partial, "copy_()",
                "unsupported operation: some elements of the input tensor and the "
                "written-to tensor refer to a single memory location. Please clone() the tensor "
                "before performing the operation. (destination ",
                layout(), " at offset ", storage_offset(), ", source ", src.layout(), " at offset ",
                src.storage_offset(), ")");
  if (numel() == 0) return *this;
  // Layouts PyTorch cannot judge ("too hard") may still overlap; reading the source into a
  // temporary first makes the result the one a reader expects: as if src were read first.
  const Tensor source = may_overlap(*this, src) ? src.clone() : src;
  // The engine's copy (ops.cpp, copy_plan/run_copy): walked in stride order, a contiguous run
  // as memcpy, a transpose in tiles, src broadcast to this tensor's shape.
  copy_values(*this, source);
  return *this;
}

Tensor& Tensor::fill_(const Scalar& value) {
  // No overlap check: writing one value is idempotent, so PyTorch fills an expanded tensor
  // (aten/src/ATen/native/Fill.cpp, fill_out: set_check_mem_overlap(false)); torch 1.13's
  // torch.ones(1, 3).expand(4, 3).fill_(2) succeeds.
  check_defined_cpu(*this, "fill_()");
  if (is_complex(dtype_)) {  // a real value: its real parts get it, its imaginary parts 0
    STRIDED_CHECK(value.kind() != Scalar::Kind::Bool, "fill_()", "a bool value for a ",
                  name(dtype_), " tensor is not supported here");
    parts(*this).select(-1, 0).fill_(value);
    parts(*this).select(-1, 1).fill_(Scalar(0.0));
    return *this;
  }
  // c10/util/TypeCast.h checked_convert: fill_(300) of a uint8 tensor is refused.
  STRIDED_CHECK(fits_without_overflow(value, dtype_), "fill_()", "value ", value.to_string(),
                " cannot be converted to type ", name(dtype_), " without overflow");
  if (numel() == 0) return *this;
  dispatch(dtype_, [&](auto tag) {
    using T = decltype(tag);
    T x{};
    switch (value.kind()) {
      case Scalar::Kind::Bool:
        x = convert_element<T>(value.to_bool());
        break;
      case Scalar::Kind::Int:
        x = convert_element<T>(value.to_int());
        break;
      case Scalar::Kind::Float:
        x = convert_element<T>(value.to_double());
        break;
    }
    // One element is stored in place, with no plan: Fill.cpp, fill_out's scalar_fill for a
    // one-element CPU tensor (so scalar_tensor, and each Scalar operand it wraps, walks nothing).
    if (numel() == 1) {
      std::memcpy(data_ptr(), &x, sizeof(T));
      return;
    }
    // The engine's plan with the output alone (Fill.cpp, fill_out's TensorIterator): walked in
    // stride order and split over the threads like every element-wise op. The value is converted
    // once; filling allocates nothing.
    const TensorIterator plan = TensorIteratorConfig()
                                    .set_op_name("fill_")
                                    .set_check_mem_overlap(false)
                                    .check_all_same_dtype(false)
                                    .add_output(*this)
                                    .resize_outputs(false)
                                    .build();
    // An expanded output is written many times at one address: one thread does that alone.
    cpu_kernels().fill(plan, &x, has_internal_overlap(layout()) != MemOverlap::No);
  });
  return *this;
}

// ---- new memory
// -------------------------------------------------------------------------------------

Tensor Tensor::resolve_conj() const {
  // UnaryOps.cpp, resolve_conj: a copy holding the values this tensor reads, without the bit.
  if (!conj_) return *this;
  check_defined_cpu(*this, "resolve_conj()");
  Tensor out = empty_preserving(*this, dtype_, "resolve_conj()");
  copy_values(out, *this);
  return out;
}

Tensor Tensor::conj_physical() const {
  // UnaryOps.cpp, conj_physical: a real tensor is itself; a complex one a new tensor without the
  // bit holding the conjugates of the values this one reads. _conj_physical lays it out as
  // self.conj().clone() when the bit is set, else as unary_op_impl does: a TensorIterator unary
  // op's output, whose strides (on size-1 dims too) can differ from clone's. The iterator takes
  // real operands only, so it is asked about a real tensor with this one's sizes and strides.
  if (!is_complex(dtype_)) return *this;
  check_defined_cpu(*this, "conj_physical()");
  Tensor out;
  if (conj_) {
    out = empty_preserving(*this, dtype_, "conj_physical()");
  } else {
    const Tensor probe = empty_strided(sizes(), strides(), {real_value_type(dtype_)});
    const TensorIterator it =
        TensorIteratorConfig().set_op_name("conj_physical").add_output(Tensor()).add_input(probe)
            .build();
    out = empty_strided(sizes(), it.output().strides(), {dtype_});
  }
  out.set_conj(true);
  copy_values(out, *this);  // out's bytes are the conjugates: the bits differ, or are both set
  out.set_conj(false);
  return out;
}

Tensor Tensor::clone() const {
  // TensorFactories.cpp, clone with MemoryFormat::Preserve.
  check_defined_cpu(*this, "clone()");
  Tensor out = empty_preserving(*this, dtype_, "clone()");
  copy_values(out, *this);
  return out;
}

Tensor Tensor::clone(MemoryFormat memory_format) const {
  // TensorFactories.cpp, clone: any other format lays the copy out as empty_like(memory_format).
  check_defined_cpu(*this, "clone()");
  Tensor out = empty_like(*this, {dtype_, device()}, memory_format, "clone()");
  copy_values(out, *this);
  return out;
}

Tensor Tensor::contiguous() const {
  // TensorProperties.cpp, contiguous: the tensor itself when already contiguous (claim CT-11).
  if (is_contiguous()) return *this;
  check_defined_cpu(*this, "contiguous()");
  Tensor out = empty(sizes(), {dtype_, device()});
  copy_values(out, *this);
  return out;
}

Tensor Tensor::contiguous(MemoryFormat memory_format) const {
  // TensorProperties.cpp, contiguous: the tensor itself when is_contiguous(memory_format) holds,
  // else clone(memory_format) (claim CT-11.channels). A C = 1 tensor is returned as it is
  // for either format, being contiguous in both.
  if (is_contiguous(memory_format)) return *this;
  STRIDED_CHECK(memory_format != MemoryFormat::Preserve, "contiguous()",
                "preserve memory format is unsupported by the contiguous operator");
  check_defined_cpu(*this, "contiguous()");
  Tensor out = empty_like(*this, {dtype_, device()}, memory_format, "contiguous()");
  copy_values(out, *this);
  return out;
}

Tensor Tensor::to(DType dtype, bool copy) const {
  // TensorConversions.cpp, to → _to_copy with MemoryFormat::Preserve (claim DT-03).
  if (dtype == dtype_ && !copy) return *this;
  check_defined_cpu(*this, "to()");
  Tensor out = empty_preserving(*this, dtype, "to()");
  copy_values(out, *this);
  return out;
}

Tensor Tensor::to(MemoryFormat memory_format) const {
  // TensorConversions.cpp, to_will_alias: the tensor itself for Preserve, or when the format asked
  // for is the one its strides suggest (suggest_memory_format), whether or not it is dense; else
  // _to_copy into empty(sizes, memory_format). So to() copies an NCHW-contiguous C = 1 tensor that
  // contiguous(channels_last) returns as it is (claim CT-02.channels).
  if (memory_format == MemoryFormat::Preserve || suggest_memory_format(layout()) == memory_format)
    return *this;
  check_defined_cpu(*this, "to()");
  Tensor out = empty_like(*this, {dtype_, device()}, memory_format, "to()");
  copy_values(out, *this);
  return out;
}

Tensor Tensor::repeat(IntList repeats) const {
  // TensorShape.cpp, repeat: sizes padded with leading 1s to repeats' length, each multiplied by
  // its repeat, in a fresh contiguous tensor; every element is copied (claim BC-07.repeat).
  check_defined_cpu(*this, "repeat()");
  STRIDED_CHECK(repeats.size() >= sizes().size(), "repeat()",
                "Number of dimensions of repeat dims can not be smaller than number of "
                "dimensions of tensor");
  Shape padded(repeats.size() - sizes().size(), 1);
  padded.insert(padded.end(), sizes().begin(), sizes().end());
  Shape target(repeats.size());
  for (size_t i = 0; i < repeats.size(); ++i)
    STRIDED_CHECK(!__builtin_mul_overflow(padded[i], repeats[i], &target[i]), "repeat()", "size ",
                  padded[i], " repeated ", repeats[i], " times at dimension ", i,
                  " overflows int64");
  // A negative repeat makes a negative size, which empty refuses in PyTorch's words.
  checked_numel(target, "repeat()");
  Tensor out = empty(target, {dtype_, device()});
  if (out.numel() == 0) return out;  // PyTorch returns early only for a 0 repeat; same result
  // The result seen as tiles: unfold splits dim i into (repeats[i], padded[i]), so that the
  // source, expanded over the tile dims, is copied into every tile by one copy_.
  Tensor tiles = out;
  for (size_t i = 0; i < padded.size(); ++i)
    tiles = tiles.unfold(static_cast<int64_t>(i), padded[i], std::max<int64_t>(padded[i], 1));
  tiles.copy_(expand(padded).expand(tiles.sizes()));
  return out;
}

Tensor Tensor::flip(IntList dims) const {
  // TensorTransformations.cpp, flip: always a copy (strides are never negative here, claim
  // MT-07), laid out as empty_like, written by flip_into's plan.
  check_defined_cpu(*this, "flip()");
  std::vector<bool> flipped(static_cast<size_t>(std::max<int64_t>(dim(), 1)), false);
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, dim(), "flip()");
    STRIDED_CHECK(!flipped[w], "flip()", "dim ", w, " appears multiple times in the list of dims ",
                  to_string(dims));
    flipped[w] = true;
  }
  Tensor out = empty_preserving(*this, dtype_, "flip()");
  if (numel() == 0) return out;
  if (is_complex(dtype_)) {
    // Two reals an element: the raw parts, flipped along the same dims (their last dim, real then
    // imaginary, is not flipped). A conjugate bit is resolved, as PyTorch's conjugate fallback
    // resolves it before flip: the result is plain, its imaginary parts negated.
    const Tensor to = parts(out);
    std::vector<bool> part_flipped(flipped.begin(), flipped.begin() + dim());
    part_flipped.push_back(false);
    flip_into(to, parts(*this), part_flipped);
    if (is_conj()) {
      Tensor im = to.select(-1, 1);
      neg_(im);  // in place: a temporary would be memory no caller asked for
    }
    return out;
  }
  flip_into(out, *this, flipped);
  return out;
}

}  // namespace strided
