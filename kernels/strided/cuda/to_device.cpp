#include "strided/cuda/to_device.h"

#include <optional>

#include "strided/cuda/backend.h"
#include "strided/cuda/elementwise.h"
#include "strided/cuda/runtime.h"
#include "strided/layout/layout.h"

namespace strided::cuda {

namespace {

// A layout whose elements fill [data_ptr, data_ptr + nbytes) exactly once: such a tensor moves as
// one block and keeps its strides. (All strides are >= 0, so element 0 is the lowest address.)
bool moves_as_one_block(const Tensor& t) { return t.is_non_overlapping_and_dense(); }

// Packs a layout with holes or repeats densely, in the layout the result will have, on its own
// device.
Tensor staged(const Tensor& t) {
  if (moves_as_one_block(t)) return t;
  if (t.device().is_cpu()) return t.clone();  // preserve_format: dense in t's dim order
  backend::DeviceGuard guard(t.device().index);  // the allocator allocates on the current device
  Tensor packed = empty_strided(t.sizes(), device_copy_strides(t), {t.dtype(), t.device()});
  cuda::copy_(packed, t);
  return packed;
}

}  // namespace

Shape device_copy_strides(const Tensor& t) {
  STRIDED_CHECK(t.defined(), "cuda::device_copy_strides", "undefined tensor");
  if (moves_as_one_block(t)) return t.strides();
  return infer_dense_strides(t.layout());
}

Tensor to_device(const Tensor& t, Device device) {
  const char* op = "cuda::to_device";
  STRIDED_CHECK(t.defined(), op, "undefined tensor");
  if (t.device() == device) return t;
  require_available(op);
  for (const Device d : {t.device(), device})
    STRIDED_CHECK(d.is_cpu() || (d.index >= 0 && d.index < device_count()), op, "device ", d.str(),
                  " does not exist (this machine has ", device_count(), " CUDA devices)");

  const Tensor src = staged(t);
  Tensor dst = [&] {
    std::optional<backend::DeviceGuard> guard;  // the allocator allocates on the current device
    if (device.is_cuda()) guard.emplace(device.index);
    return empty_strided(src.sizes(), src.strides(), {src.dtype(), device});
  }();
  const int64_t nbytes = src.nbytes();
  if (nbytes == 0) return dst;
  if (src.device().is_cpu()) {
    backend::DeviceGuard guard(device.index);
    backend::memcpy(dst.data_ptr(), src.data_ptr(), nbytes, backend::CopyKind::HostToDevice);
  } else if (device.is_cpu()) {
    backend::DeviceGuard guard(src.device().index);
    backend::memcpy(dst.data_ptr(), src.data_ptr(), nbytes, backend::CopyKind::DeviceToHost);
  } else {
    backend::memcpy_peer(dst.data_ptr(), device.index, src.data_ptr(), src.device().index, nbytes);
  }
  return dst;
}

Tensor to_cpu(const Tensor& t) { return to_device(t, Device::cpu()); }
Tensor to_cuda(const Tensor& t, int index) { return to_device(t, Device::cuda(index)); }

}  // namespace strided::cuda
