// Memory formats: the dim orders PyTorch knows by name for a dense tensor, and the rules that pick
// one (c10/core/MemoryFormat.h, c10/core/TensorImpl.h). A memory format is not a property of a
// tensor: it tells an op how to lay out what it makes. Only its strides say what a tensor is.
// Pure functions of layouts, like the rest of the layout algebra (layout.h).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <vector>

#include "strided/core/shape.h"
#include "strided/layout/layout.h"

namespace strided {

// c10::MemoryFormat, Python's torch.contiguous_format, torch.channels_last and
// torch.preserve_format. Contiguous: row-major. ChannelsLast: for a 4-d (N, C, H, W) tensor, the
// channels of one pixel next to each other, then the pixels of a row, the rows, the images.
// Preserve: "as the input is" (empty_like, clone, to). ChannelsLast3d is not modelled.
enum class MemoryFormat : uint8_t { Contiguous, ChannelsLast, Preserve };

// "torch.channels_last": the Python name, as PyTorch prints a memory format.
const char* name(MemoryFormat memory_format);
std::ostream& operator<<(std::ostream& out, MemoryFormat memory_format);

// c10's get_channels_last_strides_2d for a 4-d shape: (H·W·C, 1, W·C, C) for (N, C, H, W), the
// sizes multiplied as they are (a size-0 dim gives stride 0 to the dims outside it, as PyTorch's
// torch.empty(2, 0, 3, 4, memory_format=torch.channels_last) has strides (0, 1, 0, 0)).
// Error for any other rank, in the words of TensorImpl::empty_tensor_restride:
// "<op>: required rank 4 tensor to use channels_last format".
Shape channels_last_strides(IntList sizes, const char* op = "empty");

// The strides a fresh tensor of `sizes` gets in a memory format (empty_tensor_restride):
// contiguous_strides for Contiguous, channels_last_strides for ChannelsLast. Preserve names no
// layout of its own: "<op>: unsupported memory format Preserve".
Shape memory_format_strides(IntList sizes, MemoryFormat memory_format, const char* op = "empty");

// TensorImpl::is_contiguous(memory_format): ChannelsLast asks is_channels_last_contiguous (dense in
// the order C, W, H, N, size-1 dims skipped; false for any rank but 4); Contiguous and Preserve ask
// is_contiguous. An NCHW-contiguous tensor with C = 1, or with H = W = 1, is both.
bool is_contiguous(const Layout& layout, MemoryFormat memory_format);

// c10's is_channels_last_strides_2d (MemoryFormat.h, is_channels_last_strides_2d_s4): whether the
// strides are ordered like channels last, dense or not. Walking C, W, H, N, each stride must be at
// least the one before times its size; a size-0 dim, a stride-0 C, or an N whose stride equals C's
// (an N×1×1×1 tensor, ambiguous) say no. Always false for a rank other than 4.
bool is_channels_last_strides(const Layout& layout);

// TensorBase::suggest_memory_format: ChannelsLast when the strides are ordered like channels last,
// else Contiguous. to(memory_format=...) returns the tensor itself when this agrees with the format
// asked for, where contiguous(memory_format=...) asks is_contiguous instead; the two part on an
// NCHW-contiguous tensor with C = 1, which is channels-last contiguous but suggests Contiguous.
MemoryFormat suggest_memory_format(const Layout& layout);

// TensorIterator's fast set-up (TensorIterator.cpp, compute_fast_setup_type): when every operand
// has the output's shape and all share one dense layout, the output takes that layout and the walk
// is one flat run. `strides` lists each operand's strides over `shape`. In PyTorch's order of
// preference: all contiguous gives contiguous strides; all channels-last contiguous (4-d) gives
// channels-last strides; all non-overlapping and dense with the same strides gives those strides.
// Nothing otherwise, and then the general rule orders the dims (walk_order, dense_strides_in_order).
// `linear` (enforce_linear_iteration) admits the contiguous case only: another shared layout would
// change the order of the walk.
// Post-condition: a result is non-overlapping and dense over `shape` (memory_format_test).
std::optional<Shape> shared_output_strides(IntList shape, const std::vector<Shape>& strides,
                                           bool linear = false);

}  // namespace strided
