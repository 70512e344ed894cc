#include "strided/tensor/storage.h"

#include <array>
#include <atomic>
#include <mutex>

#include "strided/tensor/allocator.h"
#include "strided/core/error.h"

namespace strided {

namespace {
std::atomic<int64_t> g_allocations{0};
std::atomic<int64_t> g_allocated_bytes{0};

std::mutex g_registry_mutex;
std::array<Allocator, 2>& registry() {
  // The CPU's: the caching allocator of allocator.h (large blocks kept for reuse, small ones
  // straight from aligned_alloc).
  static std::array<Allocator, 2> r = {Allocator{cpu_allocate, cpu_deallocate}, Allocator{}};
  return r;
}
}  // namespace

struct Storage::Impl {
  void* data = nullptr;
  int64_t nbytes = 0;
  Device device;
  std::function<void(void*)> deallocate;
  ~Impl() {
    if (data && deallocate) deallocate(data);
  }
};

void register_allocator(Device::Type type, Allocator allocator) {
  std::lock_guard lock(g_registry_mutex);
  registry()[static_cast<size_t>(type)] = std::move(allocator);
}

Storage Storage::allocate(int64_t nbytes, Device device) {
  STRIDED_CHECK(nbytes >= 0, "Storage::allocate", "negative byte size ", nbytes);
  // The CPU allocator rounds up to 64 bytes; nothing this close to 2^63 can be allocated anyway,
  // and the rounding must not overflow int64 (empty({2^63-1}, bool) asks for 2^63-1 bytes).
  STRIDED_CHECK(nbytes <= INT64_MAX - 63, "Storage::allocate", nbytes, " bytes is more than any ",
                device.str(), " allocation can hold");
  Allocator a;
  {
    std::lock_guard lock(g_registry_mutex);
    a = registry()[static_cast<size_t>(device.type)];
  }
  STRIDED_CHECK(a.allocate, "Storage::allocate", "no allocator for device ", device.str(),
                " (this build has no CUDA support, or no CUDA device was found)");
  void* p = a.allocate(nbytes);
  STRIDED_CHECK(p != nullptr, "Storage::allocate", "out of memory allocating ", nbytes,
                " bytes on ", device.str());
  Storage s;
  s.impl_ = std::make_shared<Impl>();
  s.impl_->data = p;
  s.impl_->nbytes = nbytes;
  s.impl_->device = device;
  s.impl_->deallocate = a.deallocate;
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  g_allocated_bytes.fetch_add(nbytes, std::memory_order_relaxed);
  return s;
}

Storage Storage::from_blob(void* data, int64_t nbytes, Device device) {
  STRIDED_CHECK(nbytes >= 0, "Storage::from_blob", "negative byte size ", nbytes);
  Storage s;
  s.impl_ = std::make_shared<Impl>();
  s.impl_->data = data;
  s.impl_->nbytes = nbytes;
  s.impl_->device = device;  // no deallocate: the memory is the caller's
  return s;
}

void* Storage::data() const { return impl_ ? impl_->data : nullptr; }
int64_t Storage::nbytes() const { return impl_ ? impl_->nbytes : 0; }
Device Storage::device() const { return impl_ ? impl_->device : Device::cpu(); }
int64_t Storage::allocation_count() { return g_allocations.load(std::memory_order_relaxed); }
int64_t Storage::allocated_bytes() { return g_allocated_bytes.load(std::memory_order_relaxed); }

}  // namespace strided
