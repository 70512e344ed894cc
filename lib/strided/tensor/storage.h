// Storage: one allocation, shared by every tensor that views it and kept alive by them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "strided/core/device.h"

namespace strided {

// How a device allocates: the CPU allocator is built in; kernels/ registers the CUDA one.
struct Allocator {
  std::function<void*(int64_t nbytes)> allocate;
  std::function<void(void*)> deallocate;
};
void register_allocator(Device::Type type, Allocator allocator);

class Storage {
 public:
  Storage() = default;
  // Allocates nbytes on the device (64-byte aligned on the CPU) and counts the allocation. The
  // bytes are uninitialised: on the CPU a block of 1 MiB or more may be one a freed tensor left in
  // the caching allocator (allocator.h), still holding that tensor's values.
  static Storage allocate(int64_t nbytes, Device device = Device::cpu());
  // A storage over nbytes of memory the caller owns and keeps alive for as long as any tensor
  // views it (at::from_blob): neither counted as an allocation nor ever freed here. The engine
  // lends an index list to the index plan so (indexing.cpp), without copying it into a tensor.
  static Storage from_blob(void* data, int64_t nbytes, Device device = Device::cpu());

  bool defined() const { return impl_ != nullptr; }
  void* data() const;
  int64_t nbytes() const;
  Device device() const;
  // Tensors sharing this allocation (the reference count), as storage.use_count().
  long use_count() const { return impl_.use_count(); }
  bool is_same(const Storage& other) const { return impl_ == other.impl_; }

  // Allocations made since the program started: a chapter reads it before and after an op to
  // prove the op allocated nothing.
  static int64_t allocation_count();
  // Bytes those allocations asked for, together: a caller that bounds its work (strided-explore)
  // compares it with what it predicted an op would allocate.
  static int64_t allocated_bytes();

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace strided
