// When the element-wise loops write their output with non-temporal ("streaming") stores.
//
// An ordinary store to a line not in the cache first reads that line from memory (write-allocate),
// so an output that cannot stay in the last-level cache costs its bytes twice: for x + 3 one read of
// x, one read and one write of the result. A non-temporal store writes whole lines without reading
// them, as glibc's memcpy does above a threshold of its own; for x + 3 on 2^27 floats this machine
// kind measured 80 ms with ordinary stores against 51 ms with streaming ones. ATen's loops store
// ordinarily; the values written are the same either way, only the traffic differs.
//
// The loops stream an output when all of these hold (streams_output):
//   - streaming is on: by default, off with STRIDED_STREAMING_STORES=0 or set_streaming_stores;
//   - the output has at least streaming_threshold_bytes(): half the last-level cache, so that
//     with its inputs it could not stay there (and a result small enough to be read again from
//     the cache is never pushed out of it);
//   - no input shares memory with it: an in-place op (add_) reads each line before writing it, and
//     gains nothing;
//   - its pages are mapped already (an output the caller gave, or a block from the caching
//     allocator). A block fresh from the system is faulted in by the kernel's first writes, and
//     the operating system zeroes each page as it maps it, which leaves the page in the cache,
//     where an ordinary store finds it and a streaming one only evicts it: with the cache off,
//     x + 3 on 2^27 floats into fresh pages took 305–312 ms streamed against 223–239 ms stored
//     ordinarily.
// A run streams its vector part only where the output's address is aligned to the vector width;
// the run ends with a store fence, so the values are visible before the run's thread reports done.
#pragma once

#include <cstdint>

#include "strided/engine/iterator.h"

namespace strided {

bool streaming_stores_enabled();
void set_streaming_stores(bool on);
// The output size from which the loops stream: half the last-level cache the C library reports
// (sysconf), or 16 MiB where it reports none. Tests set a smaller one; a negative value restores
// the default.
int64_t streaming_threshold_bytes();
void set_streaming_threshold_bytes(int64_t bytes);

namespace detail {
// Whether the element-wise loops stream the plan's output (see above). STRIDED_STREAMING_STORES: "0"
// turns streaming off; anything else, or nothing, leaves it on.
bool streams_output(const TensorIterator& it);
bool streaming_env_enabled(const char* value);
}  // namespace detail

}  // namespace strided
