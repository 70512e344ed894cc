#include "strided/layout/memory_format.h"

#include "strided/core/error.h"
#include "strided/layout/layout.h"

namespace strided {

const char* name(MemoryFormat memory_format) {
  switch (memory_format) {
    case MemoryFormat::Contiguous:
      return "torch.contiguous_format";
    case MemoryFormat::ChannelsLast:
      return "torch.channels_last";
    case MemoryFormat::Preserve:
      return "torch.preserve_format";
  }
  return "?";
}

std::ostream& operator<<(std::ostream& out, MemoryFormat memory_format) {
  return out << name(memory_format);
}

Shape channels_last_strides(IntList sizes, const char* op) {
  // c10/core/TensorImpl.cpp, empty_tensor_restride, then MemoryFormat.h's
  // get_channels_last_strides_2d (its 3-d case serves ChannelsLast3d only).
  STRIDED_CHECK(sizes.size() == 4, op, "required rank 4 tensor to use channels_last format");
  Shape s(4);
  int64_t running = 1;  // the product of the sizes inside, as given (a size 0 included)
  for (int d : kChannelsLastOrder) {
    s[d] = running;
    running = wrapping_mul(running, sizes[d]);
  }
  return s;
}

Shape memory_format_strides(IntList sizes, MemoryFormat memory_format, const char* op) {
  switch (memory_format) {
    case MemoryFormat::Contiguous:
      return contiguous_strides(sizes);
    case MemoryFormat::ChannelsLast:
      return channels_last_strides(sizes, op);
    case MemoryFormat::Preserve:
      break;
  }
  throw Error(op, detail::concat("unsupported memory format Preserve"));
}

bool is_contiguous(const Layout& layout, MemoryFormat memory_format) {
  // TensorImpl::is_contiguous_default: every format but ChannelsLast(3d) reads is_contiguous_.
  if (memory_format == MemoryFormat::ChannelsLast) return is_channels_last_contiguous(layout);
  return is_contiguous(layout);
}

bool is_channels_last_strides(const Layout& layout) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  // c10/core/MemoryFormat.h, is_channels_last_strides_2d_s4, rule by rule.
  if (sizes.size() != 4) return false;
  if (strides[1] == 0) return false;  // a trivial C dim: NCHW by default
  int64_t min = 0;
  for (int d : kChannelsLastOrder) {
    if (sizes[d] == 0) return false;
    if (strides[d] < min) return false;
    // N×1×1×1 with equal strides (contiguous, or sliced from N×1×1×W): ambiguous, so NCHW.
    if (d == 0 && min == strides[1]) return false;
    // Only a dim longer than 1 raises the bar, which tells N1H1's [H, 1, 1, 1] (channels last)
    // from [H, H, 1, 1] (contiguous).
    min = strides[d];
    if (sizes[d] > 1) min = wrapping_mul(min, sizes[d]);
  }
  return true;
}

MemoryFormat suggest_memory_format(const Layout& layout) {
  // TensorBase::suggest_memory_format with channels_last_strides_exact_match = false: the flag
  // TensorImpl keeps as is_channels_last_ (compute_strides_like_channels_last_2d).
  return is_channels_last_strides(layout) ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous;
}

std::optional<Shape> shared_output_strides(IntList shape, const std::vector<Shape>& strides,
                                           bool linear) {
  bool contiguous = true, channels_last = true, dense = true, same = true;
  for (const Shape& s : strides) {
    const Layout operand(shape.vec(), s);
    contiguous = contiguous && is_contiguous(operand);
    channels_last = channels_last && is_channels_last_contiguous(operand);
    dense = dense && is_non_overlapping_and_dense(operand);
    same = same && s == strides.back();
  }
  if (contiguous) return contiguous_strides(shape);
  if (linear) return std::nullopt;
  if (channels_last) return channels_last_strides(shape);
  if (dense && same && !strides.empty()) return strides.back();
  return std::nullopt;
}

}  // namespace strided
